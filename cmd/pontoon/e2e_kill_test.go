package main

// End-to-end tests that need the real binary: a SIGKILL at a chosen
// moment, and a setting read from the environment.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newFake(t testing.TB) *discordtest.Server {
	fake := playersFake(t)
	return fake
}

func serveEnv(fake *discordtest.Server, db string, extra ...string) []string {
	return append(append(os.Environ(), "PONTOON_DISCORD_TOKEN="+token, "PONTOON_DISCORD_API_URL="+fake.URL(),
		"PONTOON_DATABASE_PATH="+db, "PONTOON_LOG_LEVEL=debug", "PONTOON_LOG_FORMAT=json"), extra...)
}

// liveTables are the table messages in the channel that still have buttons.
func liveTables(fake *discordtest.Server) []*discordgo.Message {
	var out []*discordgo.Message
	for _, m := range fake.Messages(channel) {
		if discordtest.V2(m) && strings.Contains(discordtest.Text(m), "Pontoon") && len(discordtest.Components(m)) > 0 {
			out = append(out, m)
		}
	}
	return out
}

func startCmd() []*discordgo.ApplicationCommandInteractionDataOption {
	return []*discordgo.ApplicationCommandInteractionDataOption{{Name: "start", Type: discordgo.ApplicationCommandOptionSubCommand}}
}

// The bot killed (SIGKILL) during /pontoon start, after the table's row was
// committed and either before its message reached Discord or after Discord stored it
// but before the bot recorded it. Started again, the bot gives the open table one live
// message: members can join, deal and stake on it, and each change shows on it; no
// frozen copy with buttons is left in the channel.
func TestKillDuringStartLeavesALiveTable(t *testing.T) {
	bin := sharedBinary(t)
	for _, tc := range []struct {
		name    string
		posted  bool // Discord stored the message before the kill
		chatter int  // messages posted in the channel after it, before the restart
	}{
		{"row committed, message not posted", false, 0},
		{"message posted, not recorded", true, 0},
		// More than a page of the latest messages: the table's is found all the same.
		{"message posted, not recorded, then a busy channel", true, 120},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fake := newFake(t)
			env := serveEnv(fake, filepath.Join(t.TempDir(), "pontoon.db"))
			p := startServe(t, bin, env, 1)
			t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
			require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)

			hold := fake.HoldNext("POST /channels/" + channel + "/messages")
			go func() { _, _ = fake.Command(guild, channel, players[0], "pontoon", startCmd()) }()
			select {
			case <-hold.Arrived():
			case <-time.After(10 * time.Second):
				t.Fatalf("the table was never posted; logs:\n%s", p.logs.String())
			}
			require.NoError(t, p.cmd.Process.Kill()) // SIGKILL while the post is in flight
			_ = p.cmd.Wait()
			if tc.posted {
				hold.Release()
				require.Eventually(t, func() bool { return len(liveTables(fake)) == 1 }, 5*time.Second, 10*time.Millisecond)
				if tc.chatter > 0 {
					s, err := discordapi.NewSession(fake.Token, fake.URL(), nil)
					require.NoError(t, err)
					for i := range tc.chatter {
						_, err := s.ChannelMessageSend(channel, fmt.Sprintf("chatter %d", i))
						require.NoError(t, err)
					}
				}
			} else {
				hold.Fail(500, 0, "500: Internal Server Error")
				require.Empty(t, liveTables(fake))
			}

			p = startServe(t, bin, env, 1)
			var tb *discordgo.Message
			require.Eventually(t, func() bool {
				tbs := liveTables(fake)
				if len(tbs) > 0 {
					tb = tbs[len(tbs)-1]
				}
				return tb != nil
			}, 10*time.Second, 20*time.Millisecond, "after the restart the open table has no message; logs:\n%s", p.logs.String())

			for _, m := range players[1:] {
				join, ok := findID(tb, "pt:join:", "")
				require.True(t, ok)
				r, err := fake.Click(channel, tb.ID, m, join)
				require.NoError(t, err)
				require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, msgText(r.Message))
				tb = r.Message
			}
			deal, _ := findID(tb, "pt:deal:", "")
			r, err := fake.Click(channel, tb.ID, players[0], deal)
			require.NoError(t, err)
			require.Contains(t, msgText(r.Message), "Stakes: waiting for")
			staked := 0
			for _, m := range players {
				cards, _ := findID(r.Message, "pt:cards:", "")
				pr, err := fake.Click(channel, tb.ID, m, cards)
				require.NoError(t, err)
				if id, ok := findID(pr.Message, "pt:amt:", ":stake"); ok {
					_, err := fake.Select(channel, pr.Message.ID, m, id, []string{"1"})
					require.NoError(t, err)
					staked++
				}
			}
			require.Equal(t, 2, staked)
			// The stakes were made on the panels: only an edit of the table shows them.
			require.Eventually(t, func() bool {
				m := fake.Message(channel, tb.ID)
				return strings.Count(msgText(m), "stake 1") == 2
			}, 10*time.Second, 20*time.Millisecond, "the table members use never shows the stakes:\n%s", msgText(fake.Message(channel, tb.ID)))
			assert.Len(t, liveTables(fake), 1, "one table message with buttons, no frozen copy")
			assert.Empty(t, fake.Failures())
		})
	}
}

