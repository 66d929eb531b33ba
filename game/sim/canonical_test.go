package sim_test

import (
	"testing"

	"github.com/pontoon-bot/pontoon/game"
	"github.com/pontoon-bot/pontoon/game/sim"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Rule sets with one Canonical form simulate alike, and rule sets the simulation plays
// differently have different forms.
func TestRulesWithOneCanonicalFormSimulateAlike(t *testing.T) {
	a := game.DefaultRules()
	b := a
	b.MinStake, b.MaxStake, b.KittyMin, b.KittyMax = 5, 40, 20, 300 // the same flat stake of 10; no kitty in Classic
	require.Equal(t, sim.Canonical(a), sim.Canonical(b))
	ra, err := sim.Run(sim.Config{Rules: a, Seats: 3, Rounds: 2000, Seed: 7})
	require.NoError(t, err)
	rb, err := sim.Run(sim.Config{Rules: b, Seats: 3, Rounds: 2000, Seed: 7})
	require.NoError(t, err)
	ra.Rules, rb.Rules = game.Rules{}, game.Rules{}
	assert.Equal(t, ra, rb)

	c := a
	c.MaxStake = 5 // a flat stake of 5
	assert.NotEqual(t, sim.Canonical(a), sim.Canonical(c))
	shoot, shootBig := a, a
	shoot.Variant, shootBig.Variant = game.Shoot, game.Shoot
	shootBig.KittyMax = 400
	assert.NotEqual(t, sim.Canonical(shoot), sim.Canonical(shootBig), "Shoot's kitty starts at its most")
}
