package game

import "fmt"

// current is the hand whose turn it is while players play.
func (g *Game) current() *Hand {
	r := g.Round
	if r == nil || r.Turn < 0 || r.Turn >= len(r.Hands) {
		return nil
	}
	return r.Hands[r.Turn]
}

// Current returns the hand to act in the shooting or playing phase, or nil.
func (g *Game) Current() *Hand {
	if g.Phase != PhaseShooting && g.Phase != PhasePlaying {
		return nil
	}
	return g.current()
}

// notYourTurn explains to p why they cannot play now; when their own hand has ended by
// itself it says which rule ended it.
func (g *Game) notYourTurn(p string, verb Verb) *Error {
	if g.Phase == PhasePlaying || g.Phase == PhaseBanker {
		var last *Hand
		for _, h := range g.Round.Hands {
			if h.Player == p && h.Active() {
				last = h
			}
		}
		cur := g.current()
		if last != nil && last.Done && (cur == nil || cur.Player != p) {
			v := last.Value(g.Rules)
			why := "the hand is finished"
			switch {
			case v.Kind == KindBust:
				why = "the hand is bust (R4.6)"
			case v.Kind.IsPontoon():
				why = "a pontoon ends the hand at once (R4.1)"
			case v.Kind == KindFiveCardTrick:
				why = "a five card trick takes no more cards (R4.7)"
			case v.Total == 21:
				why = "a hand at 21 takes no more cards (R4.7)"
			}
			next := g.Banker
			if cur != nil && g.Phase == PhasePlaying {
				next = cur.Player
			}
			return newErr(ErrHandFinished, "R4.7", map[string]any{"next": next, "total": v.Total},
				"you cannot %s: %s, so the turn has passed to %s", verb, why, next)
		}
	}
	if g.Phase != PhasePlaying {
		return g.wrongPhase(verb)
	}
	cur := g.current()
	return newErr(ErrNotYourTurn, "R3.1", map[string]any{"turn": cur.Player}, "it is %s's turn, not yours (R3.1)", cur.Player)
}

// play applies a player's split, burn, buy, twist or stick to the hand in turn (R4).
func (g *Game) play(a Action) error {
	if a.Player == g.Banker {
		return newErr(ErrNotForBanker, "R5.2", why("banker_turn"), "the banker draws or stays on the banker's turn (R5.2)")
	}
	h := g.current()
	if g.Phase != PhasePlaying || h == nil || h.Player != a.Player {
		return g.notYourTurn(a.Player, a.Verb)
	}
	var err error
	switch a.Verb {
	case VerbSplit:
		err = g.split(h)
	case VerbBurn:
		err = g.burn(h)
	case VerbBuy:
		err = g.buy(h, a.Amount)
	case VerbTwist:
		err = g.twist(h)
	case VerbStick:
		err = g.stick(h)
	}
	if err != nil || g.dry {
		return err
	}
	h.Acted = true
	g.advance()
	return nil
}

// CanSplit reports whether cards may be split under the rules (R4.2, R8.1), leaving
// aside chips (R7.1, R7.2) and the four-hand limit.
func CanSplit(r Rules, cards []Card) bool { return splitWhy(r, cards) == "" }

// splitWhy is why cards cannot be split, or "" when they can: one check for the engine's
// refusal and for CanSplit, which must not allocate (the simulator asks it every hand).
func splitWhy(r Rules, cards []Card) string {
	switch {
	case r.Split == SplitNone:
		return "off"
	case len(cards) != 2:
		return "two_cards"
	case cards[0].Rank != cards[1].Rank:
		return "not_pair"
	case r.Split == SplitAces && cards[0].Rank != Ace:
		return "aces_only"
	}
	return ""
}

func splitCards(r Rules, cards []Card) *Error {
	switch splitWhy(r, cards) {
	case "off":
		return newErr(ErrCannotSplit, "R8.1", why("off"), "splitting is off at this table (R8.1)")
	case "two_cards":
		return newErr(ErrCannotSplit, "R4.2", why("two_cards"), "only a hand of two cards can be split (R4.2)")
	case "not_pair":
		a, b := cards[0], cards[1]
		return newErr(ErrCannotSplit, "R4.2", map[string]any{"why": "not_pair", "cards": FormatCards([]Card{a, b})},
			"%s and %s are not of equal rank, so they cannot be split (R4.2)", a, b)
	case "aces_only":
		return newErr(ErrCannotSplit, "R8.1", why("aces_only"), "only Aces may be split at this table (R8.1)")
	}
	return nil
}

