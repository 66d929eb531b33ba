package picture

import (
	"image"
	"image/color"

	"github.com/pontoon-bot/pontoon/game"
)

// A card is drawn once per size and kept: 52 faces, a back and a peeked
// variant of each face at the few sizes the layouts use. Every later picture
// only copies them, which is most of why a render takes milliseconds.

type cardKey struct {
	card game.Card
	w    int
	kind uint8 // cardFace, cardBack or cardOwn
}

const (
	cardFace uint8 = iota
	cardBack
	cardOwn // a face-down card shown to its owner: the face with a folded corner
)

var cardCache = &bounded[cardKey, *sprite]{limit: 2048}

// shadowOffset is how far a card's shadow falls.
func shadowOffset(w int) (int, int) { return max(1, w/32), max(2, w/22) }

// cardHeight is a card's height for its width: a poker card's 63 x 88 mm.
func cardHeight(w int) int { return (w*88 + 31) / 63 }

// cardSprite returns the picture of a card w pixels wide, with its shadow
// on the felt below and to the right.
func cardSprite(c game.Card, w int, kind uint8) *sprite {
	if kind == cardBack {
		c = game.Card{}
	}
	key := cardKey{c, w, kind}
	if s, ok := cardCache.get(key); ok {
		return s
	}
	return cardCache.put(key, newSprite(drawCard(c, w, kind)))
}

func validCard(c game.Card) bool {
	return c.Rank >= game.Ace && c.Rank <= game.King && c.Suit <= game.Clubs
}

// rankIndex is the corner index of a rank: the international letters.
func rankIndex(r game.Rank) string {
	switch r {
	case game.Ace:
		return "A"
	case game.Jack:
		return "J"
	case game.Queen:
		return "Q"
	case game.King:
		return "K"
	case game.Ten:
		return "10"
	}
	return string(rune('0' + r))
}

func drawCard(c game.Card, w int, kind uint8) *image.RGBA {
	h := cardHeight(w)
	sx, sy := shadowOffset(w)
	img := image.NewRGBA(image.Rect(0, 0, w+sx, h+sy))
	p := &painter{dst: img}
	fw, fh := float32(w), float32(h)
	rad := fw * 0.09
	// The shadow is translucent black, so that where cards overlap it
	// darkens the card below rather than painting felt on it.
	p.roundRect(float32(sx), float32(sy), fw, fh, rad, color.RGBA{0, 0, 0, 0x50})
	p.roundRect(0, 0, fw, fh, rad, colCardEdge)
	p.roundRect(1, 1, fw-2, fh-2, rad-1, colCard)
	if kind == cardBack {
		drawBack(p, w, h)
		return img
	}
	col := suitColor(c.Suit)
	drawIndex(p, c, w, h, col)
	// The rest of the face, right of and below the index: one large suit,
	// on a framed panel for J, Q and K. Pips would be too small to count
	// at the size a phone shows the picture; the index says the rank.
	switch {
	case c.Rank >= game.Jack:
		x, y, pw, ph := fw*0.44, fh*0.4, fw*0.48, fh*0.53
		p.roundRect(x, y, pw, ph, fw*0.05, col)
		p.roundRect(x+1.5, y+1.5, pw-3, ph-3, fw*0.04, colCourt)
		s := pw * 0.62
		drawSuit(p, c.Suit, x+(pw-s)/2, y+(ph-s*1.1)/2, s, s*1.1, false, col)
	default:
		s := fw * 0.46
		if c.Rank == game.Ace {
			s = fw * 0.52 // an Ace's one pip is printed large
		}
		drawSuit(p, c.Suit, fw*0.9-s, fh*0.92-s*1.1, s, s*1.1, false, col)
	}
	if kind == cardOwn {
		// A folded corner in the back's colour: this card is face down on
		// the table, and only its owner sees its face. It is the bottom-left
		// corner, which the next card of a fanned hand leaves in view.
		f := fw * 0.3
		b := p.begin(0, fh-f, f, fh)
		p.moveTo(0, fh-f)
		p.lineTo(f, fh)
		p.lineTo(rad*0.4, fh)
		p.lineTo(0, fh-rad*0.4)
		p.close()
		p.end(b, colBack)
	}
	return img
}

// drawIndex draws the rank, large, and the suit under it in the card's
// top-left corner, inside the strip that a fanned hand leaves in view of
// each card (cardStep of cardW), so every card of a hand reads at a
// phone's size.
func drawIndex(p *painter, c game.Card, w, h int, col color.RGBA) {
	ts := newTypeset()
	strip := w * cardStep / cardW
	iw := strip - 3
	idx := rankIndex(c.Rank)
	size := float64(w) * 0.4
	f := ts.face(true, size)
	for width(f, idx) > iw && size > 8 {
		size--
		f = ts.face(true, size)
	}
	cx := 2 + iw/2
	capTop := int(float32(h) * 0.05)
	capH := ts.face(true, float64(w)*0.4).capHeight // "10" shrinks, but its suit stays where the others' are
	textCentered(p.dst, f, idx, cx, capTop+capH/2+1, col)
	ss := float32(w) * 0.27
	drawSuit(p, c.Suit, float32(cx)-ss/2, float32(capTop+capH)+float32(h)*0.05, ss, ss*1.1, false, col)
}

// drawBack draws the back: a white margin round a blue field crossed by a
// diamond lattice, with a thin frame, like a casino deck.
func drawBack(p *painter, w, h int) {
	fw, fh := float32(w), float32(h)
	m := fw * 0.08
	p.roundRect(m, m, fw-2*m, fh-2*m, fw*0.05, colBack)
	in := image.Rectangle{Min: image.Pt(int(m)+2, int(m)+2), Max: image.Pt(w-int(m)-2, h-int(m)-2)}.Intersect(p.dst.Bounds())
	step := max(6, w/9)
	for y := in.Min.Y; y < in.Max.Y; y++ {
		for x := in.Min.X; x < in.Max.X; x++ {
			a, b := (x+y)%step, (x-y+1000*step)%step
			if a == 0 || b == 0 {
				i := p.dst.PixOffset(x, y)
				p.dst.Pix[i], p.dst.Pix[i+1], p.dst.Pix[i+2], p.dst.Pix[i+3] = colBackLine.R, colBackLine.G, colBackLine.B, 0xff
			}
		}
	}
	p.ring(m+fw*0.06, m+fw*0.06, fw-2*m-fw*0.12, fh-2*m-fw*0.12, fw*0.03, max(1, fw/48), colCard)
}
