package bot_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// roundsShown is, for each version the table message has had, the round its buttons
// belong to (the custom ids carry it), in the order the versions landed.
func (h *harness) roundsShown(msg string) []int {
	h.t.Helper()
	var out []int
	for _, ids := range h.fake.ComponentHistory(msg) {
		round := -1
		for _, id := range ids {
			if f := strings.Split(id, ":"); len(f) == 6 && f[1] == "cards" {
				round, _ = strconv.Atoi(f[3])
			}
		}
		out = append(out, round)
	}
	return out
}

// A click on the table while the publisher's edit of the same message is on its way
// (here held by the fake past the bot's patience) must not be overtaken by that edit:
// drawn from the settled round, it would land after the Deal's answer and take the new
// round's buttons away again from the members who had just seen them (a load run found
// two members' My cards refused that way). The Deal is acknowledged instead, and the
// table shows the new round once the older edit is in; the rounds the message shows
// never go backwards.
func TestTableAnswerNeverOvertakenByAnOlderEdit(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.EditWait = 100 * time.Millisecond })
	msg := h.bankersTurn()
	// Let the reveal's edit land, so that the next PATCH is the settlement's.
	edits := h.fake.EditCount(msg)
	require.Eventually(t, func() bool {
		n := h.fake.EditCount(msg)
		settled := n == edits
		edits = n
		return settled
	}, 5*time.Second, 100*time.Millisecond)

	hold := h.fake.HoldNext("PATCH /channels/" + channelID + "/messages/" + msg)
	h.do(alice, game.VerbStay)
	select {
	case <-hold.Arrived():
	case <-time.After(5 * time.Second):
		t.Fatal("the settlement was never drawn")
	}
	before := h.fake.EditCount(msg) // the held edit is not in yet
	r := h.deal(bob, 0, "9C 7S 8D 9S 4S")
	assert.Equal(t, discordgo.InteractionResponseDeferredMessageUpdate, r.Type,
		"the older edit is still on its way: the Deal is acknowledged, not drawn under it")
	hold.Release()
	// The held edit, then the table drawn again (or, were the Deal drawn at once, the
	// other way round).
	require.Eventually(t, func() bool { return h.fake.EditCount(msg) >= before+2 }, 5*time.Second, 5*time.Millisecond)
	h.waitTable("Stakes: waiting for")

	shown := h.roundsShown(msg)
	require.Contains(t, shown, 2, "the table showed round 2")
	for i := 1; i < len(shown); i++ {
		assert.GreaterOrEqual(t, shown[i], shown[i-1], "the rounds the table showed went backwards: %v", shown)
	}
	h.noFailures()
	h.audit()
}

// When the publisher's edit comes in time, a Deal pressed meanwhile waits for it and
// then answers with the new round in place, as usual, and lands last. (The harness makes
// the bot's patience long, so that a slow machine cannot turn this test into the one
// above.)
func TestTableAnswerWaitsForAnEditInTime(t *testing.T) {
	h := newHarness(t, nil)
	msg := h.bankersTurn()
	hold := h.fake.HoldNext("PATCH /channels/" + channelID + "/messages/" + msg)
	h.do(alice, game.VerbStay)
	<-hold.Arrived()
	before := h.fake.EditCount(msg) // the held edit is not in yet
	go func() {
		time.Sleep(20 * time.Millisecond)
		hold.Release()
	}()
	r := h.deal(bob, 0, "9C 7S 8D 9S 4S")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, "the edit was done in time: the Deal draws the new round")
	assert.Contains(t, text(r.Message), "Stakes: waiting for")
	// Once both the held edit and the answer are in, the answer is the later.
	require.Eventually(t, func() bool { return h.fake.EditCount(msg) >= before+2 }, 5*time.Second, 5*time.Millisecond)
	shown := h.roundsShown(msg)
	for i := 1; i < len(shown); i++ {
		assert.GreaterOrEqual(t, shown[i], shown[i-1], "the rounds the table showed went backwards: %v", shown)
	}
	h.noFailures()
}
