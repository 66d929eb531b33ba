package sim

import "github.com/pontoon-bot/pontoon/game"

// Canonical is the rule set as a simulation plays it: rule sets with the same Canonical
// give the same figures (every Result field but Rules), so a kept simulation can answer
// for all of them. The simulation stakes one flat amount (stakeFor), so the stake limits
// reduce to it; it never reads KittyMin, and KittyMax only in Shoot (R9.1), where the
// kitty starts full.
func Canonical(r game.Rules) game.Rules {
	s := stakeFor(r)
	r.MinStake, r.MaxStake = s, s
	r.KittyMin = 0
	if r.Variant != game.Shoot {
		r.KittyMax = 0
	}
	return r
}
