package game

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Rank is a card's rank: Ace is 1, Jack 11, Queen 12, King 13.
type Rank uint8

// The ranks that have names; pip cards are Rank(2) to Rank(10).
const (
	Ace   Rank = 1
	Ten   Rank = 10
	Jack  Rank = 11
	Queen Rank = 12
	King  Rank = 13
)

// Suit is a card's suit. Suits never matter to the rules; they only make cards distinct.
type Suit uint8

// The four suits, in the order HISTORY.md lists them.
const (
	Spades Suit = iota
	Hearts
	Diamonds
	Clubs
)

const rankLetters = "?A23456789TJQK"
const suitLetters = "SHDC"

// Card is one playing card. The zero Card is not a valid card.
type Card struct {
	Rank Rank
	Suit Suit
}

// Points is the card's value in a total with Aces counted as 1 (R1.3).
func (c Card) Points() int {
	if c.Rank >= Ten {
		return 10
	}
	return int(c.Rank)
}

// IsTenCard reports whether the card is worth ten points: 10, J, Q or K (R1.3).
func (c Card) IsTenCard() bool { return c.Rank >= Ten }

// String renders the card as HISTORY.md writes it: rank then suit, "TC", "AS".
func (c Card) String() string {
	if c.Rank < Ace || c.Rank > King || c.Suit > Clubs {
		return "??"
	}
	return string(rankLetters[c.Rank]) + string(suitLetters[c.Suit])
}

// MarshalText writes the card as String does.
func (c Card) MarshalText() ([]byte, error) {
	if c.Rank < Ace || c.Rank > King || c.Suit > Clubs {
		return nil, fmt.Errorf("invalid card %d/%d", c.Rank, c.Suit)
	}
	return []byte(c.String()), nil
}

// UnmarshalText reads a card as ParseCard does.
func (c *Card) UnmarshalText(b []byte) error {
	card, err := ParseCard(string(b))
	if err != nil {
		return err
	}
	*c = card
	return nil
}

// ParseCard reads "9H", "TC", "10C" or "as" (case does not matter).
func ParseCard(s string) (Card, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if len(u) < 2 || len(u) > 3 {
		return Card{}, fmt.Errorf("%q is not a card (rank then suit, like 9H or TC)", s)
	}
	rankPart, suitPart := u[:len(u)-1], u[len(u)-1]
	if rankPart == "10" {
		rankPart = "T"
	}
	if len(rankPart) != 1 {
		return Card{}, fmt.Errorf("%q is not a card (rank then suit, like 9H or TC)", s)
	}
	r := strings.IndexByte(rankLetters, rankPart[0])
	st := strings.IndexByte(suitLetters, suitPart)
	if r < 1 || st < 0 {
		return Card{}, fmt.Errorf("%q is not a card (ranks A 2-9 T J Q K, suits S H D C)", s)
	}
	return Card{Rank: Rank(r), Suit: Suit(st)}, nil
}

// ParseCards reads a list of cards, naming the position of the first bad one.
func ParseCards(ss []string) ([]Card, error) {
	out := make([]Card, len(ss))
	for i, s := range ss {
		c, err := ParseCard(s)
		if err != nil {
			return nil, fmt.Errorf("card %d: %w", i+1, err)
		}
		out[i] = c
	}
	return out, nil
}

// CardStrings writes cards as HISTORY.md lists them, one string each.
func CardStrings(cs []Card) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.String()
	}
	return out
}

// FormatCards joins cards with spaces, "9H 7S".
func FormatCards(cs []Card) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return strings.Join(parts, " ")
}

// NewPack returns decks standard 52-card packs in a fixed, unshuffled order (R1.2).
func NewPack(decks int) []Card {
	out := make([]Card, 0, 52*decks)
	for d := 0; d < decks; d++ {
		for s := Spades; s <= Clubs; s++ {
			for r := Ace; r <= King; r++ {
				out = append(out, Card{Rank: r, Suit: s})
			}
		}
	}
	return out
}

// Shuffle puts the cards in a uniformly random order drawn from r. The engine owns no
// random source: production passes one seeded from crypto/rand, tests pass a fixed seed.
func Shuffle(cards []Card, r *rand.Rand) {
	r.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
}

// ValidatePack checks that a pack holds no card more often than decks packs allow
// (HISTORY.md: a card listed twice is an error unless decks is 2).
func ValidatePack(pack []Card, decks int) error {
	seen := make(map[Card]int, len(pack))
	for i, c := range pack {
		if c.Rank < Ace || c.Rank > King || c.Suit > Clubs {
			return fmt.Errorf("card %d is not a card", i+1)
		}
		seen[c]++
		if seen[c] > decks {
			if decks == 1 {
				return fmt.Errorf("card %d: %s is listed twice in a one-deck pack", i+1, c)
			}
			return fmt.Errorf("card %d: %s is listed more than %d times", i+1, c, decks)
		}
	}
	return nil
}

// Commitment is the published fingerprint of a pack before it is dealt: the hex SHA-256
// of the salt (hex), a colon, and the cards joined by single spaces. Anyone can check a
// revealed salt with: printf '%s' "SALT:9H 7S ..." | sha256sum
func Commitment(pack []Card, saltHex string) string {
	sum := sha256.Sum256([]byte(saltHex + ":" + FormatCards(pack)))
	return hex.EncodeToString(sum[:])
}

// cutValue ranks a card for the cut: Ace high (R1.4).
func cutValue(c Card) int {
	if c.Rank == Ace {
		return 14
	}
	return int(c.Rank)
}

// Cut chooses a first banker (R1.4): each player in turn takes the next card of pack,
// the highest wins with Ace high, and tied players cut again with the following cards.
// It returns the winner, the cards drawn in each pass, and how many cards were used.
func Cut(pack []Card, players []string) (winner string, draws [][]Card, used int, err error) {
	if len(players) == 0 {
		return "", nil, 0, fmt.Errorf("cut: nobody is seated")
	}
	in := append([]string(nil), players...)
	for len(in) > 1 {
		if used+len(in) > len(pack) {
			return "", draws, used, ErrPackExhausted
		}
		pass := pack[used : used+len(in)]
		used += len(in)
		draws = append(draws, append([]Card(nil), pass...))
		best := 0
		for _, c := range pass {
			best = max(best, cutValue(c))
		}
		var next []string
		for i, c := range pass {
			if cutValue(c) == best {
				next = append(next, in[i])
			}
		}
		in = next
	}
	return in[0], draws, used, nil
}
