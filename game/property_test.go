package game_test

import (
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"
)

var allVerbs = []game.Verb{game.VerbStake, game.VerbShoot, game.VerbDouble, game.VerbNoDouble, game.VerbSplit, game.VerbBurn,
	game.VerbBuy, game.VerbTwist, game.VerbStick, game.VerbDraw, game.VerbStay, game.VerbKitty, game.VerbSell, game.VerbTimeout}

func genRules(t *rapid.T) game.Rules {
	r := game.DefaultRules()
	r.Variant = rapid.SampledFrom([]game.Variant{game.Classic, game.Shoot}).Draw(t, "variant")
	r.MinStake = rapid.Int64Range(1, 10).Draw(t, "min_stake")
	r.MaxStake = r.MinStake + rapid.Int64Range(0, 60).Draw(t, "max_stake_extra")
	r.KittyMin = rapid.Int64Range(1, 50).Draw(t, "kitty_min")
	r.KittyMax = r.KittyMin + rapid.Int64Range(0, 300).Draw(t, "kitty_max_extra")
	r.StickMin = rapid.SampledFrom([]int{15, 16}).Draw(t, "stick_min")
	r.Split = rapid.SampledFrom([]game.SplitRule{game.SplitAny, game.SplitAces, game.SplitNone}).Draw(t, "split")
	r.BankerMayDouble = rapid.Bool().Draw(t, "banker_may_double")
	r.PontoonPays = rapid.SampledFrom([]int64{1, 2, 3}).Draw(t, "pontoon_pays")
	r.BankerPontoonCollects = rapid.SampledFrom([]int64{1, 2}).Draw(t, "banker_pontoon_collects")
	r.FourLowTwistOnly = rapid.Bool().Draw(t, "four_low_twist_only")
	r.RoyalPontoon = rapid.Bool().Draw(t, "royal_pontoon")
	r.PontoonTiers = rapid.SampledFrom([]game.Tiers{game.TiersEqual, game.TiersPictureBeatsTen, game.TiersTenNotPontoon, game.TiersNaturals}).Draw(t, "tiers")
	r.Burn = rapid.SampledFrom([]int{0, 13, 14}).Draw(t, "burn")
	r.Decks = rapid.SampledFrom([]game.Decks{game.DecksAuto, 1, 2}).Draw(t, "decks")
	return r
}

// books mirrors every account from the transfers alone, so the test checks that the
// engine's reported movements are exactly what happened to its balances.
type books map[game.Account]int64

func (b books) apply(ts []game.Transfer) {
	for _, t := range ts {
		b[t.From] -= t.Amount
		b[t.To] += t.Amount
	}
}

func checkInvariants(t require.TestingT, g *game.Game, total int64, b books) {
	require.Equal(t, total, g.Total(), "R7.3 chips are conserved")
	for p, v := range g.Balances {
		require.GreaterOrEqual(t, v, int64(0), "R7.1 no balance below zero (%s)", p)
		require.Equal(t, v, b[game.Wallet(p)], "wallet of %s matches the transfers", p)
	}
	for p, v := range g.Escrow {
		require.Greater(t, v, int64(0), "escrow of %s", p)
	}
	for acc, v := range b {
		switch acc.Kind {
		case game.AccountEscrow:
			require.Equal(t, g.Escrow[acc.Player], v, "escrow of %s matches the transfers", acc.Player)
		case game.AccountKitty:
			require.Equal(t, g.Kitty, v, "kitty matches the transfers")
		}
	}
	require.GreaterOrEqual(t, g.Kitty, g.OpenShoot(), "R9.2 the kitty covers every open shoot bet")
	if !g.InRound() {
		require.Empty(t, g.Escrow, "nothing stays in escrow between rounds")
	}
}

func randomAction(r *rand.Rand, seats []string) game.Action {
	who := append([]string{"stranger"}, seats...)
	a := game.Action{Player: who[r.IntN(len(who))], Verb: allVerbs[r.IntN(len(allVerbs))], Target: who[r.IntN(len(who))]}
	switch r.IntN(4) {
	case 0:
		a.Amount = 0
	case 1:
		a.Amount = r.Int64N(20)
	case 2:
		a.Amount = r.Int64N(500)
	default:
		a.Amount = game.MaxChips - r.Int64N(3)
	}
	return a
}

