package sim

import "github.com/pontoon-bot/pontoon/game"

// hand is one player's hand in a simulated round: the engine's Hand cut down to what
// the strategy and the settlement read, in fixed arrays so a round allocates nothing.
type hand struct {
	player   int // index in play order
	number   int // 1-based among the player's hands (R4.8)
	cards    [5]game.Card
	up       uint8 // bit i: card i is face up
	n        int
	initial  int64
	stake    int64
	lastBuy  int64
	shoot    int64
	twisted  bool
	acted    bool
	split    bool
	done     bool
	bust     bool // settled at once (R4.6)
	shot3    bool
	shotArr  bool
	value    game.Value
	net      int64
	isSettle bool
}

func (h *hand) hand() []game.Card { return h.cards[:h.n] }

// Table plays simulated rounds of one rule set at one table size, with the documented
// strategy for every player and the banker. It reuses its buffers: a Table is not safe
// for concurrent use, and what Play returns is valid until the next Play.
type Table struct {
	rules   game.Rules
	players int
	stake   int64
	pack    []game.Card
	head    int
	hands   []hand
	banker  [5]game.Card
	bn      int
	doubled bool
	kitty   int64

	// Tallies over every round played, for Run: final hand kinds (game.Kind order).
	playerKinds [6]int64
	bankerKinds [6]int64
	handCount   int64
}

// NewTable seats the banker and players-many players under rules.
func NewTable(rules game.Rules, players int) *Table {
	return &Table{rules: rules, players: players, stake: stakeFor(rules),
		pack: make([]game.Card, 0, 160), hands: make([]hand, 0, 4*players)}
}

// Round is a simulated round's outcome.
type Round struct {
	BankerCards []game.Card
	BankerValue game.Value
	BankerNet   int64 // what the bank won (+) or lost (-), the kitty included
	Staked      int64 // every chip the players put at risk: stakes, buys, splits and shoot bets
	Doubled     bool
}

// HandOutcome is one player's hand in a Round.
type HandOutcome struct {
	Player int // index in play order (0 is the seat after the banker)
	Number int
	Cards  []game.Card
	Value  game.Value
	Stake  int64
	Shoot  int64
	Net    int64
}

func (t *Table) draw() game.Card {
	if t.head >= len(t.pack) {
		panic("sim: pack exhausted") // a full pack cannot run out: at most 8 seats, and two decks from 8 (R1.2)
	}
	c := t.pack[t.head]
	t.head++
	return c
}

func (t *Table) give(h *hand, faceUp bool) {
	h.cards[h.n] = t.draw()
	if faceUp {
		h.up |= 1 << h.n
	}
	h.n++
}

func (t *Table) under(cs []game.Card) { t.pack = append(t.pack, cs...) }

// check ends a hand that busted, made a pontoon, reached 21 or five cards, as the engine's
// check does (R4.1, R4.6, R4.7).
func (t *Table) check(h *hand) {
	v := game.Evaluate(h.hand(), t.rules, false)
	switch {
	case v.Kind == game.KindBust:
		h.done, h.bust, h.isSettle = true, true, true
		h.up = 0x1f
		h.value = v
		h.net = -(h.stake + h.shoot)
		t.under(h.hand())
	case v.Kind == game.KindPontoon:
		for i := 0; i < h.n; i++ {
			if h.cards[i].Rank == game.Ace {
				h.up |= 1 << i
			}
		}
		h.done = true
	case v.Total == 21 || h.n == 5:
		h.done = true
	}
}

func (t *Table) shootBet() int64 {
	var open int64
	for i := range t.hands {
		if !t.hands[i].isSettle {
			open += t.hands[i].shoot
		}
	}
	return min(t.stake, t.kitty-open)
}

