package picture

import (
	"image"
	"image/color"
	"image/draw"
	"strings"
	"sync"
	"unicode"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// The Go fonts are compiled in (golang.org/x/image/font/gofont), so the
// picture needs no font files on the machine and looks the same everywhere.
// They cover Latin, Greek and Cyrillic; a name in another script falls back
// (see cleanName) rather than showing empty boxes.

var (
	fontOnce              sync.Once
	fontRegular, fontBold *sfnt.Font
)

func loadFonts() {
	var err error
	if fontRegular, err = opentype.Parse(goregular.TTF); err != nil {
		panic("picture: the compiled-in Go Regular font does not parse: " + err.Error())
	}
	if fontBold, err = opentype.Parse(gobold.TTF); err != nil {
		panic("picture: the compiled-in Go Bold font does not parse: " + err.Error())
	}
}

// typeset holds the font faces of one drawing. Faces keep scratch buffers,
// so each drawing has its own set and Render stays safe for concurrent use.
type typeset struct {
	faces map[faceKey]*face
	buf   sfnt.Buffer
}

type faceKey struct {
	bold bool
	size float64
}

func newTypeset() *typeset {
	fontOnce.Do(loadFonts)
	return &typeset{faces: map[faceKey]*face{}}
}

// face is a font face of one drawing, with the key its glyphs are cached
// under.
type face struct {
	font.Face
	key       faceKey
	capHeight int
}

func (ts *typeset) face(bold bool, size float64) *face {
	k := faceKey{bold, size}
	if f, ok := ts.faces[k]; ok {
		return f
	}
	f := fontRegular
	if bold {
		f = fontBold
	}
	of, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic("picture: font face: " + err.Error()) // only for a size <= 0, which the layout never asks for
	}
	face := &face{Face: of, key: k, capHeight: of.Metrics().CapHeight.Ceil()}
	ts.faces[k] = face
	return face
}

// The letters are rasterized once per face, letter and sub-pixel position
// (with full hinting the position is almost always a whole pixel) and
// kept; advances and kerning are kept too. Each is what the face itself
// returns, so the text is drawn exactly as font.Drawer draws it.

type glyphKey struct {
	face   faceKey
	r      rune
	fx, fy int8 // the dot's sub-pixel offset, in 1/64 px
}

type glyph struct {
	dr      image.Rectangle // where the mask goes, from the dot's whole pixel
	mask    *image.Alpha    // nil for an empty glyph
	advance fixed.Int26_6
}

type advanceKey struct {
	face faceKey
	r    rune
}

type kernKey struct {
	face faceKey
	a, b rune
}

var (
	glyphCache   = &bounded[glyphKey, *glyph]{limit: 8192}
	advanceCache = &bounded[advanceKey, fixed.Int26_6]{limit: 8192}
	kernCache    = &bounded[kernKey, fixed.Int26_6]{limit: 32768}
)

func (f *face) glyph(dot fixed.Point26_6, r rune) *glyph {
	k := glyphKey{f.key, r, int8(dot.X & 63), int8(dot.Y & 63)}
	if g, ok := glyphCache.get(k); ok {
		return g
	}
	dr, mask, mp, adv, _ := f.Glyph(fixed.Point26_6{X: dot.X & 63, Y: dot.Y & 63}, r)
	g := &glyph{dr: dr, advance: adv}
	if !dr.Empty() {
		a := image.NewAlpha(image.Rect(0, 0, dr.Dx(), dr.Dy()))
		for y := 0; y < dr.Dy(); y++ {
			for x := 0; x < dr.Dx(); x++ {
				a.Pix[a.PixOffset(x, y)] = color.AlphaModel.Convert(mask.At(mp.X+x, mp.Y+y)).(color.Alpha).A
			}
		}
		g.mask = a
	}
	return glyphCache.put(k, g)
}

func (f *face) advance(r rune) fixed.Int26_6 {
	k := advanceKey{f.key, r}
	if a, ok := advanceCache.get(k); ok {
		return a
	}
	a, _ := f.GlyphAdvance(r)
	return advanceCache.put(k, a)
}

func (f *face) kern(a, b rune) fixed.Int26_6 {
	k := kernKey{f.key, a, b}
	if v, ok := kernCache.get(k); ok {
		return v
	}
	return kernCache.put(k, f.Kern(a, b))
}

// measure is s's advance, as font.MeasureString gives it.
func (f *face) measure(s string) fixed.Int26_6 { return f.run(s).adv }

// A textRun is a text laid out in one face: its letters' masks, each at its
// whole-pixel offset from the start, and its advance. Texts come back at
// every picture of a table (names, stakes, the labels), and a run is one
// lookup where its letters were two or three each.
type textRun struct {
	glyphs []placedGlyph
	adv    fixed.Int26_6
}

type placedGlyph struct {
	g *glyph
	x int
}

type runKey struct {
	face faceKey
	s    string
}

var runCache = &bounded[runKey, *textRun]{limit: 16384}

// run lays s out as font.Drawer does (kerning, then each glyph at the dot)
// from a dot at a whole pixel, where every text starts, and measures it as
// font.MeasureString does.
func (f *face) run(s string) *textRun {
	k := runKey{f.key, s}
	if r, ok := runCache.get(k); ok {
		return r
	}
	r := &textRun{}
	var dot fixed.Point26_6
	prev := rune(-1)
	for _, c := range s {
		if prev >= 0 {
			kern := f.kern(prev, c)
			dot.X += kern
			r.adv += kern
		}
		g := f.glyph(dot, c)
		if g.mask != nil {
			r.glyphs = append(r.glyphs, placedGlyph{g, dot.X.Floor()})
		}
		dot.X += g.advance
		r.adv += f.advance(c)
		prev = c
	}
	return runCache.put(k, r)
}

