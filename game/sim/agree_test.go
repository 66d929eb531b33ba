package sim_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/stretchr/testify/require"
)

// randomRules applies each variation of RULES.md R8 (and Shoot) with probability 1/3.
func randomRules(rng *rand.Rand) game.Rules {
	r := game.DefaultRules()
	for _, v := range sim.Variations() {
		if rng.IntN(3) == 0 {
			v.Apply(&r)
		}
	}
	return r
}

// TestSimulationAgreesWithEngine plays 20,000 random packs, each under a random rule set
// at a random table size, twice: in the simulator's flat loop, and through game.Apply
// with every decision taken from Advise. Every hand's cards, kind, stake, shoot bet and
// net, the banker's cards and the bank's takings (balance and kitty) must agree, so
// the simulator plays the engine's rules and Advise is the strategy it simulates.
func TestSimulationAgreesWithEngine(t *testing.T) {
	rng := rand.New(rand.NewPCG(20000, 7))
	var outs []sim.HandOutcome
	kinds := map[game.Kind]int{}
	for i := 0; i < 20000; i++ {
		rules := randomRules(rng)
		seats := 2 + rng.IntN(7)
		pack := game.NewPack(rules.DecksFor(seats))
		game.Shuffle(pack, rng)

		tb := sim.NewTable(rules, seats-1)
		res := tb.Play(pack)
		outs = tb.Outcomes(outs)

		names := []string{"bank"}
		bal := map[string]int64{"bank": 1 << 40}
		for p := 1; p < seats; p++ {
			names = append(names, fmt.Sprintf("p%d", p))
			bal[names[p]] = 1 << 30
		}
		var kitty int64
		if rules.Variant == game.Shoot {
			kitty = rules.KittyMax
		}
		g, err := game.NewGame(rules, names, "bank", bal, kitty)
		require.NoError(t, err)
		require.NoError(t, g.Deal(pack))
		var log []string
		for g.InRound() {
			p := g.ToAct()[0]
			adv, ok := sim.Advise(g, p)
			require.True(t, ok, "pack %d: Advise has nothing for %s, who must act (%v)", i, p, log)
			a := game.Action{Player: p, Verb: adv.Verb, Amount: adv.Amount}
			log = append(log, a.String())
			_, err := g.Apply(a)
			require.NoError(t, err, "pack %d: %v", i, log)
		}
		rep := g.RoundReport()
		ctx := fmt.Sprintf("pack %d (%s, %d seats, rules %+v): %v", i, game.FormatCards(pack[:20]), seats, rules, log)
		require.Equal(t, len(rep.Hands), len(outs), ctx)
		for k, h := range rep.Hands {
			o := outs[k]
			require.Equal(t, names[o.Player+1], h.Player, ctx)
			require.Equal(t, o.Number, h.Hand, ctx)
			require.Equal(t, game.CardStrings(o.Cards), h.Cards, ctx)
			require.Equal(t, o.Value.Kind.String(), h.Kind, ctx)
			require.Equal(t, o.Stake, h.Stake, ctx)
			require.Equal(t, o.Shoot, h.Shoot, ctx)
			require.Equal(t, o.Net, h.Net, ctx)
			kinds[o.Value.Kind]++
		}
		require.Equal(t, game.CardStrings(res.BankerCards), rep.BankerHand.Cards, ctx)
		require.Equal(t, res.BankerNet, g.Balances["bank"]-bal["bank"]+g.Kitty-kitty, "the bank's takings, kitty included: "+ctx)
	}
	// The packs reached every kind of hand, so the comparison covered each settlement.
	for k := game.KindBust; k <= game.KindRoyalPontoon; k++ {
		require.Positive(t, kinds[k], "no %s among the compared hands", k)
	}
}