func (g *Game) split(h *Hand) error {
	r := g.Rules
	if err := splitCards(r, Cards(h.Cards)); err != nil {
		return err
	}
	a, b := h.Cards[0].Card, h.Cards[1].Card
	n := 0
	last := 0
	for i, o := range g.Round.Hands {
		if o.Player == h.Player {
			n++
			last = i
		}
	}
	if n >= 4 {
		return newErr(ErrCannotSplit, "R4.2", why("four_hands"), "a player may hold at most four hands (R4.2)")
	}
	if err := g.canBet(h.Player, h.Initial); err != nil {
		return err
	}
	if g.dry {
		return g.needCards(2)
	}
	nh := &Hand{Player: h.Player, Number: n + 1, Initial: h.Initial}
	g.bet(nh, h.Initial, ReasonSplit, "R4.2")
	// Split cards lie face up; the first stays with this hand, the second starts the new one (R4.2, R4.8).
	nh.Cards = []HandCard{{Card: b, FaceUp: true}}
	h.Cards = []HandCard{{Card: a, FaceUp: true}}
	g.mustDraw(&h.Cards, false)
	g.mustDraw(&nh.Cards, false)
	hs := g.Round.Hands
	hs = append(hs[:last+1], append([]*Hand{nh}, hs[last+1:]...)...)
	g.Round.Hands = hs
	for _, o := range hs {
		if o.Player == h.Player {
			o.Split = true
		}
	}
	g.check(h)
	g.check(nh)
	return nil
}

// CanBurn reports whether cards may be burned under the rules (R8.8).
func CanBurn(r Rules, cards []Card) bool { return burnWhy(r, cards) == "" }

// burnWhy is why cards cannot be burned, or "" (see splitWhy).
func burnWhy(r Rules, cards []Card) string {
	switch {
	case r.Burn == 0:
		return "off"
	case len(cards) != 2:
		return "two_cards"
	case cards[0].Rank == Ace || cards[1].Rank == Ace:
		return "ace"
	}
	if _, hard := Totals(cards); hard != r.Burn {
		return "total"
	}
	return ""
}

func burnCards(r Rules, cards []Card) *Error {
	switch burnWhy(r, cards) {
	case "off":
		return newErr(ErrCannotBurn, "R8.8", why("off"), "burning is off at this table (R8.8)")
	case "two_cards":
		return newErr(ErrCannotBurn, "R8.8", why("two_cards"), "only a hand of two cards can be burned (R8.8)")
	case "ace":
		return newErr(ErrCannotBurn, "R8.8", why("ace"), "a hand holding an Ace cannot be burned (R8.8)")
	case "total":
		_, hard := Totals(cards)
		return newErr(ErrCannotBurn, "R8.8", map[string]any{"why": "total", "need": r.Burn, "have": hard},
			"burning needs a total of exactly %d; this hand has %d (R8.8)", r.Burn, hard)
	}
	return nil
}

func (g *Game) burn(h *Hand) error {
	cards := Cards(h.Cards)
	if err := burnCards(g.Rules, cards); err != nil {
		return err
	}
	if g.dry {
		return nil // the two burned cards go under first, so two cards are always there
	}
	// The burned cards go face up to the bottom of the pack and two new cards come (R8.8).
	g.Round.Pack = append(g.Round.Pack, cards...)
	h.Cards = nil
	g.mustDraw(&h.Cards, false)
	g.mustDraw(&h.Cards, false)
	g.check(h)
	return nil
}

// canDraw refuses a card to a hand that takes no more (R4.7).
func (g *Game) canDraw(h *Hand, verb Verb) error {
	if h.Done {
		return newErr(ErrHandFinished, "R4.7", why("no_more"), "this hand takes no more cards (R4.7)")
	}
	return nil
}

func (g *Game) buy(h *Hand, amount int64) error {
	if err := g.canDraw(h, VerbBuy); err != nil {
		return err
	}
	if err := buyCards(g.Rules, Cards(h.Cards), h.Twisted); err != nil {
		return err
	}
	lo, hi := g.buyRange(h)
	if amount < lo || amount > hi {
		which := "third"
		if len(h.Cards) == 3 {
			which = "fourth"
		} else if len(h.Cards) == 4 {
			which = "fifth"
		}
		return newErr(ErrBuyOutOfRange, "R4.3", map[string]any{"min": lo, "max": hi, "amount": amount, "card": len(h.Cards) + 1},
			"the %s card costs from %d to %d; %d is not (R4.3)", which, lo, hi, amount)
	}
	if err := g.canBet(h.Player, amount); err != nil {
		return err
	}
	if g.dry {
		return g.needCards(1)
	}
	g.bet(h, amount, ReasonBuy, "R4.3")
	h.LastBuy = amount
	h.bet3 = 0                  // the card the three-card shoot bet asked for (R9.4)
	g.mustDraw(&h.Cards, false) // bought cards come face down (R4.3)
	g.check(h)
	return nil
}

