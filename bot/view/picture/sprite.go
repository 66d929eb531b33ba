package picture

import (
	"image"
	"sync"
	"sync/atomic"
)

// Everything a table shows more than once (cards, chips, the plates and
// badges, the letters) is drawn once into a sprite and kept; a picture
// copies sprites onto the felt. The caches are bounded: a table configured
// above ten seats draws at sizes of its own, and names bring letters
// without end, so each cache forgets everything it holds when it grows
// past its limit and fills again from what pictures ask for next.

// bounded is a cache safe for concurrent use that holds at most about limit
// entries (a few more while goroutines store at once).
type bounded[K comparable, V any] struct {
	m     sync.Map
	n     atomic.Int64
	limit int64
}

func (c *bounded[K, V]) get(k K) (V, bool) {
	v, ok := c.m.Load(k)
	if !ok {
		var zero V
		return zero, false
	}
	return v.(V), true
}

// put stores v unless another goroutine stored k first, and returns what k
// holds.
func (c *bounded[K, V]) put(k K, v V) V {
	if c.n.Add(1) > c.limit {
		c.m.Clear()
		c.n.Store(1)
	}
	actual, loaded := c.m.LoadOrStore(k, v)
	if loaded {
		c.n.Add(-1)
	}
	return actual.(V)
}

// len counts the entries (for tests).
func (c *bounded[K, V]) len() int {
	n := 0
	c.m.Range(func(any, any) bool { n++; return true })
	return n
}

// A sprite is a premultiplied RGBA picture with, for each row, the runs of
// pixels that are not fully transparent, split into opaque runs (copied as
// they are) and partly transparent ones (blended): cards and pills are
// almost all opaque, frames almost all empty.
type sprite struct {
	img  *image.RGBA
	rows [][]run
}

type run struct {
	x0, x1 int32
	opaque bool
}

func newSprite(img *image.RGBA) *sprite {
	b := img.Bounds()
	s := &sprite{img: img, rows: make([][]run, b.Dy())}
	for y := 0; y < b.Dy(); y++ {
		px := img.Pix[img.PixOffset(b.Min.X, b.Min.Y+y):][:4*b.Dx()]
		var rs []run
		for x := 0; x < b.Dx(); {
			a := px[4*x+3]
			if a == 0 {
				x++
				continue
			}
			x0 := x
			for x < b.Dx() && px[4*x+3] != 0 && (px[4*x+3] == 0xff) == (a == 0xff) {
				x++
			}
			rs = append(rs, run{int32(x0), int32(x), a == 0xff})
		}
		s.rows[y] = rs
	}
	return s
}

// blit composites s onto dst with its top-left corner at at (Porter-Duff
// over, as draw.Draw does for RGBA onto RGBA), and returns the rectangle
// it may have changed.
func blit(dst *image.RGBA, s *sprite, at image.Point) image.Rectangle {
	sb := s.img.Bounds()
	r := sb.Sub(sb.Min).Add(at).Intersect(dst.Bounds())
	if r.Empty() {
		return r
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		sy := y - at.Y
		src := s.img.Pix[s.img.PixOffset(sb.Min.X, sb.Min.Y+sy):][:4*sb.Dx()]
		row := dst.Pix[dst.PixOffset(0, y):][:4*dst.Rect.Dx()]
		for _, rn := range s.rows[sy] {
			x0, x1 := max(int(rn.x0)+at.X, r.Min.X), min(int(rn.x1)+at.X, r.Max.X)
			if x0 >= x1 {
				continue
			}
			d := row[4*(x0-dst.Rect.Min.X) : 4*(x1-dst.Rect.Min.X)]
			sp := src[4*(x0-at.X) : 4*(x1-at.X)]
			if rn.opaque {
				copy(d, sp)
				continue
			}
			for i := 0; i+3 < len(sp) && i+3 < len(d); i += 4 {
				a := uint32(sp[i+3])
				k := 0xff - a
				d[i] = uint8(uint32(sp[i]) + (uint32(d[i])*k+0x7f)/0xff)
				d[i+1] = uint8(uint32(sp[i+1]) + (uint32(d[i+1])*k+0x7f)/0xff)
				d[i+2] = uint8(uint32(sp[i+2]) + (uint32(d[i+2])*k+0x7f)/0xff)
				d[i+3] = uint8(a + (uint32(d[i+3])*k+0x7f)/0xff)
			}
		}
	}
	return r
}

// tiles marks which 16 x 16 squares of a picture were drawn on: only they
// are quantized and then put back to the bare table for the next picture.
const tileSize = 16

type tiles struct {
	w, h int // in tiles
	on   []bool
}

func newTiles(b image.Rectangle) *tiles {
	w, h := (b.Dx()+tileSize-1)/tileSize, (b.Dy()+tileSize-1)/tileSize
	return &tiles{w: w, h: h, on: make([]bool, w*h)}
}

// mark records that r (in picture coordinates, the picture at the origin)
// was drawn on.
func (t *tiles) mark(r image.Rectangle) {
	r = r.Intersect(image.Rect(0, 0, t.w*tileSize, t.h*tileSize))
	if r.Empty() {
		return
	}
	for ty := r.Min.Y / tileSize; ty <= (r.Max.Y-1)/tileSize; ty++ {
		row := t.on[ty*t.w:][:t.w]
		for tx := r.Min.X / tileSize; tx <= (r.Max.X-1)/tileSize; tx++ {
			row[tx] = true
		}
	}
}

// spans calls f for each run of marked tiles, row of tiles by row, as the
// pixel rectangle it covers (clipped to b), and clears the marks.
func (t *tiles) spans(b image.Rectangle, f func(image.Rectangle)) {
	for ty := 0; ty < t.h; ty++ {
		row := t.on[ty*t.w:][:t.w]
		for tx := 0; tx < t.w; {
			if !row[tx] {
				tx++
				continue
			}
			x0 := tx
			for tx < t.w && row[tx] {
				row[tx] = false
				tx++
			}
			f(image.Rect(x0*tileSize, ty*tileSize, tx*tileSize, (ty+1)*tileSize).Intersect(b))
		}
	}
}
