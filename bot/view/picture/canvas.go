package picture

import (
	"image"
	"image/color"
	"math"
	"sync"
)

// The picture is one fixed size, so that it lands the same in every embed
// and its static parts (the rail, the felt, the printed line and wordmark)
// are drawn once and copied into each render.
//
// The layout is written for a 1240 x 790 table and drawn at zoom times that.
// Discord scales an embed's image down to the embed's width (a few hundred
// pixels), so what players read there is how large the words are against
// the whole; zoom sets only the full-size view's sharpness against the cost
// of every pixel (drawing, quantizing and compressing grow with the area).
const (
	zoom    = 0.8
	canvasW = 992 // 1240 zoom
	canvasH = 632 // 790 zoom
	seatW   = 200 // a seat's box at scale 1, in layout units
	seatH   = 176
)

// px rounds a layout length down to whole pixels.
func px(v float32) int { return int(v) }

// box is where one seat is drawn: top-left corner and scale.
type box struct {
	x, y, s float32
}

// slots are the nine player places round the table at scale 1, in play
// order: from the banker's left (the right of the picture, as the banker
// faces the players) down the right side, along the bottom and up the left
// (R3.1). Values are the centres of the boxes.
var slots = [9][2]float32{
	{1100, 270}, {1100, 455},
	{1040, 664}, {830, 664}, {620, 664}, {410, 664}, {200, 664},
	{140, 455}, {140, 270},
}

// slotsFor picks which of the nine places n players take, spread evenly.
var slotsFor = [10][]int{
	0: {},
	1: {4},
	2: {3, 5},
	3: {2, 4, 6},
	4: {1, 3, 5, 7},
	5: {1, 2, 4, 6, 7},
	6: {1, 2, 3, 5, 6, 7},
	7: {0, 1, 2, 4, 6, 7, 8},
	8: {0, 1, 2, 3, 5, 6, 7, 8},
	9: {0, 1, 2, 3, 4, 5, 6, 7, 8},
}

// bankerBox is the head of the table.
var bankerBox = box{x: canvasW/2 - seatW*zoom/2, y: 40 * zoom, s: zoom}

// playerBoxes lays out n players. Up to nine take the fixed places; more
// (a table configured above ten seats) are shrunk onto the same U: a column
// on each side and the rest along the bottom.
func playerBoxes(n int) []box {
	out := make([]box, 0, n)
	if n <= 9 {
		for _, i := range slotsFor[n] {
			c := slots[i]
			out = append(out, box{x: (c[0] - seatW/2) * zoom, y: (c[1] - seatH/2) * zoom, s: zoom})
		}
		return out
	}
	side := (n + 3) / 5 // seats in each side column
	bottom := n - 2*side
	m := float32(40 * zoom) // margin from the picture's edge
	s := min(zoom, (canvasW-2*m)/float32(bottom*seatW+(bottom-1)*8), 390*zoom/float32(side*seatH))
	w, h := seatW*s, seatH*s
	colY := func(i int) float32 { return 560*zoom - float32(side-i)*h }
	for i := 0; i < side; i++ { // right column, top to bottom
		out = append(out, box{x: canvasW - m - w, y: colY(i), s: s})
	}
	gap := (canvasW - 2*m - float32(bottom)*w) / float32(max(bottom-1, 1))
	for i := 0; i < bottom; i++ { // bottom row, right to left
		out = append(out, box{x: canvasW - m - w - float32(i)*(w+gap), y: canvasH - m - h, s: s})
	}
	for i := side - 1; i >= 0; i-- { // left column, bottom to top
		out = append(out, box{x: m, y: colY(i), s: s})
	}
	return out
}

var (
	backgroundOnce sync.Once
	backgroundP    *image.Paletted // the bare table, drawn in full colour once and quantized
)

