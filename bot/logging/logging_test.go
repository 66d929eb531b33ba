package logging_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/logging"
)

const (
	botToken         = "MTA5ODc2NTQzMjEwOTg3NjU0.GhIjKl.bot-token-secret"
	interactionToken = "aW50ZXJhY3Rpb246MTIzNDU2Nzg5MDpzZWNyZXQ"
)

func TestScrub(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`Post "https://discord.com/api/v9/interactions/1234567890/` + interactionToken + `/callback": context deadline exceeded`,
			`Post "https://discord.com/api/v9/interactions/1234567890/[redacted]/callback": context deadline exceeded`},
		{`Patch "http://127.0.0.1:1/api/v9/webhooks/42/` + interactionToken + `/messages/@original": EOF`,
			`Patch "http://127.0.0.1:1/api/v9/webhooks/42/[redacted]/messages/@original": EOF`},
		{`POST /api/v9/webhooks/42/` + interactionToken, `POST /api/v9/webhooks/42/[redacted]`},
		{`/webhooks/42/` + interactionToken + `?wait=true`, `/webhooks/42/[redacted]?wait=true`},
		{"Authorization: Bot " + botToken, "Authorization: Bot [redacted]"},
		{"POST /api/v9/channels/1/messages", "POST /api/v9/channels/1/messages"},
		{`Type: INTERACTION_CREATE, Data: {"id":"1","token":"` + interactionToken + `","type":3}`,
			`Type: INTERACTION_CREATE, Data: {"id":"1","token":"[redacted]","type":3}`},
		{`discordgo.Interaction{ID:"1", Token:"` + interactionToken + `"}`, `discordgo.Interaction{ID:"1", Token:"[redacted]"}`},
		{`token="a\"b" next`, `token="[redacted]" next`},
		{`TOKEN = "abc"`, `TOKEN = "[redacted]"`}, // fieldToken is case-blind, and so is its quick check
	} {
		assert.Equal(t, tt.want, logging.Scrub(tt.in, botToken, ""), tt.in)
	}
}

type payload struct{ Token string }

// Every part of a record goes through Scrub: message, string, error, group, a value
// printed with fmt, and attributes added with With; other values keep their type.
func TestRedactHandler(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(logging.Redact(slog.NewJSONHandler(&buf, nil), botToken))
	urlErr := &url.Error{Op: "Post", URL: "https://discord.com/api/v9/interactions/1/" + interactionToken + "/callback", Err: errors.New("EOF")}
	log.With("session", "Bot "+botToken).Info("token "+botToken+" in the message",
		"err", urlErr, "path", "/webhooks/9/"+interactionToken, "n", 7,
		slog.Group("req", "auth", botToken), "body", payload{botToken})
	out := buf.String()
	assert.NotContains(t, out, botToken)
	assert.NotContains(t, out, interactionToken)
	assert.Contains(t, out, `"n":7`)
	assert.Contains(t, out, `interactions/1/[redacted]/callback`)
	assert.Contains(t, out, `"req":{"auth":"[redacted]"}`)
	assert.Contains(t, out, `"session":"Bot [redacted]"`)
}

// withCounter counts the WithAttrs calls that reach the handler it wraps.
type withCounter struct {
	slog.Handler
	n *int
}

func (w withCounter) WithAttrs(a []slog.Attr) slog.Handler {
	*w.n++
	return withCounter{w.Handler.WithAttrs(a), w.n}
}

func (w withCounter) WithGroup(name string) slog.Handler {
	return withCounter{w.Handler.WithGroup(name), w.n}
}

// A logger made With attributes hands them to the wrapped handler (which formats them)
// only once it logs a record, scrubbed as ever, in order through chained Withs and a
// group; a level check does not resolve them.
func TestRedactDefersAttrs(t *testing.T) {
	var buf bytes.Buffer
	withs := 0
	log := slog.New(logging.Redact(withCounter{slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}), &withs}, botToken))
	l := log.With("interaction", "1", "auth", botToken).With("table", 7)
	l.Debug("not logged")
	assert.False(t, l.Enabled(context.Background(), slog.LevelDebug))
	assert.Zero(t, withs, "nothing logged yet: the attributes are not formatted")
	assert.Empty(t, buf.String())

	l.Info("logged", "n", 1)
	l.Info("again", "n", 2)
	assert.Equal(t, 2, withs, "each With resolved once")
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], `"msg":"logged","interaction":"1","auth":"[redacted]","table":7,"n":1}`)
	assert.Contains(t, lines[1], `"msg":"again"`)
	assert.NotContains(t, buf.String(), botToken)

	buf.Reset()
	l.WithGroup("g").With("k", "Bot "+botToken).Info("grouped")
	assert.Contains(t, buf.String(), `"msg":"grouped","interaction":"1","auth":"[redacted]","table":7,"g":{"k":"Bot [redacted]"}}`)
}

// discordgo's messages arrive in slog at the matching level, filtered by the logger's.
func TestDiscordgoBridge(t *testing.T) {
	var buf bytes.Buffer
	log := slog.New(logging.Redact(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelInfo}), botToken))
	f := logging.Discordgo(log)
	f(discordgo.LogError, 1, "error connecting to gateway %s, %s\n", "wss://gateway.discord.gg", errors.New("refused"))
	f(discordgo.LogDebug, 1, "API REQUEST %8s :: %s\n", "POST", "https://discord.com/api/v9/interactions/1/"+interactionToken+"/callback")
	f(discordgo.LogInformational, 1, "sending identify packet %s", botToken)
	f(discordgo.LogWarning, 1, "rate limited %s", botToken)
	lines := strings.Split(strings.TrimSpace(buf.String()), "\n")
	require.Len(t, lines, 2, "debug and discordgo's informational messages are below info: %s", buf.String())
	assert.Contains(t, lines[0], `level=ERROR msg="error connecting to gateway wss://gateway.discord.gg, refused" source=discordgo`)
	assert.Contains(t, lines[1], `level=WARN msg="rate limited [redacted]"`)

	assert.Equal(t, discordgo.LogDebug, logging.DiscordgoLevel(slog.LevelDebug))
	assert.Equal(t, discordgo.LogWarning, logging.DiscordgoLevel(slog.LevelInfo))
	assert.Equal(t, discordgo.LogWarning, logging.DiscordgoLevel(slog.LevelWarn))
	assert.Equal(t, discordgo.LogError, logging.DiscordgoLevel(slog.LevelError))
	assert.True(t, log.Enabled(context.Background(), slog.LevelInfo))
}
