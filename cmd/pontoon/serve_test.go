package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/pontoon-bot/pontoon/store"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const (
	// A bot token in the shape config.Validate accepts: the fake application's id in
	// base64, a timestamp part and a secret part.
	token   = "MTEwMDAwMDAwMDAwMDAwMDAwMQ.GfAkEt.test-token-must-never-be-logged"
	guild   = "110000000000000001"
	channel = "210000000000000001"
)

var players = []string{"310000000000000001", "310000000000000002", "310000000000000003"}

var (
	msgText = discordtest.Text
	findID  = discordtest.CustomID
)

// table is the channel's table message, as tableAt.msg finds it.
func table(fake *discordtest.Server) *discordgo.Message {
	return tableAt{fake: fake, channel: channel}.msg()
}

// playersFake is a fake Discord that knows the tests' bot token, its server and
// channel, and the players in it.
func playersFake(t testing.TB) *discordtest.Server {
	fake := discordtest.New(t, discordtest.WithToken(token))
	fake.AddGuild(guild, "en-US")
	fake.AddChannel(guild, channel)
	for _, p := range players {
		fake.AddMember(guild, p, "p", 0, "en-US")
	}
	return fake
}

// serveProcess is a running `pontoon serve`.
type serveProcess struct {
	cmd  *exec.Cmd
	logs *logtest.Buffer
}

func startServe(t *testing.T, bin string, env []string, readyCount int) *serveProcess {
	t.Helper()
	cmd := exec.Command(bin) // no subcommand: serve is the default
	cmd.Env = env
	logs := &logtest.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(t, cmd.Start())
	// "serving" is logged once the bot is ready and, when configured, its interactions
	// endpoint listens: "pontoon bot ready" comes before the endpoint, and a test that set
	// the endpoint at Discord on that line could find nothing listening.
	require.Eventually(t, func() bool { return strings.Contains(logs.String(), "serving; stop with SIGINT or SIGTERM") },
		20*time.Second, 20*time.Millisecond, "serve never got ready: %s", logs.String())
	return &serveProcess{cmd: cmd, logs: logs}
}

// press opens the member's panel and presses the first legal action of a simple
// strategy; it reports whether anything was pressed.
func press(t *testing.T, fake *discordtest.Server, member string) bool {
	t.Helper()
	tb := table(fake)
	cards, ok := findID(tb, "pt:cards:", "")
	require.True(t, ok)
	r, err := fake.Click(channel, tb.ID, member, cards)
	require.NoError(t, err)
	p := r.Message
	if id, ok := findID(p, "pt:amt:", ":stake"); ok {
		_, err := fake.Select(channel, p.ID, member, id, []string{"1"})
		require.NoError(t, err)
		return true
	}
	for _, verb := range []string{"stick", "stay", "twist", "draw"} {
		if id, ok := findID(p, "pt:act:", ":"+verb); ok {
			_, err := fake.Click(channel, p.ID, member, id)
			require.NoError(t, err)
			return true
		}
	}
	return false
}

// playUntilSettled has the players press until the table shows the settlement (edits
// are coalesced, so it shows a moment after the last action); more says what else a
// failure should show.
func playUntilSettled(t *testing.T, fake *discordtest.Server, more func() string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(msgText(table(fake)), "The round is settled") {
		if !time.Now().Before(deadline) {
			t.Fatalf("the round never settled; table:\n%s\n%s", msgText(table(fake)), more())
		}
		pressed := false
		for _, m := range players {
			pressed = press(t, fake, m) || pressed
		}
		if !pressed {
			time.Sleep(50 * time.Millisecond)
		}
	}
}

// The real binary, killed with SIGKILL mid-round and started again on the same
// database, carries the round on to its settlement; SIGTERM then stops it cleanly;
// audit balances; the token is never in its output.
func TestServeSurvivesKill(t *testing.T) {
	bin := sharedBinary(t)
	fake := playersFake(t)
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+db, "PONTOON_LOG_LEVEL=debug", "PONTOON_LOG_FORMAT=json")

	p := startServe(t, bin, env, 1)
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	tableAt{t: t, fake: fake, guild: guild, channel: channel}.deal(p.logs.String)
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
	require.Equal(t, 2, staked, "two players stake; the third banks")

	require.NoError(t, p.cmd.Process.Kill()) // SIGKILL mid-round
	_ = p.cmd.Wait()
	logs := p.logs.String()

	p = startServe(t, bin, env, 1)
	playUntilSettled(t, fake, func() string {
		return fmt.Sprintf("unfinished rounds in the store: %s\nlogs before the kill:\n%s\nlogs:\n%s",
			unfinishedRounds(t, db), ownLines(logs), p.logs.String())
	})

	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	done := make(chan error, 1)
	go func() { done <- p.cmd.Wait() }()
	select {
	case err := <-done:
		require.NoError(t, err, "SIGTERM ends serve with status 0: %s", p.logs.String())
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	logs += p.logs.String()
	assert.Contains(t, logs, "shutting down")
	assert.NotContains(t, logs, token, "the token is never logged")

	cmd := exec.Command(bin, "audit")
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, string(out))
	assert.Contains(t, string(out), "audit OK")
	assert.Empty(t, fake.Failures())
}