// has reports whether the Go fonts draw r (Regular and Bold cover the same
// characters).
func (ts *typeset) has(r rune) bool {
	i, err := fontBold.GlyphIndex(&ts.buf, r)
	return err == nil && i != 0
}

// cleanName makes a display name drawable: control and format characters
// go, runs of white space become one space, and symbols the fonts lack
// (emoji, dingbats) are dropped. If a letter or digit cannot be drawn, the
// fallback is used instead, so a name in Thai or Japanese shows as the
// member's username rather than a row of boxes; when the fallback cannot be
// drawn either, each missing letter shows as "?".
func (ts *typeset) cleanName(name, fallback string) string {
	s, missing := ts.clean(name)
	if missing == 0 && s != "" {
		return s
	}
	if f, fm := ts.clean(fallback); f != "" && (fm == 0 || s == "") {
		s, missing = f, fm
		name = fallback
	}
	if missing == 0 {
		return s
	}
	return ts.replaceMissing(name)
}

func (ts *typeset) clean(s string) (string, int) {
	var b strings.Builder
	missing := 0
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = b.Len() > 0
			continue
		case !unicode.IsGraphic(r):
			continue
		case !ts.has(r):
			if unicode.IsLetter(r) || unicode.IsNumber(r) {
				missing++
			}
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	return b.String(), missing
}

func (ts *typeset) replaceMissing(s string) string {
	var b strings.Builder
	for _, r := range strings.Join(strings.Fields(s), " ") {
		switch {
		case !unicode.IsGraphic(r):
		case ts.has(r):
			b.WriteRune(r)
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			b.WriteByte('?')
		}
	}
	return b.String()
}

// ellipsis ends a truncated text. The Go fonts have it.
const ellipsis = "…"

// fit shortens s with an ellipsis until it is at most max pixels wide,
// measured with the face. It cuts only between graphemes (see
// graphemeCuts), so an accent is never parted from its letter.
func fit(f *face, s string, max int) string {
	limit := fixed.I(max)
	if f.measure(s) <= limit {
		return s
	}
	cuts := graphemeCuts(s)
	for i := len(cuts) - 1; i >= 0; i-- {
		t := strings.TrimRightFunc(s[:cuts[i]], unicode.IsSpace)
		if t == "" {
			break
		}
		if f.measure(t+ellipsis) <= limit {
			return t + ellipsis
		}
	}
	if f.measure(ellipsis) <= limit {
		return ellipsis
	}
	return ""
}

// graphemeCuts lists the byte offsets inside s where a text may be cut:
// before each rune that starts a grapheme. A combining mark, a variation
// selector or a zero-width joiner belongs to the rune before it, and the
// rune after a joiner belongs to the joiner. It is the part of Unicode's
// grapheme rules that the names the picture draws need: it draws only the
// Go fonts' Latin, Greek and Cyrillic (cleanName drops emoji), where a
// grapheme is a letter and its marks.
func graphemeCuts(s string) []int {
	var cuts []int
	joined := false
	for i, r := range s {
		attached := unicode.Is(unicode.M, r) || r == zwj || unicode.Is(unicode.Variation_Selector, r)
		if i > 0 && !attached && !joined {
			cuts = append(cuts, i)
		}
		joined = r == zwj
	}
	return cuts
}

const zwj = '\u200d'

// wrap breaks s into lines at most max pixels wide at its spaces, at most
// lines of them; the last line ends with an ellipsis when the text goes on.
func wrap(f *face, s string, max, lines int) []string {
	words := strings.Fields(s)
	var out []string
	for len(words) > 0 {
		if len(out) == lines-1 {
			out = append(out, fit(f, strings.Join(words, " "), max))
			break
		}
		n := 1
		for n < len(words) && width(f, strings.Join(words[:n+1], " ")) <= max {
			n++
		}
		out = append(out, fit(f, strings.Join(words[:n], " "), max))
		words = words[n:]
	}
	return out
}

// shrink finds the largest size from size down to least (in 1 px steps) at
// which s fits in max pixels, and cuts s with an ellipsis only when even the
// least does not fit. Amounts use it: a number cut short would misinform.
func (ts *typeset) shrink(bold bool, s string, max int, size, least float64) (*face, string) {
	f := ts.face(bold, size)
	for size > least && width(f, s) > max {
		size--
		f = ts.face(bold, size)
	}
	return f, fit(f, s, max)
}

// width is s's advance in whole pixels.
func width(f *face, s string) int { return f.measure(s).Ceil() }

// text draws s with its left end at x and its middle at y (the x-height's
// middle, so texts of one size line up whatever their letters), as
// font.Drawer would, and returns the rectangle it drew in.
func text(dst *image.RGBA, f *face, s string, x, y int, col color.Color) image.Rectangle {
	base := y + f.capHeight/2
	src := image.NewUniform(col)
	var drawn image.Rectangle
	for _, pg := range f.run(s).glyphs {
		dr := pg.g.dr.Add(image.Pt(x+pg.x, base))
		draw.DrawMask(dst, dr, src, image.Point{}, pg.g.mask, image.Point{}, draw.Over)
		drawn = drawn.Union(dr)
	}
	return drawn
}

// textCentered draws s centred on (cx, y).
func textCentered(dst *image.RGBA, f *face, s string, cx, y int, col color.Color) image.Rectangle {
	return text(dst, f, s, cx-width(f, s)/2, y, col)
}
