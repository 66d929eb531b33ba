package picture

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRenderSameBytes: a table drawn again, after other tables went through
// the pooled canvases and the caches, and while others are drawn at once,
// comes out byte for byte the same (run with -race).
func TestRenderSameBytes(t *testing.T) {
	first, err := Render(tenSeatsSettled())
	require.NoError(t, err)
	for _, other := range []func() Table{scripts, tenSeatsPlaying, privatePanel, twelveSeats} {
		_, err := Render(other())
		require.NoError(t, err)
		again, err := Render(tenSeatsSettled())
		require.NoError(t, err)
		require.True(t, bytes.Equal(first.PNG, again.PNG), "after another table the picture differs")
	}
	var wg sync.WaitGroup
	got := make([][]byte, 8)
	for i := range got {
		wg.Go(func() {
			tb := tenSeatsSettled()
			if i%2 == 1 {
				tb = scenes[i%len(scenes)].table()
			}
			p, err := Render(tb)
			if err == nil && i%2 == 0 {
				got[i] = p.PNG
			}
		})
	}
	wg.Wait()
	for i := 0; i < len(got); i += 2 {
		assert.True(t, bytes.Equal(first.PNG, got[i]), "drawn at once with others, picture %d differs", i)
	}
}

// TestCanvasReleased: a released canvas is the bare table again, so the
// next picture drawn on it starts clean.
func TestCanvasReleased(t *testing.T) {
	for _, sc := range scenes {
		c := render(sc.table())
		ci := c.canvasImage
		c.release()
		bg := ci.bd.img
		for y := 0; y < bg.Rect.Dy(); y++ {
			require.Equal(t, bg.Pix[bg.PixOffset(0, y):][:canvasW], ci.out.Pix[ci.out.PixOffset(0, y):][:canvasW], "%s row %d", sc.name, y)
		}
	}
}

// paletted is a picture of pseudo-random palette colours, and the same in
// full colour.
func paletted(r image.Rectangle) (*image.Paletted, *image.RGBA) {
	paletteOnce.Do(buildPalette)
	q := image.NewPaletted(r, pal)
	for i := range q.Pix {
		q.Pix[i] = uint8(i * 37 % len(pal))
	}
	img := image.NewRGBA(r)
	draw.Draw(img, r, q, r.Min, draw.Src)
	return q, img
}

// nearlyMapped reports whether palette index got is what the palette maps
// the colour c to, to within a rounding step in each channel.
func nearlyMapped(got uint8, c color.RGBA) bool {
	for dr := -1; dr <= 1; dr++ {
		for dg := -1; dg <= 1; dg++ {
			for db := -1; db <= 1; db++ {
				r, g, b := int(c.R)+dr, int(c.G)+dg, int(c.B)+db
				if r < 0 || g < 0 || b < 0 || r > 255 || g > 255 || b > 255 {
					continue
				}
				if lut[(r>>3)<<10|(g>>3)<<5|b>>3] == got {
					return true
				}
			}
		}
	}
	return false
}

// TestBlit: a sprite blitted onto a paletted picture gives draw.Draw's
// Porter-Duff over of the full-colour picture, mapped onto the palette (to
// within a rounding step: blit works in 8 bits a channel), leaves every
// pixel it does not cover alone and marks every pixel it draws, wherever
// the sprite lands (partly off the picture too).
func TestBlit(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 23, 17))
	for y := 0; y < 17; y++ {
		for x := 0; x < 23; x++ {
			a := uint8([]int{0, 0xff, 0x50, 0xff, 0x01, 0xff, 0xfe}[(x+y)%7])
			// Premultiplied: no channel above alpha.
			src.SetRGBA(x, y, color.RGBA{uint8(int(a) * x / 23), uint8(int(a) * y / 17), a / 2, a})
		}
	}
	s := newSprite(src)
	for _, at := range []image.Point{{5, 4}, {-6, -3}, {50, 30}, {60, 45}} {
		q, want := paletted(image.Rect(0, 0, 64, 48))
		before := bytes.Clone(q.Pix)
		draw.Draw(want, src.Bounds().Add(at), src, image.Point{}, draw.Over)
		tl := newTiles(q.Rect)
		blit(q, tl, s, at)
		for y := 0; y < 48; y++ {
			for x := 0; x < 64; x++ {
				i := q.PixOffset(x, y)
				p := image.Pt(x, y).Sub(at)
				if !p.In(src.Bounds()) || src.RGBAAt(p.X, p.Y).A == 0 {
					require.Equal(t, before[i], q.Pix[i], "at %v, pixel %d,%d is not the sprite's but changed", at, x, y)
					continue
				}
				require.True(t, nearlyMapped(q.Pix[i], want.RGBAAt(x, y)), "at %v, pixel %d,%d: %v, draw.Draw gives %v", at, x, y, pal[q.Pix[i]], want.RGBAAt(x, y))
				require.True(t, tl.on(x, y), "pixel %d,%d drawn but not marked", x, y)
			}
		}
	}
}

// TestOver: a colour drawn through a mask onto a paletted picture is
// draw.DrawMask's over of the full-colour picture, mapped onto the palette,
// clipped to the picture, and marked.
func TestOver(t *testing.T) {
	mask := image.NewAlpha(image.Rect(0, 0, 19, 13))
	for i := range mask.Pix {
		mask.Pix[i] = uint8([]int{0, 0xff, 0x80, 0x01, 0x33, 0xfe}[i%6])
	}
	for _, col := range []color.RGBA{colText, colGold, {0, 0, 0, 0x50}} {
		for _, at := range []image.Point{{3, 2}, {-5, -4}, {55, 40}} {
			q, want := paletted(image.Rect(0, 0, 64, 48))
			before := bytes.Clone(q.Pix)
			r := mask.Bounds().Add(at)
			draw.DrawMask(want, r, image.NewUniform(col), image.Point{}, mask, image.Point{}, draw.Over)
			tl := newTiles(q.Rect)
			over(q, tl, r, col, mask, image.Point{})
			for y := 0; y < 48; y++ {
				for x := 0; x < 64; x++ {
					i := q.PixOffset(x, y)
					p := image.Pt(x, y).Sub(at)
					if !p.In(mask.Bounds()) || mask.AlphaAt(p.X, p.Y).A == 0 {
						require.Equal(t, before[i], q.Pix[i], "pixel %d,%d is not under the mask but changed", x, y)
						continue
					}
					c := want.RGBAAt(x, y)
					require.Equal(t, lut[int(c.R>>3)<<10|int(c.G>>3)<<5|int(c.B>>3)], q.Pix[i], "%v at %v, pixel %d,%d", col, at, x, y)
					require.True(t, tl.on(x, y), "pixel %d,%d drawn but not marked", x, y)
				}
			}
		}
	}
}

// TestBoundedCache: a cache holds at most its limit, however many goroutines
// store at once, and keeps what it holds.
func TestBoundedCache(t *testing.T) {
	c := &bounded[int, int]{limit: 100}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 1000 {
				k := g*1000 + i
				assert.Equal(t, k*2, c.put(k, k*2))
				if v, ok := c.get(k); ok {
					assert.Equal(t, k*2, v)
				}
				assert.LessOrEqual(t, c.len(), 100)
			}
		})
	}
	wg.Wait()
	assert.LessOrEqual(t, c.len(), 100)
	c.put(-1, 5)
	assert.Equal(t, 5, c.put(-1, 6), "a key stored first keeps its value")
}
