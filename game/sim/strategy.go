package sim

import "github.com/pontoon-bot/pontoon/game"

// Why is the reason the strategy gives for a decision. Its String is a stable code (for
// the bot's message catalog); Text says it in English.
type Why uint8

// The reasons, one per rule of the strategy (see the package doc).
const (
	WhyNone                Why = iota // nothing to decide now
	WhyFlatStake                      // stake the same every round; the edge per chip does not depend on it
	WhyShootAce                       // shoot on a first card that is an Ace
	WhyNoShoot                        // no shoot bet without an Ace, or before a card that could bust
	WhyShootSafeCard                  // three cards at 11 or less: the fourth cannot bust, so shoot and draw
	WhyBurn                           // the burn total (13 or 14) is the worst start: burn it
	WhySplitAces                      // split Aces: each is a start at a pontoon
	WhySplitEights                    // split 8s: 16 is the worst total, 8 a fair start
	WhyFiveCardTrick                  // four cards at 11 or less cannot bust: draw for the five card trick
	WhyStrongDraw                     // two cards at 10 or 11: buy the third card at twice the stake
	WhySoftDraw                       // a soft total of 18 or less cannot bust with one card: draw
	WhyStick                          // 15 or more (or the table's stick minimum): stick
	WhyDraw                           // under the stick minimum: twist
	WhyBankerDouble                   // the banker's first card is an Ace, a 9 or worth ten: double
	WhyBankerNoDouble                 // the banker's first card is weak: do not double
	WhyBankerFiveCardTrick            // the banker's four cards at 11 or less: draw for the five card trick
	WhyBankerStays17                  // the banker stays on 17 or more
	WhyBankerBeaten                   // most open hands visibly hold more than the banker: draw
	WhyBankerDraws                    // the banker draws under 17
	WhyShootTakesCard                 // a three-card shoot bet is placed: the hand must take the fourth card (R9.4)
)

var whyCodes = [...]string{"none", "flat_stake", "shoot_ace", "no_shoot", "shoot_safe_card", "burn", "split_aces", "split_eights",
	"five_card_trick", "strong_draw", "soft_draw", "stick", "draw", "banker_double", "banker_no_double",
	"banker_five_card_trick", "banker_stays_17", "banker_beaten", "banker_draws", "shoot_takes_card"}

var whyTexts = [...]string{
	"there is nothing to decide now",
	"stake the same amount every round",
	"an Ace first is a start at a pontoon, so shoot",
	"no shoot bet now",
	"three cards at 11 or less cannot bust on the fourth, so shoot and take it",
	"13 or 14 in two cards is the worst start, so burn it",
	"split Aces: each is a start at a pontoon",
	"split 8s: 16 is the worst total, and 8 is a fair start",
	"four cards at 11 or less cannot bust on the fifth: go for the five card trick",
	"10 or 11 in two cards: buy the third card at twice the stake",
	"a soft total of 18 or less cannot bust on one card: draw",
	"stick on the stick minimum or more",
	"under the stick minimum: twist",
	"an Ace, a 9 or a ten-point card first: double",
	"a weak first card: do not double",
	"four cards at 11 or less cannot bust: draw for the five card trick",
	"stay on 17 or more",
	"most hands show more than the bank holds: draw",
	"under 17: draw",
	"the shoot bet goes with the fourth card: twist to take it",
}

// String is the reason's stable code.
func (w Why) String() string {
	if int(w) < len(whyCodes) {
		return whyCodes[w]
	}
	return "unknown"
}

// Text explains the reason in English.
func (w Why) Text() string {
	if int(w) < len(whyTexts) {
		return whyTexts[w]
	}
	return ""
}

// MarshalText writes the code.
func (w Why) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

// Advice is what the strategy would do now: an action in HISTORY.md's words and why.
type Advice struct {
	Verb   game.Verb
	Amount int64 // stake, buy and shoot
	Why    Why
}

