package bot_test

// End-to-end tests of the public table message: what it shows after a pontoon takes the
// bank, a closed table, the commitment, the kitty, and a start that cannot post. Each asserts what a member sees
// through the fake Discord (the public table, panels, replies, their ephemeral flags,
// the components left on a message) and, where chips move, the audit.

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/bot"
	"github.com/pontoon-bot/pontoon/bot/discordtest"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/store"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func at(id string) string { return "<@" + id + ">" }

// embedField is the table's first field (tableFields) whose name starts with name
// ("Bank" finds "Bank" or "Banker"), or nil.
func embedField(m *discordgo.Message, name string) *discordgo.MessageEmbedField {
	for _, f := range tableFields(m) {
		if strings.HasPrefix(f.Name, name) {
			return f
		}
	}
	return nil
}

// bankHolder reports whether the table's bank field names member.
func bankHolder(m *discordgo.Message, member string) bool {
	f := embedField(m, "Bank")
	return f != nil && strings.Contains(f.Value, at(member))
}

// waitBanker waits until the table's bank field names member, whatever the words
// around the mention.
func (h *harness) waitBanker(member string) *discordgo.Message {
	h.t.Helper()
	var m *discordgo.Message
	require.Eventually(h.t, func() bool { m = h.findTable(); return bankHolder(m, member) }, 5*time.Second, 10*time.Millisecond,
		"the table never showed %s as banker:\n%s", at(member), fieldsText(m))
	return m
}

// fieldWith is the first seat field of the table (not the bank, not the result) whose
// value mentions member, or nil.
func fieldWith(m *discordgo.Message, member string) *discordgo.MessageEmbedField {
	for _, f := range tableFields(m) {
		if !strings.HasPrefix(f.Name, "Bank") && f.Name != "Result" && strings.Contains(f.Value, at(member)) {
			return f
		}
	}
	return nil
}

func fieldsText(m *discordgo.Message) string {
	var b strings.Builder
	for _, f := range tableFields(m) {
		b.WriteString("[" + f.Name + "] " + f.Value + "\n")
	}
	return b.String()
}

// R6.2, R1.4: when bob's pontoon takes the bank, the settled table still
// shows the round as it was played: alice, the outgoing banker, beside her own cards,
// bob's winning pontoon and its result in his seat, and the next banker named as such.
// Once the next round is dealt, round 1's cut line has left the table.
func TestPontoonTakingTheBankShowsTheRoundAsPlayed(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob, carol)
	// bob AH KD (pontoon), carol 9C 8C (17), alice 7S 9S (16).
	h.deal(alice, 0, "AH 9C 7S KD 8C 9S")
	h.waitTable("The cut chose the bank")
	h.amount(bob, game.VerbStake, 10)
	h.amount(carol, game.VerbStake, 10)
	h.do(carol, game.VerbStick)
	h.do(alice, game.VerbStay)
	m := h.waitTable("The round is settled")

	bank := embedField(m, "Bank")
	require.NotNil(t, bank, "no Bank field:\n%s", fieldsText(m))
	assert.Contains(t, bank.Value, at(alice), "the settled round's bank is alice's, who played it:\n%s", fieldsText(m))
	assert.Contains(t, bank.Value, "7♠ 9♠", "alice's cards are in the bank field")
	assert.NotContains(t, bank.Value, at(bob), "bob is not shown beside alice's cards:\n%s", fieldsText(m))
	if seat := fieldWith(m, bob); assert.NotNil(t, seat, "bob has no seat on the settled table:\n%s", fieldsText(m)) {
		assert.Contains(t, seat.Value, "A♥ K♦", "bob's winning pontoon is shown:\n%s", fieldsText(m))
		assert.Contains(t, seat.Value, "+20", "and what it won (R6.2 pontoon pays 2):\n%s", fieldsText(m))
	}
	for _, f := range tableFields(m) {
		assert.NotEqual(t, at(alice), strings.TrimSpace(f.Value), "alice is not an empty seat:\n%s", fieldsText(m))
	}
	assert.Contains(t, text(m), "Next banker: "+at(bob))
	assert.Equal(t, int64(1020), h.balance(bob))

	h.nextRound(stack(t, "9H TC 7S 8D 6C 9S"))
	r := h.clickTable(alice, "deal")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	m = h.waitTable("Round 2")
	assert.NotContains(t, text(m), "The cut chose the bank", "round 1's cut has left the table")
	assert.True(t, bankHolder(m, bob), "bob banks round 2:\n%s", fieldsText(m))
	h.audit()
	h.noFailures()
}

