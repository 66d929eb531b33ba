package bot_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/pontoon-bot/pontoon/bot/discordapi"
	"github.com/pontoon-bot/pontoon/game"
)

// v2Size counts a message's components, the nested ones included, and the characters
// of its text displays: what Discord holds to 40 and 4,000.
func v2Size(cs []discordgo.MessageComponent) (comps, chars int) {
	for _, c := range cs {
		comps++
		switch v := c.(type) {
		case *discordgo.Container:
			n, k := v2Size(v.Components)
			comps, chars = comps+n, chars+k
		case *discordgo.ActionsRow:
			n, k := v2Size(v.Components)
			comps, chars = comps+n, chars+k
		case *discordgo.TextDisplay:
			chars += utf8.RuneCountInString(v.Content)
		}
	}
	return comps, chars
}

// requireV2 checks that m, as Discord holds it, is a Components V2 message of one
// container, with no content or embeds, inside Discord's limits.
func requireV2(t *testing.T, what string, m *discordgo.Message) {
	t.Helper()
	require.NotNil(t, m, what)
	require.True(t, isV2(m), "%s is not a V2 message: %s", what, text(m))
	assert.Empty(t, m.Content, what)
	assert.Empty(t, m.Embeds, what)
	require.Len(t, m.Components, 1, "%s is one container", what)
	_, ok := m.Components[0].(*discordgo.Container)
	require.True(t, ok, "%s is one container", what)
	comps, chars := v2Size(m.Components)
	assert.LessOrEqual(t, comps, 40, "%s: components", what)
	assert.LessOrEqual(t, chars, 4000, "%s: characters of text", what)
}

// Every table message and panel of a Shoot round with a kitty, phase by phase (waiting
// for players, waiting for a kitty, stakes, shoot bets, play, the bank's turn, settled,
// closed), is a Components V2 container inside Discord's limits, and the fake, which
// holds each request to Discord's schemas and rules, refused none of them.
func TestEveryTableMessageAndPanelIsComponentsV2(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, shootOpts(), bob, carol)
	requireV2(t, "waiting for players", h.tableMessage())
	requireV2(t, "panel between rounds", h.panel(bob))

	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(bob, "deal")
	requireV2(t, "waiting for a kitty", h.waitTable("must put up a kitty"))
	h.cmd(alice, group("bank", "kitty", intOpt("amount", 100)))
	h.waitTable("Kitty: 100 chips")

	// bob 9H 5D, carol TC 6C, alice 7S 9S; bob twists 2C, then KD.
	h.nextRound(stack(t, "9H TC 7S 5D 6C 9S 2C KD"))
	h.clickTable(bob, "deal")
	requireV2(t, "stakes", h.waitTable("Stakes: waiting for"))
	requireV2(t, "bob's panel at the stakes", h.panel(bob))
	requireV2(t, "alice's (the bank's) panel at the stakes", h.panel(alice))
	h.amount(bob, game.VerbStake, 10)
	h.amount(carol, game.VerbStake, 10)
	requireV2(t, "shoot bets", h.waitTable("Shoot bets"))
	requireV2(t, "bob's panel at the shoot bets", h.panel(bob))
	h.amount(bob, game.VerbShoot, 20)
	h.amount(carol, game.VerbShoot, 0)
	requireV2(t, "play", h.waitTable("is playing hand 1"))
	requireV2(t, "bob's panel on his turn", h.panel(bob))
	requireV2(t, "carol's panel waiting", h.panel(carol))
	h.do(bob, game.VerbTwist)
	h.amount(bob, "shoot_twist", 10)
	h.do(carol, game.VerbStick)
	requireV2(t, "the bank's turn", h.waitTable("The bank, "+at(alice)+", plays"))
	requireV2(t, "alice's panel on the bank's turn", h.panel(alice))
	h.do(alice, game.VerbStay)
	requireV2(t, "settled", h.waitTable("The round is settled"))
	requireV2(t, "bob's panel once settled", h.panel(bob))

	r := h.cmd(alice, sub("stop"))
	require.True(t, r.Ephemeral, text(r.Message))
	closed := h.waitTable("This table is closed")
	requireV2(t, "closed", closed)
	assert.Empty(t, components(closed), "a closed table has no buttons")
	h.noFailures()
	h.audit()
}

// A table opened by an earlier version carries an embed message. Discord lets an edit
// set IS_COMPONENTS_V2 when it empties the embeds, so the bot turns that message into
// the V2 table in place: by the answer to a click on it (type 7), and by the publisher's
// edit after a change made elsewhere (a command). The message keeps its id, no second
// table message is posted, and the fake refused nothing.
func TestAnEmbedTableMessageFromAnEarlierVersionBecomesV2InPlace(t *testing.T) {
	for _, path := range []string{"click", "command"} {
		t.Run(path, func(t *testing.T) {
			h := newHarness(t, nil)
			h.seat(alice, nil, bob)
			ctx := context.Background()
			tb, err := h.st.TableByChannel(ctx, guildID, channelID)
			require.NoError(t, err)
			s, err := discordapi.NewSession(h.fake.Token, h.fake.URL(), nil)
			require.NoError(t, err)
			join := fmt.Sprintf("pt:join:%d:0:0:", tb.ID)
			old, err := s.ChannelMessageSendComplex(channelID, &discordgo.MessageSend{
				Embeds: []*discordgo.MessageEmbed{{Title: "Pontoon · round 0", Fields: []*discordgo.MessageEmbedField{{Name: "Seat 1", Value: at(alice), Inline: true}}}},
				Components: []discordgo.MessageComponent{discordgo.ActionsRow{Components: []discordgo.MessageComponent{
					discordgo.Button{Label: "Join", Style: discordgo.SuccessButton, CustomID: join}}}}})
			require.NoError(t, err)
			require.NoError(t, h.st.SetTableMessage(ctx, tb.ID, old.ID))
			h.stop()
			h.start()
			require.False(t, isV2(h.fake.Message(channelID, old.ID)), "nothing changed yet: the old message is left as it is")

			switch path {
			case "click":
				r, err := h.fake.Click(channelID, old.ID, carol, join)
				require.NoError(t, err)
				require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
			case "command":
				r := h.cmd(alice, sub("stop"))
				require.True(t, r.Ephemeral, text(r.Message))
			}
			want := map[string]string{"click": at(carol), "command": "This table is closed"}[path]
			require.Eventually(t, func() bool {
				m := h.fake.Message(channelID, old.ID)
				return isV2(m) && strings.Contains(text(m), want)
			}, 5*time.Second, 10*time.Millisecond, "the old message never became the V2 table; it shows:\n%s", text(h.fake.Message(channelID, old.ID)))
			m := h.fake.Message(channelID, old.ID)
			requireV2(t, "the upgraded message", m)
			tables := 0
			for _, m := range h.fake.Messages(channelID) {
				if isV2(m) && m.Flags&discordgo.MessageFlagsEphemeral == 0 {
					tables++
				}
			}
			assert.Equal(t, 2, tables, "the first V2 message of this table and the upgraded one: nothing reposted")
			h.noFailures()
		})
	}
}
