package bot_test

import (
	"context"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A component is honoured only where the bot posted it: in its table's server and
// channel, on the table's own message (or a member's panel in that channel, or the
// offer's message). A copy of its custom id anywhere else is refused privately and changes
// nothing: no seat, no wallet, no deal, no chips, no edit of the table.

const (
	otherGuild   = "100000000000000002"
	otherChannel = "200000000000000002" // in otherGuild
	sideChannel  = "200000000000000003" // in guildID, beside the table's channel
	eve          = "300000000000000005" // a member of otherGuild only
)

// postButtons posts, with the bot's own token, a message in channel with a button for
// each custom id: a table's buttons somewhere the bot never put them. Only messages of
// the bot's application send it interactions, so this is how such a click reaches it.
func (h *harness) postButtons(channel string, ids ...string) *discordgo.Message {
	h.t.Helper()
	s, err := discordapi.NewSession(h.fake.Token, h.fake.URL(), nil)
	require.NoError(h.t, err)
	var buttons []discordgo.MessageComponent
	for _, id := range ids {
		buttons = append(buttons, discordgo.Button{Label: "press", Style: discordgo.PrimaryButton, CustomID: id})
	}
	m, err := s.ChannelMessageSendComplex(channel, &discordgo.MessageSend{Content: "copied buttons",
		Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: buttons}}})
	require.NoError(h.t, err)
	return m
}

// refusedUnchanged has member click id on message messageID in channel and checks that
// the answer is a private message of its own (the clicked message is not replaced) that
// says want, and that the click wrote nothing: the table, the seats, the chips and so the
// table's message are as they were (each test checks the ones it could have changed).
func (h *harness) refusedUnchanged(channel, messageID, member, id, want string) {
	h.t.Helper()
	var r *discordtest.Response
	writes := h.writesDuring(func() {
		var err error
		r, err = h.fake.Click(channel, messageID, member, id)
		require.NoError(h.t, err)
	})
	require.True(h.t, r.Ephemeral, "the refusal is private: %s", text(r.Message))
	require.Equal(h.t, discordgo.InteractionResponseChannelMessageWithSource, r.Type, "the clicked message is left as it is")
	require.Contains(h.t, text(r.Message), want)
	assert.Zero(h.t, writes, "a refused click writes nothing")
}

// seatsAt is who sits at the channel's table, in seat order.
func (h *harness) seatsAt() []string {
	h.t.Helper()
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(h.t, err)
	var out []string
	for _, s := range tb.Seats {
		out = append(out, s.Member)
	}
	return out
}

func (h *harness) noWallet(guild, member string) {
	h.t.Helper()
	_, err := h.st.Wallet(context.Background(), guild, member)
	assert.ErrorIs(h.t, err, store.ErrNotFound, "%s has no wallet in %s", member, guild)
}

func TestTableButtonsFromAnotherServerChangeNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.fake.AddGuild(otherGuild, "en-US")
	h.fake.AddChannel(otherGuild, otherChannel)
	h.fake.AddMember(otherGuild, eve, "eve", 0, "en-US")
	join, ok := customID(h.tableMessage(), "pt:join:", "")
	require.True(t, ok)
	copied := h.postButtons(otherChannel, join)

	h.refusedUnchanged(otherChannel, copied.ID, eve, join, "belongs to a table in another channel or server")
	assert.Equal(t, []string{alice, bob}, h.seatsAt(), "nobody sat down")
	assert.NotContains(t, text(h.tableMessage()), eve, "the table does not show eve")
	h.noWallet(guildID, eve)
	h.noWallet(otherGuild, eve)
	h.audit()
	h.noFailures()
}

// The table's Join and Deal copied onto a message the bot did not post them on, in
// another channel or in the table's own, change nothing when clicked: each click is
// refused privately, saying why.
func TestTableButtonsAwayFromTheTableMessageChangeNothing(t *testing.T) {
	for _, tc := range []struct {
		name, channel, why string
	}{
		{"another channel", sideChannel, "belongs to a table in another channel or server"},
		{"another message", channelID, "only works on the message the bot posted it on"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.seat(alice, nil, bob)
			h.fake.AddChannel(guildID, sideChannel)
			table := h.tableMessage()
			join, ok := customID(table, "pt:join:", "")
			require.True(t, ok)
			deal, ok := customID(table, "pt:deal:", "")
			require.True(t, ok)
			copied := h.postButtons(tc.channel, join, deal)

			h.refusedUnchanged(tc.channel, copied.ID, carol, join, tc.why)
			h.refusedUnchanged(tc.channel, copied.ID, alice, deal, tc.why)
			assert.Equal(t, []string{alice, bob}, h.seatsAt(), "nobody sat down")
			assert.NotContains(t, text(h.tableMessage()), carol, "the table does not show carol")
			assert.NotContains(t, text(h.tableMessage()), "· round 1", "the table shows no round")
			h.noWallet(guildID, carol)
			tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
			require.NoError(t, err)
			assert.Zero(t, tb.RoundNumber, "no round was dealt")
			assert.Equal(t, int64(1000), h.balance(alice))
			assert.Equal(t, int64(1000), h.balance(bob))
			h.audit()
			h.noFailures()
		})
	}
}

func TestOfferButtonsAwayFromTheOfferChangeNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.fake.AddChannel(guildID, sideChannel)
	h.deal(alice, 0, "9H 7S 8D 9S") // alice banks
	h.amount(bob, game.VerbStake, 10)
	h.do(bob, game.VerbStick)
	h.do(alice, game.VerbStay) // the round is settled in this answer's transaction
	r := h.cmd(alice, group("bank", "sell", userOpt("member", bob), intOpt("price", 25)))
	require.Contains(t, text(r.Message), "Offer sent")
	offer := h.waitOffer()
	accept, ok := customID(offer, "pt:offer:", ".accept")
	require.True(t, ok)

	elsewhere := h.postButtons(sideChannel, accept)
	beside := h.postButtons(channelID, accept)
	before := map[string]int64{alice: h.balance(alice), bob: h.balance(bob)}
	h.refusedUnchanged(sideChannel, elsewhere.ID, bob, accept, "belongs to a table in another channel or server")
	h.refusedUnchanged(channelID, beside.ID, bob, accept, "only works on the message the bot posted it on")
	assert.Equal(t, before[alice], h.balance(alice))
	assert.Equal(t, before[bob], h.balance(bob))

	// The offer still stands, on its own message.
	r, err := h.fake.Click(channelID, offer.ID, bob, accept)
	require.NoError(t, err)
	require.Contains(t, text(r.Message), "bought the bank")
	assert.Equal(t, before[alice]+25, h.balance(alice))
	assert.Equal(t, before[bob]-25, h.balance(bob))
	h.audit()
	h.noFailures()
}

// A panel's button names its table too: shown anywhere but the table's channel, it
// does not act, and the member's turn is still theirs on their own panel.
func TestPanelButtonsFromAnotherChannelChangeNothing(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	h.fake.AddChannel(guildID, sideChannel)
	h.deal(alice, 0, "9H 7S 8D 9S")
	h.amount(bob, game.VerbStake, 10)
	stick, ok := customID(h.panel(bob), "pt:act:", ":stick")
	require.True(t, ok)
	copied := h.postButtons(sideChannel, stick)
	h.refusedUnchanged(sideChannel, copied.ID, bob, stick, "belongs to a table in another channel or server")
	h.do(bob, game.VerbStick)
	h.audit()
	h.noFailures()
}
