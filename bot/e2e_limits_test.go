package bot_test

import (
	"context"
	"log/slog"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/logging/logtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What one server may make the bot hold or compute: its open tables and the odds of
// rule sets not simulated yet.

const channel3 = "200000000000000003"

// /pontoon start past the server's limit of open tables is refused privately, naming the
// limit, and opens nothing; once a table stops, a place is free again.
func TestStartPastTheServersTableLimitIsRefusedNamingIt(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.MaxOpenTables = 1 })
	h.seat(alice, nil)
	h.fake.AddChannel(guildID, channel3)
	r, err := h.fake.Command(guildID, channel3, bob, "pontoon", sub("start"))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, "the refusal is private")
	assert.Equal(t, "⛔ This server has reached its limit of open tables (1). Stop one of them before starting another.", text(r.Message))
	_, err = h.st.TableByChannel(context.Background(), guildID, channel3)
	require.Error(t, err, "no table opened in the second channel")
	assert.Empty(t, h.fake.Messages(channel3), "nothing posted")
	h.noFailures()
}

// matching is what re finds in each line of logs that it matches.
func matching(logs *logtest.Buffer, re *regexp.Regexp) []string {
	var out []string
	for _, line := range logs.Lines() {
		if m := re.FindString(line); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// oddsIn asks for the odds in a channel and returns the private answer, waiting for the
// deferred one when the rule set is simulated.
func (h *harness) oddsIn(channel, member string) (deferred bool, answer string) {
	h.t.Helper()
	r, err := h.fake.Command(guildID, channel, member, "pontoon", sub("odds"))
	require.NoError(h.t, err)
	require.True(h.t, r.Ephemeral)
	if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
		return false, text(r.Message)
	}
	m, err := r.WaitEdit(2 * time.Minute)
	require.NoError(h.t, err)
	return true, text(m)
}

// The process simulates one rule set at a time: asked for two new rule sets and then the
// first again, all at once, it simulates the first, then the second, and answers the
// third from the first's result without simulating it again.
func TestOddsAreSimulatedOneAtATime(t *testing.T) {
	var logs logtest.Buffer
	h := newHarness(t, func(o *bot.Options) {
		o.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	})
	h.seat(alice, []*discordgo.ApplicationCommandInteractionDataOption{intOpt("pontoon_pays", 3)}, bob)
	h.fake.AddChannel(guildID, channel3)
	var wg sync.WaitGroup
	answers := make([]string, 3)
	ask := func(i int, channel, member string) {
		// Each request is answered (deferred) before the next is sent: the three wait or
		// simulate together.
		r, err := h.fake.Command(guildID, channel, member, "pontoon", sub("odds"))
		require.NoError(t, err)
		if r.Type != discordgo.InteractionResponseDeferredChannelMessageWithSource {
			answers[i] = text(r.Message) // a machine so slow that the first was kept already
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := r.WaitEdit(2 * time.Minute)
			if assert.NoError(t, err) {
				answers[i] = text(m)
			}
		}()
	}
	ask(0, channelID, alice) // the table's rules: pontoon pays three times, two seats
	ask(1, channel3, carol)  // no table: the server's defaults at five seats
	ask(2, channelID, bob)   // the table's rules again
	wg.Wait()
	for i, a := range answers {
		assert.Contains(t, a, "The bank keeps", "answer %d", i)
	}
	assert.Equal(t, answers[0], answers[2], "the same rule set, the same figures")
	assert.Equal(t, []string{"simulating odds", "odds simulated", "simulating odds", "odds simulated"},
		matching(&logs, regexp.MustCompile(`simulating odds|odds simulated`)), "one simulation at a time, none twice")
	h.noFailures()
}

// A server asking for the odds of more new rule sets in an hour than it may is told the
// limit and when to ask again, privately and at once; odds already kept are still
// answered, and the next hour it may again.
func TestOddsPastTheServersHourlyBudgetAreRefused(t *testing.T) {
	clk := newClock()
	h := newHarness(t, func(o *bot.Options) {
		clk.use(o)
		o.OddsPerHour = 1
	})
	h.fake.AddChannel(guildID, channel3)
	deferred, first := h.oddsIn(channel3, carol) // the server's defaults: the hour's one
	require.True(t, deferred)
	require.Contains(t, first, "The bank keeps")

	h.seat(alice, []*discordgo.ApplicationCommandInteractionDataOption{intOpt("pontoon_pays", 3)}, bob)
	deferred, refused := h.oddsIn(channelID, alice)
	require.False(t, deferred, "refused at once, nothing simulated")
	again := clk.Now().Add(time.Hour).Unix()
	assert.Equal(t, "⛔ This server has asked for the odds of new rule sets as often as it may this hour (limit: 1 per hour). "+
		"Odds already worked out are still answered at once; ask again <t:"+strconv.FormatInt(again, 10)+":R>.", refused)

	deferred, kept := h.oddsIn(channel3, dave)
	assert.False(t, deferred, "kept odds are answered at any rate")
	assert.Equal(t, first, kept)

	clk.Advance(time.Hour)
	deferred, answer := h.oddsIn(channelID, alice)
	assert.True(t, deferred, "a new hour, a new budget")
	assert.Contains(t, answer, "Three times the stake")
	h.noFailures()
}

// Rule sets the simulation plays alike share one kept result: a table whose stake limits
// differ but whose simulated flat stake is the same is answered at once, with the same
// figures, and costs no simulation of the server's hourly budget.
func TestOddsOfEquivalentRuleSetsShareOneResult(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.OddsPerHour = 1 })
	h.seat(alice, []*discordgo.ApplicationCommandInteractionDataOption{intOpt("min_stake", 2)}, bob)
	deferred, first := h.oddsIn(channelID, alice)
	require.True(t, deferred)
	require.Contains(t, first, "The bank keeps")

	h.fake.AddChannel(guildID, channel3)
	r, err := h.fake.Command(guildID, channel3, carol, "pontoon", sub("start", intOpt("min_stake", 5), intOpt("max_stake", 40)))
	require.NoError(t, err)
	require.True(t, r.Ephemeral, text(r.Message))
	deferred, second := h.oddsIn(channel3, carol) // a table of one: simulated at two seats, as alice's

	assert.False(t, deferred, "the same simulation: answered at once")
	assert.Equal(t, first, second)
	h.noFailures()
}

// The store keeps Options.OddsKept results: past them the oldest goes, and asking for it
// again simulates it again, with the same figures.
func TestOddsPastTheKeptBoundAreSimulatedAgain(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.OddsKept = 1 })
	h.seat(alice, []*discordgo.ApplicationCommandInteractionDataOption{intOpt("pontoon_pays", 3)}, bob)
	deferred, first := h.oddsIn(channelID, alice)
	require.True(t, deferred)
	h.fake.AddChannel(guildID, channel3)
	deferred, _ = h.oddsIn(channel3, carol) // the server's defaults: alice's table's result goes
	require.True(t, deferred)
	deferred, again := h.oddsIn(channelID, bob)
	assert.True(t, deferred, "let go, so simulated again")
	assert.Equal(t, first, again)
	deferred, _ = h.oddsIn(channelID, alice)
	assert.False(t, deferred, "kept again")
	h.noFailures()
}
