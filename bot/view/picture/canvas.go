package picture

import (
	"image"
	"image/color"
	"math"
	"strconv"
	"strings"
	"sync"

	"github.com/pontoon-bot/pontoon/game"
)

// The picture is 800 pixels wide and as tall as its rows of seats. Discord
// scales it to the width of the message, about 400 pixels on a phone, so
// every size here is chosen to read at half size: names at 21 px, labels at
// 17 px and more, card indices at 24 px. The seats sit in a grid of three
// columns rather than round an oval: a grid leaves no felt empty in the
// middle, so every seat is as large as the width allows, which on a
// phone's narrow picture is what leaves room for large cards. The first row holds the round (its
// title, phase and whose turn it is), the banker at the head of the table
// and the bank; the players follow in play order from the banker's left
// (R3.1), row by row, each row read left to right.
const (
	canvasW = 800
	margin  = 30 // from the picture's edge to the seats: the rail and the felt's border
	cols    = 3
	gapX    = 10
	seatW   = (canvasW - 2*margin - (cols-1)*gapX) / cols // 240
	seatH   = 192
	rowH    = seatH + 10
)

// rowsFor is the number of rows n players take, the head row included.
func rowsFor(n int) int { return 1 + (n+cols-1)/cols }

// canvasHeight is the picture's height with rows rows of seats.
func canvasHeight(rows int) int { return 2*margin + rows*rowH - (rowH - seatH) }

// box is where one seat is drawn: its top-left corner.
type box struct {
	x, y float32
}

// cell is the box in column col of row row.
func cell(col, row int) box {
	return box{x: float32(margin + col*(seatW+gapX)), y: float32(margin + row*rowH)}
}

// bankerBox is the head of the table: the middle of the first row.
var bankerBox = cell(1, 0)

// playerBoxes lays out n players in play order, three to a row under the
// head row; a last row that is not full is centred.
func playerBoxes(n int) []box {
	out := make([]box, 0, n)
	for i := 0; i < n; i++ {
		row, col := 1+i/cols, i%cols
		b := cell(col, row)
		if left := n - (row-1)*cols; left < cols {
			b.x += float32((cols-left)*(seatW+gapX)) / 2
		}
		out = append(out, b)
	}
	return out
}

// backdrop is the bare table for one number of rows, drawn once, with the
// pool of canvases that start from it.
type backdrop struct {
	img  *image.Paletted
	pool sync.Pool // *canvasImage, back to the bare table
}

var (
	backdropsMu sync.Mutex
	backdrops   = map[int]*backdrop{}
)

// backdropFor returns the bare table with rows rows, drawing it the first
// time. Tables have ten seats or so, so there are a handful of heights.
func backdropFor(rows int) *backdrop {
	backdropsMu.Lock()
	defer backdropsMu.Unlock()
	if bd, ok := backdrops[rows]; ok {
		return bd
	}
	bd := &backdrop{img: drawBackground(canvasHeight(rows))}
	backdrops[rows] = bd
	return bd
}

func drawBackground(h int) *image.Paletted {
	img := image.NewRGBA(image.Rect(0, 0, canvasW, h))
	p := &painter{dst: img}
	p.rect(img.Bounds(), colBackground)
	W, H := float32(canvasW), float32(h)
	p.roundRect(3, 3, W-6, H-6, 52, colRail)
	p.ring(6, 6, W-12, H-12, 49, 2, colRailLight)
	p.roundRect(14, 14, W-28, H-28, 42, colFeltDark)
	p.roundRect(19, 19, W-38, H-38, 37, colFelt)
	paletteOnce.Do(buildPalette)
	out := image.NewPaletted(img.Bounds(), pal)
	quantizeRect(out, img, img.Bounds())
	return out
}

// canvas is one picture being drawn, on the palette only (out): an opaque
// piece of a sprite copies the sprite's own palette indices, and a partly
// transparent pixel (an anti-aliased edge, a letter) is blended with the
// palette's colour of what is under it and mapped back onto the palette.
// The palette holds the ramps between the colours that meet at edges, so
// this reads back what a full-colour picture would hold, and a canvas has
// no full-colour picture to fill, copy and put back (2.5 MB, which under
// load cost more in cache misses than the drawing itself). out holds the
// bare table when the drawing starts; touched marks the pieces drawn on,
// which release puts back to the bare table so that it can go back to the
// pool. Everything drawn goes through blit, over or text.
type canvas struct {
	*canvasImage
	ts *typeset
}