// Play deals one round from pack (top first), which it does not change, and plays it to
// the end. The pack must hold enough cards: a full pack always does.
func (t *Table) Play(pack []game.Card) Round {
	r := t.rules
	shoot := r.Variant == game.Shoot
	t.pack = append(t.pack[:0], pack...)
	t.head = 0
	t.hands = t.hands[:0]
	t.bn = 0
	t.doubled = false
	t.kitty = r.KittyMax
	// R3.2: a first card to each player in play order, the banker last; R3.3: all stake.
	for p := 0; p < t.players; p++ {
		t.hands = append(t.hands, hand{player: p, number: 1, initial: t.stake, stake: t.stake})
		t.give(&t.hands[p], false)
	}
	t.banker[0] = t.draw()
	t.bn = 1
	if shoot { // R9.2, in play order
		for i := range t.hands {
			if h := &t.hands[i]; shootFirst(h.cards[0]) {
				h.shoot = max(0, t.shootBet())
			}
		}
	}
	if r.BankerMayDouble { // R8.3
		t.doubled = bankerDoubles(t.banker[0])
	}
	for i := range t.hands { // R3.4
		t.give(&t.hands[i], false)
	}
	t.banker[1] = t.draw()
	t.bn = 2
	if bv := game.Evaluate(t.banker[:2], r, true); bv.Kind == game.KindPontoon { // R3.5
		return t.settle(bv)
	}
	for i := range t.hands {
		t.check(&t.hands[i])
	}
	for i := 0; i < len(t.hands); i++ { // R4, hand by hand; splits append hands as they come
		for !t.hands[i].done {
			t.turn(i)
		}
	}
	// R5: every hand bust ends the round; the banker stops at 21 or five cards.
	open := 0
	for i := range t.hands {
		if !t.hands[i].isSettle {
			open++
		}
	}
	for open > 0 {
		bv := game.Evaluate(t.banker[:t.bn], r, true)
		if bv.Kind == game.KindBust || bv.Total == 21 || t.bn == 5 {
			break
		}
		best, _ := game.Totals(t.banker[:t.bn])
		ahead := 0
		for i := range t.hands {
			h := &t.hands[i]
			if h.isSettle {
				continue
			}
			upHard, down := 0, 0
			for c := 0; c < h.n; c++ {
				if h.up&(1<<c) != 0 {
					upHard += h.cards[c].Points()
				} else {
					down++
				}
			}
			if showsMore(best, least(r, upHard, down), h.n) {
				ahead++
			}
		}
		if draw, _ := bankerDraws(t.banker[:t.bn], ahead, open); !draw {
			break
		}
		t.banker[t.bn] = t.draw()
		t.bn++
	}
	return t.settle(game.Evaluate(t.banker[:t.bn], r, true))
}

// turn plays one decision of hand i (and the shoot bet that goes with it).
func (t *Table) turn(i int) {
	r := t.rules
	h := &t.hands[i]
	if r.Variant == game.Shoot && h.number > 1 && !h.acted && !h.shotArr { // R9.5
		h.shotArr = true
		if shootOnArrival(h.hand()) {
			h.shoot += max(0, t.shootBet())
		}
	}
	count, last := 0, 0
	for k := range t.hands {
		if t.hands[k].player == h.player {
			count++
			last = k
		}
	}
	verb, amount, _ := play(r, h.hand(), h.twisted, h.initial, h.lastBuy, count < 4)
	if r.Variant == game.Shoot && h.n == 3 && !h.shot3 && (verb == game.VerbBuy || verb == game.VerbTwist) && shootThree(h.hand()) { // R9.4
		h.shot3 = true
		h.shoot += max(0, t.shootBet())
	}
	switch verb {
	case game.VerbBurn: // R8.8
		t.under(h.hand())
		h.n, h.up = 0, 0
		t.give(h, false)
		t.give(h, false)
		t.check(h)
	case game.VerbSplit: // R4.2, R4.8
		a, b := h.cards[0], h.cards[1]
		h.cards[0], h.n, h.up = a, 1, 1
		t.give(h, false)
		nh := hand{player: h.player, number: count + 1, initial: h.initial, stake: h.initial, n: 1, up: 1}
		nh.cards[0] = b
		nh.cards[1] = t.draw()
		nh.n = 2
		t.hands = append(t.hands, hand{})
		copy(t.hands[last+2:], t.hands[last+1:])
		t.hands[last+1] = nh
		h = &t.hands[i] // the append may have moved the hands
		for k := range t.hands {
			if t.hands[k].player == h.player {
				t.hands[k].split = true
			}
		}
		t.check(h)
		t.check(&t.hands[last+1])
	default:
		t.apply(h, verb, amount)
		return
	}
	h.acted = true
}

func (t *Table) apply(h *hand, verb game.Verb, amount int64) {
	switch verb {
	case game.VerbBuy: // R4.3: face down
		h.stake += amount
		h.lastBuy = amount
		t.give(h, false)
		t.check(h)
	case game.VerbTwist: // R4.4: face up
		h.twisted = true
		t.give(h, true)
		t.check(h)
	case game.VerbStick: // R4.5
		h.done = true
	}
	h.acted = true
}

// settle settles every open hand against the banker's value with the engine's own
// settlement (game.HandNet) and sums the round.
func (t *Table) settle(bv game.Value) Round {
	out := Round{BankerCards: t.banker[:t.bn], BankerValue: bv, Doubled: t.doubled}
	for i := range t.hands {
		h := &t.hands[i]
		if !h.isSettle {
			h.value = game.Evaluate(h.hand(), t.rules, false)
			h.net = game.HandNet(t.rules, h.value, bv, t.doubled, h.stake, h.shoot)
			h.isSettle = true
		}
		out.BankerNet -= h.net
		out.Staked += h.stake + h.shoot
		t.playerKinds[h.value.Kind]++
	}
	t.bankerKinds[bv.Kind]++
	t.handCount += int64(len(t.hands))
	return out
}

// Outcomes lists the hands of the last round played, in the engine's order (R4.8).
func (t *Table) Outcomes(dst []HandOutcome) []HandOutcome {
	dst = dst[:0]
	for i := range t.hands {
		h := &t.hands[i]
		dst = append(dst, HandOutcome{Player: h.player, Number: h.number, Cards: h.hand(), Value: h.value, Stake: h.stake, Shoot: h.shoot, Net: h.net})
	}
	return dst
}
