package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// joinAnswered checks that a Join click was answered: the table updated in place, or
// the click acknowledged for the table's next edit to show it.
func joinAnswered(t *testing.T, r *discordtest.Response, err error, who string) {
	t.Helper()
	require.NoError(t, err, "%s's Join was not answered", who)
	assert.Contains(t, []discordgo.InteractionResponseType{discordgo.InteractionResponseUpdateMessage,
		discordgo.InteractionResponseDeferredMessageUpdate}, r.Type, "%s's Join: %s", who, text(r.Message))
}

// seatedInStore waits, for as long as a member's click may take at most, until the
// store seats exactly want at the channel's table.
func seatedInStore(t *testing.T, h *harness, want ...string) {
	t.Helper()
	var seats []string
	require.Eventually(t, func() bool {
		tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
		if err != nil {
			return false
		}
		seats = seats[:0]
		for _, s := range tb.Seats {
			seats = append(seats, s.Member)
		}
		return assert.ObjectsAreEqual(want, seats)
	}, 15*time.Second, 20*time.Millisecond, "the table seats %v", seats)
}

// Two HTTP replicas on one PostgreSQL, and Discord taking as long as it likes over
// an edit of the table message (held by the fake until the end). Two Joins clicked
// meanwhile, one on each replica, are both answered and both applied while the edit
// is still on its way: no replica keeps the table while it waits on Discord. Once the
// edit is let go, the message shows both.
func TestJoinsOnTwoReplicasDuringASlowTableEditAreApplied(t *testing.T) {
	h, a, b := replicaPair(t, func(o *bot.Options) { o.EditWait = 250 * time.Millisecond })
	hold := h.fake.HoldNext("PATCH /channels/" + channelID + "/messages/")
	h.cmd(alice, sub("start"))
	m := h.tableMessage()
	<-hold.Arrived() // the publisher's first edit of the message is now on its way

	join, ok := customID(m, "pt:join:", "")
	require.True(t, ok)
	r, err := h.fake.Click(channelID, m.ID, bob, join) // to replica A, whose edit is held
	joinAnswered(t, r, err, "bob")
	require.NoError(t, h.fake.SetInteractionsEndpoint(b.srv.URL))
	r, err = h.fake.Click(channelID, m.ID, carol, join)
	joinAnswered(t, r, err, "carol")
	seatedInStore(t, h, alice, bob, carol)
	select {
	case <-hold.Arrived():
	default:
		t.Fatal("the held edit was let go")
	}

	hold.Release()
	h.waitTable("<@" + carol + ">")
	require.Eventually(t, func() bool {
		s := text(h.findTable())
		return strings.Contains(s, "<@"+bob+">") && strings.Contains(s, "<@"+carol+">")
	}, 15*time.Second, 20*time.Millisecond, "the table message does not show both joins:\n%s", text(h.findTable()))
	_ = a
	h.noFailures()
}

// One process on SQLite, and Discord taking as long as it likes over an edit of the
// table message: two Joins clicked meanwhile are answered and applied, and the message
// shows both once the edit is let go.
func TestJoinsDuringASlowTableEditAreApplied(t *testing.T) {
	h := newHarness(t, func(o *bot.Options) { o.EditWait = 250 * time.Millisecond })
	hold := h.fake.HoldNext("PATCH /channels/" + channelID + "/messages/")
	h.cmd(alice, sub("start"))
	m := h.tableMessage()
	<-hold.Arrived()

	join, ok := customID(m, "pt:join:", "")
	require.True(t, ok)
	for _, who := range []string{bob, carol} {
		r, err := h.fake.Click(channelID, m.ID, who, join)
		joinAnswered(t, r, err, who)
	}
	seatedInStore(t, h, alice, bob, carol)

	hold.Release()
	require.Eventually(t, func() bool {
		s := text(h.findTable())
		return strings.Contains(s, "<@"+bob+">") && strings.Contains(s, "<@"+carol+">")
	}, 15*time.Second, 20*time.Millisecond, "the table message does not show both joins:\n%s", text(h.findTable()))
	h.noFailures()
}

// A restart within minutes of play, over tables opened and joined minutes before
// whose messages show their state, edits none of them; the one table whose last change (a kitty top-up) was lost with
// its edit at the stop is drawn again, once.
func TestRestartRedrawsOnlyTheMessageThatIsBehind(t *testing.T) {
	const n = 40
	h := shootRoundPlayedWith(t, func(o *bot.Options) { o.MaxOpenTables = n + 1 }) // n tables past the shoot table, in one server
	channels := make([]string, n)
	tableIn := func(ch string) *discordgo.Message {
		var last *discordgo.Message
		for _, m := range h.fake.Messages(ch) {
			if isV2(m) {
				last = m
			}
		}
		return last
	}
	for i := range channels {
		ch := fmt.Sprintf("7%017d", i+1)
		channels[i] = ch
		h.fake.AddChannel(guildID, ch)
		_, err := h.fake.Command(guildID, ch, alice, "pontoon", sub("start"))
		require.NoError(t, err)
		require.Eventually(t, func() bool { return tableIn(ch) != nil }, 10*time.Second, 5*time.Millisecond)
		// A join: the table's last drawing is the Join's own answer.
		m := tableIn(ch)
		join, ok := customID(m, "pt:join:", "")
		require.True(t, ok)
		r, err := h.fake.Click(ch, m.ID, bob, join)
		require.NoError(t, err)
		require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
	}
	quiet(h, 300*time.Millisecond, 30*time.Second) // every table's edits are done
	h.stopLosingTableEdits("Kitty: 180 chips", func() {
		r := h.cmd(alice, group("bank", "kitty", intOpt("amount", 50)))
		require.Contains(t, text(r.Message), "now holds 180")
	})

	before := len(h.fake.Requests())
	h.start()
	h.waitTable("Kitty: 180 chips")
	quiet(h, 300*time.Millisecond, 30*time.Second)
	idle, behind := 0, 0
	for _, r := range h.fake.Requests()[before:] {
		switch {
		case r.Method == "GET":
		case strings.HasPrefix(r.Path, "/api/v9/channels/7"):
			idle++
		case strings.HasPrefix(r.Path, "/api/v9/channels/"+channelID+"/messages/"):
			behind++
		}
	}
	assert.Zero(t, idle, "the restart sent %d requests about %d tables whose messages showed their state", idle, n)
	assert.Equal(t, 1, behind, "the table whose change was lost is drawn once")
	h.noFailures()
}

// Discord refuses the answer of a Join that would have shown the new seat on the
// table message: the join stands, and the publisher's edit shows it.
func TestAJoinWhoseAnswerWasRefusedIsShownByAnEdit(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	quiet(h, 300*time.Millisecond, 30*time.Second)
	h.fake.FailNext("POST /interactions/", 1, 500, 0, "500: Internal Server Error")
	m := h.tableMessage()
	join, ok := customID(m, "pt:join:", "")
	require.True(t, ok)
	_, _ = h.fake.Click(channelID, m.ID, carol, join) // its answer is refused
	seatedInStore(t, h, alice, bob, carol)
	h.waitTable("<@" + carol + ">")
}
