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

// TestCanvasReleased: a released canvas is the bare table again, in colour
// and on the palette, so the next picture drawn on it starts clean.
func TestCanvasReleased(t *testing.T) {
	for _, sc := range scenes {
		c := render(sc.table())
		ci := c.canvasImage
		c.release()
		require.Equal(t, background.Pix, ci.img.Pix, sc.name)
		for y := 0; y < canvasH; y++ {
			require.Equal(t, backgroundP.Pix[backgroundP.PixOffset(0, y):][:canvasW], ci.out.Pix[ci.out.PixOffset(0, y):][:canvasW], "%s row %d", sc.name, y)
		}
		for y := 0; y < canvasH; y++ {
			require.Zero(t, ci.raw[y*(canvasW+1)], "%s: row %d's filter byte", sc.name, y)
		}
	}
}

// TestBlit: a sprite blitted over a picture gives draw.Draw's Porter-Duff
// over (to within a rounding step: blit works in 8 bits a channel, as the
// compositing it replaced did), the paletted twin holds the result mapped
// onto the palette, and every pixel drawn is marked, wherever the sprite
// lands (partly off the picture too).
func TestBlit(t *testing.T) {
	paletteOnce.Do(buildPalette)
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
		bg := image.NewRGBA(image.Rect(0, 0, 64, 48))
		for i := range bg.Pix {
			bg.Pix[i] = uint8(i * 7)
		}
		for i := 3; i < len(bg.Pix); i += 4 {
			bg.Pix[i] = 0xff
		}
		want := image.NewRGBA(bg.Rect)
		copy(want.Pix, bg.Pix)
		draw.Draw(want, src.Bounds().Add(at), src, image.Point{}, draw.Over)

		q := image.NewPaletted(bg.Rect, pal)
		tl := newTiles(bg.Rect)
		blit(bg, q, tl, s, at)
		for i := range want.Pix {
			d := int(want.Pix[i]) - int(bg.Pix[i])
			require.True(t, d >= -1 && d <= 1, "at %v, byte %d: %d, draw.Draw gives %d", at, i, bg.Pix[i], want.Pix[i])
		}
		wq := image.NewPaletted(bg.Rect, pal)
		quantizeRect(wq, bg, bg.Rect)
		r := src.Bounds().Add(at).Intersect(bg.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				if src.RGBAAt(x-at.X, y-at.Y).A != 0 {
					require.Equal(t, wq.ColorIndexAt(x, y), q.ColorIndexAt(x, y), "at %v, pixel %d,%d", at, x, y)
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
