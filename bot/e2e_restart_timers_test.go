package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// R7.4: a turn deadline still to come when the bot stops is in the store, and the bot
// started again on the same SQLite file fires it when it falls due, though no click
// reaches the table after the restart.
func TestATurnDeadlinePendingAtAStopFiresAfterTheRestart(t *testing.T) {
	clk := newClock()
	h := newHarness(t, clk.use)
	h.seat(alice, nil, bob, carol)
	h.deal(alice, 0, "9H TC 7S 4D 8C 9S")
	h.amount(bob, game.VerbStake, 10)
	clk.Advance(30 * time.Second) // half carol's turn passes before the stop
	h.stop()
	h.start()
	// The restarted bot arms its timer from the store's row in its own time: the clock
	// moves on a second at a time until carol's stake has timed out.
	require.Eventually(t, func() bool {
		clk.Advance(time.Second)
		m := h.findTable()
		return m != nil && strings.Contains(text(m), "<@"+carol+"> ran out of time.")
	}, 10*time.Second, 20*time.Millisecond, "carol's stake never timed out after the restart")
	ctx := context.Background()
	tb, err := h.st.TableByChannel(ctx, guildID, channelID)
	require.NoError(t, err)
	r, err := h.st.Round(ctx, tb.ID, 1)
	require.NoError(t, err)
	acts, err := h.st.Actions(ctx, r.ID)
	require.NoError(t, err)
	timeouts := 0
	for _, a := range acts {
		if a.Verb == string(game.VerbTimeout) && a.Member == carol {
			timeouts++
		}
	}
	assert.Equal(t, 1, timeouts, "carol's stake times out once")
	h.audit()
}

// R9.8: an auction running when the bot stops is in the store with its bids; after the
// restart its close falls due and sells the bank to the highest bid placed before the
// stop.
func TestAnAuctionRunningAtAStopClosesAfterTheRestart(t *testing.T) {
	clk := newClock()
	h := newHarness(t, func(o *bot.Options) { clk.use(o); o.BidWindow = 10 * time.Second })
	h.seat(alice, shootOpts(), bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(alice, "deal") // alice banks; no kitty yet
	r := h.cmd(alice, group("bank", "auction"))
	require.Contains(t, text(r.Message), "auction has started")
	r = h.cmd(bob, group("bank", "bid", intOpt("amount", 30)))
	require.Contains(t, text(r.Message), "30 chips is the highest")
	h.stop()
	h.start()
	r = h.cmd(carol, group("bank", "bid", intOpt("amount", 30)))
	require.Contains(t, text(r.Message), "Bid more than the highest bid of 30", "the bid placed before the restart still stands")
	r = h.cmd(carol, group("bank", "bid", intOpt("amount", 45)))
	require.Contains(t, text(r.Message), "45 chips is the highest")
	require.Eventually(t, func() bool {
		clk.Advance(time.Second)
		m := h.findTable()
		return m != nil && strings.Contains(text(m), "won the bank from <@"+alice+"> for 45 chips")
	}, 10*time.Second, 20*time.Millisecond, "the auction never closed after the restart")
	assert.Equal(t, int64(1045), h.balance(alice))
	assert.Equal(t, int64(955), h.balance(carol))
	assert.Equal(t, int64(1000), h.balance(bob))
	h.audit()
}