// unfinishedRounds describes the rounds the database at path holds unfinished, for a
// failure's message.
func unfinishedRounds(t *testing.T, path string) string {
	st, err := store.Open(context.Background(), path)
	if err != nil {
		return err.Error()
	}
	defer st.Close()
	rs, err := st.UnfinishedRounds(context.Background())
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	for _, r := range rs {
		fmt.Fprintf(&b, "\n  table %d round %d: %d actions", r.Table.ID, r.Round.Number, len(r.Actions))
	}
	if b.Len() == 0 {
		b.WriteString("none")
	}
	// And what the first table holds, to tell a round lost from one never dealt.
	if tb, err := st.TableByID(context.Background(), 1); err != nil {
		fmt.Fprintf(&b, "; table 1: %v", err)
	} else {
		rounds, err := st.Rounds(context.Background(), 1, 0)
		fmt.Fprintf(&b, "; table 1: status %s, round %d, %d seats, rounds %d (%v)", tb.Status, tb.RoundNumber, len(tb.Seats), len(rounds), err)
	}
	return b.String()
}

// ownLines are the bot's own log lines, without discordgo's.
func ownLines(logs string) string {
	var out []string
	for _, l := range strings.Split(logs, "\n") {
		if !strings.Contains(l, `"source":"discordgo"`) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}

// A bad setting stops start-up with one line naming the key; the token is not in it.
func TestServeBadConfig(t *testing.T) {
	bin := sharedBinary(t)
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{[]string{"PONTOON_DISCORD_TOKEN=" + token, "PONTOON_GAME_TURN_TIMER=1s"}, "game.turn_timer"},
		{[]string{"PONTOON_DISCORD_TOKEN=" + token, "PONTOON_DISCORD_API_URL=ftp://x"}, "discord.api_url"},
		{[]string{"PONTOON_DISCORD_TOKEN="}, "discord.token"},
		{[]string{"PONTOON_DISCORD_TOKEN=" + token, "PONTOON_GAME_RULES_MAX_STAKE=0"}, "game.rules"},
		{[]string{"PONTOON_DISCORD_TOKEN=" + token, "PONTOON_ADMIN_LISTEN=9464"}, "admin.listen"},
	} {
		cmd := exec.Command(bin, "serve")
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), tc.env...)
		out, err := cmd.CombinedOutput()
		require.Error(t, err, "%v must fail", tc.env)
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		require.Len(t, lines, 1, "one line: %q", out)
		assert.Contains(t, lines[0], tc.want)
		assert.NotContains(t, string(out), token)
	}
}

// The binary runs the Go runtime as runtime.* says (one processor and a collector at 200
// by default), the GOMAXPROCS and GOGC variables win over the configuration, and the
// process runs with the environment it was started with: no GODEBUG setting of its own.
func TestServeTunesTheRuntime(t *testing.T) {
	bin := sharedBinary(t)
	fake := discordtest.New(t, discordtest.WithToken(token))
	fake.AddGuild(guild, "en-US")
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GOMAXPROCS=") && !strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GODEBUG=") &&
			!strings.HasPrefix(kv, "PONTOON_") {
			base = append(base, kv)
		}
	}
	base = append(base, "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+filepath.Join(t.TempDir(), "pontoon.db"), "PONTOON_LOG_FORMAT=json")
	for _, c := range []struct {
		name    string
		env     []string
		want    string
		godebug string // the running bot's GODEBUG, "" for none
	}{
		{"defaults", nil, `"gomaxprocs":1,"gc_percent":200,`, ""},
		{"configured", []string{"PONTOON_RUNTIME_MAX_PROCS=2", "PONTOON_RUNTIME_GC_PERCENT=150"},
			`"gomaxprocs":2,"gc_percent":150,`, ""},
		{"GODEBUG left as given", []string{"GODEBUG=madvdontneed=1"}, `"gomaxprocs":1,"gc_percent":200,`, "madvdontneed=1"},
		{"the variables win", []string{"PONTOON_RUNTIME_MAX_PROCS=1", "GOMAXPROCS=3", "GOGC=300"},
			`"gomaxprocs":3,"gc_percent":300,`, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := startServe(t, bin, append(slices.Clone(base), c.env...), 1)
			// The kernel's copy of the process's environment: what it was started with.
			environ, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", p.cmd.Process.Pid))
			require.NoError(t, err)
			var godebug []string
			for _, kv := range strings.Split(string(environ), "\x00") {
				if v, ok := strings.CutPrefix(kv, "GODEBUG="); ok {
					godebug = append(godebug, v)
				}
			}
			if c.godebug == "" {
				assert.Empty(t, godebug)
			} else {
				assert.Equal(t, []string{c.godebug}, godebug)
			}
			require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
			_ = p.cmd.Wait()
			assert.Contains(t, p.logs.String(), `"msg":"go runtime",`+c.want)
			assert.Equal(t, 1, strings.Count(p.logs.String(), `"msg":"go runtime"`), "one start logged")
		})
	}
}

// The real binary with PONTOON_GAME_TABLE_PICTURE=false plays a whole round with a
// text-only table message: the settlement, a moment that would carry the picture in the
// same edit as its text, leaves the message with no attachment and no media gallery.
func TestServeTextOnlyTableHasNoPicture(t *testing.T) {
	bin := sharedBinary(t)
	fake := playersFake(t)
	env := append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+filepath.Join(t.TempDir(), "pontoon.db"), "PONTOON_LOG_FORMAT=json",
		"PONTOON_GAME_TABLE_PICTURE=false")
	p := startServe(t, bin, env, 1)
	defer func() {
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		_ = p.cmd.Wait()
	}()
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	tableAt{t: t, fake: fake, guild: guild, channel: channel}.deal(p.logs.String)
	playUntilSettled(t, fake, p.logs.String)
	tb := table(fake)
	assert.Empty(t, fake.Attachments(tb.ID), "no picture on the settled table")
	for _, c := range tb.Components {
		if box, ok := c.(*discordgo.Container); ok {
			for _, in := range box.Components {
				assert.NotEqual(t, discordgo.MediaGalleryComponent, in.Type(), "the container holds no picture")
			}
		}
	}
	assert.Empty(t, fake.Failures())
}
