package bot_test

// End-to-end tests for the defects of issue 8 ("The live table, rebuilt"), each named
// TestDefectNN… after the numbered defect it pins. Each asserts what a member sees
// through the fake Discord (the public table, panels, replies, their ephemeral flags,
// the components left on a message) and, where chips move, the audit.

import (
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func at(id string) string { return "<@" + id + ">" }

// embedField is the table's field named name, or nil.
func embedField(m *discordgo.Message, name string) *discordgo.MessageEmbedField {
	if m == nil || len(m.Embeds) == 0 {
		return nil
	}
	for _, f := range m.Embeds[0].Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// fieldWith is the first field of the table whose value mentions member, or nil.
func fieldWith(m *discordgo.Message, member string) *discordgo.MessageEmbedField {
	if m == nil || len(m.Embeds) == 0 {
		return nil
	}
	for _, f := range m.Embeds[0].Fields {
		if strings.Contains(f.Value, at(member)) {
			return f
		}
	}
	return nil
}

func fieldsText(m *discordgo.Message) string {
	var b strings.Builder
	if m != nil && len(m.Embeds) > 0 {
		for _, f := range m.Embeds[0].Fields {
			b.WriteString("[" + f.Name + "] " + f.Value + "\n")
		}
	}
	return b.String()
}

// Defect 1 (R6.2, R1.4): when bob's pontoon takes the bank, the settled table still
// shows the round as it was played: alice, the outgoing banker, beside her own cards,
// bob's winning pontoon and its result in his seat, and the next banker named as such.
// Once the next round is dealt, round 1's cut line has left the table.
func TestDefect01PontoonTakingTheBankShowsTheRoundAsPlayed(t *testing.T) {
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
	seat := fieldWith(m, bob)
	require.NotNil(t, seat, "bob has no seat on the settled table:\n%s", fieldsText(m))
	assert.Contains(t, seat.Value, "A♥ K♦", "bob's winning pontoon is shown:\n%s", fieldsText(m))
	assert.Contains(t, seat.Value, "+20", "and what it won (R6.2 pontoon pays 2):\n%s", fieldsText(m))
	for _, f := range m.Embeds[0].Fields {
		assert.NotEqual(t, at(alice), strings.TrimSpace(f.Value), "alice is not an empty seat:\n%s", fieldsText(m))
	}
	assert.Contains(t, text(m), "Next banker: "+at(bob))
	assert.Equal(t, int64(1020), h.balance(bob))

	h.nextRound(stack(t, "9H TC 7S 8D 6C 9S"))
	r := h.clickTable(alice, "deal")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type, text(r.Message))
	m = h.waitTable("Round 2")
	assert.NotContains(t, text(m), "The cut chose the bank", "round 1's cut has left the table")
	assert.Contains(t, embedField(m, "Bank").Value, at(bob))
	h.audit()
	h.noFailures()
}

// Defect 2: a closed table keeps no Join, Leave, Deal, My cards or Rules buttons. (The
// edit must send an empty components list: Discord keeps the buttons on null.)
func TestDefect02ClosedTableClearsButtons(t *testing.T) {
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
