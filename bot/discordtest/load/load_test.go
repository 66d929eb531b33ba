package load_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot/discordtest/load"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A few seconds at a low rate against the real binary: every interaction sent in the
// window is answered and none is refused (the members only press what is legal), the
// tables play whole rounds, the bot stops cleanly and the audit balances afterwards.
// No figure is asserted: timings belong to the command's report, not to a test.
// The same over the bot's HTTP interactions endpoint (-http), the fake signing each
// POST as Discord does. The gateway run gives the bot a setting (-env), which the report
// names.
func TestRunAgainstTheBinary(t *testing.T) {
	ctx := context.Background()
	bin, err := load.BuildBot(ctx, t.TempDir())
	require.NoError(t, err)
	for _, overHTTP := range []bool{false, true} {
		name := "gateway"
		if overHTTP {
			name = "http"
		}
		t.Run(name, func(t *testing.T) { runAgainst(t, bin, overHTTP) })
	}
}

func runAgainst(t *testing.T, bin string, overHTTP bool) {
	ctx := context.Background()
	var progress bytes.Buffer
	var settings []string
	if !overHTTP {
		settings = []string{"PONTOON_GAME_TABLE_PICTURE=false"}
	}
	rep, err := load.Run(ctx, load.Config{
		Bot: bin, Tables: 6, Guilds: 2, Seats: 3, Rate: 25, HTTP: overHTTP,
		Warmup: time.Second, Duration: 4 * time.Second, Timeout: 2 * time.Minute,
		OpenAPI: true, Dir: t.TempDir(), Progress: &progress, BotEnv: settings,
	})
	require.NoError(t, err, progress.String())
	want := "gateway"
	if overHTTP {
		want = "http"
	}
	assert.Equal(t, want, rep.Interactions)
	var text bytes.Buffer
	rep.WriteText(&text)
	t.Log("\n" + text.String())
	assert.Equal(t, settings, rep.Settings)
	if settings != nil {
		assert.Contains(t, text.String(), "settings:   PONTOON_GAME_TABLE_PICTURE=false\n")
	}

	assert.Positive(t, rep.Sent)
	assert.Equal(t, rep.Sent, rep.Answered, "every interaction sent in the window is answered")
	assert.Zero(t, rep.Errors)
	assert.Zero(t, rep.Refused, "the members press only what their table and panel offer: %v", rep.Samples)
	assert.Zero(t, rep.FakeFailures, "%v", rep.FakeFailureSamples)
	assert.Zero(t, rep.StuckTables, "%v", rep.Samples)
	assert.Zero(t, rep.BotErrors, "%v", rep.BotLogSamples)
	assert.True(t, rep.AuditBalanced, "pontoon audit: %s", rep.AuditOutput)
	assert.Contains(t, rep.BotExit, "SIGTERM: exit status 0")
	assert.True(t, rep.OK())
	// Real rounds: dealt, staked, played and settled.
	for _, k := range []string{"deal", "look", "act"} {
		assert.Positive(t, rep.Mix[k], "answered %s clicks", k)
	}
	assert.Positive(t, rep.RoundsSettled)
	assert.Positive(t, rep.BotPeakRSSMiB)
	assert.Positive(t, rep.BotCPUSeconds)
	// A bot that answers over sockets spends some of its CPU in the kernel, never all.
	assert.Greater(t, rep.BotKernelShare, 0.0)
	assert.Less(t, rep.BotKernelShare, 1.0)
	// Every thread's share of the bot's CPU, from /proc/<pid>/task: they add up.
	require.NotEmpty(t, rep.BotThreadShares)
	sum := 0.0
	for _, f := range rep.BotThreadShares {
		sum += f
	}
	assert.InDelta(t, 1, sum, 0.3, "the busiest threads' shares: %v (the rest are the others')", rep.BotThreadShares)
	assert.LessOrEqual(t, sum, 1.0001)
	assert.GreaterOrEqual(t, rep.BotMonitorShare, 0.0)
	assert.LessOrEqual(t, rep.BotMonitorShare, rep.BotThreadShares[0]+1e-9)

	// --json prints the same report.
	b, err := json.Marshal(rep)
	require.NoError(t, err)
	var back load.Report
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, rep.Answered, back.Answered)
	assert.Equal(t, rep.LatencyMS, back.LatencyMS)
}

// A configuration that cannot run is refused before anything starts.
func TestRunRefusesBadConfig(t *testing.T) {
	for name, cfg := range map[string]load.Config{
		"one seat":                       {Seats: 1},
		"negative rate":                  {Rate: -1},
		"window longer than the timeout": {Duration: time.Hour, Timeout: time.Minute},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := load.Run(context.Background(), cfg)
			require.Error(t, err)
		})
	}
}
