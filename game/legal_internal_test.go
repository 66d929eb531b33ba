package game

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// allowsByCopy is what allows did before its dry run: apply the action to a copy.
func allowsByCopy(g *Game, a Action) bool {
	c := g.Clone()
	return c.apply(a) == nil && c.pending == nil
}

// TestDryRunAgreesWithApply: for every verb, player and a spread of amounts, in random
// states of random tables (short packs, thin balances and every variation included), the
// dry run says yes exactly when applying to a copy succeeds, and changes nothing.
func TestDryRunAgreesWithApply(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 4))
	verbs := []Verb{VerbStake, VerbShoot, VerbDouble, VerbNoDouble, VerbSplit, VerbBurn, VerbBuy, VerbTwist, VerbStick, VerbDraw, VerbStay, VerbKitty}
	checked := 0
	for game := 0; game < 30; game++ {
		r := DefaultRules()
		if rng.IntN(2) == 0 {
			r.Variant = Shoot
		}
		r.BankerMayDouble = rng.IntN(2) == 0
		r.Split = []SplitRule{SplitAny, SplitAces, SplitNone}[rng.IntN(3)]
		r.Burn = []int{0, 13, 14}[rng.IntN(3)]
		r.FourLowTwistOnly = rng.IntN(2) == 0
		r.RoyalPontoon = rng.IntN(2) == 0
		r.PontoonPays = int64(1 + rng.IntN(3))
		r.StickMin = 15 + rng.IntN(2)
		seats := []string{"b", "p1", "p2", "p3"}[:2+rng.IntN(3)]
		bal := map[string]int64{}
		for _, s := range seats {
			bal[s] = []int64{0, 3, 12, 40, 1000}[rng.IntN(5)]
		}
		var kitty int64
		if r.Variant == Shoot {
			kitty = int64(10 + rng.IntN(30))
		}
		g, err := NewGame(r, seats, "b", bal, kitty)
		if err != nil {
			t.Fatal(err)
		}
		pack := NewPack(r.DecksFor(len(seats)))
		rng.Shuffle(len(pack), func(i, j int) { pack[i], pack[j] = pack[j], pack[i] })
		// Rig pairs, burn totals and low cards often enough to reach every branch.
		if rng.IntN(3) == 0 {
			pack[len(seats)+1] = Card{Rank: pack[1].Rank, Suit: (pack[1].Suit + 1) % 4}
		}
		if err := g.Deal(pack[:len(seats)+rng.IntN(20)]); err != nil {
			continue
		}
		for steps := 0; g.InRound() && steps < 40; steps++ {
			for _, p := range seats {
				for _, v := range verbs {
					for _, amt := range []int64{0, 1, 3, 6, 20, 51} {
						a := Action{Player: p, Verb: v, Amount: amt}
						before := g.Clone()
						want := allowsByCopy(g, a)
						got := g.allows(a)
						if got != want {
							t.Fatalf("game %d: %v: dry run says %v, applying to a copy %v (phase %v)", game, a, got, want, g.Phase)
						}
						if !reflect.DeepEqual(before, g) {
							t.Fatalf("game %d: the dry run of %v changed the game", game, a)
						}
						checked++
					}
				}
			}
			todo := g.ToAct()
			if len(todo) == 0 {
				break
			}
			p := todo[rng.IntN(len(todo))]
			moves := g.Legal(p)
			a := Action{Player: p, Verb: VerbTimeout}
			if len(moves) > 0 && rng.IntN(8) != 0 {
				m := moves[rng.IntN(len(moves))]
				a = Action{Player: p, Verb: m.Verb, Amount: m.Min + rng.Int64N(m.Max-m.Min+1)}
			}
			if _, err := g.Apply(a); err != nil && a.Verb != VerbTimeout {
				if e, ok := err.(*Error); !ok || e.Code != ErrPackExhausted.Code {
					t.Fatalf("game %d: Legal listed %v and Apply refused it: %v", game, a, err)
				}
			}
		}
	}
	t.Logf("%d checks", checked)
}