// A closed table keeps no Join, Leave, Deal, My cards or Rules buttons. (The
// edit must send an empty components list: Discord keeps the buttons on null.)
func TestClosedTableClearsButtons(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob)
	require.NotEmpty(t, components(h.tableMessage()))
	r := h.cmd(alice, sub("stop"))
	require.True(t, r.Ephemeral)
	require.Contains(t, text(r.Message), "The table is closed.")
	m := h.waitTable("This table is closed")
	require.Eventually(t, func() bool { return len(components(h.findTable())) == 0 }, 5e9, 1e7,
		"the closed table still shows %d components", len(components(m)))
	h.noFailures()
}

// commitmentRE finds the commitment the table shows for the next round, before Deal.
var nextCommitmentRE = regexp.MustCompile(`Round (\d+) will be dealt from the pack with commitment: ([0-9a-f]{64})`)

// With 8 seated (two packs, DecksFor), the commitment the table shows before
// Deal is the one Deal deals from; the table drew a one-pack commitment when it opened,
// so a new pack must be drawn and shown when the seats need two.
func TestCommitmentShownBeforeDealIsThePackDealt(t *testing.T) {
	h := newHarness(t, nil)
	extra := []string{"300000000000000005", "300000000000000006", "300000000000000007", "300000000000000008"}
	for i, m := range extra {
		h.fake.AddMember(guildID, m, fmt.Sprintf("extra%d", i), 0, "en-US")
	}
	h.seat(alice, nil, append([]string{bob, carol, dave}, extra...)...)
	before := h.tableMessage()
	got := nextCommitmentRE.FindStringSubmatch(text(before))
	require.NotNil(t, got, "the table shows no commitment before the deal:\n%s", text(before))
	require.Equal(t, "1", got[1])
	h.deck.push(cutFor(t, 0, 8))
	r := h.clickTable(alice, "deal")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	tb, err := h.st.TableByChannel(context.Background(), guildID, channelID)
	require.NoError(t, err)
	round, err := h.st.Round(context.Background(), tb.ID, 1)
	require.NoError(t, err)
	assert.Equal(t, got[2], round.Commitment, "round 1 was dealt from a pack other than the one shown before Deal")
	assert.Contains(t, text(r.Message), "Round 1 shuffle commitment: "+got[2])
	h.noFailures()
}

// R9.8: between rounds, a top-up of the kitty shows on the table.
func TestKittyShownAfterTopUp(t *testing.T) {
	h := shootRoundPlayed(t)
	r := h.cmd(alice, group("bank", "kitty", intOpt("amount", 50)))
	require.Contains(t, text(r.Message), "now holds 180")
	h.waitTable("Kitty: 180 chips")
	h.audit()
	h.noFailures()
}

// R6.3, R9.9: after a sale between rounds the old banker has the kitty back
// and the table shows an empty kitty waiting for the new banker's.
func TestKittyShownAfterTheBankIsSold(t *testing.T) {
	h := shootRoundPlayed(t)
	r := h.cmd(alice, group("bank", "sell", userOpt("member", bob), intOpt("price", 10)))
	require.Contains(t, text(r.Message), "Offer sent")
	offer := h.waitOffer()
	id, ok := customID(offer, "pt:offer:", ".accept")
	require.True(t, ok)
	_, err := h.fake.Click(channelID, offer.ID, bob, id)
	require.NoError(t, err)
	h.waitBanker(bob)
	assert.Equal(t, int64(920+10+130), h.balance(alice), "price and kitty back to alice (R9.9)")
	m := h.waitTable("Kitty: empty")
	assert.Contains(t, text(m), "must put up a kitty")
	h.audit()
	h.noFailures()
}