// playGame plays random legal games, interleaving random (mostly illegal) actions, and
// checks the invariants after every step.
func playGame(t *rapid.T) {
	rules := genRules(t)
	n := rapid.IntRange(2, 9).Draw(t, "seats")
	seats := make([]string, n)
	bal := map[string]int64{}
	for i := range seats {
		seats[i] = fmt.Sprintf("p%d", i)
		bal[seats[i]] = rapid.Int64Range(0, 600).Draw(t, "balance")
	}
	banker := seats[rapid.IntRange(0, n-1).Draw(t, "banker")]
	bal[banker] = rapid.Int64Range(0, 20000).Draw(t, "bank balance")
	var kitty int64
	if rules.Variant == game.Shoot && rapid.Bool().Draw(t, "kitty up") {
		kitty = rules.KittyMin
	}
	g, err := game.NewGame(rules, seats, banker, bal, kitty)
	require.NoError(t, err)
	b := books{game.KittyAccount: kitty}
	for p, v := range bal {
		b[game.Wallet(p)] = v
	}
	total := g.Total()
	rng := rand.New(rand.NewPCG(rapid.Uint64().Draw(t, "seed"), 7))
	apply := func(a game.Action, mustSucceed bool) {
		before := g.Clone()
		out, err := g.Apply(a)
		if err != nil {
			require.False(t, mustSucceed, "legal move %v refused: %v", a, err)
			var ge *game.Error
			require.True(t, errors.As(err, &ge), "errors are typed: %T %v", err, err)
			require.Equal(t, before, g, "an illegal action changes nothing: %v", a)
			return
		}
		b.apply(out)
		checkInvariants(t, g, total, b)
	}
	rounds := rapid.IntRange(1, 6).Draw(t, "rounds")
	for round := 0; round < rounds; round++ {
		for _, m := range g.Legal(g.Banker) {
			if m.Verb == game.VerbKitty && (g.Kitty == 0 || rng.IntN(3) == 0) {
				apply(game.Action{Player: g.Banker, Verb: game.VerbKitty, Amount: m.Min + rng.Int64N(m.Max-m.Min+1)}, true)
			}
		}
		if rng.IntN(5) == 0 {
			buyer := seats[rng.IntN(n)]
			apply(game.Action{Player: g.Banker, Verb: game.VerbSell, Target: buyer, Amount: rng.Int64N(50)}, false)
		}
		pack := game.NewPack(rules.DecksFor(n))
		game.Shuffle(pack, rng)
		if err := g.Deal(pack); err != nil {
			require.ErrorIs(t, err, game.ErrKittyRequired)
			return
		}
		for step := 0; g.InRound(); step++ {
			require.Less(t, step, 400, "R7.4 a round always ends")
			if rng.IntN(4) == 0 {
				apply(randomAction(rng, seats), false)
				continue
			}
			toAct := g.ToAct()
			require.NotEmpty(t, toAct, "someone must act in phase %v", g.Phase)
			p := toAct[rng.IntN(len(toAct))]
			moves := g.Legal(p)
			if len(moves) == 0 || rng.IntN(12) == 0 {
				apply(game.Action{Player: p, Verb: game.VerbTimeout}, true)
				continue
			}
			m := moves[rng.IntN(len(moves))]
			amount := m.Min
			if m.Max > m.Min {
				amount = m.Min + rng.Int64N(m.Max-m.Min+1)
			}
			apply(game.Action{Player: p, Verb: m.Verb, Amount: amount}, true)
		}
	}
}

func TestPropertyRandomGames(t *testing.T) {
	// Thousands of games unless the caller chose a count with -rapid.checks.
	if f := flag.Lookup("rapid.checks"); f != nil && f.Value.String() == "100" {
		n := "3000"
		if testing.Short() {
			n = "300"
		}
		require.NoError(t, f.Value.Set(n))
		defer f.Value.Set("100")
	}
	rapid.Check(t, playGame)
}

// A history is a faithful log: replaying a game's pack and actions rebuilds it exactly.
func TestReplayRebuildsState(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 300; i++ {
		rules := game.DefaultRules()
		if i%2 == 1 {
			rules.Variant = game.Shoot
		}
		rules.Burn = 13
		rules.BankerMayDouble = i%3 == 0
		seats := []string{"a", "b", "c", "d", "e"}
		bal := map[string]int64{"a": 5000, "b": 300, "c": 300, "d": 300, "e": 300}
		var kitty int64
		if rules.Variant == game.Shoot {
			kitty = 100
		}
		g, err := game.NewGame(rules, seats, "a", bal, kitty)
		require.NoError(t, err)
		pack := game.NewPack(1)
		game.Shuffle(pack, rng)
		require.NoError(t, g.Deal(pack))
		var log []string
		for g.InRound() && rng.IntN(40) != 0 {
			p := g.ToAct()[0]
			moves := g.Legal(p)
			a := game.Action{Player: p, Verb: game.VerbTimeout}
			if len(moves) > 0 {
				m := moves[rng.IntN(len(moves))]
				a = game.Action{Player: p, Verb: m.Verb, Amount: m.Min}
			}
			_, err := g.Apply(a)
			require.NoError(t, err)
			log = append(log, a.String())
		}
		h := &game.History{Format: game.HistoryFormat, Rules: rules,
			Table:  game.HistoryTable{Seats: seats, Banker: "a", Balances: bal, Kitty: kitty},
			Rounds: []game.HistoryRound{{Pack: game.CardStrings(pack), Actions: log}}}
		rebuilt, _, err := game.Replay(h)
		require.NoError(t, err)
		require.Equal(t, g, rebuilt)
	}
}
