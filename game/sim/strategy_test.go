package sim_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hint replays a one-round history (bank, ann, bob; play order ann, bob) with huge
// balances and asks Advise for who.
func hint(t *testing.T, rules game.Rules, pack string, who string, actions ...string) (sim.Advice, bool) {
	t.Helper()
	var kitty int64
	if rules.Variant == game.Shoot {
		kitty = rules.KittyMax
	}
	h := &game.History{Format: game.HistoryFormat, Rules: rules,
		Table: game.HistoryTable{Seats: []string{"bank", "ann", "bob"}, Banker: "bank",
			Balances: map[string]int64{"bank": 1 << 40, "ann": 1 << 30, "bob": 1 << 30}, Kitty: kitty},
		Rounds: []game.HistoryRound{{Pack: strings.Fields(pack), Actions: actions}}}
	g, _, err := game.Replay(h)
	require.NoError(t, err)
	return sim.Advise(g, who)
}

// Each rule of the documented strategy (package doc) at a real game, with its reason.
func TestAdviseFollowsTheDocumentedStrategy(t *testing.T) {
	def := game.DefaultRules()
	with := func(f func(*game.Rules)) game.Rules { r := game.DefaultRules(); f(&r); return r }
	shoot := with(func(r *game.Rules) { r.Variant = game.Shoot })
	staked := []string{"ann stake 10", "bob stake 10"}
	// ann's cards are the 1st and 4th of each pack, bob's the 2nd and 5th, the bank's the 3rd and 6th.
	cases := []struct {
		name  string
		rules game.Rules
		pack  string
		who   string
		acts  []string
		want  sim.Advice
	}{
		{"R3.3 a flat stake", def, "9H 7S 5C 5D 8D 2C", "ann", nil, sim.Advice{Verb: game.VerbStake, Amount: 10, Why: sim.WhyFlatStake}},
		{"R8.8 burn 13", with(func(r *game.Rules) { r.Burn = 13 }), "9H 7S 5C 4D 8D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbBurn, Why: sim.WhyBurn}},
		{"R4.2 split Aces", def, "AH 7S 5C AD 8D 2C 4C 3H", "ann", staked, sim.Advice{Verb: game.VerbSplit, Why: sim.WhySplitAces}},
		{"R4.2 split 8s", def, "8H 7S 5C 8D 9D 2C 4C 3H", "ann", staked, sim.Advice{Verb: game.VerbSplit, Why: sim.WhySplitEights}},
		{"R8.1 no split when only Aces split", with(func(r *game.Rules) { r.Split = game.SplitAces }), "8H 7S 5C 8D 9D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbStick, Why: sim.WhyStick}},
		{"R4.4 twist a two-card 9", def, "5H 7S 5C 4D 8D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbTwist, Why: sim.WhyDraw}},
		{"R1.3 a soft 18 draws", def, "AH 7S 5C 7D 8D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbTwist, Why: sim.WhySoftDraw}},
		{"R1.3 a soft 19 sticks", def, "AH 7S 5C 8D 9D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbStick, Why: sim.WhyStick}},
		{"R4.3 buy a two-card 10 at twice the stake", def, "6H 7S 5C 4D 8D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbBuy, Amount: 20, Why: sim.WhyStrongDraw}},
		{"R1.3 a soft 17 draws", def, "AH 7S 5C 6D 8D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbTwist, Why: sim.WhySoftDraw}},
		{"R4.5 stick on 15", def, "9H 7S 5C 6D 8D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbStick, Why: sim.WhyStick}},
		{"R8.2 draw on 15 with stick_min 16", with(func(r *game.Rules) { r.StickMin = 16 }), "9H 7S 5C 6D 8D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbTwist, Why: sim.WhyDraw}},
		{"R4.4 twist on 13", def, "9H 7S 5C 4D 8D 2C 4C", "ann", staked, sim.Advice{Verb: game.VerbTwist, Why: sim.WhyDraw}},
		{"R2.2 four low cards draw to a five card trick, buying at the last price", def, "2H 7S 5C 3D 8D 2C 2S 3H 9C", "ann",
			append(staked, "ann buy 20", "ann buy 15"), sim.Advice{Verb: game.VerbBuy, Amount: 15, Why: sim.WhyFiveCardTrick}},
		{"R8.5 four low cards twist the fifth", with(func(r *game.Rules) { r.FourLowTwistOnly = true }), "2H 7S 5C 3D 8D 2C 2S 3H 9C", "ann",
			append(staked, "ann buy 20", "ann buy 15"), sim.Advice{Verb: game.VerbTwist, Why: sim.WhyFiveCardTrick}},
		{"R9.2 shoot on a first Ace", shoot, "AH 7S 5C 5D 8D 2C", "ann", staked, sim.Advice{Verb: game.VerbShoot, Amount: 10, Why: sim.WhyShootAce}},
		{"R9.2 no shoot bet without an Ace", shoot, "9H 7S 5C 5D 8D 2C", "ann", staked, sim.Advice{Verb: game.VerbShoot, Amount: 0, Why: sim.WhyNoShoot}},
		{"R9.4 shoot with three cards that cannot bust, before the fourth", shoot, "2H 7S 5C 3D 8D 2C 4C 3H", "ann",
			append(staked, "ann shoot 0", "bob shoot 0", "ann twist"), sim.Advice{Verb: game.VerbShoot, Amount: 10, Why: sim.WhyShootSafeCard}},
		{"R9.4 after a three-card shoot bet on 16 the hand takes the card", shoot, "TH 7S 5C 2D 8D 2C 4C 3H", "ann",
			append(staked, "ann shoot 0", "bob shoot 0", "ann buy 10", "ann shoot 5"), sim.Advice{Verb: game.VerbTwist, Why: sim.WhyShootTakesCard}},
		{"R8.3 the banker doubles on a ten", with(func(r *game.Rules) { r.BankerMayDouble = true }), "9H 7S KC 5D 8D 2C", "bank", staked, sim.Advice{Verb: game.VerbDouble, Why: sim.WhyBankerDouble}},
		{"R8.3 the banker doubles on a 9", with(func(r *game.Rules) { r.BankerMayDouble = true }), "9H 7S 9C 5D 8D 2C", "bank", staked, sim.Advice{Verb: game.VerbDouble, Why: sim.WhyBankerDouble}},
		{"R8.3 the banker does not double on a 5", with(func(r *game.Rules) { r.BankerMayDouble = true }), "9H 7S 5C 5D 8D 2C", "bank", staked, sim.Advice{Verb: game.VerbNoDouble, Why: sim.WhyBankerNoDouble}},
		{"R5.2 the banker stays on 17", def, "9H 7S TC 6D 8D 7C 2H", "bank", append(staked, "ann stick", "bob stick"), sim.Advice{Verb: game.VerbStay, Why: sim.WhyBankerStays17}},
		{"R5.2 the banker draws on 16", def, "9H 7S TC 6D 8D 6C 2H", "bank", append(staked, "ann stick", "bob stick"), sim.Advice{Verb: game.VerbDraw, Why: sim.WhyBankerDraws}},
		{"R5.2 the banker draws on 17 when most open hands show more", def, "2H 7S TC 2D 8D 7C 9S 8S KH 4H", "bank",
			append(staked, "ann twist", "ann twist", "bob twist"), sim.Advice{Verb: game.VerbDraw, Why: sim.WhyBankerBeaten}},
		{"R5.2 the banker stays on 17 when half the open hands show more", def, "2H 7S TC 2D 8D 7C 9S 8S 4H", "bank",
			append(staked, "ann twist", "ann twist", "bob stick"), sim.Advice{Verb: game.VerbStay, Why: sim.WhyBankerStays17}},
		{"R5.2 R2.2 the banker draws a soft 17 of four cards to a five card trick", def, "9H 7S AC 6D 8D 2C 2H 2S 5S", "bank",
			append(staked, "ann stick", "bob stick", "bank draw", "bank draw"), sim.Advice{Verb: game.VerbDraw, Why: sim.WhyBankerFiveCardTrick}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := hint(t, tc.rules, tc.pack, tc.who, tc.acts...)
			require.True(t, ok)
			assert.Equal(t, tc.want, got)
			assert.NotEmpty(t, got.Why.Text())
			assert.NotEqual(t, "unknown", got.Why.String())
		})
	}

	t.Run("nothing to advise out of turn", func(t *testing.T) {
		_, ok := hint(t, def, "9H 7S 5C 5D 8D 2C", "bob", staked...)
		assert.False(t, ok, "it is ann's turn")
	})
}

// TestWhyCodesAreDistinct: the bot keys its catalog on Why's codes.
func TestWhyCodesAreDistinct(t *testing.T) {
	seen := map[string]bool{}
	for w := sim.WhyNone; w <= sim.WhyShootTakesCard; w++ {
		code := w.String()
		assert.False(t, seen[code], "code %s twice", code)
		seen[code] = true
		assert.NotEmpty(t, w.Text(), fmt.Sprint(w))
	}
}
