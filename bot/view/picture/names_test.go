package picture

import (
	"image"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/pontoon-bot/pontoon/game"
)

// TestCleanName: a name in a script the Go fonts lack falls back to the
// username; emoji and control characters are dropped; what can be drawn is
// kept as it is.
func TestCleanName(t *testing.T) {
	ts := newTypeset()
	for _, tc := range []struct{ name, fallback, want string }{
		{"Alice", "alice", "Alice"},
		{"Chloé Łukasz Фёдор Γιώργος", "", "Chloé Łukasz Фёдор Γιώργος"},
		{"山田太郎", "yamada", "yamada"},
		{"محمد", "mohammed_99", "mohammed_99"},
		{"สมชาย", "", "?????"},
		{"Yamada 山田", "", "Yamada ??"},
		{"🎲🃏 Lucky 🍀", "lucky", "Lucky"},
		{"🎲🃏", "dice", "dice"},
		{"\u202eevil\u200b\tname\n", "", "evil name"},
		{"", "", ""},
		{"   ", "bob", "bob"},
	} {
		assert.Equal(t, tc.want, ts.cleanName(tc.name, tc.fallback), "cleanName(%q, %q)", tc.name, tc.fallback)
	}
}

// TestFit: a text too wide for its place is cut at a character and ends
// with an ellipsis, and never comes out wider than the place.
func TestFit(t *testing.T) {
	ts := newTypeset()
	f := ts.face(true, 19)
	assert.Equal(t, "Alice", fit(f, "Alice", 160))
	long := "Bartholomew the Magnificent of Somewhere Far Away"
	got := fit(f, long, 160)
	assert.True(t, strings.HasSuffix(got, ellipsis), got)
	assert.True(t, strings.HasPrefix(long, strings.TrimSuffix(got, ellipsis)), got)
	assert.LessOrEqual(t, width(f, got), 160)
	assert.Greater(t, width(f, got), 120, "cut no shorter than it must be")
	assert.Equal(t, "", fit(f, "WWWW", 2), "nothing fits, not even the ellipsis")
}

// TestSizeBudget: the 10-seat pictures stay within the 100 KB.
func TestSizeBudget(t *testing.T) {
	for _, tb := range []Table{tenSeatsPlaying(), tenSeatsSettled()} {
		pic, err := Render(tb)
		require.NoError(t, err)
		assert.LessOrEqual(t, len(pic.PNG), 100<<10)
		assert.Equal(t, canvasW, pic.Width)
		assert.Equal(t, canvasHeight(rowsFor(9)), pic.Height)
	}
}

// TestConcurrentRender: pictures drawn at once come out as drawn alone (run
// with -race).
func TestConcurrentRender(t *testing.T) {
	want, err := Render(tenSeatsSettled())
	require.NoError(t, err)
	var wg sync.WaitGroup
	got := make([][]byte, 4)
	for i := range got {
		wg.Go(func() {
			tb := tenSeatsSettled()
			if i%2 == 1 {
				tb = scripts() // interleave another picture through the pools
			}
			p, err := Render(tb)
			if err == nil && i%2 == 0 {
				got[i] = p.PNG
			}
		})
	}
	wg.Wait()
	for i := 0; i < len(got); i += 2 {
		assertSamePixels(t, want.PNG, got[i])
	}
}

// TestAnyTable: any table, with any names (invalid UTF-8 included), any
// number of seats, hands and cards, draws a PNG of the fixed size without a
// panic, with alt text within Discord's 1,024 characters.
func TestAnyTable(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		nSeats := rapid.IntRange(0, 12).Draw(rt, "seats")
		banker := rapid.IntRange(-1, nSeats-1).Draw(rt, "banker")
		tb := Table{Bank: rapid.Int64().Draw(rt, "bank"), Kitty: rapid.Int64().Draw(rt, "kitty"),
			ShowKitty: rapid.Bool().Draw(rt, "showKitty"),
			Labels: Labels{Title: rapid.String().Draw(rt, "title"), Banker: rapid.String().Draw(rt, "bankerLabel"),
				Bank: "Bank", Turn: rapid.String().Draw(rt, "turn")}}
		for i := 0; i < nSeats; i++ {
			st := Seat{Name: rapid.String().Draw(rt, "name"), Fallback: rapid.StringMatching(`[a-z0-9_.]{0,32}`).Draw(rt, "fallback"),
				Banker: i == banker, Turn: rapid.Bool().Draw(rt, "turn")}
			for range rapid.IntRange(0, 6).Draw(rt, "hands") {
				h := Hand{Stake: rapid.Int64Range(0, 1<<40).Draw(rt, "stake"), Own: rapid.Bool().Draw(rt, "own"),
					Result: rapid.String().Draw(rt, "result"), Tone: Tone(rapid.IntRange(0, 4).Draw(rt, "tone"))}
				for range rapid.IntRange(0, 9).Draw(rt, "cards") {
					h.Cards = append(h.Cards, game.HandCard{
						Card:   game.Card{Rank: game.Rank(rapid.IntRange(0, 14).Draw(rt, "rank")), Suit: game.Suit(rapid.IntRange(0, 4).Draw(rt, "suit"))},
						FaceUp: rapid.Bool().Draw(rt, "up")})
				}
				st.Hands = append(st.Hands, h)
			}
			tb.Seats = append(tb.Seats, st)
		}
		// The drawing and the alt text; the PNG is image/png's.
		img := renderImage(tb)
		_, ps := players(tb)
		require.Equal(rt, image.Rect(0, 0, canvasW, canvasHeight(rowsFor(len(ps)))), img.Bounds())
		require.LessOrEqual(rt, utf8.RuneCountInString(altText(tb)), MaxAltText)
	})
}

