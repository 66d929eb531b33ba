package picture

import (
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestResultsLieUnderTheCards: the results of a settled table are drawn under
// the cards, not over them: every pixel the results change lies below the
// cards of its seat, and every card is whole.
func TestResultsLieUnderTheCards(t *testing.T) {
	for _, mk := range []func() Table{tenSeatsSettled, twelveSeats} {
		with := mk()
		without := mk()
		for i := range without.Seats {
			for k := range without.Seats[i].Hands {
				without.Seats[i].Hands[k].Result = ""
				without.Seats[i].Hands[k].Stake = 0 // the stake line would show a total instead
			}
		}
		for i := range with.Seats {
			for k := range with.Seats[i].Hands {
				with.Seats[i].Hands[k].Stake = 0
			}
		}
		a, b := renderImage(with), renderImage(without)
		_, ps := players(with)
		boxes := append([]box{bankerBox}, playerBoxes(len(ps))...)
		_, sy := shadowOffset(cardW)
		cardsEnd := 46 + cardHeight(cardW) + sy
		changed, covering := 0, 0
		var first image.Point
		for y := 0; y < a.Rect.Dy(); y++ {
			for x := 0; x < a.Rect.Dx(); x++ {
				if a.Pix[a.PixOffset(x, y)] == b.Pix[b.PixOffset(x, y)] {
					continue
				}
				changed++
				for _, bx := range boxes {
					cards := image.Rect(int(bx.x), int(bx.y)+46, int(bx.x)+seatW, int(bx.y)+cardsEnd)
					if image.Pt(x, y).In(cards) {
						if covering == 0 {
							first = image.Pt(x, y)
						}
						covering++
					}
				}
			}
		}
		assert.NotZero(t, changed, "the results are drawn")
		assert.Zero(t, covering, "%d pixels of results cover the cards, the first at %v", covering, first)
	}
}