// Starting_chips: 0 means members start with 0 chips, not the default 1000.
func TestStartingChipsZeroMeansZero(t *testing.T) {
	bin := sharedBinary(t)
	fake := newFake(t)
	env := serveEnv(fake, filepath.Join(t.TempDir(), "pontoon.db"), "PONTOON_GAME_STARTING_CHIPS=0")
	p := startServe(t, bin, env, 1)
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	r, err := fake.Command(guild, channel, players[0], "pontoon", []*discordgo.ApplicationCommandInteractionDataOption{{Name: "balance", Type: discordgo.ApplicationCommandOptionSubCommand}})
	require.NoError(t, err)
	require.True(t, r.Ephemeral)
	assert.Contains(t, msgText(r.Message), "has 0 chips", "a new member starts with starting_chips = 0")
	assert.NotContains(t, msgText(r.Message), "has 1000", "(the member id itself contains 1000)")
}

// procStatus reads a field of /proc/<pid>/status in kB ("VmHWM", "VmRSS").
func procStatus(t testing.TB, pid int, field string) int64 {
	t.Helper()
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	require.NoError(t, err)
	for _, line := range strings.Split(string(raw), "\n") {
		if strings.HasPrefix(line, field+":") {
			f := strings.Fields(line)
			require.GreaterOrEqual(t, len(f), 2, line)
			n, err := strconv.ParseInt(f[1], 10, 64)
			require.NoError(t, err)
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// quietFake waits until the fake has had no request for idle (or until limit).
func quietFake(fake *discordtest.Server, idle, limit time.Duration) {
	end := time.Now().Add(limit)
	last, since := len(fake.Requests()), time.Now()
	for time.Now().Before(end) {
		time.Sleep(idle / 10)
		if n := len(fake.Requests()); n != last {
			last, since = n, time.Now()
		} else if time.Since(since) >= idle {
			return
		}
	}
}

// Restarted over 5,000 open tables where nothing changed, the bot's own
// process (its peak resident memory, from /proc) grows by a bounded amount over the
// same bot restarted over one table, and sends nothing about the idle tables.
func TestRestartMemoryIsBounded(t *testing.T) {
	bin := sharedBinary(t)
	peak := func(n int) (kB int64, requests int) {
		fake := newFake(t)
		db := filepath.Join(t.TempDir(), "pontoon.db")
		env := serveEnv(fake, db)
		p := startServe(t, bin, env, 1)
		require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
		_, err := fake.Command(guild, channel, players[0], "pontoon", startCmd())
		require.NoError(t, err)
		require.Eventually(t, func() bool { return len(liveTables(fake)) == 1 }, 5*time.Second, 10*time.Millisecond)
		require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
		_ = p.cmd.Wait()

		ctx := context.Background()
		st, err := store.Open(ctx, db)
		require.NoError(t, err)
		tb, err := st.TableByChannel(ctx, guild, channel)
		require.NoError(t, err)
		s, err := discordapi.NewSession(token, fake.URL(), nil)
		require.NoError(t, err)
		// Idle: opened and seated an hour ago, so not among the tables a restart
		// redraws for a recent change.
		now := time.Now().Add(-time.Hour).UTC().Truncate(time.Millisecond)
		for i := 0; i < n; i++ {
			ch := fmt.Sprintf("6%017d", i+1)
			fake.AddChannel(guild, ch)
			t2, err := st.OpenTable(ctx, store.OpenTableParams{Guild: guild, Channel: ch, Host: players[0], Rules: tb.Rules, Now: now})
			require.NoError(t, err)
			require.NoError(t, st.SetSeats(ctx, t2.ID, players[:2], now))
			m, err := s.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "Pontoon · round 0"}}})
			require.NoError(t, err)
			require.NoError(t, st.SetTableMessage(ctx, t2.ID, m.ID))
		}
		require.NoError(t, st.Close())

		before := len(fake.Requests())
		p = startServe(t, bin, env, 1)
		defer func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() }()
		quietFake(fake, time.Second, 60*time.Second)
		for _, r := range fake.Requests()[before:] {
			if strings.HasPrefix(r.Path, "/api/v9/channels/6") {
				requests++
			}
		}
		return procStatus(t, p.cmd.Process.Pid, "VmHWM"), requests
	}
	base, _ := peak(0)
	many, requests := peak(5000)
	t.Logf("peak resident memory after a restart: %d MiB over 1 table, %d MiB over 5,001", base/1024, many/1024)
	assert.Zero(t, requests, "the restart sent %d requests about 5,000 idle tables", requests)
	assert.Less(t, many-base, int64(64*1024), "5,000 idle tables cost %d MiB of peak memory at restart", (many-base)/1024)
}