// CanBuy reports whether a hand of cards that has or has not twisted may buy its next
// card (R4.4, R8.5), leaving aside the price and chips; a hand that takes no more cards
// (R4.7) is the caller's to know.
func CanBuy(r Rules, cards []Card, twisted bool) bool { return !twisted && !fourLowTwistOnly(r, cards) }

// fourLowTwistOnly reports whether R8.5 keeps four low cards from buying the fifth.
func fourLowTwistOnly(r Rules, cards []Card) bool {
	_, hard := Totals(cards)
	return r.FourLowTwistOnly && len(cards) == 4 && hard <= 11
}

func buyCards(r Rules, cards []Card, twisted bool) *Error {
	if twisted {
		return newErr(ErrNoBuyAfterTwist, "R4.4", nil, "a hand that has twisted may never buy again (R4.4)")
	}
	if fourLowTwistOnly(r, cards) {
		_, hard := Totals(cards)
		return newErr(ErrFourLowTwistOnly, "R8.5", map[string]any{"total": hard},
			"four cards totalling %d or less may only twist the fifth card, not buy it (R8.5)", hard)
	}
	return nil
}

// BuyRange is what the next bought card of a hand of n cards may cost (R4.3): the third
// from the initial stake to twice it, later cards from the initial stake to the price of
// the card before.
func BuyRange(n int, initial, lastBuy int64) (lo, hi int64) {
	if n <= 2 {
		return initial, 2 * initial
	}
	return initial, lastBuy
}

func (g *Game) buyRange(h *Hand) (lo, hi int64) { return BuyRange(len(h.Cards), h.Initial, h.LastBuy) }

func (g *Game) twist(h *Hand) error {
	if err := g.canDraw(h, VerbTwist); err != nil {
		return err
	}
	if g.dry {
		return g.needCards(1)
	}
	h.Twisted = true
	h.bet3 = 0                 // the card the three-card shoot bet asked for (R9.4)
	g.mustDraw(&h.Cards, true) // twisted cards come face up (R4.4)
	g.check(h)
	return nil
}

func (g *Game) stick(h *Hand) error {
	if h.bet3 > 0 {
		return newErr(ErrShootMustDraw, "R9.4", map[string]any{"amount": h.bet3},
			"your shoot bet of %d goes with asking for the fourth card, so now you must buy or twist, not stick (R9.4)", h.bet3)
	}
	total, _ := Totals(Cards(h.Cards))
	if total < g.Rules.StickMin {
		return newErr(ErrBelowStickMinimum, "R4.5", map[string]any{"total": total, "min": g.Rules.StickMin},
			"total %d is under the stick minimum of %d (R4.5)", total, g.Rules.StickMin)
	}
	if g.dry {
		return nil
	}
	h.Done = true
	return nil
}

// check ends a hand that has busted, made a pontoon, reached 21 or five cards (R4.1,
// R4.6, R4.7, R4.9).
func (g *Game) check(h *Hand) {
	v := Evaluate(Cards(h.Cards), g.Rules, false)
	switch {
	case v.Kind == KindBust:
		g.bust(h, false)
	case v.Kind == KindPontoon:
		// Declared at once with the Ace face up (R4.1).
		for i := range h.Cards {
			if h.Cards[i].Card.Rank == Ace {
				h.Cards[i].FaceUp = true
			}
		}
		h.Done = true
	case v.Total == 21 || len(h.Cards) == 5:
		h.Done = true
	}
}

// bust settles a hand at once: the banker takes its stake, its shoot bet goes to the
// kitty and its cards go under the pack (R4.6, R9.6). A fold counts the same (R7.4).
func (g *Game) bust(h *Hand, folded bool) {
	h.Done, h.Folded, h.Settled, h.under = true, folded, true, true
	for i := range h.Cards {
		h.Cards[i].FaceUp = true
	}
	p := h.Player
	g.move(Escrow(p), Wallet(g.Banker), h.Stake, ReasonLoss, "R4.6")
	g.move(Escrow(p), Wallet(p), h.Reserve, ReasonRelease, "R7.1")
	g.move(Escrow(g.Banker), Wallet(g.Banker), h.Cover, ReasonRelease, "R7.2")
	g.move(Escrow(p), KittyAccount, h.Shoot, ReasonShootLoss, "R9.6")
	h.Net = -(h.Stake + h.Shoot)
	h.Reserve, h.Cover = 0, 0
	g.Round.Pack = append(g.Round.Pack, Cards(h.Cards)...)
}

