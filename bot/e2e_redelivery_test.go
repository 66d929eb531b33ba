package bot_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/require"
)

// outcomes counts the interactions a bot reports to its Recorder, by outcome.
type outcomes struct {
	mu sync.Mutex
	n  map[string]int
}

func (o *outcomes) Interaction(_, outcome, _ string, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.n == nil {
		o.n = map[string]int{}
	}
	o.n[outcome]++
}

func (o *outcomes) count(outcome string) int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.n[outcome]
}

func (o *outcomes) total() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := 0
	for _, v := range o.n {
		n += v
	}
	return n
}

// redeliverAfterRestart restarts the bot, then has Discord deliver r's interaction
// again, waits until the bot has handled it (reported it to its Recorder, whatever it
// did), and checks that it took it for a redelivery.
func (h *harness) redeliverAfterRestart(rec *outcomes, r *discordtest.Response) {
	h.t.Helper()
	h.stop()
	h.start()
	before, redelivered := rec.total(), rec.count("redelivered")
	require.NoError(h.t, h.fake.Redeliver(r))
	require.Eventually(h.t, func() bool { return rec.total() > before }, 10*time.Second, 5*time.Millisecond,
		"the bot never handled the redelivery")
	h.noFailures() // a second answer is refused with 40060, and recorded
	require.Equal(h.t, redelivered+1, rec.count("redelivered"), "the bot did not take it for a redelivery")
}

func TestAGiftRedeliveredAfterARestartChangesNothingAndIsAnsweredOnce(t *testing.T) {
	rec := &outcomes{}
	h := newHarness(t, func(o *bot.Options) { o.Recorder = rec })
	h.cmd(bob, sub("balance"))
	r := h.cmd(alice, sub("give", userOpt("member", bob), intOpt("amount", 100)))
	require.Contains(t, text(r.Message), "100")
	require.Equal(t, int64(900), h.balance(alice))

	h.redeliverAfterRestart(rec, r)
	require.Equal(t, int64(900), h.balance(alice), "the gift was made once")
	require.Equal(t, int64(1100), h.balance(bob))
	h.noFailures() // a second answer would be refused with 40060, and recorded
	h.audit()
}

func TestADailyClaimRedeliveredAfterARestartPaysOnceAndIsAnsweredOnce(t *testing.T) {
	rec := &outcomes{}
	// No cooldown to speak of, so that only the interaction's record can refuse the
	// redelivery: the daily's own rule would refuse it anyway, with a second answer.
	h := newHarness(t, func(o *bot.Options) { o.Recorder = rec; o.DailyCooldown = time.Nanosecond })
	r := h.cmd(alice, sub("daily"))
	require.Contains(t, text(r.Message), "200")
	require.Equal(t, int64(1200), h.balance(alice))

	h.redeliverAfterRestart(rec, r)
	require.Equal(t, int64(1200), h.balance(alice), "the daily chips were paid once")
	h.noFailures()
	h.audit()
}

// bobTwists seats alice (the bank, R1.4) and bob, deals bob 5H 6D (11), stakes 10 for
// him and twists from his panel: he draws 2C (13) and plays on; alice holds 7S 9S. It
// returns the fake's answer to the twist.
func bobTwists(t *testing.T, h *harness) *discordtest.Response {
	t.Helper()
	h.seat(alice, nil, bob)
	h.deck.push(cutFor(t, 0, 2))
	h.nextRound(stack(t, "5H 7S 6D 9S 2C 3C 4C"))
	h.clickTable(bob, "deal")
	h.amount(bob, game.VerbStake, 10)
	p := h.panel(bob)
	id, ok := customID(p, "pt:act:", ":"+string(game.VerbTwist))
	require.True(t, ok, "no twist for bob:\n%s", text(p))
	r, err := h.fake.Click(channelID, p.ID, bob, id)
	require.NoError(t, err)
	require.Contains(t, text(r.Message), "2♣")
	return r
}

func TestATwistRedeliveredAfterARestartIsAppliedAndAnsweredOnce(t *testing.T) {
	rec := &outcomes{}
	h := newHarness(t, func(o *bot.Options) { o.Recorder = rec })
	r := bobTwists(t, h)
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)

	ctx := context.Background()
	tb, err := h.st.TableByChannel(ctx, guildID, channelID)
	require.NoError(t, err)
	round, err := h.st.Round(ctx, tb.ID, tb.RoundNumber)
	require.NoError(t, err)
	actions := func() int {
		as, err := h.st.Actions(ctx, round.ID)
		require.NoError(t, err)
		return len(as)
	}
	before := actions()

	h.redeliverAfterRestart(rec, r)
	require.Equal(t, before, actions(), "the twist was applied once")
	require.NotContains(t, text(h.panel(bob)), "3♣", "bob holds one twisted card")
	h.noFailures()
	h.audit()
}

// Two HTTP replicas on one PostgreSQL: a gift applied by replica A and delivered again
// to replica B changes nothing and gets no second answer from B.
func TestAGiftRedeliveredToAnotherReplicaChangesNothingAndIsAnsweredOnce(t *testing.T) {
	h, _, b := replicaPair(t, nil)
	h.cmd(bob, sub("balance"))
	r := h.cmd(alice, sub("give", userOpt("member", bob), intOpt("amount", 100)))
	require.Contains(t, text(r.Message), "100")

	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	require.NoError(t, h.fake.Redeliver(r)) // returns once B has answered the POST
	require.Equal(t, int64(900), h.balance(alice), "the gift was made once")
	require.Equal(t, int64(1100), h.balance(bob))
	h.noFailures() // B answering 200 to the redelivery is recorded as a failure
	h.audit()
}

func TestADailyClaimRedeliveredToAnotherReplicaPaysOnce(t *testing.T) {
	h, _, b := replicaPair(t, func(o *bot.Options) { o.DailyCooldown = time.Nanosecond })
	r := h.cmd(alice, sub("daily"))
	require.Contains(t, text(r.Message), "200")

	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	require.NoError(t, h.fake.Redeliver(r))
	require.Equal(t, int64(1200), h.balance(alice), "the daily chips were paid once")
	h.noFailures()
	h.audit()
}

// The same for a twist: replica B's copy of the table has no reason to refuse the
// click as stale before it reaches the store, and the store refuses it.
func TestATwistRedeliveredToAnotherReplicaIsAppliedOnce(t *testing.T) {
	h, _, b := replicaPair(t, nil)
	r := bobTwists(t, h)

	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	require.NoError(t, h.fake.Redeliver(r))
	require.NotContains(t, text(h.panel(bob)), "3♣", "bob holds one twisted card")
	h.noFailures()
	h.audit()
}
