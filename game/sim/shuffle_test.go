package sim_test

import (
	"math/rand/v2"
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestShuffleIsUniform: every order of four cards comes up about equally often, and a
// shuffled pack is still the pack.
func TestShuffleIsUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	four := game.NewPack(1)[:4]
	counts := map[string]int{}
	const n = 240000
	for i := 0; i < n; i++ {
		c := append([]game.Card(nil), four...)
		sim.Shuffle(c, rng)
		counts[game.FormatCards(c)]++
	}
	require.Len(t, counts, 24, "every order of four cards appears")
	for order, k := range counts {
		assert.InDelta(t, n/24, k, 0.05*n/24, "order %s", order) // about 7 standard deviations
	}
	pack := game.NewPack(2)
	sim.Shuffle(pack, rng)
	assert.NoError(t, game.ValidatePack(pack, 2))
	assert.Len(t, pack, 104)
}