func drawBackground() {
	img := image.NewRGBA(image.Rect(0, 0, canvasW, canvasH))
	p := &painter{dst: img}
	p.rect(img.Bounds(), colBackground)
	W, H := float32(canvasW), float32(canvasH)
	p.roundRect(6*zoom, 6*zoom, W-12*zoom, H-12*zoom, 180*zoom, colRail)
	p.ring(10*zoom, 10*zoom, W-20*zoom, H-20*zoom, 176*zoom, 3*zoom, colRailLight)
	p.roundRect(24*zoom, 24*zoom, W-48*zoom, H-48*zoom, 162*zoom, colFeltDark)
	p.roundRect(34*zoom, 34*zoom, W-68*zoom, H-68*zoom, 152*zoom, colFelt)
	p.roundRect(150*zoom, 150*zoom, W-300*zoom, H-300*zoom, 110*zoom, colFeltLight)
	p.ring(58*zoom, 58*zoom, W-116*zoom, H-116*zoom, 130*zoom, 2, colFeltLine)
	ts := newTypeset()
	textCentered(img, ts.face(true, 70*zoom), "PONTOON", canvasW/2, px(455*zoom), colFelt)
	paletteOnce.Do(buildPalette)
	backgroundP = image.NewPaletted(img.Bounds(), pal)
	quantizeRect(backgroundP, img, img.Bounds())
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

// canvasImage is a canvas's pooled picture: 630 KB on the palette.
type canvasImage struct {
	out     *image.Paletted
	touched *tiles
	ts      *typeset // kept too: its faces cost more to make than to keep
}

var canvases sync.Pool // *canvasImage, back to the bare table

func newCanvas() *canvas {
	backgroundOnce.Do(drawBackground)
	ci, _ := canvases.Get().(*canvasImage)
	if ci == nil {
		out := image.NewPaletted(backgroundP.Rect, backgroundP.Palette)
		copy(out.Pix, backgroundP.Pix)
		ci = &canvasImage{out: out, touched: newTiles(out.Rect), ts: newTypeset()}
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
	ci.touched.spans(ci.out.Rect, func(r image.Rectangle) {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			copy(ci.out.Pix[ci.out.PixOffset(r.Min.X, y):][:r.Dx()], backgroundP.Pix[backgroundP.PixOffset(r.Min.X, y):])
		}
	})
	canvases.Put(ci)
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

// paint draws the table's seats and the bank.
func (c *canvas) paint(t Table) {
	var players []Seat
	var banker *Seat
	for i := range t.Seats {
		if t.Seats[i].Banker && banker == nil {
			banker = &t.Seats[i]
			continue
		}
		players = append(players, t.Seats[i])
	}
	// Play order starts at the banker's left (R3.1): the seat after the
	// banker in clockwise order comes first.
	if banker != nil {
		bi := 0
		for i := range t.Seats {
			if &t.Seats[i] == banker {
				bi = i
			}
		}
		if bi < len(players) {
			players = append(append([]Seat(nil), players[bi:]...), players[:bi]...)
		}
	}
	boxes := playerBoxes(len(players))
	c.centre(t)
	if banker != nil {
		c.seat(*banker, bankerBox, t.Labels)
	}
	for i, b := range boxes {
		c.seat(players[i], b, t.Labels)
	}
}

// centre draws the title, the bank and the kitty in the middle of the felt.
func (c *canvas) centre(t Table) {
	cx := canvasW / 2
	if t.Labels.Title != "" {
		f := c.ts.face(true, 24*zoom)
		c.textCentered(f, fit(f, t.Labels.Title, px(640*zoom)), cx, px(248*zoom), colMuted)
	}
	type pot struct {
		label  string
		amount string
		chip   [2]colorPair
	}
	pots := []pot{{t.Labels.Bank, t.Labels.amount(t.Bank), [2]colorPair{{colChipRed, colCard}, {colBlack, colCard}}}}
	if t.ShowKitty {
		pots = append(pots, pot{t.Labels.Kitty, t.Labels.amount(t.Kitty), [2]colorPair{{colChipBlue, colCard}, {colChipBlue, colCard}}})
	}
	lf := c.ts.face(false, 21*zoom)
	const potW = 290 * zoom
	x0 := float32(cx) - float32(len(pots))*potW/2
	for i, pt := range pots {
		x := x0 + float32(i)*potW
		c.chipStack(x+36*zoom, 330*zoom, 20*zoom, pt.chip)
		tx := int(x + 70*zoom)
		textMax := int(potW - 80*zoom)
		if pt.label != "" {
			c.text(lf, fit(lf, pt.label, textMax), tx, px(310*zoom), colMuted)
		}
		af, amount := c.ts.shrink(true, pt.amount, textMax, 34*zoom, 15)
		c.text(af, amount, tx, px(340*zoom), colText)
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

// seat draws one member: the name plate, the betting box, the hands with
// their stakes and, at settlement, each hand's result.
func (c *canvas) seat(st Seat, b box, l Labels) {
	s := b.s
	w, h := seatW*s, seatH*s
	line := colFeltLine
	if st.Turn {
		line = colGold
	}
	c.frame(b.x, b.y+38*s, w, h-38*s, 14*s, max(2*s, 1), line)
	if st.Turn {
		c.pill(b.x+3*s, b.y-3*s, w-6*s, 40*s, colGold)
	}
	c.pill(b.x+6*s, b.y, w-12*s, 34*s, colPlate)

	// The plate: the name, then the badges that fit after it. The name
	// comes first: a badge that would leave it under 90 px is left out
	// (the gold frame still shows the turn, the head of the table the
	// banker).
	nf, bf := c.ts.face(true, float64(22*s)), c.ts.face(true, float64(14*s))
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
	nx := int(b.x + 17*s)
	name := c.ts.cleanName(st.Name, st.Fallback)
	need := min(width(nf, name), int(90*s))
	for {
		right := b.x + w - 12*s
		for i := range badges {
			badges[i].label = fit(bf, badges[i].label, int(70*s))
			badges[i].w = float32(width(bf, badges[i].label)) + 14*s
			right -= badges[i].w + 5*s
		}
		if len(badges) == 0 || int(right)-nx >= need {
			break
		}
		badges = badges[:len(badges)-1]
	}
	mid := int(b.y + 17*s)
	right := b.x + w - 12*s
	for i := len(badges) - 1; i >= 0; i-- {
		bx := right - badges[i].w
		c.pill(bx, b.y+6*s, badges[i].w, 22*s, badges[i].fill)
		c.text(bf, badges[i].label, int(bx+7*s), mid, colBlack)
		right = bx - 5*s
	}
	c.text(nf, fit(nf, name, int(right)-nx), nx, mid, colText)

	c.hands(st, b, l)
}

// hands draws a seat's hands side by side in its box, the cards overlapped
// as they lie on a table, shrunk when a split seat holds several.
func (c *canvas) hands(st Seat, b box, l Labels) {
	k := len(st.Hands)
	if k == 0 {
		return
	}
	s := b.s
	const gap = 10
	avail := (seatW - 16 - float32(k-1)*gap) * s
	hw := avail / float32(k)
	// Card size: 70 px wide at scale 1, overlapped by 28 px steps; smaller
	// when the longest hand would not fit its share of the box.
	most := 1
	for _, h := range st.Hands {
		most = max(most, len(h.Cards))
	}
	// A hand that does not fit its share first overlaps more (down to 16 px
	// steps, the corner index still in view), then shrinks.
	step := float32(28)
	if most > 1 && 70+float32(most-1)*step > hw/s {
		step = max(16, (hw/s-70)/float32(most-1))
	}
	cs := min(float32(1), hw/((70+float32(most-1)*step)*s))
	// No card narrower than 14 px, however many: past that a seat's hands
	// run over its box rather than turn into specks.
	cw := max(int(70*s*cs), 14)
	step *= s * cs
	ch := cardHeight(cw)
	top := b.y + 46*s
	rsize := float64(max(17*s*min(1, cs*1.3), 11))
	for i, h := range st.Hands {
		x0 := b.x + 8*s + float32(i)*(hw+gap*s)
		n := len(h.Cards)
		span := float32(cw) + float32(max(n-1, 0))*step
		left := x0 + (hw-span)/2
		if h.Turn && st.Turn && k > 1 {
			c.roundRect(left-4*s, top-4*s, span+8*s, float32(ch)+8*s, 8*s, colGold)
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
			c.stake(l.amount(h.Stake), cx, int(b.y+161*s), int(hw), s)
		}
		if h.Result != "" {
			c.badge(rsize, h.Result, h.Tone, cx, top+float32(ch)-24*s, hw+6*s, s)
		}
	}
}

// stake draws a chip and the stake's amount under a hand.
func (c *canvas) stake(amount string, cx, y, maxW int, s float32) {
	f, label := c.ts.shrink(true, amount, maxW-int(26*s), float64(19*s), 10)
	tw := width(f, label)
	r := 9 * s
	total := int(2*r+6*s) + tw
	x := cx - total/2
	c.chip(float32(x)+r, float32(y), r, colorPair{colChipRed, colCard})
	c.text(f, label, x+int(2*r+6*s), y, colText)
}

// badge draws a result across the foot of a hand, in a smaller size (down
// to 11 px) before it cuts the words.
func (c *canvas) badge(size float64, s string, tone Tone, cx int, y, maxW, sc float32) {
	f, label := c.ts.shrink(true, s, int(maxW-14*sc), size, 11)
	fill := colNeutral
	switch tone {
	case Win:
		fill = colWin
	case Loss:
		fill = colLoss
	case Push:
		fill = colPush
	}
	bw := float32(width(f, label)) + 14*sc
	h := 26 * sc
	c.pill(float32(cx)-bw/2, y, bw, h, colPlate)
	c.pill(float32(cx)-bw/2+2*sc, y+2*sc, bw-4*sc, h-4*sc, fill)
	c.textCentered(f, label, cx, int(y+h/2), colText)
}
