package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/shard"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/pontoon-bot/pontoon/store/storetest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Several processes: the real binary run as gateway shards and as HTTP
// interaction replicas against the fake Discord, on one PostgreSQL (storetest gives
// each test a schema of its own; without PostgreSQL the tests say so in one line and
// skip, and with CI set they fail).

var (
	builtOnce sync.Once
	builtBin  string
	builtErr  error
)

// sharedBinary builds the real pontoon command once per test run, for every test that
// runs it: one link instead of one per test.
func sharedBinary(t testing.TB) string {
	t.Helper()
	builtOnce.Do(func() {
		dir, err := os.MkdirTemp("", "pontoon-scale-bin-")
		if err != nil {
			builtErr = err
			return
		}
		builtBin = dir + "/pontoon"
		out, err := exec.Command("go", "build", "-o", builtBin, ".").CombinedOutput()
		if err != nil {
			builtErr = fmt.Errorf("%v: %s", err, out)
		}
	})
	require.NoError(t, builtErr)
	return builtBin
}

// guildOnShard returns a guild id that Discord routes to shard want of count.
func guildOnShard(t *testing.T, want, count int) string {
	t.Helper()
	for n := uint64(1); n < 1000; n++ {
		id := fmt.Sprint(uint64(120000000000000000) + n<<22)
		if s, err := shard.Of(id, count); err == nil && s == want {
			return id
		}
	}
	t.Fatal("no guild id found")
	return ""
}

// tableAt is one guild's table as a test plays it.
type tableAt struct {
	t       *testing.T
	fake    *discordtest.Server
	guild   string
	channel string
}

func (a tableAt) msg() *discordgo.Message {
	for _, m := range a.fake.Messages(a.channel) {
		if discordtest.V2(m) && strings.Contains(discordtest.Text(m), "Pontoon") {
			return m
		}
	}
	return nil
}

// deal starts a table with players[0] as host, seats the others and deals: the round
// waits for the stakes.
func (a tableAt) deal(logs func() string) {
	t := a.t
	_, err := a.fake.Command(a.guild, a.channel, players[0], "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return a.msg() != nil }, 10*time.Second, 10*time.Millisecond)
	for _, m := range players[1:] {
		join, ok := findID(a.msg(), "pt:join:", "")
		require.True(t, ok)
		_, err := a.fake.Click(a.channel, a.msg().ID, m, join)
		require.NoError(t, err)
	}
	deal, ok := findID(a.msg(), "pt:deal:", "")
	require.True(t, ok)
	r, err := a.fake.Click(a.channel, a.msg().ID, players[0], deal)
	require.NoError(t, err)
	require.Contains(t, msgText(r.Message), "Stakes: waiting for", "logs:\n%s", logs())
}

// open starts a table with players[0] as host, seats the others, deals and has every
// player but the banker stake 1: the round is then in play.
func (a tableAt) open(logs func() string) {
	t := a.t
	a.deal(logs)
	staked := 0
	for _, m := range players {
		cards, _ := findID(a.msg(), "pt:cards:", "")
		r, err := a.fake.Click(a.channel, a.msg().ID, m, cards)
		require.NoError(t, err)
		if id, ok := findID(r.Message, "pt:amt:", ":stake"); ok {
			sr, err := a.fake.Select(a.channel, r.Message.ID, m, id, []string{"1"})
			require.NoError(t, err)
			require.NotContains(t, msgText(sr.Message), "⛔", "logs:\n%s", logs())
			staked++
		}
	}
	require.Equal(t, 2, staked, "two players stake; the third banks")
	// The table message is edited after the stake's answer: wait for it, so that what
	// the message says (in play, or settled by a banker's pontoon) is what the store holds.
	require.Eventually(t, func() bool { return !strings.Contains(msgText(a.msg()), "Stakes: waiting for") },
		10*time.Second, 10*time.Millisecond, "logs:\n%s", logs())
}

// press has member make the first legal move of a simple strategy on their panel.
func (a tableAt) press(member string) bool {
	t := a.t
	cards, ok := findID(a.msg(), "pt:cards:", "")
	require.True(t, ok)
	r, err := a.fake.Click(a.channel, a.msg().ID, member, cards)
	require.NoError(t, err)
	for _, verb := range []string{"stick", "stay", "twist", "draw"} {
		if id, ok := findID(r.Message, "pt:act:", ":"+verb); ok {
			_, err := a.fake.Click(a.channel, r.Message.ID, member, id)
			require.NoError(t, err)
			return true
		}
	}
	return false
}

func (a tableAt) settled() bool { return strings.Contains(msgText(a.msg()), "The round is settled") }

// playOut presses until the round is settled.
func (a tableAt) playOut(logs func() string) {
	deadline := time.Now().Add(60 * time.Second)
	for !a.settled() {
		require.True(a.t, time.Now().Before(deadline), "the round in %s never settled; table:\n%s\nlogs:\n%s", a.guild, msgText(a.msg()), logs())
		pressed := false
		for _, m := range players {
			pressed = a.press(m) || pressed
		}
		if !pressed {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// readyTables is the number of tables the process's "pontoon bot ready" line says it
// recovered (log format json).
func readyTables(t *testing.T, logs string) int {
	t.Helper()
	for _, line := range strings.Split(logs, "\n") {
		if !strings.Contains(line, "pontoon bot ready") {
			continue
		}
		var rec struct {
			Tables int `json:"tables"`
		}
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		return rec.Tables
	}
	t.Fatalf("no ready line in:\n%s", logs)
	return 0
}

// stopServe ends a serve process with SIGTERM and checks it exits 0.
func stopServe(t *testing.T, p *serveProcess) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "SIGTERM ends serve with status 0: %s", p.logs.String())
	case <-time.After(20 * time.Second):
		_ = p.cmd.Process.Kill()
		t.Fatalf("serve did not stop on SIGTERM: %s", p.logs.String())
	}
}

// auditOK runs `pontoon audit` on the database of env.
func auditOK(t *testing.T, bin string, env []string) {
	t.Helper()
	cmd := exec.Command(bin, "audit")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "audit OK")
}

