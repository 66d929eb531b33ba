package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
)

// BenchmarkSimulate plays whole simulated rounds at five seats (the banker and four
// players), shuffle included, and reports player-hands per second of wall-clock time and
// per second of CPU time.
func BenchmarkSimulate(b *testing.B) {
	for _, v := range []game.Variant{game.Classic, game.Shoot} {
		b.Run(string(v), func(b *testing.B) {
			r := game.DefaultRules()
			r.Variant = v
			tb := sim.NewTable(r, 4)
			rng := rand.New(rand.NewPCG(1, 2))
			pack := game.NewPack(1)
			var hands int
			var outs []sim.HandOutcome
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				sim.Shuffle(pack, rng)
				tb.Play(pack)
				outs = tb.Outcomes(outs)
				hands += len(outs)
			}
			b.ReportMetric(float64(hands)/b.Elapsed().Seconds(), "hands/s")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rounds/s")
			// Per CPU-second of this process: with -cpu 1, player-hands per second per core
			// even when other processes share the machine.
			if cpu := cpuTime() - cpu0; cpu > 0 {
				b.ReportMetric(float64(hands)/cpu.Seconds(), "hands/cpu-s")
			}
		})
	}
}
