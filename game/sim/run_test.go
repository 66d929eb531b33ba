package sim_test

import (
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSimulate: the report is deterministic in the seed whatever the number of workers,
// its figures add up, and rules that plainly favour one side move the edge that way.
func TestSimulate(t *testing.T) {
	cfg := sim.Config{Rules: game.DefaultRules(), Seats: 5, Rounds: 5000, Seed: 3, Workers: 1}
	one, err := sim.Simulate(cfg)
	require.NoError(t, err)
	cfg.Workers = 3
	three, err := sim.Simulate(cfg)
	require.NoError(t, err)
	assert.Equal(t, one, three, "the packs depend on the seed only")

	r := one.Result
	assert.Equal(t, one.Defaults, r, "the defaults were asked for")
	assert.Equal(t, int64(5000), r.Rounds)
	assert.GreaterOrEqual(t, r.PlayerHands, int64(4*5000), "four players, plus split hands")
	assert.InDelta(t, float64(r.BankerNet)/float64(r.Staked), r.Edge, 1e-12)
	assert.InDelta(t, r.BankPerRound, float64(r.BankerNet)/5000, 1e-9)
	assert.Positive(t, r.EdgeHalf)
	var sum float64
	for _, v := range r.PlayerKinds {
		sum += v
	}
	assert.InDelta(t, 1, sum, 1e-9)
	assert.Zero(t, r.PlayerKinds["royal_pontoon"], "royal_pontoon is off by default")

	effects := map[string]sim.Effect{}
	for _, e := range one.Effects {
		effects[e.Rule] = e
		assert.InDelta(t, e.Result.Edge-r.Edge, e.Change, 1e-12, e.Rule)
	}
	require.Len(t, effects, len(sim.Variations()))
	// R8.4: paying a player's pontoon 3 instead of 2 can only cost the bank; 1 only gain it.
	assert.Less(t, effects["pontoon_pays=3"].Change+effects["pontoon_pays=3"].ChangeHalf, 0.0)
	assert.Greater(t, effects["pontoon_pays=1"].Change-effects["pontoon_pays=1"].ChangeHalf, 0.0)
	// R8.8: burning 13 or 14 helps the players (the strategy always burns them).
	assert.Less(t, effects["burn=13"].Change+effects["burn=13"].ChangeHalf, 0.0)

	_, err = sim.Simulate(sim.Config{Rules: game.DefaultRules(), Seats: 9, Rounds: 10})
	assert.Error(t, err, "at most eight seats")

	// Run alone gives the same figures for the same seed: the packs do not depend on the
	// other rule sets simulated beside it.
	alone, err := sim.Run(sim.Config{Rules: game.DefaultRules(), Seats: 5, Rounds: 5000, Seed: 3, Workers: 2})
	require.NoError(t, err)
	assert.Equal(t, r, alone)
}