// Two processes as shards 0 and 1 of one application on one PostgreSQL, a round in play
// in a server of each: SIGKILL shard 1 mid-round; shard 0's round plays on to its
// settlement while shard 1 is down; shard 1 comes back, recovers only its own server's
// table, and its round carries on to its settlement. The audit balances (chips
// conserved) and the fake saw no identify too fast and no failure.
func TestShardsOnePostgresSurviveAKill(t *testing.T) {
	url := storetest.PostgresURL(t)
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token), discordtest.WithShards(2, 2), discordtest.WithIdentifyWindow(100*time.Millisecond))
	tables := make([]tableAt, 2)
	for s := range tables {
		g := guildOnShard(t, s, 2)
		ch := fmt.Sprintf("2100000000000000%02d", s)
		fake.AddGuild(g, "en-US")
		fake.AddChannel(g, ch)
		for _, p := range players {
			fake.AddMember(g, p, "p", 0, "en-US")
		}
		tables[s] = tableAt{t: t, fake: fake, guild: g, channel: ch}
	}
	base := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_URL="+url, "PONTOON_LOG_LEVEL=info", "PONTOON_LOG_FORMAT=json", "PONTOON_DISCORD_SHARD_COUNT=2")
	env := func(s int) []string {
		return append(base[:len(base):len(base)], fmt.Sprintf("PONTOON_DISCORD_SHARD_ID=%d", s))
	}

	p0 := startServe(t, bin, env(0), 1)
	p1 := startServe(t, bin, env(1), 1)
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	tables[0].open(p0.logs.String)
	tables[1].open(p1.logs.String)

	require.NoError(t, p1.cmd.Process.Kill()) // SIGKILL shard 1 mid-round
	_ = p1.cmd.Wait()

	// Shard 0 never notices: with shard 1 down its table answers, and takes a move if
	// the deal left one to make (a banker's pontoon settles the round at once).
	cards, ok := findID(tables[0].msg(), "pt:cards:", "")
	require.True(t, ok)
	r, err := fake.Click(tables[0].channel, tables[0].msg().ID, players[1], cards)
	require.NoError(t, err)
	require.NotNil(t, r.Message, "shard 0 answers while shard 1 is down")
	_ = tables[0].press(players[0]) || tables[0].press(players[1]) || tables[0].press(players[2])

	// Shard 1 loads before it is ready only its own round in play: none when the deal
	// settled it at once (a banker's pontoon, R3.5), and never shard 0's.
	inPlay := 1
	if tables[1].settled() {
		inPlay = 0
	}
	p1 = startServe(t, bin, env(1), 1)
	assert.Equal(t, inPlay, readyTables(t, p1.logs.String()), "shard 1 recovers its own server's round in play only, not shard 0's")
	tables[0].playOut(p0.logs.String)
	tables[1].playOut(p1.logs.String)

	stopServe(t, p0)
	stopServe(t, p1)
	assert.NotContains(t, p0.logs.String()+p1.logs.String(), token, "the token is never logged")
	assert.Zero(t, fake.TooFastIdentifies())
	assert.Empty(t, fake.Failures())
	auditOK(t, bin, base)
}

