package bot_test

import (
	"context"
	"testing"
	"time"

	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The table's Deal button carries the round it was drawn in. A member whose client still
// shows the table from before a round (Discord lost the edits that followed) has not
// seen that round at all: their Deal is refused with both round numbers, and deals
// nothing, rather than dealing yet another round.
func TestADealButtonFromAnEarlierRoundDealsNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	before := h.tableMessage()
	deal, ok := customID(before, "pt:deal:", "")
	require.True(t, ok)

	// Discord loses every edit of the table message, and the Deal click's own answer.
	_, keep := h.fake.FailEvery("PATCH /channels/"+channelID+"/messages/"+before.ID, 500, 0, "500: Internal Server Error")
	defer keep()
	lost := h.fake.HoldNext("POST /interactions/")
	go func() {
		<-lost.Arrived()
		lost.Fail(404, 10062, "Unknown interaction")
	}()
	h.fake.SetResponseDeadline(time.Second)
	h.deck.push(cutFor(t, 0, 2)) // alice banks
	h.nextRound(stack(t, "9H 7S 8D 9S"))
	_, err := h.fake.Click(channelID, before.ID, alice, deal)
	require.Error(t, err, "the deal's answer was lost")
	h.fake.SetResponseDeadline(discordtest.DefaultResponseDeadline)
	h.fake.ClearFailures()

	// Round 1 is played out on the panels; the table message still shows the table
	// before it, Deal button and all.
	h.amount(bob, game.VerbStake, 10)
	h.do(bob, game.VerbStick)
	h.do(alice, game.VerbStay)
	ctx := context.Background()
	r1, err := h.st.Round(ctx, h.tableID(), 1)
	require.NoError(t, err)
	require.True(t, r1.Finished())
	require.Equal(t, text(before), text(h.tableMessage()), "the table message was never edited")
	balances := map[string]int64{alice: h.balance(alice), bob: h.balance(bob)}

	h.refusedUnchanged(channelID, before.ID, alice, deal, "This button is from round 0; the table is on round 1.")
	assert.Equal(t, text(before), text(h.tableMessage()), "the table message still shows the table before round 1")
	tb, err := h.st.TableByChannel(ctx, guildID, channelID)
	require.NoError(t, err)
	assert.Equal(t, 1, tb.RoundNumber, "no second round was dealt")
	assert.Equal(t, balances[alice], h.balance(alice))
	assert.Equal(t, balances[bob], h.balance(bob))

	h.audit()
}