// stakeFor is the flat stake the simulation places: 10 chips within the table's limits.
func stakeFor(r game.Rules) int64 { return min(max(10, r.MinStake), r.MaxStake) }

// shootFirst is the shoot decision after the stakes, on the first card (R9.2).
func shootFirst(first game.Card) bool { return first.Rank == game.Ace }

// shootOnArrival is the shoot decision on reaching a split hand (R9.5): its first card.
func shootOnArrival(cards []game.Card) bool { return cards[0].Rank == game.Ace }

// shootThree is the three-card shoot decision (R9.4), made only when the strategy is
// about to draw: a fourth card cannot bust three cards at 11 or less.
func shootThree(cards []game.Card) bool {
	_, hard := game.Totals(cards)
	return len(cards) == 3 && hard <= 11
}

// play is the strategy for a player's hand that may still take cards: cards it holds,
// whether it has twisted, its initial stake, the price of its last bought card, and
// whether the player holds fewer than four hands (R4.2). It returns a split, burn, buy
// (with the amount), twist or stick.
func play(r game.Rules, cards []game.Card, twisted bool, initial, lastBuy int64, fewerThanFour bool) (game.Verb, int64, Why) {
	n := len(cards)
	if n == 2 && game.CanBurn(r, cards) {
		return game.VerbBurn, 0, WhyBurn
	}
	if n == 2 && fewerThanFour && game.CanSplit(r, cards) {
		switch cards[0].Rank {
		case game.Ace:
			return game.VerbSplit, 0, WhySplitAces
		case 8:
			return game.VerbSplit, 0, WhySplitEights
		}
	}
	best, hard := game.Totals(cards)
	canBuy := game.CanBuy(r, cards, twisted)
	_, hi := game.BuyRange(n, initial, lastBuy)
	switch {
	case n == 4 && hard <= 11:
		if canBuy {
			return game.VerbBuy, hi, WhyFiveCardTrick
		}
		return game.VerbTwist, 0, WhyFiveCardTrick
	case best != hard && best <= 18:
		return game.VerbTwist, 0, WhySoftDraw
	case best >= max(15, r.StickMin):
		return game.VerbStick, 0, WhyStick
	case n == 2 && hard >= 10 && hard <= 11 && canBuy:
		return game.VerbBuy, hi, WhyStrongDraw
	}
	return game.VerbTwist, 0, WhyDraw
}

// bankerDoubles is the banker's R8.3 decision on the first card.
func bankerDoubles(first game.Card) bool {
	return first.Rank == game.Ace || first.Rank == 9 || first.IsTenCard()
}

// least is the least total the banker can be sure an open hand holds (R5.1: it sees the
// face-up cards and how many are face down): what the face-up cards show with Aces as
// one, plus one for each face-down card, and never under the stick minimum, since an
// open hand stuck (R4.5) or stopped at 21 (R4.7).
func least(r game.Rules, faceUpHard, faceDown int) int { return max(r.StickMin, faceUpHard+faceDown) }

// bankerDraws is the banker's decision: cards are the banker's, ahead how many open
// hands visibly hold more (see showsMore), open how many are open.
func bankerDraws(cards []game.Card, ahead, open int) (bool, Why) {
	best, hard := game.Totals(cards)
	switch {
	case len(cards) == 4 && hard <= 11:
		return true, WhyBankerFiveCardTrick
	case best < 17:
		return true, WhyBankerDraws
	case 2*ahead > open:
		return true, WhyBankerBeaten
	}
	return false, WhyBankerStays17
}

// showsMore reports whether an open hand of n cards whose least total is lo visibly
// beats a banker who stays on bankerBest: a five card trick beats any banker's hand of
// four cards or fewer (R5.4), and a least total above the banker's beats it (R2.4).
func showsMore(bankerBest, lo, n int) bool { return n == 5 || lo > bankerBest }
