package game

// Kind is the class of a finished or partial hand, best last (R2).
type Kind uint8

// The kinds of hand, in rising order of rank. Their strings are HISTORY.md's "kind" words.
const (
	KindBust          Kind = iota // over 21, worthless (R2.5); also a folded hand (R7.4)
	KindPoints                    // 21 or less, ranked by total (R2.4)
	KindTwentyOne                 // 21 in three or four cards (R2.3), or A-10 under ten_not_pontoon (R8.7)
	KindFiveCardTrick             // five cards totalling 21 or less (R2.2)
	KindPontoon                   // an Ace and a ten-point card as the first two cards (R2.1)
	KindRoyalPontoon              // three sevens held by a player, when royal_pontoon is on (R8.6)
)

var kindNames = [...]string{"bust", "points", "twenty_one", "five_card_trick", "pontoon", "royal_pontoon"}

// String is the HISTORY.md word for the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// MarshalText writes the HISTORY.md word.
func (k Kind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// IsPontoon reports whether the kind counts as a pontoon for R6.1 and R6.2 (R8.6).
func (k Kind) IsPontoon() bool { return k == KindPontoon || k == KindRoyalPontoon }

// Value is a hand's evaluation: its kind, its best total, and for a pontoon its tier
// under the table's pontoon_tiers (R8.7; higher beats lower).
type Value struct {
	Kind  Kind
	Total int
	Tier  int
}

// Totals returns the best total not over 21 if there is one (R1.3: an Ace counts 11
// when that does not bust the hand) and the hard total with every Ace as 1.
func Totals(cards []Card) (best, hard int) {
	aces := 0
	for _, c := range cards {
		hard += c.Points()
		if c.Rank == Ace {
			aces++
		}
	}
	best = hard
	if aces > 0 && hard+10 <= 21 {
		best = hard + 10
	}
	return best, hard
}

// Evaluate classifies cards under the rules. banker is true for the banker's hand, which
// can never be a royal pontoon (R8.6).
func Evaluate(cards []Card, r Rules, banker bool) Value {
	total, _ := Totals(cards)
	v := Value{Total: total}
	switch {
	case total > 21:
		v.Kind = KindBust
	case len(cards) == 2 && isAceTen(cards):
		v.Kind, v.Tier = pontoonKind(cards, r.PontoonTiers)
	case len(cards) == 3 && r.RoyalPontoon && !banker && allSevens(cards):
		v.Kind = KindRoyalPontoon
	case len(cards) == 5:
		v.Kind = KindFiveCardTrick
	case total == 21:
		v.Kind = KindTwentyOne
	default:
		v.Kind = KindPoints
	}
	return v
}

func isAceTen(cards []Card) bool {
	a, b := cards[0], cards[1]
	return (a.Rank == Ace && b.IsTenCard()) || (b.Rank == Ace && a.IsTenCard())
}

func allSevens(cards []Card) bool {
	for _, c := range cards {
		if c.Rank != 7 {
			return false
		}
	}
	return true
}

// pontoonKind applies R8.7 to an Ace and a ten-point card.
func pontoonKind(cards []Card, t Tiers) (Kind, int) {
	other := cards[0]
	if other.Rank == Ace {
		other = cards[1]
	}
	switch t {
	case TiersTenNotPontoon:
		if other.Rank == Ten {
			return KindTwentyOne, 0
		}
	case TiersPictureBeatsTen:
		if other.Rank > Ten {
			return KindPontoon, 1
		}
	case TiersNaturals:
		if other.Rank == King || other.Rank == Queen {
			return KindPontoon, 1
		}
	}
	return KindPontoon, 0
}

// score orders values for comparison (R2): higher is better, equal is a tie.
func (v Value) score() int {
	switch v.Kind {
	case KindBust:
		return -1
	case KindRoyalPontoon:
		return 1000
	case KindPontoon:
		return 900 + v.Tier
	case KindFiveCardTrick:
		return 800
	default:
		return v.Total // twenty-one and points rank by total; card count does not matter (R2.4)
	}
}

// Beats reports whether v ranks strictly above w (R2). On equal rank the banker wins
// (R2.6), so a player's hand must Beat the banker's to win.
func (v Value) Beats(w Value) bool { return v.score() > w.score() }