// canvasImage is a canvas's pooled picture: about 680 KB on the palette for
// ten seats.
type canvasImage struct {
	bd      *backdrop
	out     *image.Paletted
	touched *tiles
	ts      *typeset // kept too: its faces cost more to make than to keep
}

// newCanvas takes a canvas with rows rows of seats, the bare table on it.
func newCanvas(rows int) *canvas {
	bd := backdropFor(rows)
	ci, _ := bd.pool.Get().(*canvasImage)
	if ci == nil {
		out := image.NewPaletted(bd.img.Rect, bd.img.Palette)
		copy(out.Pix, bd.img.Pix)
		ci = &canvasImage{bd: bd, out: out, touched: newTiles(out.Rect), ts: newTypeset()}
	}
	if len(ci.ts.faces) > 64 { // sizes of their own, above ten seats: forget them
		ci.ts = newTypeset()
	}
	return &canvas{canvasImage: ci, ts: ci.ts}
}

// release puts the pieces drawn on back to the bare table and the pictures
// back in the pool. The canvas is not used again.
func (c *canvas) release() {
	ci := c.canvasImage
	c.canvasImage = nil
	bg := ci.bd.img
	ci.touched.spans(ci.out.Rect, func(r image.Rectangle) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			copy(ci.out.Pix[ci.out.PixOffset(r.Min.X, y):][:r.Dx()], bg.Pix[bg.PixOffset(r.Min.X, y):])
		}
	})
	ci.bd.pool.Put(ci)
}

// blit copies a sprite onto the picture.
func (c *canvas) blit(s *sprite, at image.Point) {
	blit(c.out, c.touched, s, at)
}

// text and textCentered draw on the picture, as text does on a full-colour
// one.
func (c *canvas) text(f *face, s string, x, y int, col color.RGBA) {
	base := y + f.capHeight/2
	for _, pg := range f.run(s).glyphs {
		if pg.g.mask != nil {
			over(c.out, c.touched, pg.g.dr.Add(image.Pt(x+pg.x, base)), col, pg.g.mask, image.Point{})
		}
	}
}

func (c *canvas) textCentered(f *face, s string, cx, y int, col color.RGBA) {
	c.text(f, s, cx-width(f, s)/2, y, col)
}

// roundRect draws painter.roundRect's shape at its exact (fractional) place,
// from a kept sprite, as pill does: the sprite is the shape's box from the
// whole pixel before it, with the fraction inside.
func (c *canvas) roundRect(x, y, w, h, r float32, col color.RGBA) {
	x0, y0 := int(math.Floor(float64(x)))-1, int(math.Floor(float64(y)))-1
	x1, y1 := int(math.Ceil(float64(x+w)))+1, int(math.Ceil(float64(y+h)))+1
	fx, fy := x-float32(x0), y-float32(y0)
	k := shapeKey{kind: shapeRoundRect, w: int16(x1 - x0), h: int16(y1 - y0), r: r, col: col, fx: fx, fy: fy, fw: w, fh: h}
	c.blit(shape(k, func(p *painter) { p.roundRect(fx, fy, w, h, r, col) }), image.Pt(x0, y0))
}

// pill draws painter.pill's shape from a kept sprite: the box is snapped to
// whole pixels, so the shape depends only on its size and colour.
func (c *canvas) pill(x, y, w, h float32, col color.RGBA) {
	x, y, w, h = round(x), round(y), round(w), round(h)
	if w <= 0 || h <= 0 {
		return
	}
	k := shapeKey{kind: shapePill, w: int16(w), h: int16(h), col: col}
	c.blit(shape(k, func(p *painter) { p.pill(0, 0, w, h, col) }), image.Pt(int(x), int(y)))
}

// frame draws painter.frame's outline from a kept sprite, as pill does.
func (c *canvas) frame(x, y, w, h, r, t float32, col color.RGBA) {
	x, y, w, h = round(x), round(y), round(w), round(h)
	if w <= 0 || h <= 0 {
		return
	}
	k := shapeKey{kind: shapeFrame, w: int16(w), h: int16(h), r: r, t: t, col: col}
	c.blit(shape(k, func(p *painter) { p.frame(0, 0, w, h, r, t, col) }), image.Pt(int(x), int(y)))
}

type shapeKey struct {
	kind           uint8
	w, h           int16 // the sprite's size
	r, t           float32
	col            color.RGBA
	fx, fy, fw, fh float32 // a roundRect's box inside the sprite
}