// advance passes the turn to the next hand still to play, then to the banker.
func (g *Game) advance() {
	r := g.Round
	for r.Turn < len(r.Hands) && (!r.Hands[r.Turn].Active() || r.Hands[r.Turn].Done) {
		r.Turn++
	}
	if r.Turn < len(r.Hands) {
		return
	}
	g.startBanker()
}

// startBanker turns the banker's cards up and gives the banker the turn (R5.1), or ends
// the round at once if every other hand is bust (R5.2) or the banker is at 21.
func (g *Game) startBanker() {
	r := g.Round
	g.Phase = PhaseBanker
	for i := range r.BankerHand {
		r.BankerHand[i].FaceUp = true
	}
	allBust := true
	for _, h := range r.Hands {
		if h.Active() && !h.Settled {
			allBust = false
		}
	}
	bv := Evaluate(Cards(r.BankerHand), g.Rules, true)
	if allBust {
		g.settle(bv, false)
		return
	}
	if bv.Total == 21 || len(r.BankerHand) == 5 {
		g.settle(bv, true)
	}
}

// shoot: a shoot bet after the stakes, before a hand's fourth card, or on reaching a
// split hand (R9.2, R9.4, R9.5). An amount of 0 declines.
func (g *Game) shoot(a Action) error {
	if g.Rules.Variant != Shoot {
		return newErr(ErrShootOnly, "R9", nil, "shoot bets belong to Shoot Pontoon (R9)")
	}
	if a.Player == g.Banker {
		return newErr(ErrNotForBanker, "R9.2", why("shoot"), "the banker does not shoot (R9.2)")
	}
	h := g.current()
	switch g.Phase {
	case PhaseShooting:
		if h.Player != a.Player {
			return newErr(ErrNotYourTurn, "R9.2", map[string]any{"why": "shoot_order", "turn": h.Player}, "shoot bets go in play order; it is %s's decision (R9.2)", h.Player)
		}
		if err := g.placeShoot(h, a.Amount); err != nil {
			return err
		}
		if g.dry {
			return g.needCards(g.cardsAfterShoot())
		}
		g.nextShooter()
		return nil
	case PhasePlaying:
		if h == nil || h.Player != a.Player {
			return g.notYourTurn(a.Player, a.Verb)
		}
		switch {
		case len(h.Cards) == 3 && !h.shot3:
			if err := g.placeShoot(h, a.Amount); err != nil || g.dry {
				return err
			}
			// The bet goes with asking for the fourth card: until it comes the hand must
			// buy or twist (R9.4). A pass (0) binds nothing.
			h.shot3, h.bet3 = true, a.Amount
		case h.Number > 1 && !h.Acted && !h.shotArr:
			if err := g.placeShoot(h, a.Amount); err != nil || g.dry {
				return err
			}
			h.shotArr = true
		default:
			return newErr(ErrNoShootNow, "R9.4", nil,
				"a shoot bet can be placed only after the stakes, with three cards before the fourth, or on reaching a split hand (R9.2, R9.4, R9.5)")
		}
		return nil
	}
	return g.wrongPhase(a.Verb)
}

// cardsAfterShoot is how many cards the current shoot decision would deal: the second
// cards when it is the last one and no double comes between (R9.2, R3.4, R8.3).
func (g *Game) cardsAfterShoot() int {
	r := g.Round
	for i := r.Turn + 1; i < len(r.Hands); i++ {
		if r.Hands[i].Active() {
			return 0
		}
	}
	if g.Rules.BankerMayDouble {
		return 0
	}
	return g.secondCards()
}

// OpenShoot is the total of shoot bets not yet settled.
func (g *Game) OpenShoot() int64 {
	if g.Round == nil {
		return 0
	}
	var t int64
	for _, h := range g.Round.Hands {
		if !h.Settled {
			t += h.Shoot
		}
	}
	return t
}

