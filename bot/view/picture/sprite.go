package picture

import (
	"image"
	"image/color"
	"math/bits"
	"sync"
)

// Everything a table shows more than once (cards, chips, the plates and
// badges, the letters) is drawn once into a sprite and kept; a picture
// copies sprites onto the felt. The caches are bounded: a table configured
// above ten seats draws at sizes of its own, and names bring letters
// without end, so each cache forgets everything it holds when it grows
// past its limit and fills again from what pictures ask for next.

// bounded is a cache safe for concurrent use that holds at most limit
// entries. It is a plain map under a read-write lock rather than a
// sync.Map, whose hashing of keys as interfaces cost more than the lookups
// it saved.
type bounded[K comparable, V any] struct {
	mu    sync.RWMutex
	m     map[K]V
	limit int
}

func (c *bounded[K, V]) get(k K) (V, bool) {
	c.mu.RLock()
	v, ok := c.m[k]
	c.mu.RUnlock()
	return v, ok
}

// put stores v unless another goroutine stored k first, and returns what k
// holds.
func (c *bounded[K, V]) put(k K, v V) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if old, ok := c.m[k]; ok {
		return old
	}
	if c.m == nil || len(c.m) >= c.limit {
		c.m = make(map[K]V)
	}
	c.m[k] = v
	return v
}

// len counts the entries (for tests).
func (c *bounded[K, V]) len() int {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return len(c.m)
}

// A sprite is a premultiplied RGBA picture with, for each row, the runs of
// pixels that are not fully transparent, split into opaque runs (copied as
// they are) and partly transparent ones (blended): cards and pills are
// almost all opaque, frames almost all empty.
type sprite struct {
	img  *image.RGBA
	idx  []uint8 // the opaque pixels mapped onto the palette, img's stride / 4
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
	// The opaque pixels' palette indices, so that blit copies them too.
	paletteOnce.Do(buildPalette)
	s.idx = make([]uint8, b.Dx()*b.Dy())
	q := &image.Paletted{Pix: s.idx, Stride: b.Dx(), Rect: b, Palette: pal}
	quantizeRect(q, img, b)
	return s
}

// blit composites s onto q, which is at the origin, with its top-left corner
// at at (Porter-Duff over, as draw.Draw does for RGBA onto RGBA, with what is
// under a partly transparent pixel read back from the palette), and marks in
// t the pixels it changed. Opaque runs copy the sprite's own palette indices.
func blit(q *image.Paletted, t *tiles, s *sprite, at image.Point) {
	sb := s.img.Bounds()
	r := sb.Add(at).Intersect(q.Rect)
	if r.Empty() {
		return
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		sy := y - at.Y
		src := s.img.Pix[sy*s.img.Stride:][:4*sb.Dx()]
		si := s.idx[sy*sb.Dx():][:sb.Dx()]
		qrow := q.Pix[q.PixOffset(0, y):][:q.Rect.Dx()]
		for _, rn := range s.rows[sy] {
			x0, x1 := max(int(rn.x0)+at.X, r.Min.X), min(int(rn.x1)+at.X, r.Max.X)
			if x0 >= x1 {
				continue
			}
			t.markRow(y, x0, x1)
			if rn.opaque {
				copy(qrow[x0:x1], si[x0-at.X:x1-at.X])
				continue
			}
			// Blended and mapped onto the palette in one pass.
			sp := src[4*(x0-at.X) : 4*(x1-at.X)]
			qd := qrow[x0:x1]
			for j := range qd {
				i := 4 * j
				if i+3 >= len(sp) {
					break
				}
				d := &palRGB[qd[j]]
				k := 0xff - uint32(sp[i+3])
				r := uint8(uint32(sp[i]) + (uint32(d[0])*k+0x7f)/0xff)
				g := uint8(uint32(sp[i+1]) + (uint32(d[1])*k+0x7f)/0xff)
				b := uint8(uint32(sp[i+2]) + (uint32(d[2])*k+0x7f)/0xff)
				qd[j] = lut[uint(r>>3)<<10|uint(g>>3)<<5|uint(b>>3)]
			}
		}
	}
}

