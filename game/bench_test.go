package game_test

import (
	"math/rand/v2"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
)

// BenchmarkRound plays whole rounds at a table of five (banker and four players) with
// random legal play: deal, stakes, turns, the banker's turn and settlement.
func BenchmarkRound(b *testing.B) {
	for _, v := range []game.Variant{game.Classic, game.Shoot} {
		b.Run(string(v), func(b *testing.B) {
			rules := game.DefaultRules()
			rules.Variant = v
			seats := []string{"bank", "p1", "p2", "p3", "p4"}
			rng := rand.New(rand.NewPCG(1, 2))
			pack := game.NewPack(1)
			actions := 0
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				bal := map[string]int64{"bank": 100000, "p1": 1000, "p2": 1000, "p3": 1000, "p4": 1000}
				var kitty int64
				if v == game.Shoot {
					kitty = 200
				}
				g, _ := game.NewGame(rules, seats, "bank", bal, kitty)
				game.Shuffle(pack, rng)
				if err := g.Deal(pack); err != nil {
					b.Fatal(err)
				}
				for g.InRound() {
					p := g.ToAct()[0]
					moves := g.Legal(p)
					m := moves[rng.IntN(len(moves))]
					if _, err := g.Apply(game.Action{Player: p, Verb: m.Verb, Amount: m.Min}); err != nil {
						b.Fatal(err)
					}
					actions++
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
			b.ReportMetric(float64(actions)/float64(b.N), "actions/round")
			// Per CPU-second of this process: with -cpu 1, rounds per second per core even
			// when other processes share the machine.
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(b.N)/cpu.Seconds(), "rounds/cpu-s")
			}
		})
	}
}

// BenchmarkEvaluate measures hand evaluation (R2) on random hands of two to five cards.
func BenchmarkEvaluate(b *testing.B) {
	rules := game.DefaultRules()
	rng := rand.New(rand.NewPCG(3, 4))
	pack := game.NewPack(1)
	hands := make([][]game.Card, 1024)
	for i := range hands {
		game.Shuffle(pack, rng)
		hands[i] = append([]game.Card(nil), pack[:2+i%4]...)
	}
	i := 0
	for b.Loop() {
		_ = game.Evaluate(hands[i&1023], rules, false)
		i++
	}
}
