package game

import (
	"fmt"
	"maps"
	"slices"
)

// Phase is where a table stands in its cycle of rounds.
type Phase uint8

// The phases of a round, in order. A table between rounds is in PhaseBetween.
const (
	PhaseBetween  Phase = iota // no round in play: the banker may top up the kitty or sell the bank, then Deal
	PhaseStaking               // first cards dealt; players place initial stakes (R3.2, R3.3)
	PhaseShooting              // Shoot: players decide on shoot bets in play order (R9.2)
	PhaseDoubling              // the banker decides whether to double (R8.3)
	PhasePlaying               // the players' turns, hand by hand (R4)
	PhaseBanker                // the banker's turn (R5)
)

var phaseNames = [...]string{"between rounds", "staking", "shooting", "doubling", "playing", "banker"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

// HandCard is a card in a hand with whether the table can see it (R3.2, R4.2-R4.6, R5.1).
type HandCard struct {
	Card   Card
	FaceUp bool
}

// Hand is one player's hand in a round. A player who splits holds several (R4.2).
type Hand struct {
	Player  string
	Number  int // 1-based among the player's hands; hand 1 holds the first card (R4.8)
	Cards   []HandCard
	Initial int64 // the initial stake (R3.3), which prices buys and splits (R4.2, R4.3)
	Stake   int64 // initial stake plus buys
	Reserve int64 // held back against a double loss (R7.1)
	Cover   int64 // banker's chips held against this hand's best win (R7.2)
	Shoot   int64 // open shoot bets on this hand (R9)
	LastBuy int64 // what the last bought card cost (R4.3)
	Twisted bool  // once twisted, never buy (R4.4)
	Acted   bool  // the hand has been played (split, burn, buy, twist or stick)
	SatOut  bool  // did not stake in time: out of the round (R7.4)
	Split   bool  // its player split this round (R4.9, R6.2)
	Done    bool  // takes no more cards
	Folded  bool  // timed out under the stick minimum: counts as bust (R7.4)
	Settled bool  // its chips have been paid out
	Net     int64 // what it won (+) or lost (-), stake and shoot together
	shot3   bool  // used the shoot bet before the fourth card (R9.4)
	bet3    int64 // a three-card shoot bet still waiting for its fourth card: the hand must buy or twist (R9.4)
	shotArr bool  // used the shoot bet on reaching a split hand (R9.5)
	under   bool  // its cards already went under the pack (R4.6)
}

// Cards returns the bare cards of hand cards.
func Cards(hc []HandCard) []Card {
	out := make([]Card, len(hc))
	for i, c := range hc {
		out[i] = c.Card
	}
	return out
}

// Active reports whether the hand is in the round: staked and not sat out.
func (h *Hand) Active() bool { return h.Stake > 0 && !h.SatOut }

// Value evaluates the hand for a player (a folded hand counts as bust, R7.4).
func (h *Hand) Value(r Rules) Value {
	v := Evaluate(Cards(h.Cards), r, false)
	if h.Folded {
		v.Kind = KindBust
	}
	return v
}

// Outcome is how a round ended.
type Outcome struct {
	BankerValue   Value
	BankerPlayed  bool   // false when every hand was bust or the banker had a pontoon (R5.2, R3.5)
	NextBanker    string // R6.2, R6.3
	Shuffle       bool   // R6.1
	KittyReturned int64  // to the old banker when the bank changed hands (R9.9)
}

// Round is one deal of the cards.
type Round struct {
	Number     int
	Banker     string
	Order      []string   // the other players in play order (R3.1)
	Pack       []Card     // still to deal, top first; burned and bust cards go under (R4.6, R8.8)
	Hands      []*Hand    // in play order; a player's split hands follow their first (R4.8)
	BankerHand []HandCard // face down until the banker's turn (R5.1)
	Turn       int        // index into Hands of the hand to act (shooting and playing)
	Doubled    bool       // the banker doubled (R8.3)
	Outcome    *Outcome   // set when the round has settled
}

// Game is one table: its rules, seats, banker, chips and the round in play. It is a value
// the caller owns; Apply and Deal change it only when they succeed, so an illegal action
// changes nothing. Its changing methods are not safe for concurrent use; the reading ones
// (Legal, ToAct, SeesOwnCards, Clone, …) write nothing, so several goroutines may read one
// game that nobody changes, as the bot's views of one snapshot do.
type Game struct {
	Rules    Rules
	Seats    []string         // clockwise (R3.1)
	Banker   string           // holds the bank now (for the next deal when between rounds)
	Balances map[string]int64 // free chips of each seat
	Escrow   map[string]int64 // chips held in this round: stakes, reserves and shoot bets per player, the bank's cover for the banker (R7.1, R7.2)
	Kitty    int64            // Shoot's kitty (R9.1)
	Phase    Phase
	Round    *Round // the round in play, or the last one settled; nil before the first deal
	Dealt    int    // rounds dealt so far

	out     []Transfer
	pending *Error // a card the engine needed by itself was missing (pack exhausted)
	dry     bool   // only check: every handler returns before its first change (see allows)
}

// NewGame seats players (clockwise) with their free balances; banker holds the bank and,
// in Shoot, kitty is already put up.
func NewGame(rules Rules, seats []string, banker string, balances map[string]int64, kitty int64) (*Game, error) {
	if err := rules.Validate(); err != nil {
		return nil, newErr(ErrBadTable, "", nil, "%v", err)
	}
	if len(seats) < 2 {
		return nil, newErr(ErrBadTable, "R1.1", nil, "a table needs at least two players (R1.1)")
	}
	g := &Game{Rules: rules, Banker: banker, Balances: map[string]int64{}, Escrow: map[string]int64{}}
	for _, s := range seats {
		if s == "" || slices.Contains(g.Seats, s) {
			return nil, newErr(ErrBadTable, "", nil, "seat names must be unique and not empty (%q)", s)
		}
		b, ok := balances[s]
		if !ok || b < 0 || b > MaxChips {
			return nil, newErr(ErrBadTable, "", nil, "%s needs a balance from 0 to %d", s, MaxChips)
		}
		g.Seats = append(g.Seats, s)
		g.Balances[s] = b
	}
	for name := range balances {
		if !slices.Contains(seats, name) {
			return nil, newErr(ErrBadTable, "", nil, "%s has a balance but no seat", name)
		}
	}
	if !slices.Contains(seats, banker) {
		return nil, newErr(ErrBadTable, "R1.1", nil, "the banker %q is not seated", banker)
	}
	if kitty < 0 || kitty > MaxChips || (kitty > 0 && rules.Variant != Shoot) {
		return nil, newErr(ErrBadTable, "R9.1", nil, "a kitty of %d is not allowed here (only Shoot has a kitty)", kitty)
	}
	g.Kitty = kitty
	return g, nil
}

// Clone returns a deep copy.
func (g *Game) Clone() *Game {
	c := *g
	c.Seats = slices.Clone(g.Seats)
	c.Balances = maps.Clone(g.Balances)
	c.Escrow = maps.Clone(g.Escrow)
	c.out = nil
	c.pending = nil
	if g.Round != nil {
		r := *g.Round
		r.Order = slices.Clone(r.Order)
		r.Pack = slices.Clone(r.Pack)
		r.BankerHand = slices.Clone(r.BankerHand)
		r.Hands = make([]*Hand, len(g.Round.Hands))
		for i, h := range g.Round.Hands {
			hc := *h
			hc.Cards = slices.Clone(h.Cards)
			r.Hands[i] = &hc
		}
		if r.Outcome != nil {
			o := *r.Outcome
			r.Outcome = &o
		}
		c.Round = &r
	}
	return &c
}

// Total is every chip at the table: free balances, escrow and kitty. Only NewGame sets
// it; no action changes it (R7.3).
func (g *Game) Total() int64 {
	t := g.Kitty
	for _, v := range g.Balances {
		t += v
	}
	for _, v := range g.Escrow {
		t += v
	}
	return t
}

// InRound reports whether a round is being played.
func (g *Game) InRound() bool { return g.Phase != PhaseBetween }

// PlayOrder is the seats after the banker, clockwise, wrapping round (R3.1); the banker
// is not in it.
func PlayOrder(seats []string, banker string) []string {
	i := slices.Index(seats, banker)
	out := make([]string, 0, len(seats)-1)
	for k := 1; k < len(seats); k++ {
		out = append(out, seats[(i+k)%len(seats)])
	}
	return out
}

// Deal starts a round from pack (top first): one card face down to each player in play
// order and the banker last (R3.2).
func (g *Game) Deal(pack []Card) error {
	c := g.Clone()
	if err := c.deal(pack); err != nil {
		return err
	}
	*g = *c
	return nil
}

func (g *Game) deal(pack []Card) error {
	if g.Phase != PhaseBetween {
		return newErr(ErrWrongPhase, "", nil, "a round is already being played")
	}
	if g.Rules.Variant == Shoot && g.Kitty == 0 {
		return newErr(ErrKittyRequired, "R9.1", map[string]any{"banker": g.Banker, "min": g.Rules.KittyMin, "max": g.Rules.KittyMax},
			"%s must put up a kitty of %d to %d before the deal (R9.1, R9.8, R9.9)", g.Banker, g.Rules.KittyMin, g.Rules.KittyMax)
	}
	if err := ValidatePack(pack, g.Rules.DecksFor(len(g.Seats))); err != nil {
		return newErr(ErrBadTable, "R1.2", nil, "%v", err)
	}
	g.Dealt++
	r := &Round{Number: g.Dealt, Banker: g.Banker, Order: PlayOrder(g.Seats, g.Banker), Pack: slices.Clone(pack)}
	g.Round = r
	for _, p := range r.Order {
		h := &Hand{Player: p, Number: 1}
		r.Hands = append(r.Hands, h)
		if err := g.draw(&h.Cards, false); err != nil {
			return err
		}
	}
	if err := g.draw(&r.BankerHand, false); err != nil {
		return err
	}
	g.Phase = PhaseStaking
	return nil
}

// draw deals the top card of the pack onto a hand.
func (g *Game) draw(dst *[]HandCard, faceUp bool) error {
	r := g.Round
	if len(r.Pack) == 0 {
		return newErr(ErrPackExhausted, "", nil, "pack exhausted")
	}
	if g.pending != nil {
		return g.pending
	}
	*dst = append(*dst, HandCard{Card: r.Pack[0], FaceUp: faceUp})
	r.Pack = r.Pack[1:]
	return nil
}

// Apply performs one person's decision. On success it returns the chip movements it
// caused (possibly none); on failure it returns an *Error and the game is unchanged.
func (g *Game) Apply(a Action) ([]Transfer, error) {
	c := g.Clone()
	if err := c.apply(a); err != nil {
		return nil, err
	}
	if c.pending != nil {
		return nil, c.pending
	}
	out := c.out
	c.out = nil
	*g = *c
	return out, nil
}

func (g *Game) apply(a Action) error {
	if !slices.Contains(g.Seats, a.Player) {
		return newErr(ErrNotSeated, "", map[string]any{"player": a.Player}, "%s is not seated at this table", a.Player)
	}
	if a.Amount < 0 || a.Amount > MaxChips {
		return newErr(ErrBadAmount, "", map[string]any{"max": MaxChips}, "%d is not an amount of chips", a.Amount)
	}
	switch a.Verb {
	case VerbKitty:
		return g.kitty(a)
	case VerbSell:
		return g.sell(a)
	case VerbTimeout:
		return g.timeout(a.Player)
	case VerbStake:
		return g.stake(a)
	case VerbShoot:
		return g.shoot(a)
	case VerbDouble, VerbNoDouble:
		return g.double(a)
	case VerbSplit, VerbBurn, VerbBuy, VerbTwist, VerbStick:
		return g.play(a)
	case VerbDraw, VerbStay:
		return g.bankerPlay(a)
	}
	return newErr(ErrBadAction, "", nil, "%q is not an action", a.Verb)
}

// wrongPhase explains why verb cannot be done now, naming who must act.
func (g *Game) wrongPhase(verb Verb) *Error {
	var why string
	switch g.Phase {
	case PhaseBetween:
		why = "no round is being played"
	case PhaseStaking:
		why = "players are still placing their stakes"
	case PhaseShooting:
		why = fmt.Sprintf("%s is deciding on a shoot bet", g.Round.Hands[g.Round.Turn].Player)
	case PhaseDoubling:
		why = fmt.Sprintf("%s is deciding whether to double", g.Banker)
	case PhasePlaying:
		why = fmt.Sprintf("it is %s's turn", g.Round.Hands[g.Round.Turn].Player)
	case PhaseBanker:
		why = fmt.Sprintf("it is %s's turn as banker", g.Banker)
	}
	return newErr(ErrWrongPhase, "", map[string]any{"verb": string(verb), "phase": g.Phase.String()}, "you cannot %s now: %s", verb, why)
}

// move records a chip movement and applies it to the table's books.
func (g *Game) move(from, to Account, amount int64, reason Reason, rule string) {
	if amount <= 0 {
		return
	}
	g.adjust(from, -amount)
	g.adjust(to, amount)
	g.out = append(g.out, Transfer{From: from, To: to, Amount: amount, Reason: reason, Rule: rule})
}

func (g *Game) adjust(a Account, d int64) {
	switch a.Kind {
	case AccountWallet:
		g.Balances[a.Player] += d
	case AccountEscrow:
		g.Escrow[a.Player] += d
		if g.Escrow[a.Player] == 0 {
			delete(g.Escrow, a.Player)
		}
	case AccountKitty:
		g.Kitty += d
	}
}

// kitty: the banker puts up a new kitty or tops it up between rounds (R9.1, R9.8).
func (g *Game) kitty(a Action) error {
	r := g.Rules
	if r.Variant != Shoot {
		return newErr(ErrShootOnly, "R9.1", nil, "only Shoot Pontoon has a kitty (R9)")
	}
	if a.Player != g.Banker {
		return newErr(ErrBankerOnly, "R9.8", map[string]any{"banker": g.Banker}, "only the banker (%s) puts up the kitty (R9.8)", g.Banker)
	}
	if g.Phase != PhaseBetween {
		return newErr(ErrWrongPhase, "R9.8", why("kitty"), "the kitty can only be topped up before a deal (R9.8)")
	}
	if g.Kitty == 0 {
		if a.Amount < r.KittyMin || a.Amount > r.KittyMax {
			return newErr(ErrKittyOutOfRange, "R9.1", map[string]any{"min": r.KittyMin, "max": r.KittyMax, "amount": a.Amount},
				"a new kitty must be from %d to %d; %d is not (R9.1)", r.KittyMin, r.KittyMax, a.Amount)
		}
	} else if a.Amount < 1 || g.Kitty+a.Amount > r.KittyMax {
		return newErr(ErrKittyOutOfRange, "R9.8", map[string]any{"why": "topup", "kitty": g.Kitty, "min": int64(1), "max": r.KittyMax - g.Kitty, "amount": a.Amount},
			"the kitty holds %d and may not go above %d, so a top-up is from 1 to %d (R9.8)", g.Kitty, r.KittyMax, max(0, r.KittyMax-g.Kitty))
	}
	if g.Balances[a.Player] < a.Amount {
		return g.insufficient(a.Player, a.Amount, "R9.8")
	}
	if g.dry {
		return nil
	}
	g.move(Wallet(a.Player), KittyAccount, a.Amount, ReasonKitty, "R9.8")
	return nil
}

// sell: the banker sells the bank between rounds (R6.3); in Shoot the old banker takes
// back the kitty (R9.9).
func (g *Game) sell(a Action) error {
	if g.Phase != PhaseBetween {
		return newErr(ErrWrongPhase, "R6.3", why("sale"), "the bank can only be sold between rounds (R6.3)")
	}
	if a.Player != g.Banker {
		return newErr(ErrBankerOnly, "R6.3", map[string]any{"banker": g.Banker}, "only the banker (%s) can sell the bank (R6.3)", g.Banker)
	}
	if a.Target == a.Player {
		return newErr(ErrBadSale, "R6.3", why("self"), "you cannot sell the bank to yourself (R6.3)")
	}
	if !slices.Contains(g.Seats, a.Target) {
		return newErr(ErrBadSale, "R6.3", map[string]any{"why": "not_seated", "buyer": a.Target}, "%s is not seated, and the bank is sold only to a seated player (R6.3)", a.Target)
	}
	if g.Balances[a.Target] < a.Amount {
		return newErr(ErrInsufficientChips, "R6.3", map[string]any{"why": "sale", "player": a.Target, "need": a.Amount, "have": g.Balances[a.Target]},
			"%s has %d free chips and cannot pay %d for the bank (R6.3)", a.Target, g.Balances[a.Target], a.Amount)
	}
	if g.dry {
		return nil
	}
	g.move(Wallet(a.Target), Wallet(a.Player), a.Amount, ReasonSale, "R6.3")
	g.move(KittyAccount, Wallet(a.Player), g.Kitty, ReasonKittyReturn, "R9.9")
	g.Banker = a.Target
	return nil
}

func (g *Game) insufficient(p string, need int64, rule string) *Error {
	return newErr(ErrInsufficientChips, rule, map[string]any{"player": p, "need": need, "have": g.Balances[p]},
		"%s needs %d free chips and has %d (%s)", p, need, g.Balances[p], rule)
}

// hand returns the player's first hand in the round.
func (g *Game) hand(p string) *Hand {
	for _, h := range g.Round.Hands {
		if h.Player == p {
			return h
		}
	}
	return nil
}

// stake: a player's initial stake (R3.3) with its reserve (R7.1) and the bank's cover (R7.2).
func (g *Game) stake(a Action) error {
	if a.Player == g.Banker {
		return newErr(ErrNotForBanker, "R3.3", why("stake"), "the banker does not stake (R3.3)")
	}
	if g.Phase != PhaseStaking {
		return g.wrongPhase(a.Verb)
	}
	h := g.hand(a.Player)
	if h == nil || h.SatOut {
		return newErr(ErrWrongPhase, "R7.4", why("sat_out"), "%s sat this round out (R7.4)", a.Player)
	}
	if h.Stake > 0 {
		return newErr(ErrAlreadyStaked, "R3.3", map[string]any{"stake": h.Stake}, "%s has already staked %d this round (R3.3)", a.Player, h.Stake)
	}
	r := g.Rules
	if a.Amount < r.MinStake || a.Amount > r.MaxStake {
		return newErr(ErrStakeOutOfRange, "R3.3", map[string]any{"min": r.MinStake, "max": r.MaxStake, "amount": a.Amount},
			"the stake must be from %d to %d; %d is not (R3.3)", r.MinStake, r.MaxStake, a.Amount)
	}
	if err := g.canBet(h.Player, a.Amount); err != nil {
		return err
	}
	if g.dry {
		return g.needCards(g.cardsAfterStake(h))
	}
	g.bet(h, a.Amount, ReasonStake, "R3.3")
	h.Initial = a.Amount
	g.afterStake()
	return nil
}

// canBet checks that player can hold a stake, buy or split amount with its reserve
// (R7.1) and that the bank can cover it (R7.2).
func (g *Game) canBet(player string, amount int64) error {
	if g.Balances[player] < 2*amount {
		return newErr(ErrInsufficientChips, "R7.1", map[string]any{"why": "bet", "player": player, "need": 2 * amount, "have": g.Balances[player], "amount": amount},
			"%s needs %d free chips for that (%d and an equal reserve, R7.1) and has %d", player, 2*amount, amount, g.Balances[player])
	}
	mult := g.Rules.maxPayoutMultiple()
	if cover := amount * mult; g.Balances[g.Banker] < cover {
		return newErr(ErrBankCannotCover, "R7.2", map[string]any{"banker": g.Banker, "need": cover, "have": g.Balances[g.Banker], "amount": amount},
			"the bank cannot cover %d: %s would need %d free chips (%d times the bet, R7.2) and has %d", amount, g.Banker, cover, mult, g.Balances[g.Banker])
	}
	return nil
}

// bet takes a stake, buy or split amount that canBet allowed into escrow with an equal
// reserve (R7.1) and holds the bank's cover for the worst case (R7.2).
func (g *Game) bet(h *Hand, amount int64, reason Reason, rule string) {
	mult := g.Rules.maxPayoutMultiple()
	g.move(Wallet(h.Player), Escrow(h.Player), amount, reason, rule)
	g.move(Wallet(h.Player), Escrow(h.Player), amount, ReasonReserve, "R7.1")
	g.move(Wallet(g.Banker), Escrow(g.Banker), amount*mult, ReasonCover, "R7.2")
	h.Stake += amount
	h.Reserve += amount
	h.Cover += amount * mult
}

// needCards refuses, in a dry run, a step that would deal more cards than the pack
// holds: Apply would find the pack exhausted.
func (g *Game) needCards(n int) error {
	if len(g.Round.Pack) < n {
		return newErr(ErrPackExhausted, "", nil, "pack exhausted")
	}
	return nil
}

// secondCards is how many cards dealSecond deals: one to each hand in the round and one
// to the banker (R3.4).
func (g *Game) secondCards() int {
	n := 1
	for _, h := range g.Round.Hands {
		if h.Active() {
			n++
		}
	}
	return n
}

// cardsAfterStake is how many cards h's stake would deal: the second cards when it is
// the last stake and neither shoot bets nor a double come between (R3.4, R9.2, R8.3).
func (g *Game) cardsAfterStake(h *Hand) int {
	for _, o := range g.Round.Hands {
		if o != h && o.Stake == 0 && !o.SatOut {
			return 0
		}
	}
	if g.Rules.Variant == Shoot || g.Rules.BankerMayDouble {
		return 0
	}
	return g.secondCards() + 1 // h is not active until it has staked
}

// afterStake ends the staking phase once every player has staked or sat out.
func (g *Game) afterStake() {
	staked := 0
	for _, h := range g.Round.Hands {
		if h.Stake == 0 && !h.SatOut {
			return
		}
		if h.Active() {
			staked++
		}
	}
	if staked == 0 {
		g.finish(nil)
		return
	}
	if g.Rules.Variant == Shoot {
		g.Phase = PhaseShooting
		g.Round.Turn = -1
		g.nextShooter()
		return
	}
	g.afterShooting()
}

// nextShooter moves the shoot decision to the next staked player (R9.2).
func (g *Game) nextShooter() {
	r := g.Round
	for r.Turn++; r.Turn < len(r.Hands); r.Turn++ {
		if r.Hands[r.Turn].Active() {
			return
		}
	}
	g.afterShooting()
}

func (g *Game) afterShooting() {
	if g.Rules.BankerMayDouble {
		g.Phase = PhaseDoubling
		return
	}
	g.dealSecond()
}

// dealSecond deals everyone's second card in play order, banker last (R3.4), then
// settles a banker's pontoon at once (R3.5) or starts the players' turns.
func (g *Game) dealSecond() {
	r := g.Round
	g.Phase = PhasePlaying
	for _, h := range r.Hands {
		if h.Active() {
			g.mustDraw(&h.Cards, false)
		}
	}
	g.mustDraw(&r.BankerHand, false)
	if bv := Evaluate(Cards(r.BankerHand), g.Rules, true); bv.Kind == KindPontoon {
		for i := range r.BankerHand {
			r.BankerHand[i].FaceUp = true
		}
		g.settle(bv, false)
		return
	}
	for _, h := range r.Hands {
		if h.Active() {
			g.check(h)
		}
	}
	r.Turn = 0
	g.advance()
}

// mustDraw is draw for steps the engine takes by itself; an exhausted pack is recorded
// and Apply then refuses the whole action.
func (g *Game) mustDraw(dst *[]HandCard, faceUp bool) {
	if err := g.draw(dst, faceUp); err != nil && g.pending == nil {
		g.pending = err.(*Error)
	}
}