// R6.4, R9.9: the banker leaves between rounds; the next Deal cuts for a new
// banker and gives alice her kitty back, and the table shows the kitty empty.
func TestKittyShownAfterTheBankerLeaves(t *testing.T) {
	h := shootRoundPlayed(t)
	r := h.clickTable(alice, "leave")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	h.deck.push(cutFor(t, 0, 2)) // bob and carol cut; bob wins
	r = h.clickTable(bob, "deal")
	require.Contains(t, text(r.Message), "must put up a kitty")
	assert.Equal(t, int64(920+130), h.balance(alice), "the kitty went back to alice (R6.4)")
	m := h.waitBanker(bob)
	assert.Contains(t, text(m), "Kitty: empty", "the table shows the kitty alice took back:\n%s", text(m))
	h.audit()
	h.noFailures()
}

// shootRoundPlayed is a Shoot table (alice banks, kitty 100) after one round: bob busts
// with a shoot bet, so the kitty holds 130 (R9.6); alice has 920, bob 960, carol 990.
func shootRoundPlayed(t *testing.T) *harness { return shootRoundPlayedWith(t, nil) }

// shootRoundPlayedWith is shootRoundPlayed on a bot with mod's options.
func shootRoundPlayedWith(t *testing.T, mod func(*bot.Options)) *harness {
	h := newHarness(t, mod)
	h.seat(alice, shootOpts(), bob, carol)
	h.deck.push(cutFor(t, 0, 3))
	h.clickTable(bob, "deal")
	h.cmd(alice, group("bank", "kitty", intOpt("amount", 100)))
	h.waitTable("Kitty: 100 chips")
	h.nextRound(stack(t, "9H TC 7S 5D 6C 9S 2C KD"))
	h.clickTable(bob, "deal")
	h.amount(bob, game.VerbStake, 10)
	h.amount(carol, game.VerbStake, 10)
	h.amount(bob, game.VerbShoot, 20)
	h.amount(carol, game.VerbShoot, 0)
	h.do(bob, game.VerbTwist)
	h.amount(bob, "shoot_twist", 10) // R9.4: the three-card shoot goes with the fourth card
	h.do(carol, game.VerbStick)
	h.do(alice, game.VerbStay)
	h.waitTable("Kitty: 130 chips")
	h.waitTable("The round is settled")
	require.Equal(t, int64(920), h.balance(alice))
	return h
}

// waitOffer is the newest bank offer in the channel that still has its buttons.
// waitOffer waits for the bank offer's message and for the store to hold it as the
// offer's: the bot posts the offer, then records where, and until then only the channel
// ties a click to the offer.
func (h *harness) waitOffer() *discordgo.Message {
	h.t.Helper()
	m := h.waitPost("offers the bank", true)
	id, ok := customID(m, "pt:offer:", ".accept")
	require.True(h.t, ok)
	offerID := strings.TrimSuffix(id[strings.LastIndex(id, ":")+1:], ".accept")
	require.Eventually(h.t, func() bool {
		of, err := h.st.Offer(context.Background(), offerID)
		return err == nil && of.MessageID == m.ID
	}, 5*time.Second, 10*time.Millisecond, "the offer's message was never recorded")
	return m
}

