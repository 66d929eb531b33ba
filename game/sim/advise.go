package sim

import "github.com/pontoon-bot/pontoon/game"

// Advise says what the strategy would do now for player at g, and why: the Hint a
// player's panel shows, and the decisions the simulation makes. It reads only what
// that player may see (their own cards, face-up cards, the banker's first card once the
// stakes are in) and returns a move Legal allows now, its amount inside Legal's range.
// Where the strategy's move is refused (chips or the bank's cover for a buy or split,
// R7.1, R7.2; a stick after the player's own three-card shoot bet, R9.4) it twists.
// It returns false when the player has nothing to decide, or only between-round
// business (kitty, sale), which the strategy leaves to people.
func Advise(g *game.Game, player string) (Advice, bool) {
	legal := g.Legal(player)
	move := func(v game.Verb) (game.Move, bool) {
		for _, m := range legal {
			if m.Verb == v {
				return m, true
			}
		}
		return game.Move{}, false
	}
	r := g.Rules
	clamp := func(m game.Move, want int64) int64 { return min(max(want, m.Min), m.Max) }
	switch g.Phase {
	case game.PhaseStaking:
		if m, ok := move(game.VerbStake); ok {
			return Advice{Verb: game.VerbStake, Amount: clamp(m, stakeFor(r)), Why: WhyFlatStake}, true
		}
	case game.PhaseShooting:
		if m, ok := move(game.VerbShoot); ok {
			if shootFirst(g.Current().Cards[0].Card) {
				if amount := clamp(m, stakeFor(r)); amount > 0 {
					return Advice{Verb: game.VerbShoot, Amount: amount, Why: WhyShootAce}, true
				}
			}
			return Advice{Verb: game.VerbShoot, Amount: 0, Why: WhyNoShoot}, true
		}
	case game.PhaseDoubling:
		if _, ok := move(game.VerbDouble); ok {
			if bankerDoubles(g.Round.BankerHand[0].Card) {
				return Advice{Verb: game.VerbDouble, Why: WhyBankerDouble}, true
			}
			return Advice{Verb: game.VerbNoDouble, Why: WhyBankerNoDouble}, true
		}
	case game.PhasePlaying:
		h := g.Current()
		if h == nil || h.Player != player {
			return Advice{}, false
		}
		cards := game.Cards(h.Cards)
		shoot, canShoot := move(game.VerbShoot)
		if canShoot && len(cards) != 3 && shootOnArrival(cards) { // R9.5: reaching a split hand
			if amount := clamp(shoot, stakeFor(r)); amount > 0 {
				return Advice{Verb: game.VerbShoot, Amount: amount, Why: WhyShootAce}, true
			}
		}
		hands := 0
		for _, o := range g.Round.Hands {
			if o.Player == player {
				hands++
			}
		}
		_, canSplit := move(game.VerbSplit)
		verb, amount, why := play(r, cards, h.Twisted, h.Initial, h.LastBuy, hands < 4 && canSplit)
		if verb == game.VerbBuy {
			if m, ok := move(game.VerbBuy); ok {
				amount = clamp(m, amount)
			} else {
				verb, amount = game.VerbTwist, 0 // chips or the bank's cover refuse the buy (R7.1, R7.2)
			}
		}
		if canShoot && len(cards) == 3 && (verb == game.VerbBuy || verb == game.VerbTwist) && shootThree(cards) { // R9.4
			if a := clamp(shoot, stakeFor(r)); a > 0 {
				return Advice{Verb: game.VerbShoot, Amount: a, Why: WhyShootSafeCard}, true
			}
		}
		if _, ok := move(verb); ok {
			return Advice{Verb: verb, Amount: amount, Why: why}, true
		}
		if _, ok := move(game.VerbTwist); ok && verb == game.VerbStick {
			// The player shot with three cards and must now take the card (R9.4).
			return Advice{Verb: game.VerbTwist, Why: WhyShootTakesCard}, true
		}
	case game.PhaseBanker:
		if _, ok := move(game.VerbDraw); !ok {
			return Advice{}, false
		}
		best, _ := game.Totals(game.Cards(g.Round.BankerHand))
		ahead, open := 0, 0
		for _, h := range g.Round.Hands {
			if !h.Active() || h.Settled {
				continue
			}
			open++
			upHard, down := 0, 0
			for _, c := range h.Cards {
				if c.FaceUp {
					upHard += c.Card.Points()
				} else {
					down++
				}
			}
			if showsMore(best, least(r, upHard, down), len(h.Cards)) {
				ahead++
			}
		}
		draw, why := bankerDraws(game.Cards(g.Round.BankerHand), ahead, open)
		if draw {
			return Advice{Verb: game.VerbDraw, Why: why}, true
		}
		return Advice{Verb: game.VerbStay, Why: why}, true
	}
	return Advice{}, false
}
