package picture

import (
	"image"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestNothingIsDrawnOnTheRail: at every table size and phase, with the
// longest names, amounts and results, every seat, text and badge stays on
// the felt: the rail round it is the bare table's, pixel for pixel.
func TestNothingIsDrawnOnTheRail(t *testing.T) {
	tables := []Table{scripts()}
	for _, sc := range scenes {
		tables = append(tables, sc.table())
	}
	for n := 2; n <= 12; n++ {
		for _, phase := range phases {
			tb := sizeScene(n, phase)
			tb.Bank, tb.Kitty, tb.ShowKitty = 9_999_999_999_999, 9_999_999_999_999, true
			for i := range tb.Seats {
				tb.Seats[i].Name = "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW"
				for k := range tb.Seats[i].Hands {
					h := &tb.Seats[i].Hands[k]
					h.Stake = 999_999_999_999
					if h.Result != "" {
						h.Result = "Five card trick · +1,999,999,999,998"
					}
				}
			}
			tables = append(tables, tb)
		}
	}
	for _, tb := range tables {
		img := renderImage(tb)
		_, ps := players(tb)
		bg := backdropFor(rowsFor(len(ps))).img
		felt := image.Rect(19, 19, canvasW-19, img.Rect.Dy()-19)
		off := 0
		var first image.Point
		for y := 0; y < img.Rect.Dy(); y++ {
			for x := 0; x < canvasW; x++ {
				if image.Pt(x, y).In(felt) {
					continue
				}
				if img.Pix[img.PixOffset(x, y)] != bg.Pix[bg.PixOffset(x, y)] {
					if off == 0 {
						first = image.Pt(x, y)
					}
					off++
				}
			}
		}
		assert.Zero(t, off, "%d seats: %d pixels drawn on the rail, the first at %v", len(tb.Seats), off, first)
	}
}