// freeAddr picks a loopback port for a bot's interactions endpoint: the fake must know
// the URL before the bot starts.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// One process answering interactions over HTTP (no gateway) plays a whole round with
// the same answers as over the gateway; a request with a forged signature is answered
// 401 and changes nothing.
func TestHTTPInteractionsPlayARound(t *testing.T) {
	bin := sharedBinary(t)
	fake := playersFake(t)
	tb := tableAt{t: t, fake: fake, guild: guild, channel: channel}
	addr, admin := freeAddr(t), freeAddr(t)
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+storetest.SQLitePath(t), "PONTOON_LOG_FORMAT=json",
		"PONTOON_DISCORD_APPLICATION_ID="+fake.AppID, "PONTOON_DISCORD_INTERACTIONS_LISTEN="+addr,
		"PONTOON_DISCORD_PUBLIC_KEY="+fake.PublicKey(), "PONTOON_ADMIN_LISTEN="+admin)
	p := startServe(t, bin, env, 1)
	require.NoError(t, fake.SetInteractionsEndpoint("http://"+addr+"/"))
	// With no gateway, /readyz asks the interactions endpoint, not a gateway that never comes.
	require.Eventually(t, func() bool {
		resp, err := http.Get("http://" + admin + "/readyz")
		if err != nil {
			return false
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp.StatusCode == http.StatusOK && strings.Contains(string(body), "interactions endpoint")
	}, 10*time.Second, 20*time.Millisecond, "/readyz is ready in HTTP mode")
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	assert.Empty(t, fake.Sessions(), "no gateway session with HTTP interactions")

	tb.open(p.logs.String)
	before := msgText(tb.msg())
	fake.ForgeNext(discordtest.ForgeWrongKey)
	cards, _ := findID(tb.msg(), "pt:cards:", "")
	_, err := fake.Click(channel, tb.msg().ID, players[1], cards)
	require.ErrorIs(t, err, discordtest.ErrRefused, "a bad signature gets 401")
	assert.Equal(t, before, msgText(tb.msg()), "a forged request changes nothing")

	tb.playOut(p.logs.String)
	// Interactions answered over HTTP count in the metrics as over the gateway.
	resp, err := http.Get("http://" + admin + "/metrics")
	require.NoError(t, err)
	metricsText, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Regexp(t, `pontoon_interactions_total\{[^}]*outcome="answered"[^}]*\} [1-9]`, string(metricsText))
	stopServe(t, p)
	assert.Positive(t, fake.EndpointHits()["http://"+addr+"/"])
	assert.NotContains(t, p.logs.String(), token)
	assert.Empty(t, fake.Failures())
	auditOK(t, bin, env)
}

// currentRound reads the channel's table's current round and its actions from the
// store at location (a SQLite file or a PostgreSQL URL), while the bot runs.
func currentRound(t *testing.T, location, guild, channel string) (store.Round, []store.Action) {
	t.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, location)
	require.NoError(t, err)
	defer st.Close()
	tb, err := st.TableByChannel(ctx, guild, channel)
	require.NoError(t, err)
	r, err := st.Round(ctx, tb.ID, tb.RoundNumber)
	require.NoError(t, err)
	as, err := st.Actions(ctx, r.ID)
	require.NoError(t, err)
	return r, as
}

// roundActions reads the actions of the channel's current round from the store.
func roundActions(t *testing.T, url, guild, channel string) []store.Action {
	t.Helper()
	_, as := currentRound(t, url, guild, channel)
	return as
}

