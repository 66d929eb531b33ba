package logging_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/pontoon-bot/pontoon/bot/logging"
)

// A token is found however a log line writes it: in a JSON payload logged as a JSON
// string (its quotes escaped once or twice), with its characters JSON-escaped, and in
// a webhook or interaction path in upper case or with escaped slashes.
func TestScrubFindsEscapedAndUpperCaseTokens(t *testing.T) {
	escapedDot := strings.ReplaceAll(botToken, ".", `\u002e`)
	for _, tt := range []struct{ in, want string }{
		{`{"body":"{\"id\":\"1\",\"token\":\"` + interactionToken + `\",\"type\":3}"}`,
			`{"body":"{\"id\":\"1\",\"token\":\"[redacted]\",\"type\":3}"}`},
		{`"{\\\"token\\\":\\\"` + interactionToken + `\\\"}"`, `"{\\\"token\\\":\\\"[redacted]\\\"}"`},
		{`"token":"` + escapedDot + `"`, `"token":"[redacted]"`},
		{`auth Bot ` + escapedDot + ` sent`, `auth Bot [redacted] sent`},
		{`auth \"Bot ` + strings.ReplaceAll(botToken, ".", `\\u002E`) + `\"`, `auth \"Bot [redacted]\"`},
		{`POST /API/V9/WEBHOOKS/42/` + interactionToken + `/messages`, `POST /API/V9/WEBHOOKS/42/[redacted]/messages`},
		{`Post "https://discord.com/api/v9/Interactions/1/` + interactionToken + `/callback"`,
			`Post "https://discord.com/api/v9/Interactions/1/[redacted]/callback"`},
		{`{"url":"https:\/\/discord.com\/api\/v9\/webhooks\/42\/` + interactionToken + `\/messages"}`,
			`{"url":"https:\/\/discord.com\/api\/v9\/webhooks\/42\/[redacted]\/messages"}`},
	} {
		assert.Equal(t, tt.want, logging.Scrub(tt.in, botToken), tt.in)
	}

	// A payload marshalled into a JSON string, as a handler writes a string attribute.
	inner, _ := json.Marshal(map[string]string{"token": interactionToken, "auth": "Bot " + botToken})
	var buf bytes.Buffer
	slog.New(logging.Redact(slog.NewJSONHandler(&buf, nil), botToken)).Info("gateway", "payload", string(inner))
	assert.NotContains(t, buf.String(), interactionToken)
	assert.NotContains(t, buf.String(), botToken)
}

// A short secret (a database password of a few letters) is masked where it stands as
// a word, not inside every longer word that holds its letters; a long one is masked
// wherever it appears.
func TestScrubMasksAShortSecretOnlyAsAWord(t *testing.T) {
	assert.Equal(t, "open /nonexistent/x.db: password [redacted] refused",
		logging.Scrub("open /nonexistent/x.db: password pw refused", "pw"))
	assert.Equal(t, "pwned: [redacted]@host", logging.Scrub("pwned: pw@host", "pw"))
	assert.Equal(t, "/none[redacted]istent", logging.Scrub("/none"+botToken+"istent", botToken))
	assert.Equal(t, `{"password":"[redacted]"}`, logging.Scrub(`{"password":"p\"w"}`, `p"w`))
	assert.Equal(t, fmt.Sprintf("%q", "[redacted]"), logging.Scrub(fmt.Sprintf("%q", `a\b`), `a\b`))
}
