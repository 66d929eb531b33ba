package main

import (
	"encoding/json"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sample is one scraped sample: its labels and value.
type sample struct {
	labels map[string]string
	value  float64
}

// scraped is a scrape of /metrics: metric name -> its samples.
type scraped = map[string][]sample

var labelPair = regexp.MustCompile(`(\w+)="((?:[^"\\]|\\.)*)"`)

// scrape reads the admin listener's /metrics into name{labels} -> value.
func scrape(t *testing.T, addr string) scraped {
	t.Helper()
	body := get(t, "http://"+addr+"/metrics", http.StatusOK)
	out := scraped{}
	for _, line := range strings.Split(body, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cut := strings.LastIndexByte(line, ' ')
		require.Positive(t, cut, "sample line %q", line)
		v, err := strconv.ParseFloat(line[cut+1:], 64)
		require.NoError(t, err, line)
		head := line[:cut]
		name, labels := head, map[string]string{}
		if i := strings.IndexByte(head, '{'); i >= 0 {
			name = head[:i]
			for _, m := range labelPair.FindAllStringSubmatch(head[i:], -1) {
				labels[m[1]] = m[2]
			}
		}
		out[name] = append(out[name], sample{labels, v})
	}
	return out
}

// value sums the samples of name whose labels include want.
func value(m scraped, name string, want map[string]string) float64 {
	sum := 0.0
	for _, s := range m[name] {
		ok := true
		for k, v := range want {
			ok = ok && s.labels[k] == v
		}
		if ok {
			sum += s.value
		}
	}
	return sum
}

func get(t *testing.T, url string, status int) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, status, resp.StatusCode, "%s: %s", url, b)
	return string(b)
}

