package game

// Multiple is what a player's hand wins (+) or loses (-) against the banker's, in
// stakes, when neither is bust before the banker's turn. It is the whole of R3.5, R5.3 to
// R5.5, R8.3, R8.4, R8.6 and R8.7 in one place.
//
// Decisions where the page is silent: a royal pontoon is paid 3 whatever the banker
// holds; the banker's pontoon collects banker_pontoon_collects undoubled, as R8.3 keeps
// every pontoon payment at its own multiple.
func Multiple(r Rules, p, b Value, doubled bool) int64 {
	d := int64(1)
	if doubled {
		d = 2 // R8.3: ordinary settlements are doubled
	}
	switch {
	case p.Kind == KindBust:
		return -1 // R4.6: a bust loses its stake, undoubled (R8.3)
	case p.Kind == KindRoyalPontoon:
		return 3 // R8.6
	case b.Kind == KindPontoon: // R3.5
		if p.Kind == KindPontoon && p.Tier > b.Tier {
			return r.PontoonPays // R8.7: a pontoon that outranks the banker's is paid
		}
		return -r.BankerPontoonCollects
	case b.Kind == KindFiveCardTrick: // R5.5
		if p.Kind == KindPontoon {
			return r.PontoonPays
		}
		return -2
	case p.Kind == KindPontoon: // R5.3, R5.4, R8.4
		return r.PontoonPays
	case p.Kind == KindFiveCardTrick: // R5.3, R5.4
		return 2
	case b.Kind == KindBust: // R5.3
		return d
	case p.Beats(b): // R5.4; equal goes to the banker (R2.6)
		return d
	default:
		return -d
	}
}

// HandNet is what a hand with stake and shoot bet wins (+) or loses (-) in chips when it
// is settled against the banker's value: its stake times Multiple, and its shoot bet even
// money, won by a hand that beats the banker and lost otherwise, never doubled (R9.3,
// R9.7). A bust (R4.6, R9.6) loses both. The engine's settlement moves exactly this.
func HandNet(r Rules, p, b Value, doubled bool, stake, shoot int64) int64 {
	m := Multiple(r, p, b, doubled)
	if m > 0 {
		return m*stake + shoot
	}
	return m*stake - shoot
}

// settle pays every hand still open against the banker's final value, returns escrow,
// and finishes the round (R3.5, R5.3-R5.6, R9.3, R9.7).
func (g *Game) settle(bv Value, bankerPlayed bool) {
	r := g.Round
	banker := g.Banker
	for _, h := range r.Hands {
		if !h.Active() || h.Settled {
			continue
		}
		p := h.Player
		m := Multiple(g.Rules, h.Value(g.Rules), bv, r.Doubled)
		if m > 0 {
			win := m * h.Stake
			g.move(Escrow(banker), Wallet(p), win, ReasonWin, "R5.6")
			g.move(Escrow(p), Wallet(p), h.Stake+h.Reserve, ReasonRelease, "R7.1")
			g.move(Escrow(banker), Wallet(banker), h.Cover-win, ReasonRelease, "R7.2")
		} else {
			loss := -m * h.Stake
			g.move(Escrow(p), Wallet(banker), loss, ReasonLoss, "R5.4")
			g.move(Escrow(p), Wallet(p), h.Stake+h.Reserve-loss, ReasonRelease, "R7.1")
			g.move(Escrow(banker), Wallet(banker), h.Cover, ReasonRelease, "R7.2")
		}
		// Shoot bets are paid even money from the kitty by a hand that beats the banker
		// and go to the kitty otherwise, never doubled (R9.3, R9.7). Decision: a pontoon
		// that outranks the banker's (R8.7) beats the banker, so its shoot bet wins too.
		if h.Shoot > 0 {
			if m > 0 {
				g.move(KittyAccount, Wallet(p), h.Shoot, ReasonShootWin, "R9.7")
				g.move(Escrow(p), Wallet(p), h.Shoot, ReasonRelease, "R9.7")
			} else {
				g.move(Escrow(p), KittyAccount, h.Shoot, ReasonShootLoss, "R9.7")
			}
		}
		h.Net = HandNet(g.Rules, h.Value(g.Rules), bv, r.Doubled, h.Stake, h.Shoot) // the moves above, in one figure
		h.Reserve, h.Cover = 0, 0
		h.Settled = true
	}
	o := &Outcome{BankerValue: bv, BankerPlayed: bankerPlayed, NextBanker: banker}
	anyPontoon := bv.Kind.IsPontoon()
	for _, h := range r.Hands {
		if !h.Active() {
			continue
		}
		v := h.Value(g.Rules)
		if v.Kind.IsPontoon() {
			anyPontoon = true // R6.1, R4.9, R8.6
			// R6.2: the first unsplit pontoon in play order takes the bank, unless the
			// banker had one too.
			if !h.Split && !bv.Kind.IsPontoon() && o.NextBanker == banker {
				o.NextBanker = h.Player
			}
		}
	}
	o.Shuffle = anyPontoon
	g.finish(o)
}

// finish puts the used cards under the pack (R6.1, R7.4), hands over the bank (R6.2,
// R9.9) and ends the round.
func (g *Game) finish(o *Outcome) {
	r := g.Round
	if o == nil {
		o = &Outcome{BankerValue: Evaluate(Cards(r.BankerHand), g.Rules, true), NextBanker: g.Banker}
	}
	for _, h := range r.Hands {
		if !h.under {
			r.Pack = append(r.Pack, Cards(h.Cards)...)
			h.under = true
		}
	}
	r.Pack = append(r.Pack, Cards(r.BankerHand)...)
	if o.NextBanker != g.Banker && g.Rules.Variant == Shoot {
		o.KittyReturned = g.Kitty
		g.move(KittyAccount, Wallet(g.Banker), g.Kitty, ReasonKittyReturn, "R9.9")
	}
	g.Banker = o.NextBanker
	r.Outcome = o
	g.Phase = PhaseBetween
}

// NextPack is the pack the next round is dealt from when the last round had no pontoon
// (R6.1): the cards not dealt, then the used cards under them. It is nil before the
// first round settles.
func (g *Game) NextPack() []Card {
	if g.Round == nil || g.Round.Outcome == nil {
		return nil
	}
	return append([]Card(nil), g.Round.Pack...)
}