func (g *Game) placeShoot(h *Hand, amount int64) error {
	if amount == 0 {
		return nil
	}
	open := g.OpenShoot()
	if open+amount > g.Kitty {
		return newErr(ErrOverKitty, "R9.2", map[string]any{"kitty": g.Kitty, "open": open, "max": g.Kitty - open, "amount": amount},
			"shoot bets together may not exceed the kitty of %d; %d is already bet, so at most %d more (R9.2)", g.Kitty, open, g.Kitty-open)
	}
	if g.Balances[h.Player] < amount {
		return g.insufficient(h.Player, amount, "R9.2")
	}
	if g.dry {
		return nil
	}
	g.move(Wallet(h.Player), Escrow(h.Player), amount, ReasonShoot, "R9.2")
	h.Shoot += amount
	return nil
}

// double: the banker's choice to double after the stakes (R8.3).
func (g *Game) double(a Action) error {
	if !g.Rules.BankerMayDouble {
		return newErr(ErrNoDoubling, "R8.3", nil, "the banker may not double at this table (R8.3)")
	}
	if a.Player != g.Banker {
		return newErr(ErrBankerOnly, "R8.3", map[string]any{"banker": g.Banker}, "only the banker (%s) may double (R8.3)", g.Banker)
	}
	if g.Phase != PhaseDoubling {
		return g.wrongPhase(a.Verb)
	}
	if g.dry {
		return g.needCards(g.secondCards())
	}
	g.Round.Doubled = a.Verb == VerbDouble
	g.dealSecond()
	return nil
}

// bankerPlay: the banker draws face up or stays (R5.2).
func (g *Game) bankerPlay(a Action) error {
	if a.Player != g.Banker {
		return newErr(ErrBankerOnly, "R5.2", map[string]any{"banker": g.Banker}, "only the banker (%s) can %s (R5.2)", g.Banker, a.Verb)
	}
	if g.Phase != PhaseBanker {
		return g.wrongPhase(a.Verb)
	}
	r := g.Round
	if g.dry {
		if a.Verb == VerbDraw {
			return g.needCards(1)
		}
		return nil
	}
	if a.Verb == VerbStay {
		g.settle(Evaluate(Cards(r.BankerHand), g.Rules, true), true)
		return nil
	}
	g.mustDraw(&r.BankerHand, true)
	bv := Evaluate(Cards(r.BankerHand), g.Rules, true)
	if bv.Kind == KindBust || bv.Total == 21 || len(r.BankerHand) == 5 {
		g.settle(bv, true) // R5.2: at 21 or five cards the banker stops by itself
	}
	return nil
}

// timeout applies R7.4 to whoever must act and did not.
func (g *Game) timeout(p string) error {
	none := func(who string) error {
		return newErr(ErrNothingToTimeOut, "R7.4", map[string]any{"player": p, "who": who}, "%s has nothing to time out on; %s", p, who)
	}
	switch g.Phase {
	case PhaseBetween:
		return none("no round is being played")
	case PhaseStaking:
		h := g.hand(p)
		if p == g.Banker || h == nil || h.Stake > 0 || h.SatOut {
			return none("only players who have not staked can time out now")
		}
		h.SatOut = true // sits the round out; the first card goes under at the round's end (R7.4)
		g.afterStake()
	case PhaseShooting:
		h := g.current()
		if h.Player != p {
			return none(fmt.Sprintf("%s is deciding on a shoot bet", h.Player))
		}
		g.nextShooter() // no shoot bet
	case PhaseDoubling:
		if p != g.Banker {
			return none(fmt.Sprintf("%s is deciding whether to double", g.Banker))
		}
		g.dealSecond() // no double
	case PhasePlaying:
		h := g.current()
		if h.Player != p {
			return none(fmt.Sprintf("it is %s's turn", h.Player))
		}
		// A three-card shoot bet whose card was never asked for goes back to the player,
		// and then the hand times out like any other (R9.4, R7.4).
		if h.bet3 > 0 {
			g.move(Escrow(p), Wallet(p), h.bet3, ReasonShootReturn, "R9.4")
			h.Shoot -= h.bet3
			h.bet3 = 0
		}
		if total, _ := Totals(Cards(h.Cards)); total >= g.Rules.StickMin {
			h.Done = true
		} else {
			g.bust(h, true)
		}
		h.Acted = true
		g.advance()
	case PhaseBanker:
		if p != g.Banker {
			return none(fmt.Sprintf("it is %s's turn as banker", g.Banker))
		}
		g.settle(Evaluate(Cards(g.Round.BankerHand), g.Rules, true), true) // the banker stays
	}
	return nil
}