// Two replicas answering interactions over HTTP on one PostgreSQL, Discord's load
// balancer sending the clicks to each in turn: a double click sent to both at once is
// applied once; the turn timer, armed in both, times a member out once; a forged
// request is refused 401 and changes nothing; the round plays on to its settlement
// with every click alternating between the two, and the audit balances.
func TestHTTPReplicasShareOnePostgres(t *testing.T) {
	url := storetest.PostgresURL(t)
	bin := sharedBinary(t)
	fake := playersFake(t)
	tb := tableAt{t: t, fake: fake, guild: guild, channel: channel}
	base := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_URL="+url, "PONTOON_LOG_FORMAT=json", "PONTOON_GAME_TURN_TIMER=10s",
		"PONTOON_DISCORD_APPLICATION_ID="+fake.AppID, "PONTOON_DISCORD_PUBLIC_KEY="+fake.PublicKey())
	var procs []*serveProcess
	var urls []string
	for range 2 {
		addr := freeAddr(t)
		procs = append(procs, startServe(t, bin, append(base[:len(base):len(base)], "PONTOON_DISCORD_INTERACTIONS_LISTEN="+addr), 1))
		urls = append(urls, "http://"+addr+"/")
	}
	logs := func() string { return procs[0].logs.String() + "\n---\n" + procs[1].logs.String() }
	require.NoError(t, fake.SetInteractionsEndpoint(urls...))
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)

	tb.open(logs)
	// The turn timer (10 s) runs out once, though both replicas have the table.
	hasTimeout := func() bool {
		for _, a := range roundActions(t, url, guild, channel) {
			if a.Verb == "timeout" {
				return true
			}
		}
		return false
	}
	start := time.Now()
	require.Eventually(t, func() bool { return hasTimeout() || tb.settled() },
		20*time.Second, 100*time.Millisecond, "no timeout: %s\nlogs:\n%s", msgText(tb.msg()), logs())
	time.Sleep(time.Until(start.Add(13 * time.Second))) // past one turn, short of two
	as := roundActions(t, url, guild, channel)
	var last time.Time
	timeouts := 0
	for _, a := range as {
		if a.Verb == "timeout" {
			timeouts++
			assert.GreaterOrEqual(t, a.CreatedAt.Sub(last), 10*time.Second-50*time.Millisecond,
				"a timeout comes a whole turn after the action before it (seq %d): fired once, not once per replica", a.Seq)
		}
		last = a.CreatedAt
	}
	if !tb.settled() {
		assert.Positive(t, timeouts)
	}

	// A double click sent to both replicas at once is applied once.
	for m := 0; m < len(players) && !tb.settled(); m++ {
		cards, _ := findID(tb.msg(), "pt:cards:", "")
		r, err := fake.Click(channel, tb.msg().ID, players[m], cards)
		require.NoError(t, err)
		id, ok := "", false
		for _, verb := range []string{"stick", "twist"} {
			if id, ok = findID(r.Message, "pt:act:", ":"+verb); ok {
				break
			}
		}
		if !ok {
			continue
		}
		before := len(roundActions(t, url, guild, channel))
		var wg sync.WaitGroup
		for range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, _ = fake.Click(channel, r.Message.ID, players[m], id)
			}()
		}
		wg.Wait()
		assert.Len(t, roundActions(t, url, guild, channel), before+1, "the double click is applied once")
		break
	}

	before := msgText(tb.msg())
	fake.ForgeNext(discordtest.ForgeWrongKey)
	cards, _ := findID(tb.msg(), "pt:cards:", "")
	_, err := fake.Click(channel, tb.msg().ID, players[1], cards)
	require.ErrorIs(t, err, discordtest.ErrRefused, "a bad signature gets 401")
	assert.Equal(t, before, msgText(tb.msg()), "a forged request changes nothing")

	tb.playOut(logs)
	for _, p := range procs {
		stopServe(t, p)
	}
	hits := fake.EndpointHits()
	assert.Positive(t, hits[urls[0]])
	assert.Positive(t, hits[urls[1]])
	assert.NotContains(t, logs(), token)
	assert.Empty(t, fake.Failures())
	auditOK(t, bin, base)
}

// TestMain decodes interactions as the binary's main does, for the tests that run Main
// in this process, and removes the binary sharedBinary built.
func TestMain(m *testing.M) {
	discordapi.LeanInteractionEvents()
	code := m.Run()
	if builtBin != "" {
		_ = os.RemoveAll(filepath.Dir(builtBin))
	}
	os.Exit(code)
}

// discord.shards: auto runs every shard GET /gateway/bot recommends in one process,
// identifies paced by max_concurrency (the fake answers op 9 to one too soon), and
// serves the servers of each: a table starts in a server on each shard.
func TestShardsAutoInOneProcess(t *testing.T) {
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token), discordtest.WithShards(2, 1))
	var tables []tableAt
	for s := range 2 {
		g := guildOnShard(t, s, 2)
		ch := fmt.Sprintf("2200000000000000%02d", s)
		fake.AddGuild(g, "en-US")
		fake.AddChannel(g, ch)
		for _, p := range players {
			fake.AddMember(g, p, "p", 0, "en-US")
		}
		tables = append(tables, tableAt{t: t, fake: fake, guild: g, channel: ch})
	}
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+storetest.SQLitePath(t), "PONTOON_LOG_FORMAT=json", "PONTOON_DISCORD_SHARDS=auto")
	p := startServe(t, bin, env, 1)
	require.Len(t, fake.Sessions(), 2, "one session per recommended shard")
	for _, tb := range tables {
		_, err := fake.Command(tb.guild, tb.channel, players[0], "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}})
		require.NoError(t, err)
		require.Eventually(t, func() bool { return tb.msg() != nil }, 10*time.Second, 10*time.Millisecond, "no table in %s", tb.guild)
	}
	stopServe(t, p)
	assert.Zero(t, fake.TooFastIdentifies())
	assert.Empty(t, fake.Failures())
}