const (
	shapePill uint8 = iota
	shapeFrame
	shapeRoundRect
)

var shapeCache = &bounded[shapeKey, *sprite]{limit: 1024}

func shape(k shapeKey, draw func(*painter)) *sprite {
	if s, ok := shapeCache.get(k); ok {
		return s
	}
	img := image.NewRGBA(image.Rect(0, 0, int(k.w), int(k.h)))
	draw(&painter{dst: img})
	return shapeCache.put(k, newSprite(img))
}

// players is the table's seats other than the banker, in play order: from
// the banker's left (R3.1), the seat after the banker in clockwise order
// first.
func players(t Table) (banker *Seat, out []Seat) {
	bi := -1
	for i := range t.Seats {
		if t.Seats[i].Banker && banker == nil {
			banker, bi = &t.Seats[i], i
			continue
		}
		out = append(out, t.Seats[i])
	}
	if bi > 0 && bi < len(out) {
		out = append(append([]Seat(nil), out[bi:]...), out[:bi]...)
	}
	return banker, out
}

// paint draws the round, the bank and the seats.
func (c *canvas) paint(t Table) {
	banker, ps := players(t)
	c.head(t, cell(0, 0))
	c.pots(t, cell(2, 0))
	if banker != nil {
		c.seat(*banker, bankerBox, t.Labels)
	}
	for i, b := range playerBoxes(len(ps)) {
		c.seat(ps[i], b, t.Labels)
	}
}

// head draws the round's title, its phase and whose turn it is, each on up
// to two lines. The countdown is not drawn: the picture is redrawn only at
// the deal, the banker's reveal and the settlement, so the message's text
// carries it (see the package doc).
func (c *canvas) head(t Table, b box) {
	l := t.Labels
	x, y := int(b.x)+8, int(b.y)+18
	w := seatW - 16
	// Each line first shrinks (down to 17 px) to stay on one line, then
	// wraps: "round 3" is better smaller than cut in two.
	line := func(s string, bold bool, size float64, col color.RGBA) {
		if s == "" {
			return
		}
		f, _ := c.ts.shrink(bold, s, w, size, 17)
		if width(f, s) > w {
			f = c.ts.face(bold, size)
		}
		size = float64(f.key.size)
		for _, ln := range wrap(f, s, w, 2) {
			c.text(f, ln, x, y, col)
			y += int(size * 1.25)
		}
		y += 8
	}
	line(l.Title, true, 21, colText)
	line(l.Phase, true, 19, colMuted)
	if turn := turnName(c.ts, t); turn != "" && l.ToAct != nil {
		line(l.ToAct(turn), true, 20, colGold)
	}
}

// turnName names the seats whose turn it is, as their plates show them
// ("" when it is no one's). While stakes are placed it is everyone's who
// has not staked, so there may be several.
func turnName(ts *typeset, t Table) string {
	var names []string
	for _, st := range t.Seats {
		if st.Turn {
			names = append(names, shortName(ts, st))
		}
	}
	return strings.Join(names, ", ")
}

// shortName is the seat's name as the picture draws it: cleaned (see
// cleanName) and cut to what the plate holds at most.
func shortName(ts *typeset, st Seat) string {
	return fit(ts.face(true, 21), ts.cleanName(st.Name, st.Fallback), seatW-24)
}

// pots draws the bank and the kitty, each a chip stack with its label and
// amount.
func (c *canvas) pots(t Table, b box) {
	type pot struct {
		label  string
		amount string
		chip   [2]colorPair
	}
	pots := []pot{{t.Labels.Bank, t.Labels.amount(t.Bank), [2]colorPair{{colChipRed, colCard}, {colBlack, colCard}}}}
	if t.ShowKitty {
		pots = append(pots, pot{t.Labels.Kitty, t.Labels.amount(t.Kitty), [2]colorPair{{colChipBlue, colCard}, {colChipBlue, colCard}}})
	}
	lf := c.ts.face(false, 19)
	tx := int(b.x) + 64
	textMax := seatW - 70
	for i, pt := range pots {
		y := b.y + 20 + float32(i)*86
		c.chipStack(b.x+32, y+32, 21, pt.chip)
		if pt.label != "" {
			c.text(lf, fit(lf, pt.label, textMax), tx, int(y+12), colMuted)
		}
		af, amount := c.ts.shrink(true, pt.amount, textMax, 32, 15)
		c.text(af, amount, tx, int(y+44), colText)
	}
}

// colorPair is a chip's body and inlay colours.
type colorPair [2]color.RGBA