// waitPost waits for a message in the channel whose text holds want (with buttons on
// it, if buttons) and returns the newest such.
func (h *harness) waitPost(want string, buttons bool) *discordgo.Message {
	h.t.Helper()
	var m *discordgo.Message
	require.Eventually(h.t, func() bool {
		m = nil
		for _, msg := range h.fake.Messages(channelID) {
			if strings.Contains(msg.Content, want) && (!buttons || len(msg.Components) > 0) {
				m = msg
			}
		}
		return m != nil
	}, 5*time.Second, 10*time.Millisecond, "no message saying %q in the channel", want)
	return m
}

const channel2 = "200000000000000002"

// In a channel where the bot may not post the table, /pontoon start checks the
// interaction's app_permissions first, says which permission is missing, opens nothing
// (a later start is not refused as "already open") and sends Discord nothing it would
// refuse.
func TestStartNamesTheMissingPermission(t *testing.T) {
	for _, tc := range []struct {
		name    string
		perms   int64
		missing string
	}{
		{"no View Channel", discordtest.PermSendMessages | discordtest.PermEmbedLinks | discordtest.PermReadHistory, "View Channel"},
		{"no Send Messages", discordtest.PermViewChannel | discordtest.PermEmbedLinks | discordtest.PermReadHistory, "Send Messages"},
		{"no Embed Links", discordtest.PermViewChannel | discordtest.PermSendMessages | discordtest.PermReadHistory, "Embed Links"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, nil)
			h.fake.AddChannel(guildID, channel2)
			h.fake.SetAppPermissions(channel2, tc.perms)
			r, err := h.fake.Command(guildID, channel2, alice, "pontoon", sub("start"))
			require.NoError(t, err)
			require.True(t, r.Ephemeral)
			assert.Contains(t, text(r.Message), tc.missing, "the reply names the missing permission")
			assert.NotContains(t, text(r.Message), "Your table is open")
			_, err = h.st.TableByChannel(context.Background(), guildID, channel2)
			assert.ErrorIs(t, err, store.ErrNotFound, "no table is left open in the channel")
			assert.Empty(t, h.fake.Failures(), "the bot sent Discord a request it refuses")

			h.fake.SetAppPermissions(channel2, discordtest.DefaultAppPermissions)
			r, err = h.fake.Command(guildID, channel2, alice, "pontoon", sub("start"))
			require.NoError(t, err)
			require.Contains(t, text(r.Message), "Your table is open", "once the bot may post, start works")
			require.Eventually(t, func() bool {
				for _, m := range h.fake.Messages(channel2) {
					if isV2(m) && len(components(m)) > 0 {
						return true
					}
				}
				return false
			}, 5*time.Second, 10*time.Millisecond, "no table message after the permission was given")
			h.noFailures()
		})
	}
}

// When posting the table fails although app_permissions allowed it (Discord
// answers 403), the table is closed again and the member who started it is told, so the
// next start opens a table.
func TestFailedPostClosesTheTableAndSaysSo(t *testing.T) {
	h := newHarness(t, nil)
	h.fake.FailNext("POST /channels/"+channelID+"/messages", 1, 403, 50013, "Missing Permissions")
	_, err := h.fake.Command(guildID, channelID, alice, "pontoon", sub("start"))
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		eph := h.fake.Ephemerals(alice)
		if len(eph) == 0 {
			return false
		}
		last := text(eph[len(eph)-1])
		return strings.Contains(last, "⛔") && !strings.Contains(last, "Your table is open")
	}, 5*time.Second, 10*time.Millisecond, "alice is never told the table could not be posted; she sees: %v", ephemeralTexts(h, alice))
	_, err = h.st.TableByChannel(context.Background(), guildID, channelID)
	assert.ErrorIs(t, err, store.ErrNotFound, "the table that could not be posted is closed")

	r := h.cmd(alice, sub("start"))
	require.Contains(t, text(r.Message), "Your table is open")
	h.tableMessage()
	h.noFailures()
}

func ephemeralTexts(h *harness, member string) []string {
	var out []string
	for _, m := range h.fake.Ephemerals(member) {
		out = append(out, text(m))
	}
	return out
}