// TestAltText: the alt text reads the table in the picture's order: the
// round, its phase and whose turn it is, the bank, the banker, then the
// players from the banker's left, each card face up by its index and suit,
// face down by the FaceDown label, each stake labelled, then the hand's
// total of the cards in view or its result.
func TestAltText(t *testing.T) {
	tb := bankerReveal()
	alt := altText(tb)
	assert.Equal(t, "Pontoon · round 12. Banker's turn; Tomás to act. Bank: 980. Tomás (Banker, To act): Q♠, 6♦; Total 16. "+
		"Kofi: face down, 7♣, 8♥; Stake 20; Showing 15. Mei: face down, Q♦, 5♠; Stake 10; Bust. "+
		"Priya: face down, face down; Stake 30.", alt)
	own := privatePanel()
	assert.Contains(t, altText(own), "Priya (To act): 5♥, 9♣; Stake 30; Total 14", "the owner's own cards are named and totalled")
}

// TestLayout: for any number of players the seats lie inside the felt,
// apart from each other and from the head row (the round, the banker and
// the bank), and follow play order (R3.1) row by row, left to right.
func TestLayout(t *testing.T) {
	rect := func(b box) image.Rectangle {
		return image.Rect(int(b.x), int(b.y), int(b.x)+seatW, int(b.y)+seatH)
	}
	head := image.Rect(0, 0, canvasW, int(bankerBox.y)+seatH)
	for n := 0; n <= 16; n++ {
		boxes := playerBoxes(n)
		require.Len(t, boxes, n)
		felt := image.Rect(margin, margin, canvasW-margin, canvasHeight(rowsFor(n))-margin)
		for i, b := range boxes {
			r := rect(b)
			assert.True(t, r.In(felt), "n=%d seat %d %v leaves the felt %v", n, i, r, felt)
			assert.False(t, r.Overlaps(head), "n=%d seat %d %v overlaps the head row", n, i, r)
			for j := 0; j < i; j++ {
				assert.False(t, r.Overlaps(rect(boxes[j])), "n=%d seats %d and %d overlap", n, j, i)
				p := boxes[j]
				assert.True(t, p.y < b.y || (p.y == b.y && p.x < b.x), "n=%d seat %d is out of play order", n, i)
			}
		}
	}
}

// TestExtremeSeat: more hands and cards than the rules allow (four hands,
// R4.2; five cards, R4.7) still draw, inside the picture, without a panic.
func TestExtremeSeat(t *testing.T) {
	var hands []Hand
	for i := 0; i < 12; i++ {
		h := Hand{Stake: 1 << 50, Result: strings.Repeat("Five card trick ", 5), Tone: Win}
		for j := 0; j < 15; j++ {
			h.Cards = append(h.Cards, game.HandCard{Card: game.Card{Rank: game.Rank(j%13 + 1), Suit: game.Suit(j % 4)}, FaceUp: j%2 == 0})
		}
		hands = append(hands, h)
	}
	tb := Table{Seats: []Seat{{Name: "Banker", Banker: true, Hands: hands}, {Name: "Many", Turn: true, Hands: hands}}}
	pic, err := Render(tb)
	require.NoError(t, err)
	assert.Equal(t, canvasW, pic.Width)
	assert.LessOrEqual(t, utf8.RuneCountInString(pic.Alt), MaxAltText)
}
