package picture

import (
	"image/color"

	"github.com/pontoon-bot/pontoon/game"
)

// The suits are drawn as vector shapes, not font glyphs: the Go fonts have
// no suit symbols, and shapes stay crisp at every size. Each is laid out in
// a unit box (0,0)-(1,1) and mapped onto the box (x, y, w, h); flip draws it
// upside down, as the pips on the lower half of a real card are.

type suitPen struct {
	p          *painter
	x, y, w, h float32
	flip       bool
}

func (s suitPen) pt(u, v float32) (float32, float32) {
	if s.flip {
		u, v = 1-u, 1-v
	}
	return s.x + u*s.w, s.y + v*s.h
}

func (s suitPen) move(u, v float32) { s.p.moveTo(s.pt(u, v)) }
func (s suitPen) line(u, v float32) { s.p.lineTo(s.pt(u, v)) }
func (s suitPen) quad(u1, v1, u, v float32) {
	x1, y1 := s.pt(u1, v1)
	x, y := s.pt(u, v)
	s.p.quadTo(x1, y1, x, y)
}
func (s suitPen) cube(u1, v1, u2, v2, u, v float32) {
	x1, y1 := s.pt(u1, v1)
	x2, y2 := s.pt(u2, v2)
	x, y := s.pt(u, v)
	s.p.cubeTo(x1, y1, x2, y2, x, y)
}

func (s suitPen) circle(cu, cv, r float32) {
	cx, cy := s.pt(cu, cv)
	s.p.ellipsePath(cx, cy, r*s.w, r*s.h)
}

// suitColor is red for hearts and diamonds, black for spades and clubs.
func suitColor(st game.Suit) color.RGBA {
	if st == game.Hearts || st == game.Diamonds {
		return colRed
	}
	return colBlack
}

// drawSuit fills the suit's shape in the box (x, y, w, h).
func drawSuit(p *painter, st game.Suit, x, y, w, h float32, flip bool, col color.Color) {
	b := p.begin(x, y, x+w, y+h)
	s := suitPen{p: p, x: x, y: y, w: w, h: h, flip: flip}
	switch st {
	case game.Hearts:
		s.move(0.5, 1.0)
		s.cube(0.36, 0.80, 0.0, 0.62, 0.0, 0.30)
		s.cube(0.0, 0.11, 0.14, 0.0, 0.27, 0.0)
		s.cube(0.39, 0.0, 0.47, 0.07, 0.5, 0.18)
		s.cube(0.53, 0.07, 0.61, 0.0, 0.73, 0.0)
		s.cube(0.86, 0.0, 1.0, 0.11, 1.0, 0.30)
		s.cube(1.0, 0.62, 0.64, 0.80, 0.5, 1.0)
		s.p.close()
	case game.Diamonds:
		s.move(0.5, 0.0)
		s.quad(0.66, 0.30, 0.9, 0.5)
		s.quad(0.66, 0.70, 0.5, 1.0)
		s.quad(0.34, 0.70, 0.1, 0.5)
		s.quad(0.34, 0.30, 0.5, 0.0)
		s.p.close()
	case game.Spades:
		s.move(0.5, 0.0)
		s.cube(0.38, 0.17, 0.0, 0.34, 0.0, 0.57)
		s.cube(0.0, 0.73, 0.12, 0.81, 0.26, 0.81)
		s.cube(0.36, 0.81, 0.43, 0.77, 0.47, 0.70)
		s.cube(0.46, 0.84, 0.40, 0.94, 0.28, 1.0)
		s.line(0.72, 1.0)
		s.cube(0.60, 0.94, 0.54, 0.84, 0.53, 0.70)
		s.cube(0.57, 0.77, 0.64, 0.81, 0.74, 0.81)
		s.cube(0.88, 0.81, 1.0, 0.73, 1.0, 0.57)
		s.cube(1.0, 0.34, 0.62, 0.17, 0.5, 0.0)
		s.p.close()
	case game.Clubs:
		s.circle(0.5, 0.25, 0.23)
		s.circle(0.25, 0.57, 0.23)
		s.circle(0.75, 0.57, 0.23)
		s.circle(0.5, 0.52, 0.14)
		// The stem runs the same way round as the circles, so where they
		// overlap the coverage adds up instead of cancelling.
		s.move(0.53, 0.55)
		s.cube(0.54, 0.80, 0.60, 0.93, 0.72, 1.0)
		s.line(0.28, 1.0)
		s.cube(0.40, 0.93, 0.46, 0.80, 0.47, 0.55)
		s.p.close()
	}
	p.end(b, col)
}