// adminAddr is the address the binary logged for its admin listener (JSON logs).
func adminAddr(t *testing.T, logs string) string {
	t.Helper()
	for _, line := range strings.Split(logs, "\n") {
		var rec struct {
			Msg  string `json:"msg"`
			Addr string `json:"addr"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && strings.HasPrefix(rec.Msg, "admin listener serving") {
			return rec.Addr
		}
	}
	t.Fatalf("no admin listener in the logs:\n%s", logs)
	return ""
}

// The real binary with admin.listen set serves /healthz, /readyz, pprof and /metrics,
// and the metrics the issue names move as members play: interactions by kind and
// outcome (a refusal with its reason), REST calls and a 429 by route, the gateway and
// its resume, live tables and pending timers, rounds and actions committed, commit
// latency, and, sampled from the audit at start, chips in circulation per server.
func TestAdminListener(t *testing.T) {
	bin := sharedBinary(t)
	fake := playersFake(t)
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+db, "PONTOON_LOG_FORMAT=json", "PONTOON_ADMIN_LISTEN=127.0.0.1:0", "PONTOON_ADMIN_PPROF=true")
	p := startServe(t, bin, env, 1)
	defer func() { _ = p.cmd.Process.Kill() }()
	addr := adminAddr(t, p.logs.String())

	assert.Equal(t, "ok\n", get(t, "http://"+addr+"/healthz", http.StatusOK))
	ready := get(t, "http://"+addr+"/readyz", http.StatusOK)
	assert.Contains(t, ready, "database: ok")
	assert.Contains(t, ready, "gateway: ok")
	assert.Contains(t, get(t, "http://"+addr+"/debug/pprof/", http.StatusOK), "goroutine")

	before := scrape(t, addr)
	assert.Equal(t, 1.0, value(before, "pontoon_gateway_connected", nil))
	assert.Zero(t, value(before, "pontoon_tables_live", nil))
	// Before the first interaction the two histograms already have their series, at
	// zero, so that an alert on them works from the start.
	for _, want := range []struct {
		name   string
		labels map[string]string
	}{
		{"pontoon_interaction_duration_seconds_count", map[string]string{"kind": "component:act", "outcome": "answered"}},
		{"pontoon_interaction_duration_seconds_count", map[string]string{"kind": "command:bank_sell", "outcome": "refused"}},
		{"pontoon_store_commit_duration_seconds_count", map[string]string{"op": "ApplyAction", "outcome": "ok"}},
	} {
		assert.True(t, slices.ContainsFunc(before[want.name], func(s sample) bool {
			return maps.Equal(s.labels, want.labels) && s.value == 0
		}), "%s%v at zero before the first interaction", want.name, want.labels)
	}

	cmd := func(member, sub string) {
		_, err := fake.Command(guild, channel, member, "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{{Name: sub, Type: discordgo.ApplicationCommandOptionSubCommand}})
		require.NoError(t, err)
	}
	cmd(players[0], "stop") // no table here yet: refused
	fake.Inject429("POST /channels/"+channel+"/messages", 1, 100*time.Millisecond)
	cmd(players[0], "start")
	require.Eventually(t, func() bool { return table(fake) != nil }, 5*time.Second, 10*time.Millisecond)
	for _, m := range players[1:] {
		join, _ := findID(table(fake), "pt:join:", "")
		_, err := fake.Click(channel, table(fake).ID, m, join)
		require.NoError(t, err)
	}
	deal, _ := findID(table(fake), "pt:deal:", "")
	_, err := fake.Click(channel, table(fake).ID, players[0], deal)
	require.NoError(t, err)
	staked := 0
	for _, m := range players {
		tb := table(fake)
		cards, _ := findID(tb, "pt:cards:", "")
		r, err := fake.Click(channel, tb.ID, m, cards)
		require.NoError(t, err)
		if id, ok := findID(r.Message, "pt:amt:", ":stake"); ok {
			_, err := fake.Select(channel, r.Message.ID, m, id, []string{"1"})
			require.NoError(t, err)
			staked++
		}
	}
	require.Equal(t, 2, staked)
	fake.RequestReconnect() // op 7: discordgo reconnects and resumes
	var after scraped
	require.Eventually(t, func() bool {
		after = scrape(t, addr)
		return value(after, "pontoon_gateway_resumes_total", nil) >= 1 && value(after, "pontoon_gateway_connected", nil) == 1
	}, 10*time.Second, 50*time.Millisecond, "no resume seen")

	is := func(name string, labels map[string]string, want float64) {
		t.Helper()
		assert.Equal(t, want, value(after, name, labels)-value(before, name, labels), "%s%v", name, labels)
	}
	is("pontoon_interactions_total", map[string]string{"kind": "command:stop", "outcome": "refused", "reason": "no_table"}, 1)
	is("pontoon_interactions_total", map[string]string{"kind": "command:start", "outcome": "answered", "reason": ""}, 1)
	is("pontoon_interaction_duration_seconds_count", map[string]string{"kind": "component:join", "outcome": "answered"}, 2)
	is("pontoon_interaction_duration_seconds_count", map[string]string{"kind": "component:amt", "outcome": "answered"}, 2)
	is("pontoon_interactions_total", map[string]string{"outcome": "failed"}, 0)
	is("pontoon_discord_rate_limited_total", map[string]string{"route": "POST /channels/{id}/messages", "scope": "user"}, 1)
	is("pontoon_rounds_started_total", nil, 1)
	is("pontoon_actions_committed_total", nil, 2)
	is("pontoon_store_commit_duration_seconds_count", map[string]string{"op": "ApplyAction", "outcome": "ok"}, 2)
	assert.GreaterOrEqual(t, value(after, "pontoon_discord_requests_total", map[string]string{"route": "POST /interactions/{id}/{token}/callback", "status": "204"}), 10.0)
	assert.GreaterOrEqual(t, value(after, "pontoon_discord_requests_total", map[string]string{"route": "POST /channels/{id}/messages", "status": "200"}), 1.0)
	assert.GreaterOrEqual(t, value(after, "pontoon_gateway_connects_total", nil), 2.0)
	assert.Equal(t, 1.0, value(after, "pontoon_tables_live", nil))
	// The round waits on someone, under a turn timer, unless the deal settled it at the
	// stakes (the banker's pontoon, about one deal in twenty).
	wantTimers := 1.0
	if roundFinished(t, db) {
		wantTimers = 0
	}
	assert.Equal(t, wantTimers, value(after, "pontoon_timers_pending", nil), "turn timers pending")
	assert.Positive(t, value(after, "go_goroutines", nil))
	body := get(t, "http://"+addr+"/metrics", http.StatusOK)
	assert.NotContains(t, body, token)
	assert.NotRegexp(t, `/(interactions|webhooks)/\d+/[^{]`, body, "no interaction id or token in a label")

	// Chips in circulation are sampled from the audit: a restart samples at once.
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	_ = p.cmd.Wait()
	p = startServe(t, bin, env, 1)
	addr = adminAddr(t, p.logs.String())
	var chips scraped
	require.Eventually(t, func() bool {
		chips = scrape(t, addr)
		return len(chips["pontoon_chips_circulating"]) > 0
	}, 10*time.Second, 50*time.Millisecond)
	assert.Equal(t, 3000.0, value(chips, "pontoon_chips_circulating", map[string]string{"guild": guild}), "three wallets of 1000, stakes in escrow included")
	assert.Zero(t, value(chips, "pontoon_audit_problems", nil))
	assert.Equal(t, 1.0, value(chips, "pontoon_tables_live", nil), "the table was recovered")
	assert.Empty(t, fake.Failures())
}
