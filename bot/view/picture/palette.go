package picture

import (
	"encoding/binary"
	"image"
	"image/color"
	"sync"
)

// The picture is an 8-bit paletted PNG: a 10-seat table is about a third of
// the size of the RGBA one and encodes several times faster, which is how it
// stays under 100 KB and 5 ms. The palette is fixed, not computed per
// picture: it holds every colour the drawing uses plus ramps between the
// pairs that meet at anti-aliased edges, and a 15-bit lookup table maps any
// colour to its nearest entry in one step. Sprites are drawn in full colour
// and mapped once; a picture is drawn on the palette itself, blending each
// partly transparent pixel with the palette's colour under it (palRGB).

// The colours the drawing uses.
var (
	colBackground = rgb(0x1b, 0x1e, 0x22)
	colRail       = rgb(0x4a, 0x2e, 0x1b)
	colRailLight  = rgb(0x7a, 0x4e, 0x2c)
	colFelt       = rgb(0x1d, 0x6a, 0x3a)
	colFeltDark   = rgb(0x16, 0x55, 0x2e)
	colFeltLight  = rgb(0x24, 0x78, 0x43)
	colFeltLine   = rgb(0x3c, 0x8f, 0x5a)
	colPlate      = rgb(0x0e, 0x33, 0x1d)
	colShadow     = rgb(0x10, 0x3f, 0x22)
	colCard       = rgb(0xfb, 0xfa, 0xf4)
	colCardEdge   = rgb(0x9c, 0x9a, 0x92)
	colRed        = rgb(0xc8, 0x12, 0x2e)
	colBlack      = rgb(0x1c, 0x1c, 0x1f)
	colBack       = rgb(0x1f, 0x3f, 0x8f)
	colBackLine   = rgb(0x4a, 0x6f, 0xc9)
	colGold       = rgb(0xf2, 0xc1, 0x4e)
	colText       = rgb(0xf4, 0xf4, 0xf0)
	colMuted      = rgb(0xb9, 0xd3, 0xc0)
	colWin        = rgb(0x2e, 0x9e, 0x4f)
	colLoss       = rgb(0xb3, 0x26, 0x1e)
	colPush       = rgb(0x5f, 0x67, 0x73)
	colNeutral    = rgb(0x2f, 0x4a, 0x5c)
	colChipRed    = rgb(0xc6, 0x28, 0x28)
	colChipBlue   = rgb(0x15, 0x65, 0xc0)
	colCourt      = rgb(0xf3, 0xe3, 0xb5)
)

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 0xff} }

var (
	paletteOnce sync.Once
	pal         color.Palette
	lut         *[1 << 15]uint8 // 5 bits per channel -> palette index
	palRGB      [256][3]uint8   // pal's colours, for blending onto a paletted picture
)

func buildPalette() {
	keys := []color.RGBA{colBackground, colRail, colRailLight, colFelt, colFeltDark, colFeltLight, colFeltLine,
		colPlate, colShadow, colCard, colCardEdge, colRed, colBlack, colBack, colBackLine, colGold, colText,
		colMuted, colWin, colLoss, colPush, colNeutral, colChipRed, colChipBlue, colCourt}
	// Pairs that meet at an edge, where anti-aliasing blends them.
	pairs := [][2]color.RGBA{
		{colFelt, colCard}, {colFelt, colText}, {colFelt, colGold}, {colFelt, colShadow}, {colFelt, colFeltLine},
		{colFelt, colPlate}, {colFelt, colRail}, {colFeltDark, colRail}, {colRail, colRailLight},
		{colRailLight, colBackground}, {colRail, colBackground}, {colPlate, colText}, {colPlate, colGold},
		{colPlate, colMuted}, {colCard, colRed}, {colCard, colBlack}, {colCard, colCardEdge}, {colCardEdge, colFelt},
		{colCardEdge, colShadow}, {colBack, colBackLine}, {colBack, colCard}, {colWin, colText}, {colLoss, colText},
		{colPush, colText}, {colNeutral, colText}, {colGold, colBlack}, {colChipRed, colCard}, {colChipBlue, colCard},
		{colCourt, colRed}, {colCourt, colBlack}, {colFelt, colMuted}, {colFeltDark, colFelt}, {colFeltLight, colFelt},
		{colFelt, colBlack}, {colFelt, colChipRed}, {colFelt, colChipBlue}, {colShadow, colFeltDark},
		{colCard, colBack}, {colCourt, colCard}, {colFelt, colWin}, {colFelt, colLoss}, {colFelt, colPush},
		{colFelt, colNeutral}, {colBackground, colText}, {colBackground, colMuted},
	}
	seen := map[color.RGBA]bool{}
	add := func(c color.RGBA) {
		if !seen[c] && len(pal) < 256 {
			seen[c] = true
			pal = append(pal, c)
		}
	}
	for _, k := range keys {
		add(k)
	}
	for _, t := range []int{128, 64, 192} {
		for _, p := range pairs {
			add(mix(p[0], p[1], t))
		}
	}
	for _, t := range []int{32, 96, 160, 224} {
		for _, p := range pairs[:24] {
			add(mix(p[0], p[1], t))
		}
	}
	for g := 0; len(pal) < 256 && g < 256; g += 17 {
		add(rgb(uint8(g), uint8(g), uint8(g)))
	}
	for i, pc := range pal {
		c := pc.(color.RGBA)
		palRGB[i] = [3]uint8{c.R, c.G, c.B}
	}
	lut = new([1 << 15]uint8)
	for i := range lut {
		r, g, b := (i>>10&31)<<3|4, (i>>5&31)<<3|4, (i&31)<<3|4
		best, bestD := 0, int(^uint(0)>>1)
		for j, pc := range pal {
			c := pc.(color.RGBA)
			dr, dg, db := r-int(c.R), g-int(c.G), b-int(c.B)
			// Weighted towards green, to which the eye is most sensitive.
			d := 3*dr*dr + 4*dg*dg + 2*db*db
			if d < bestD {
				best, bestD = j, d
			}
		}
		lut[i] = uint8(best)
	}
}

// mix blends a towards b by t/256.
func mix(a, b color.RGBA, t int) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8((int(x)*(256-t) + int(y)*t) >> 8) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 0xff}
}

// quantizeRect maps the opaque RGBA pixels of r onto the fixed palette,
// writing them into dst (same bounds as src). Neighbouring pixels are
// mostly the same colour, so the last lookup is reused.
func quantizeRect(dst *image.Paletted, src *image.RGBA, r image.Rectangle) {
	paletteOnce.Do(buildPalette)
	r = r.Intersect(src.Bounds())
	w := r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		quantizeRow(dst.Pix[dst.PixOffset(r.Min.X, y):][:w], src.Pix[src.PixOffset(r.Min.X, y):][:4*w])
	}
}

// quantizeRow maps the opaque RGBA pixels s onto the palette in d.
func quantizeRow(d, s []byte) {
	last, idx := uint32(0), uint8(0) // an opaque pixel is never 0
	for x := range d {
		if 4*x+3 >= len(s) {
			return
		}
		if v := binary.LittleEndian.Uint32(s[4*x:]); v != last {
			last, idx = v, lut[(v>>3&31)<<10|(v>>11&31)<<5|(v>>19&31)]
		}
		d[x] = idx
	}
}