// BenchmarkStartStopMemory measures what each table opened and closed leaves in the
// bot's process (closed tables leave memory): the real binary, /pontoon start
// and stop in a fresh channel b.N times, its resident memory from /proc before and
// after. It reports kB per table; a figure, not a pass or fail.
//
//	go test ./cmd/pontoon -run XXX -bench StartStopMemory -benchtime 3000x
func BenchmarkStartStopMemory(b *testing.B) {
	bin := sharedBinary(b)
	fake := newFake(b)
	cmd := exec.Command(bin)
	cmd.Env = serveEnv(fake, filepath.Join(b.TempDir(), "pontoon.db"))
	logs := &logtest.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(b, cmd.Start())
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	require.Eventually(b, func() bool { return len(fake.Commands("")) == 1 }, 20*time.Second, 20*time.Millisecond, logs.String())
	stop := []*discordgo.ApplicationCommandInteractionDataOption{{Name: "stop", Type: discordgo.ApplicationCommandOptionSubCommand}}
	cycle := func(i int) {
		ch := fmt.Sprintf("7%017d", i+1)
		fake.AddChannel(guild, ch)
		_, err := fake.Command(guild, ch, players[0], "pontoon", startCmd())
		require.NoError(b, err)
		_, err = fake.Command(guild, ch, players[0], "pontoon", stop)
		require.NoError(b, err)
	}
	for i := 0; i < 200; i++ { // warm up: caches and pools at their working size
		cycle(1_000_000 + i)
	}
	before := procStatus(b, cmd.Process.Pid, "VmRSS")
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		cycle(i)
	}
	b.StopTimer()
	after := procStatus(b, cmd.Process.Pid, "VmRSS")
	b.ReportMetric(float64(after-before)/float64(b.N), "kB-RSS/table")
}

// roundFinished reports whether the channel's table's current round has finished, read
// from the database while the bot runs.
func roundFinished(t *testing.T, db string) bool {
	t.Helper()
	r, _ := currentRound(t, db, guild, channel)
	return r.Finished()
}

// The bot killed after a round's settlement is committed but before the
// public edit that shows it reached Discord (held by the fake, then lost). Started
// again, the bot redraws that table, so its message shows the settlement instead of
// the round in play for ever (a kill test found the table frozen at "Stakes: waiting").
func TestKillBeforeTheSettlementIsDrawn(t *testing.T) {
	bin := sharedBinary(t)
	fake := newFake(t)
	db := filepath.Join(t.TempDir(), "pontoon.db")
	env := serveEnv(fake, db)
	p := startServe(t, bin, env, 1)
	t.Cleanup(func() { _ = p.cmd.Process.Kill(); _ = p.cmd.Wait() })
	require.Eventually(t, func() bool { return len(fake.Commands("")) == 1 }, 10*time.Second, 20*time.Millisecond)
	tableAt{t: t, fake: fake, guild: guild, channel: channel}.deal(p.logs.String)

	// Play, holding every edit of the table message, until the round is settled in the
	// store: the settlement's edit is then held (or still to come), and the kill loses it.
	msg := table(fake).ID
	deadline := time.Now().Add(60 * time.Second)
	// One hold at a time: an edit it catches is let go (the round is not over) and a
	// new hold set; once the round is settled, the edit it catches (the settlement's,
	// or one before it, which the settlement's then waits behind) is never let go.
	hold := fake.HoldNext("PATCH /channels/" + channel + "/messages/" + msg)
	for !roundFinished(t, db) {
		require.True(t, time.Now().Before(deadline), "the round never settled")
		select {
		case <-hold.Arrived():
			hold.Release()
			hold = fake.HoldNext("PATCH /channels/" + channel + "/messages/" + msg)
		default:
		}
		pressed := false
		for _, m := range players {
			if pressed = press(t, fake, m) || pressed; roundFinished(t, db) {
				break
			}
		}
		if !pressed {
			time.Sleep(50 * time.Millisecond)
		}
	}
	require.NotContains(t, msgText(table(fake)), "The round is settled", "the settlement has not reached the table yet")
	// The settlement's edit follows within EditDelay: it is the held one. Then the kill,
	// and the edit is lost with the process.
	select {
	case <-hold.Arrived():
	case <-time.After(10 * time.Second):
		t.Fatal("the settlement was never drawn")
	}
	require.NoError(t, p.cmd.Process.Kill())
	_ = p.cmd.Wait()
	hold.Fail(500, 0, "500: Internal Server Error")

	p = startServe(t, bin, env, 1)
	require.Eventually(t, func() bool { return strings.Contains(msgText(table(fake)), "The round is settled") },
		10*time.Second, 20*time.Millisecond, "after the restart the table still shows the round in play:\n%s\nlogs:\n%s",
		msgText(table(fake)), p.logs.String())
	deal, ok := findID(table(fake), "pt:deal:", "")
	require.True(t, ok, "and offers the next Deal")
	r, err := fake.Click(channel, table(fake).ID, players[0], deal)
	require.NoError(t, err)
	assert.Contains(t, msgText(r.Message), "round 2")
}
