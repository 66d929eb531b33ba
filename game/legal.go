package game

// Move is an action open to a player now, with the range of amounts it takes (zero for
// moves without an amount). The bot builds each member's buttons from it.
type Move struct {
	Verb     Verb
	Min, Max int64
}

// Legal lists what player may do now, in a stable order. Every Move listed succeeds when
// applied with any amount in its range; timeouts and bank sales (which need a buyer) are
// not listed.
func (g *Game) Legal(player string) []Move {
	var cands []Move
	free := g.Balances[player]
	bankFree := g.Balances[g.Banker] / g.Rules.maxPayoutMultiple()
	betCap := func(hi int64) int64 { return min(hi, free/2, bankFree) }
	isBanker := player == g.Banker
	switch g.Phase {
	case PhaseBetween:
		if isBanker && g.Rules.Variant == Shoot {
			lo, hi := int64(1), g.Rules.KittyMax-g.Kitty
			if g.Kitty == 0 {
				lo = g.Rules.KittyMin
			}
			cands = append(cands, Move{VerbKitty, lo, min(hi, free)})
		}
	case PhaseStaking:
		if h := g.hand(player); !isBanker && h != nil && h.Stake == 0 && !h.SatOut {
			cands = append(cands, Move{VerbStake, g.Rules.MinStake, betCap(g.Rules.MaxStake)})
		}
	case PhaseShooting:
		if h := g.current(); h != nil && h.Player == player {
			cands = append(cands, Move{VerbShoot, 0, min(g.Kitty-g.OpenShoot(), free)})
		}
	case PhaseDoubling:
		if isBanker {
			cands = append(cands, Move{Verb: VerbDouble}, Move{Verb: VerbNoDouble})
		}
	case PhasePlaying:
		h := g.current()
		if h == nil || h.Player != player {
			break
		}
		if g.Rules.Variant == Shoot {
			cands = append(cands, Move{VerbShoot, 0, min(g.Kitty-g.OpenShoot(), free)})
		}
		cands = append(cands, Move{Verb: VerbSplit}, Move{Verb: VerbBurn})
		lo, hi := g.buyRange(h)
		cands = append(cands, Move{VerbBuy, lo, betCap(hi)}, Move{Verb: VerbTwist}, Move{Verb: VerbStick})
	case PhaseBanker:
		if isBanker {
			cands = append(cands, Move{Verb: VerbDraw}, Move{Verb: VerbStay})
		}
	}
	var out []Move
	for _, m := range cands {
		if m.Max < m.Min {
			continue
		}
		if !g.allows(Action{Player: player, Verb: m.Verb, Amount: m.Min}) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// ToAct lists who must act now: every player yet to stake while staking, else the one
// player or banker whose decision the round waits on. The bot runs turn timers on them.
func (g *Game) ToAct() []string {
	switch g.Phase {
	case PhaseStaking:
		var out []string
		for _, h := range g.Round.Hands {
			if h.Stake == 0 && !h.SatOut {
				out = append(out, h.Player)
			}
		}
		return out
	case PhaseShooting, PhasePlaying:
		if h := g.current(); h != nil {
			return []string{h.Player}
		}
	case PhaseDoubling, PhaseBanker:
		return []string{g.Banker}
	}
	return nil
}

// allows reports whether a would succeed now. It runs the action's checks in dry mode,
// in which every handler returns before its first change and counts the cards the action
// would deal, instead of applying it to a deep copy: Legal tries several moves per
// decision, and a copy per move was most of the cost of a round. The dry run is made on
// a shallow copy of the Game value, not on g with its flag set and reset: a flag written
// on g made Legal a write, and two goroutines rendering panels from one snapshot's game
// raced on it (caught by TestConcurrentClicks under -race). A timeout, which Legal never
// lists, is still tried on a deep copy.
func (g *Game) allows(a Action) bool {
	if a.Verb == VerbTimeout {
		c := g.Clone()
		return c.apply(a) == nil && c.pending == nil
	}
	d := *g // shares the round, maps and slices, which a dry run only reads
	d.dry = true
	return d.apply(a) == nil
}

// SeesOwnCards reports whether a player may look at their own face-down cards now: every
// player may look at the first card, but the banker only once the stakes are in (R3.2,
// R3.4, R8.3).
func (g *Game) SeesOwnCards(player string) bool {
	return player != g.Banker || g.Phase != PhaseStaking
}
