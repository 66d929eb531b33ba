package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// callbackPath is an interaction callback or webhook path; group 1 is its token.
var callbackPath = regexp.MustCompile(`/(?:interactions|webhooks)/\d+/([^/?]+)`)

// breakingProxy stands between the bot and the fake Discord's REST API. It remembers
// every interaction and webhook token it forwards and, while broken is set, drops the
// connection of an interaction callback, so the bot's discordgo returns a URL error
// quoting the callback's URL, token and all.
type breakingProxy struct {
	*httptest.Server
	broken atomic.Bool
	mu     sync.Mutex
	tokens map[string]bool
}

func newBreakingProxy(t *testing.T, target string) *breakingProxy {
	u, err := url.Parse(target)
	require.NoError(t, err)
	p := &breakingProxy{tokens: map[string]bool{}}
	rp := httputil.NewSingleHostReverseProxy(u)
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if m := callbackPath.FindStringSubmatch(r.URL.Path); m != nil {
			p.mu.Lock()
			p.tokens[m[1]] = true
			p.mu.Unlock()
			if strings.HasSuffix(r.URL.Path, "/callback") && p.broken.CompareAndSwap(true, false) {
				conn, _, err := w.(http.Hijacker).Hijack()
				if err == nil {
					_ = conn.Close()
				}
				return
			}
		}
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

func (p *breakingProxy) seen() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for tok := range p.tokens {
		out = append(out, tok)
	}
	return out
}

// The real binary's log output, at debug level with discordgo's own lines routed into
// it, holds neither the bot token nor any interaction token, even when an interaction
// callback fails with discordgo's URL error; that line names the interaction, guild,
// channel, table and round, and the metrics count the interaction as failed.
func TestLogsHoldNoToken(t *testing.T) {
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token), discordtest.WithWaitTimeout(4*time.Second))
	fake.AddGuild(guild, "en-US")
	fake.AddChannel(guild, channel)
	for _, p := range players {
		fake.AddMember(guild, p, "p", 0, "en-US")
	}
	proxy := newBreakingProxy(t, fake.URL())
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+proxy.URL,
		"PONTOON_DATABASE_PATH="+db, "PONTOON_LOG_LEVEL=debug", "PONTOON_LOG_FORMAT=json", "PONTOON_ADMIN_LISTEN=127.0.0.1:0")
	p := startServe(t, bin, env, 1)
	defer func() { _ = p.cmd.Process.Kill() }()
	addr := adminAddr(t, p.logs.String())

	_, err := fake.Command(guild, channel, players[0], "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return table(fake) != nil }, 5*time.Second, 10*time.Millisecond)
	tb := table(fake)
	join, _ := findID(tb, "pt:join:", "")
	proxy.broken.Store(true)
	_, err = fake.Click(channel, tb.ID, players[1], join)
	require.Error(t, err, "the dropped callback leaves the click unanswered")
	var failed map[string]any
	require.Eventually(t, func() bool {
		for _, line := range strings.Split(p.logs.String(), "\n") {
			var rec map[string]any
			if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "interaction response refused" {
				failed = rec
				return true
			}
		}
		return false
	}, 5*time.Second, 20*time.Millisecond, "the failed callback is logged: %s", p.logs.String())
	assert.Contains(t, failed["err"], "/callback", "the logged error is discordgo's URL error")
	assert.Contains(t, failed["err"], "[redacted]")
	for _, key := range []string{"interaction", "guild", "channel", "table", "round", "kind"} {
		assert.Contains(t, failed, key, "the line about the interaction names its %s", key)
	}
	assert.Equal(t, guild, failed["guild"])
	assert.Equal(t, "component:join", failed["kind"])
	failures := scrape(t, addr)
	assert.Equal(t, 1.0, value(failures, "pontoon_interactions_total", map[string]string{"kind": "component:join", "outcome": "failed", "reason": "response"}),
		"the unanswered click counts as failed")

	// A later click goes through as usual.
	_, err = fake.Click(channel, table(fake).ID, players[2], join)
	require.NoError(t, err)
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	_ = p.cmd.Wait()

	logs := p.logs.String()
	assert.Contains(t, logs, `"source":"discordgo"`, "discordgo's own lines are in the log")
	assert.NotContains(t, logs, token, "the bot token is never logged")
	tokens := proxy.seen()
	require.GreaterOrEqual(t, len(tokens), 3, "interaction tokens went by")
	for _, tok := range tokens {
		assert.NotContains(t, logs, tok, "an interaction token is never logged")
	}
}
