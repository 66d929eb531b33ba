package picture

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pontoon-bot/pontoon/game"
)

// altText describes the picture for screen readers and for clients that do
// not load images, saying what the picture shows in the same order: the
// round, its phase and whose turn it is, the bank and kitty, then each seat
// with its cards as the table sees them, each hand's stake and then its
// total (of the cards in view) or its result. Card names use the international
// indices and suit symbols ("K♥ 10♠"), which screen readers speak in the
// reader's language; each face-down card is the FaceDown label, so no count
// needs a plural form.
func altText(t Table) string {
	l := t.Labels
	for _, p := range []*string{&l.Title, &l.Phase, &l.Banker, &l.Bank, &l.Kitty, &l.Turn, &l.FaceDown, &l.Hand} {
		*p = plain(*p)
	}
	var parts []string
	if l.Title != "" {
		parts = append(parts, l.Title)
	}
	round := l.Phase
	if name := altTurn(t); name != "" && l.ToAct != nil {
		if round != "" {
			round += "; "
		}
		round += plain(l.ToAct(name))
	}
	if round != "" {
		parts = append(parts, round)
	}
	pot := func(label string, n int64) string {
		if label == "" {
			return l.amount(n)
		}
		return label + ": " + l.amount(n)
	}
	parts = append(parts, pot(l.Bank, t.Bank))
	if t.ShowKitty {
		parts = append(parts, pot(l.Kitty, t.Kitty))
	}
	for _, st := range orderForAlt(t.Seats) {
		parts = append(parts, altSeat(st, l))
	}
	return clip(strings.Join(parts, ". ")+".", MaxAltText)
}

// orderForAlt lists the banker first, then the players from the banker's
// left, as the picture reads.
func orderForAlt(seats []Seat) []Seat {
	bi := -1
	for i, s := range seats {
		if s.Banker {
			bi = i
			break
		}
	}
	if bi < 0 {
		return seats
	}
	out := []Seat{seats[bi]}
	for i := 1; i < len(seats); i++ {
		out = append(out, seats[(bi+i)%len(seats)])
	}
	return out
}

// plain drops control and format characters (a right-to-left override
// would garble the text round it) and runs of white space. Unlike the
// picture, alt text keeps every script: screen readers are not limited to
// the Go fonts.
func plain(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case unicode.IsSpace(r):
			return ' '
		case !unicode.IsGraphic(r):
			return -1
		}
		return r
	}, s)
	return strings.Join(strings.Fields(s), " ")
}

// altTurn names the seats whose turn it is, as turnName does.
func altTurn(t Table) string {
	var names []string
	for _, st := range t.Seats {
		if st.Turn {
			names = append(names, altName(st))
		}
	}
	return strings.Join(names, ", ")
}

// altName is a seat's name for the alt text, in any script but cut to
// altNameMax characters at a grapheme, so that the largest table's text
// stays within Discord's 1,024 characters whole.
func altName(st Seat) string {
	name := plain(st.Name)
	if name == "" {
		name = plain(st.Fallback)
	}
	if name == "" {
		return "?"
	}
	if utf8.RuneCountInString(name) > altNameMax {
		cut := 0
		for _, i := range graphemeCuts(name) {
			if utf8.RuneCountInString(name[:i]) > altNameMax-1 {
				break
			}
			cut = i
		}
		name = strings.TrimRight(name[:cut], " ") + ellipsis
	}
	return name
}

const altNameMax = 16

func altSeat(st Seat, l Labels) string {
	name := altName(st)
	var b strings.Builder
	b.WriteString(name)
	var tags []string
	if st.Banker && l.Banker != "" {
		tags = append(tags, l.Banker)
	}
	if st.Turn && l.Turn != "" {
		tags = append(tags, l.Turn)
	}
	if len(tags) > 0 {
		b.WriteString(" (" + strings.Join(tags, ", ") + ")")
	}
	for i, h := range st.Hands {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		if len(st.Hands) > 1 && l.Hand != "" {
			b.WriteString(l.Hand + " " + strconv.Itoa(i+1) + ": ")
		}
		cards := make([]string, 0, len(h.Cards))
		for _, hc := range h.Cards {
			if hc.FaceUp || h.Own {
				cards = append(cards, cardName(hc.Card))
			} else if l.FaceDown != "" {
				cards = append(cards, l.FaceDown)
			} else {
				cards = append(cards, "?")
			}
		}
		b.WriteString(strings.Join(cards, ", "))
		if h.Stake > 0 {
			b.WriteString("; " + plain(l.stakeOf(h.Stake)))
		}
		if r := plain(h.Result); r != "" {
			b.WriteString("; " + r)
		} else if tot := plain(handTotal(h, l)); tot != "" {
			b.WriteString("; " + tot)
		}
	}
	return b.String()
}

var suitSymbols = [...]string{game.Spades: "♠", game.Hearts: "♥", game.Diamonds: "♦", game.Clubs: "♣"}

func cardName(c game.Card) string {
	if c.Rank < game.Ace || c.Rank > game.King || int(c.Suit) >= len(suitSymbols) {
		return "?"
	}
	return rankIndex(c.Rank) + suitSymbols[c.Suit]
}

// clip keeps s within n characters (Discord counts code points), ending a
// shortened text with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	rs := []rune(s)
	return strings.TrimRight(string(rs[:n-1]), " ") + ellipsis
}