// chipStack draws three casino chips stacked, seen from above and a little
// in front.
func (c *canvas) chipStack(cx, cy, r float32, cols [2]colorPair) {
	for i := 2; i >= 0; i-- {
		y := cy + float32(i)*r*0.32 - r*0.3
		col := cols[i%2]
		c.chip(cx, y, r, col)
	}
}

// chip draws one chip: a disc with a white inlay ring broken into spots.
// Chips are drawn once per size and colour and kept, like cards.
func (c *canvas) chip(cx, cy, r float32, col colorPair) {
	s := chipSprite(r, col)
	d := s.img.Bounds().Dx()
	c.blit(s, image.Pt(int(round(cx))-d/2, int(round(cy))-d/2))
}

type chipKey struct {
	r   float32
	col colorPair
}

var chipCache = &bounded[chipKey, *sprite]{limit: 256}

func chipSprite(r float32, col colorPair) *sprite {
	key := chipKey{r, col}
	if s, ok := chipCache.get(key); ok {
		return s
	}
	d := int(2*r) + 2
	img := image.NewRGBA(image.Rect(0, 0, d, d+int(r*0.3)))
	drawChip(&painter{dst: img}, float32(d)/2, float32(d)/2, r, col)
	return chipCache.put(key, newSprite(img))
}

func drawChip(p *painter, cx, cy, r float32, col colorPair) {
	p.circle(cx, cy+r*0.14, r, colShadow)
	p.circle(cx, cy, r, col[0])
	for i := 0; i < 6; i++ {
		// Six spots round the edge, as on a casino chip.
		dx := [6]float32{1, 0.5, -0.5, -1, -0.5, 0.5}[i]
		dy := [6]float32{0, 0.866, 0.866, 0, -0.866, -0.866}[i]
		p.circle(cx+dx*r*0.78, cy+dy*r*0.78, r*0.17, col[1])
	}
	p.circle(cx, cy, r*0.52, col[1])
	p.circle(cx, cy, r*0.42, col[0])
}

// seat draws one member: the name plate, the box with the hands and,
// under each hand, its stake and then its total or, at settlement, its
// result.
func (c *canvas) seat(st Seat, b box, l Labels) {
	w, h := float32(seatW), float32(seatH)
	line := colFeltLine
	if st.Turn {
		line = colGold
	}
	c.frame(b.x, b.y+38, w, h-38, 12, 2, line)
	if st.Turn {
		c.pill(b.x+1, b.y-3, w-2, 40, colGold)
	}
	c.pill(b.x+4, b.y, w-8, 34, colPlate)

	// The plate: the name, then the badges that fit after it. The name
	// comes first: a badge that would leave it under 90 px is left out
	// (the gold frame and the head of the picture still say whose turn it
	// is; the head row holds the banker).
	nf, bf := c.ts.face(true, 21), c.ts.face(true, 16)
	type badge struct {
		label string
		fill  color.RGBA
		w     float32
	}
	var badges []badge
	if st.Banker && l.Banker != "" {
		badges = append(badges, badge{label: l.Banker, fill: colGold})
	}
	if st.Turn && l.Turn != "" {
		badges = append(badges, badge{label: l.Turn, fill: colText})
	}
	nx := int(b.x + 14)
	name := c.ts.cleanName(st.Name, st.Fallback)
	need := min(width(nf, name), 90)
	for {
		right := b.x + w - 10
		for i := range badges {
			badges[i].label = fit(bf, badges[i].label, 100)
			badges[i].w = float32(width(bf, badges[i].label)) + 14
			right -= badges[i].w + 5
		}
		if len(badges) == 0 || int(right)-nx >= need {
			break
		}
		badges = badges[:len(badges)-1]
	}
	mid := int(b.y + 17)
	right := b.x + w - 10
	for i := len(badges) - 1; i >= 0; i-- {
		bx := right - badges[i].w
		c.pill(bx, b.y+5, badges[i].w, 24, badges[i].fill)
		c.text(bf, badges[i].label, int(bx+7), mid, colBlack)
		right = bx - 5
	}
	c.text(nf, fit(nf, name, int(right)-nx), nx, mid, colText)

	c.hands(st, b, l)
}

// Card sizes: a card is cardW wide, and in a fanned hand each card under
// another shows a strip of cardStep of its width, where its rank and suit
// are (see drawIndex). A seat too narrow for its hands first shrinks the
// strips to minStep, then the cards, down to minCardW.
const (
	cardW    = 62
	cardStep = 26
	minStep  = 23
	minCardW = 30
)

