package bot_test

import (
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A classic game of four over two rounds: a split, a buy, a bust, and a pontoon that
// passes the bank (R4.2, R4.3, R4.6, R6.2), all through Discord as members play it.
func TestClassicGame(t *testing.T) {
	h := newHarness(t, nil)
	h.seat(alice, nil, bob, carol, dave)
	h.deck.push(cutFor(t, 0, 4)) // alice wins the cut (R1.4)
	// Play order bob, carol, dave, then alice banks. First cards, then second cards:
	// bob 8H 8D (a pair), carol 9C 5C, dave AD KD (pontoon), alice 7S 9S (16);
	// then bob's split hands get 2C and 3C, bob buys TC, twists 9D; carol buys KH (bust);
	// alice draws 4S.
	h.nextRound(stack(t, "8H 9C AD 7S 8D 5C KD 9S 2C 3C TC 9D KH 4S"))
	r := h.clickTable(bob, "deal")
	require.Equal(t, discordgo.InteractionResponseUpdateMessage, r.Type)
	require.Contains(t, text(r.Message), "Stakes: waiting for")
	require.Contains(t, text(r.Message), "cut chose the bank")

	// R3.2: while the players stake, the banker has not seen the first card.
	p := h.panel(alice)
	require.Contains(t, text(p), "Bank: 🂠 — ?", text(p))
	require.NotContains(t, text(p), "7♠")
	for _, m := range []string{bob, carol, dave} {
		h.amount(m, game.VerbStake, 10)
	}
	p = h.panel(alice)
	require.Contains(t, text(p), "Bank: 7♠ 9♠ — 16", "after the stakes the banker sees both cards (R3.4)")
	// Dave's pontoon was declared at once; bob plays first.
	p = h.panel(bob)
	require.Contains(t, text(p), "8♥ 8♦")
	h.do(bob, game.VerbSplit)
	p = h.amount(bob, game.VerbBuy, 10) // hand 1: 8H 2C + TC = 20
	require.Contains(t, text(p), "8♥ 2♣ 10♣")
	h.do(bob, game.VerbStick)
	h.do(bob, game.VerbTwist) // hand 2: 8D 3C + 9D = 20
	h.do(bob, game.VerbStick)
	p = h.amount(carol, game.VerbBuy, 10) // 9C 5C KH = 24
	require.Contains(t, text(p), "Bust (24)")
	p = h.do(alice, game.VerbDraw) // 7S 9S 4S = 20
	require.Contains(t, text(p), "7♠ 9♠ 4♠")
	h.do(alice, game.VerbStay)

	tbl := h.waitTable("Next banker: <@" + dave + ">")
	require.Contains(t, text(tbl), "the pack is shuffled")
	require.Contains(t, text(tbl), "Salt (revealed)")
	// bob's hands tie the banker's 20 and lose (R2.6): 20 + 10; carol's bust loses 20;
	// dave's pontoon is paid twice his stake (R5.4).
	assert.Equal(t, int64(970), h.balance(bob))
	assert.Equal(t, int64(980), h.balance(carol))
	assert.Equal(t, int64(1020), h.balance(dave))
	assert.Equal(t, int64(1030), h.balance(alice))
	h.audit()

	// Round 2: dave banks (R6.2). Play order alice, bob, carol.
	h.nextRound(stack(t, "TH 9H 8C 2D 9S 8S 7H 3S"))
	h.clickTable(carol, "deal")
	h.amount(alice, game.VerbStake, 5)
	h.amount(bob, game.VerbStake, 5)
	h.amount(carol, game.VerbStake, 5)
	h.do(alice, game.VerbStick) // TH 9S = 19
	h.do(bob, game.VerbStick)   // 9H 8S = 17
	h.do(carol, game.VerbStick) // 8C 7H = 15
	h.do(dave, game.VerbStay)   // 2D 3S = 5
	h.waitTable("No pontoon: the used cards go under the pack")
	assert.Equal(t, int64(975), h.balance(bob))
	assert.Equal(t, int64(1035), h.balance(alice))
	assert.Equal(t, int64(985), h.balance(carol))
	assert.Equal(t, int64(1005), h.balance(dave))

	// The leaderboard after the games: richest first, with the caller's own rank.
	r = h.cmd(carol, sub("leaderboard"))
	lb := text(r.Message)
	require.Contains(t, lb, "**1.** <@"+alice+"> — 1,035 chips")
	require.Contains(t, lb, "**2.** <@"+dave+"> — 1,005 chips")
	require.Contains(t, lb, "**3.** <@"+carol+"> — 985 chips")
	require.Contains(t, lb, "**4.** <@"+bob+"> — 975 chips")
	require.Contains(t, lb, "You: rank 3, 985 chips")
	h.audit()
	h.noFailures()
}
