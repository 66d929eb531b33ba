package bot_test

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/pontoon-bot/pontoon/bot/metrics"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// interactions reads pontoon_interactions_total from the metrics' registry: the count
// for each "kind outcome reason".
func interactions(t *testing.T, m *metrics.Metrics) map[string]float64 {
	t.Helper()
	fams, err := m.Registry().Gather()
	require.NoError(t, err)
	out := map[string]float64{}
	for _, f := range fams {
		if f.GetName() != "pontoon_interactions_total" {
			continue
		}
		for _, s := range f.GetMetric() {
			l := map[string]string{}
			for _, p := range s.GetLabel() {
				l[p.GetName()] = p.GetValue()
			}
			out[strings.Join([]string{l["kind"], l["outcome"], l["reason"]}, " ")] += s.GetCounter().GetValue()
		}
	}
	return out
}

// Each interaction answered through route → table → view → reply is counted once, with
// the outcome the member was told: answered; refused with its reason code whether the
// refusal came as a private line (fail: no table to stop) or on top of the member's
// panel (a stale select, refusalText).
func TestInteractionMetrics(t *testing.T) {
	m := metrics.New()
	h := newHarness(t, func(o *bot.Options) { o.Recorder = m })

	r := h.cmd(alice, sub("stop"))
	require.Contains(t, text(r.Message), "⛔")
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 8D 8C 9S") // alice wins the cut: she is the banker
	p := h.panel(bob)
	stake, ok := customID(p, "pt:amt:", ":stake")
	require.True(t, ok, "bob's panel offers a stake: %s", text(p))
	h.amount(bob, game.VerbStake, 5)
	// The same select again, from the panel before the stake: a stale turn, refused on
	// the panel, changing nothing.
	before := h.balance(bob)
	res, err := h.fake.Select(channelID, p.ID, bob, stake, []string{"5"})
	require.NoError(t, err)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, res.Type)
	require.Contains(t, text(res.Message), "⛔")
	assert.Equal(t, before, h.balance(bob))
	assert.Equal(t, 1, h.bot.TimersPending(), "the round waits on the players' stakes under one turn timer")

	// An interaction is counted once Discord has taken its answer, just after the fake
	// hands the answer to the test: wait for all nine.
	var got map[string]float64
	require.Eventually(t, func() bool {
		got = interactions(t, m)
		n := 0.0
		for _, v := range got {
			n += v
		}
		return n == 9
	}, 5*time.Second, 5*time.Millisecond, "interactions counted: %v", got)
	assert.Equal(t, 1.0, got["command:stop refused no_table"], "%v", got)
	assert.Equal(t, 1.0, got["command:start answered "], "%v", got)
	assert.Equal(t, 2.0, got["component:join answered "], "%v", got)
	assert.Equal(t, 1.0, got["component:deal answered "], "%v", got)
	assert.Equal(t, 1.0, got["component:amt answered "], "%v", got)
	assert.Equal(t, 1.0, got["component:amt refused stale_turn"], "%v", got)
	assert.Equal(t, 2.0, got["component:cards answered "], "%v", got)
	var failed float64
	for k, v := range got {
		if strings.Contains(k, " failed ") {
			failed += v
		}
	}
	assert.Zero(t, failed, "%v", got)
	h.audit()
	h.noFailures()
}

// pontoon_timers_pending counts every timer of the rules that is armed: a turn timer while
// a round waits on someone (R7.4), and an auction's close (R9.8) between rounds.
func TestTimersPending(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, shootOpts(), bob, carol)
	assert.Zero(t, h.bot.TimersPending(), "no round, no offer, no auction")
	assert.Equal(t, 1, h.bot.LiveTables())
	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(alice, "deal") // the cut makes alice the banker; with no kitty the deal waits
	assert.Zero(t, h.bot.TimersPending(), "waiting for a kitty is not a turn")

	r := h.cmd(alice, group("bank", "auction"))
	require.Contains(t, text(r.Message), "auction has started")
	assert.Equal(t, 1, h.bot.TimersPending(), "the auction's close")
	h.noFailures()
}

// jsonLine is the first JSON line of logs with message msg, or nil.
func jsonLine(logs *logtest.Buffer, msg string) map[string]any {
	for _, l := range logs.Lines() {
		var rec map[string]any
		if json.Unmarshal([]byte(l), &rec) == nil && rec["msg"] == msg {
			return rec
		}
	}
	return nil
}

// A line logged about an interaction's work after its reply (here Discord refusing the
// auction's public message) names the interaction, its guild and channel, and the table
// and round the command found by its channel.
func TestLogLinesNameTheInteraction(t *testing.T) {
	var logs logtest.Buffer
	h := newHarness(t, func(o *bot.Options) { o.Logger = slog.New(slog.NewJSONHandler(&logs, nil)) })
	h.seat(alice, shootOpts(), bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(alice, "deal") // alice banks; the kitty is empty, so she may auction (R9.8)
	tb, err := h.st.TableByChannel(t.Context(), guildID, channelID)
	require.NoError(t, err)

	h.fake.FailNext("POST /channels/"+channelID+"/messages", 1, 500, 0, "injected")
	r := h.cmd(alice, group("bank", "auction"))
	require.Contains(t, text(r.Message), "auction has started")
	var rec map[string]any
	require.Eventually(t, func() bool { rec = jsonLine(&logs, "auction not posted"); return rec != nil }, 5*time.Second, 10*time.Millisecond)
	assert.Equal(t, guildID, rec["guild"])
	assert.Equal(t, channelID, rec["channel"])
	assert.Equal(t, "command:bank_auction", rec["kind"])
	assert.NotEmpty(t, rec["interaction"])
	assert.Equal(t, float64(tb.ID), rec["table"])
	assert.Equal(t, float64(tb.RoundNumber), rec["round"])
}