// hands draws a seat's hands side by side in its box, each with its stake
// and its total or result under it.
func (c *canvas) hands(st Seat, b box, l Labels) {
	k := len(st.Hands)
	if k == 0 {
		return
	}
	const gap = 10
	hw := (float32(seatW) - 16 - float32(k-1)*gap) / float32(k)
	most := 1
	for _, h := range st.Hands {
		most = max(most, len(h.Cards))
	}
	cw, step := handCards(most, hw)
	ch := cardHeight(cw)
	top := b.y + 46
	for i, h := range st.Hands {
		x0 := b.x + 8 + float32(i)*(hw+gap)
		n := len(h.Cards)
		span := float32(cw) + float32(max(n-1, 0))*step
		left := x0 + max(0, (hw-span)/2)
		if h.Turn && st.Turn && k > 1 {
			c.roundRect(left-4, top-4, span+8, float32(ch)+8, 8, colGold)
		}
		for j, hc := range h.Cards {
			kind := cardFace
			switch {
			case !hc.FaceUp && h.Own:
				kind = cardOwn
			case !hc.FaceUp, !validCard(hc.Card):
				kind = cardBack // a card that is no card shows its back, not a made-up face
			}
			c.blit(cardSprite(hc.Card, cw, kind), image.Pt(int(left+float32(j)*step), int(top)))
		}
		cx := int(x0 + hw/2)
		if h.Stake > 0 {
			c.stake(l.stakeOf(h.Stake), cx, int(top)+ch+15, int(hw))
		}
		note, tone := h.Result, h.Tone
		if note == "" {
			note, tone = handTotal(h, l), Neutral
		}
		if note != "" {
			y := b.y + seatH - 33
			if h.Stake <= 0 {
				y = top + float32(ch) + 4 // the banker's hand has no stake line: the badge moves up to the cards
			}
			c.badge(note, tone, cx, y, hw)
		}
	}
}

// handCards sizes the cards of a hand of n cards in hw pixels: the card's
// width and the step from one card to the next.
func handCards(n int, hw float32) (int, float32) {
	if n <= 1 {
		return min(cardW, max(int(hw), minCardW)), cardStep
	}
	step := float32(cardStep)
	if cardW+float32(n-1)*step > hw {
		step = max(minStep, (hw-cardW)/float32(n-1))
	}
	s := min(1, hw/(cardW+float32(n-1)*step))
	cw := max(int(cardW*s), minCardW)
	return cw, step * float32(cw) / cardW
}

// handTotal is the total of a hand's cards that the table sees, labelled:
// every card's total when all are in view (to the table, or to their owner
// in a private panel), the up-cards' total while some are face down, ""
// when none is in view.
func handTotal(h Hand, l Labels) string {
	var seen []game.Card
	for _, hc := range h.Cards {
		if (hc.FaceUp || h.Own) && validCard(hc.Card) {
			seen = append(seen, hc.Card)
		}
	}
	if len(seen) == 0 {
		return ""
	}
	best, _ := game.Totals(seen)
	total := strconv.Itoa(best)
	if len(seen) == len(h.Cards) {
		if l.Total != nil {
			return l.Total(total)
		}
		return total
	}
	if l.Showing != nil {
		return l.Showing(total)
	}
	return total
}

// stake draws a chip and the labelled stake under a hand.
func (c *canvas) stake(label string, cx, y, maxW int) {
	const r = 9
	f, label := c.ts.shrink(true, label, maxW-2*r-6, 18, 12)
	tw := width(f, label)
	total := 2*r + 6 + tw
	x := cx - total/2
	c.chip(float32(x+r), float32(y), r, colorPair{colChipRed, colCard})
	c.text(f, label, x+2*r+6, y, colText)
}

// badge draws a hand's total or result under its stake, in a smaller size
// (down to 12 px) before it cuts the words.
func (c *canvas) badge(s string, tone Tone, cx int, y, maxW float32) {
	f, label := c.ts.shrink(true, s, int(maxW-14), 18, 12)
	fill := colNeutral
	switch tone {
	case Win:
		fill = colWin
	case Loss:
		fill = colLoss
	case Push:
		fill = colPush
	}
	bw := float32(width(f, label)) + 14
	const h = 26
	c.pill(float32(cx)-bw/2, y, bw, h, fill)
	c.textCentered(f, label, cx, int(y+h/2), colText)
}
