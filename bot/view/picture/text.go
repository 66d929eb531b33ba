package picture

import (
	"image"
	"image/color"
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
	faces map[faceKey]font.Face
	buf   sfnt.Buffer
}

type faceKey struct {
	bold bool
	size float64
}

func newTypeset() *typeset {
	fontOnce.Do(loadFonts)
	return &typeset{faces: map[faceKey]font.Face{}}
}

func (ts *typeset) face(bold bool, size float64) font.Face {
	k := faceKey{bold, size}
	if f, ok := ts.faces[k]; ok {
		return f
	}
	f := fontRegular
	if bold {
		f = fontBold
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic("picture: font face: " + err.Error()) // only for a size <= 0, which the layout never asks for
	}
	ts.faces[k] = face
	return face
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

// fit shortens s with an ellipsis until it is at most max pixels wide.
func fit(f font.Face, s string, max int) string {
	limit := fixed.I(max)
	if font.MeasureString(f, s) <= limit {
		return s
	}
	rs := []rune(s)
	for n := len(rs) - 1; n > 0; n-- {
		t := strings.TrimRightFunc(string(rs[:n]), unicode.IsSpace)
		if t == "" {
			break
		}
		if font.MeasureString(f, t+ellipsis) <= limit {
			return t + ellipsis
		}
	}
	if font.MeasureString(f, ellipsis) <= limit {
		return ellipsis
	}
	return ""
}

// shrink finds the largest size from size down to least (in 1 px steps) at
// which s fits in max pixels, and cuts s with an ellipsis only when even the
// least does not fit. Amounts use it: a number cut short would misinform.
func (ts *typeset) shrink(bold bool, s string, max int, size, least float64) (font.Face, string) {
	f := ts.face(bold, size)
	for size > least && width(f, s) > max {
		size--
		f = ts.face(bold, size)
	}
	return f, fit(f, s, max)
}

// width is s's advance in whole pixels.
func width(f font.Face, s string) int { return font.MeasureString(f, s).Ceil() }

// text draws s with its left end at x and its middle at y (the x-height's
// middle, so texts of one size line up whatever their letters).
func text(dst *image.RGBA, f font.Face, s string, x, y int, col color.Color) {
	m := f.Metrics()
	base := y + (m.CapHeight.Ceil())/2
	d := font.Drawer{Dst: dst, Src: image.NewUniform(col), Face: f, Dot: fixed.P(x, base)}
	d.DrawString(s)
}

// textCentered draws s centred on (cx, y).
func textCentered(dst *image.RGBA, f font.Face, s string, cx, y int, col color.Color) {
	text(dst, f, s, cx-width(f, s)/2, y, col)
}