// over composites col through mask (its pixel mp at r.Min) onto q within r,
// as draw.DrawMask does with a uniform source and draw.Over, with what is
// under each pixel read back from the palette, and marks r in t.
func over(q *image.Paletted, t *tiles, r image.Rectangle, col color.RGBA, mask *image.Alpha, mp image.Point) {
	r0 := r
	r = r.Intersect(q.Rect)
	if r.Empty() {
		return
	}
	mp = mp.Add(r.Min.Sub(r0.Min))
	sr, sg, sb, sa := col.RGBA()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		qrow := q.Pix[q.PixOffset(r.Min.X, y):][:r.Dx()]
		mrow := mask.Pix[mask.PixOffset(mp.X, mp.Y+y-r.Min.Y):][:r.Dx()]
		for x, m := range mrow {
			if m == 0 {
				continue
			}
			ma := uint32(m) * 0x101
			a := (0xffff - sa*ma/0xffff) * 0x101
			d := &palRGB[qrow[x]]
			rr := uint8((uint32(d[0])*a + sr*ma) / 0xffff >> 8)
			gg := uint8((uint32(d[1])*a + sg*ma) / 0xffff >> 8)
			bb := uint8((uint32(d[2])*a + sb*ma) / 0xffff >> 8)
			qrow[x] = lut[uint(rr>>3)<<10|uint(gg>>3)<<5|uint(bb>>3)]
		}
	}
	t.mark(r)
}

// tiles marks which 16-pixel pieces of each row of a picture were drawn on:
// only they are put back to the bare table for the next picture. A row's
// marks are one word, so a picture is at most 1,024 pixels wide.
const tileSize = 16

type tiles struct {
	w    int      // pieces in a row
	rows []uint64 // bit i of rows[y]: piece i of row y
}

func newTiles(b image.Rectangle) *tiles {
	w := (b.Dx() + tileSize - 1) / tileSize
	if w > 64 {
		panic("picture: tiles: a picture wider than 1,024 pixels")
	}
	return &tiles{w: w, rows: make([]uint64, b.Dy())}
}

// on reports whether pixel (x, y) is marked.
func (t *tiles) on(x, y int) bool { return t.rows[y]>>(x/tileSize)&1 != 0 }

// mark records that r (in picture coordinates, the picture at the origin)
// was drawn on.
func (t *tiles) mark(r image.Rectangle) {
	r = r.Intersect(image.Rect(0, 0, t.w*tileSize, len(t.rows)))
	if r.Empty() {
		return
	}
	m := pieces(r.Min.X, r.Max.X)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		t.rows[y] |= m
	}
}

// markRow marks the pixels x0 to x1 of row y (inside the picture).
func (t *tiles) markRow(y, x0, x1 int) { t.rows[y] |= pieces(x0, x1) }

// pieces is the mask of the pieces that pixels x0 to x1 (x0 < x1) cross.
func pieces(x0, x1 int) uint64 {
	a, b := uint(x0/tileSize), uint((x1-1)/tileSize)
	return (^uint64(0) >> (63 - b)) &^ (1<<a - 1)
}

// spans calls f for each run of marked pieces, row by row, as the pixel
// rectangle (one row high) it covers, clipped to b, and clears the marks.
func (t *tiles) spans(b image.Rectangle, f func(image.Rectangle)) {
	for y, m := range t.rows {
		for m != 0 {
			a := bits.TrailingZeros64(m)
			e := a + bits.TrailingZeros64(^(m >> uint(a)))
			f(image.Rect(a*tileSize, y, e*tileSize, y+1).Intersect(b))
			if e >= 64 {
				break
			}
			m &^= (1<<uint(e) - 1)
		}
		t.rows[y] = 0
	}
}
