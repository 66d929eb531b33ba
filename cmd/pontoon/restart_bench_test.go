package main

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/require"
)

// BenchmarkRestartOverOpenTables measures a restart of the real binary over 5,000 open
// tables, every one seated minutes before (so each is one a restart looks at) and
// drawn by the bot before it stopped, ten of them changed while it was down. It
// reports how long the restart took to be ready (from exec to the "serving" line),
// its peak resident memory over the steady memory of the run before it (the same
// tables drawn and in memory), and the edits it sent: only the ten should be drawn.
// A figure, not a pass or fail.
//
//	go test ./cmd/pontoon -run XXX -bench RestartOverOpenTables -benchtime 1x
//
// On a 2-vCPU machine busy with other work (2026-12-06, two runs): ready in 273 and
// 423 ms, peak memory 1.07 and 1.06 times the steady 75-77 MiB, 10 edits each time;
// the check of the 5,000 ended about 3 s after ready.
func BenchmarkRestartOverOpenTables(b *testing.B) {
	const n, changed = 5000, 10
	bin := sharedBinary(b)
	for range b.N {
		fake := newFake(b)
		db := filepath.Join(b.TempDir(), "pontoon.db")
		env := serveEnv(fake, db, "PONTOON_LOG_LEVEL=info")
		// A table opened by the bot, whose rules the seeded tables take.
		p := serveB(b, bin, env)
		deadline := time.Now().Add(10 * time.Second)
		for len(fake.Commands("")) != 1 {
			require.True(b, time.Now().Before(deadline), "no commands registered")
			time.Sleep(20 * time.Millisecond)
		}
		_, err := fake.Command(guild, channel, players[0], "pontoon", startCmd())
		require.NoError(b, err)
		for len(liveTables(fake)) != 1 {
			require.True(b, time.Now().Before(deadline), "no table posted")
			time.Sleep(10 * time.Millisecond)
		}
		require.NoError(b, p.cmd.Process.Signal(syscall.SIGTERM))
		_ = p.cmd.Wait()

		ctx := context.Background()
		st, err := store.Open(ctx, db)
		require.NoError(b, err)
		open, err := st.TableByChannel(ctx, guild, channel)
		require.NoError(b, err)
		s, err := discordapi.NewSession(token, fake.URL(), nil)
		require.NoError(b, err)
		now := time.Now().UTC().Truncate(time.Millisecond)
		ids := make([]int64, n)
		for i := range n {
			ch := fmt.Sprintf("6%017d", i+1)
			fake.AddChannel(guild, ch)
			tb, err := st.OpenTable(ctx, store.OpenTableParams{Guild: guild, Channel: ch, Host: players[0], Rules: open.Rules, Now: now})
			require.NoError(b, err)
			require.NoError(b, st.SetSeats(ctx, tb.ID, players[:2], now))
			m, err := s.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Embeds: []*discordgo.MessageEmbed{{Title: "Pontoon"}}})
			require.NoError(b, err)
			require.NoError(b, st.SetTableMessage(ctx, tb.ID, m.ID))
			ids[i] = tb.ID
		}
		require.NoError(b, st.Close())

		// The first run draws every table (none was drawn by a bot), and records it.
		first := len(fake.Requests())
		p = serveB(b, bin, env)
		checked(b, p)
		quietFake(fake, 2*time.Second, 5*time.Minute)
		b.Logf("first run: %d requests", len(fake.Requests())-first)
		steady := procStatus(b, p.cmd.Process.Pid, "VmRSS")
		require.NoError(b, p.cmd.Process.Signal(syscall.SIGTERM))
		_ = p.cmd.Wait()

		st, err = store.Open(ctx, db)
		require.NoError(b, err)
		for _, id := range ids[:changed] { // seated again while the bot was down
			require.NoError(b, st.SetSeats(ctx, id, players, time.Now().UTC().Truncate(time.Millisecond)))
		}
		require.NoError(b, st.Close())

		before := len(fake.Requests())
		start := time.Now()
		p = serveB(b, bin, env)
		ready := time.Since(start)
		checked(b, p)
		quietFake(fake, 2*time.Second, 5*time.Minute)
		peak := procStatus(b, p.cmd.Process.Pid, "VmHWM")
		edits := 0
		for _, r := range fake.Requests()[before:] {
			if r.Method == "PATCH" && strings.HasPrefix(r.Path, "/api/v9/channels/6") {
				edits++
			}
		}
		b.Logf("restart: %d requests; %s", len(fake.Requests())-before, lastLines(p.logs.String(), 3))
		_ = p.cmd.Process.Kill()
		_ = p.cmd.Wait()
		b.ReportMetric(float64(ready.Milliseconds()), "ms-ready")
		b.ReportMetric(float64(peak)/float64(steady), "peak/steady")
		b.ReportMetric(float64(steady)/1024, "MiB-steady")
		b.ReportMetric(float64(edits), "edits")
	}
}

// serveB starts pontoon serve and returns once it serves.
func serveB(b *testing.B, bin string, env []string) *serveProcess {
	b.Helper()
	cmd := exec.Command(bin)
	cmd.Env = env
	logs := &logtest.Buffer{}
	cmd.Stdout, cmd.Stderr = logs, logs
	require.NoError(b, cmd.Start())
	deadline := time.Now().Add(60 * time.Second)
	for !strings.Contains(logs.String(), "serving; stop with SIGINT or SIGTERM") {
		require.True(b, time.Now().Before(deadline), "serve never got ready: %s", logs.String())
		time.Sleep(5 * time.Millisecond)
	}
	return &serveProcess{cmd: cmd, logs: logs}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// checked waits until the bot has looked at every table message a restart may have
// to redraw.
func checked(b *testing.B, p *serveProcess) {
	b.Helper()
	deadline := time.Now().Add(5 * time.Minute)
	for !strings.Contains(p.logs.String(), "table messages checked after the start") {
		require.True(b, time.Now().Before(deadline), "the restart's check never ended")
		time.Sleep(20 * time.Millisecond)
	}
}
