package picture

import (
	"image"
	"image/color"
	"image/draw"
	"math"

	"golang.org/x/image/vector"
)

// painter draws anti-aliased vector shapes onto an RGBA image. Each shape is
// rasterized in a mask the size of its bounding box only, so a small shape
// costs little on a large picture. A painter is not safe for concurrent use.
type painter struct {
	dst *image.RGBA
	z   vector.Rasterizer
	ox  float32 // the mask's origin on dst
	oy  float32
}

// begin starts a shape whose points lie inside the box (x0, y0)-(x1, y1).
func (p *painter) begin(x0, y0, x1, y1 float32) image.Rectangle {
	r := image.Rect(int(math.Floor(float64(x0)))-1, int(math.Floor(float64(y0)))-1,
		int(math.Ceil(float64(x1)))+1, int(math.Ceil(float64(y1)))+1).Intersect(p.dst.Bounds())
	// The rasterizer clips what falls outside its mask, so a shape that
	// leaves the picture is cut at its edge.
	p.ox, p.oy = float32(r.Min.X), float32(r.Min.Y)
	p.z.Reset(r.Dx(), r.Dy())
	return r
}

// end fills the shape begun over r with col.
func (p *painter) end(r image.Rectangle, col color.Color) {
	if r.Empty() {
		return
	}
	p.z.Draw(p.dst, r, image.NewUniform(col), image.Point{})
}

func (p *painter) moveTo(x, y float32) { p.z.MoveTo(x-p.ox, y-p.oy) }
func (p *painter) lineTo(x, y float32) { p.z.LineTo(x-p.ox, y-p.oy) }
func (p *painter) quadTo(x1, y1, x, y float32) {
	p.z.QuadTo(x1-p.ox, y1-p.oy, x-p.ox, y-p.oy)
}
func (p *painter) cubeTo(x1, y1, x2, y2, x, y float32) {
	p.z.CubeTo(x1-p.ox, y1-p.oy, x2-p.ox, y2-p.oy, x-p.ox, y-p.oy)
}
func (p *painter) close() { p.z.ClosePath() }

// kappa places the control points of a cubic Bézier quarter circle.
const kappa = 0.5522848

// roundRectPath adds a rounded rectangle to the current shape.
func (p *painter) roundRectPath(x, y, w, h, r float32) {
	r = min(r, w/2, h/2)
	k := r * (1 - kappa)
	p.moveTo(x+r, y)
	p.lineTo(x+w-r, y)
	p.cubeTo(x+w-k, y, x+w, y+k, x+w, y+r)
	p.lineTo(x+w, y+h-r)
	p.cubeTo(x+w, y+h-k, x+w-k, y+h, x+w-r, y+h)
	p.lineTo(x+r, y+h)
	p.cubeTo(x+k, y+h, x, y+h-k, x, y+h-r)
	p.lineTo(x, y+r)
	p.cubeTo(x, y+k, x+k, y, x+r, y)
	p.close()
}

// ellipsePath adds an ellipse to the current shape.
func (p *painter) ellipsePath(cx, cy, rx, ry float32) {
	kx, ky := rx*kappa, ry*kappa
	p.moveTo(cx+rx, cy)
	p.cubeTo(cx+rx, cy+ky, cx+kx, cy+ry, cx, cy+ry)
	p.cubeTo(cx-kx, cy+ry, cx-rx, cy+ky, cx-rx, cy)
	p.cubeTo(cx-rx, cy-ky, cx-kx, cy-ry, cx, cy-ry)
	p.cubeTo(cx+kx, cy-ry, cx+rx, cy-ky, cx+rx, cy)
	p.close()
}

// roundRect fills a rounded rectangle.
func (p *painter) roundRect(x, y, w, h, r float32, col color.Color) {
	b := p.begin(x, y, x+w, y+h)
	p.roundRectPath(x, y, w, h, r)
	p.end(b, col)
}

// ring fills the band between a rounded rectangle and one inset by t. The
// inner path runs the other way round, so the rasterizer's signed area
// cancels inside it.
func (p *painter) ring(x, y, w, h, r, t float32, col color.Color) {
	b := p.begin(x, y, x+w, y+h)
	p.roundRectPath(x, y, w, h, r)
	ix, iy, iw, ih, ir := x+t, y+t, w-2*t, h-2*t, max(r-t, 0)
	k := ir * (1 - kappa)
	p.moveTo(ix+ir, iy)
	p.cubeTo(ix+k, iy, ix, iy+k, ix, iy+ir)
	p.lineTo(ix, iy+ih-ir)
	p.cubeTo(ix, iy+ih-k, ix+k, iy+ih, ix+ir, iy+ih)
	p.lineTo(ix+iw-ir, iy+ih)
	p.cubeTo(ix+iw-k, iy+ih, ix+iw, iy+ih-k, ix+iw, iy+ih-ir)
	p.lineTo(ix+iw, iy+ir)
	p.cubeTo(ix+iw, iy+k, ix+iw-k, iy, ix+iw-ir, iy)
	p.close()
	p.end(b, col)
}

// circle fills a circle.
func (p *painter) circle(cx, cy, r float32, col color.Color) {
	b := p.begin(cx-r, cy-r, cx+r, cy+r)
	p.ellipsePath(cx, cy, r, r)
	p.end(b, col)
}

// rect fills an axis-aligned rectangle without anti-aliasing.
func (p *painter) rect(r image.Rectangle, col color.Color) {
	draw.Draw(p.dst, r, image.NewUniform(col), image.Point{}, draw.Over)
}

// frame strokes a rounded rectangle's outline t pixels wide, like ring, but
// as eight small shapes (four straight sides and four corners) so that a
// thin frame round a large box does not rasterize the whole box. The box is
// snapped to whole pixels so the pieces meet without seams.
func (p *painter) frame(x, y, w, h, r, t float32, col color.Color) {
	x, y, w, h = round(x), round(y), round(w), round(h)
	r, t = max(round(r), t), max(round(t), 1)
	// Straight sides: exact pixel rectangles.
	ix, iy, iw, ih := int(x), int(y), int(w), int(h)
	ir, it := int(r), int(t)
	p.rect(image.Rect(ix+ir, iy, ix+iw-ir, iy+it), col)
	p.rect(image.Rect(ix+ir, iy+ih-it, ix+iw-ir, iy+ih), col)
	p.rect(image.Rect(ix, iy+ir, ix+it, iy+ih-ir), col)
	p.rect(image.Rect(ix+iw-it, iy+ir, ix+iw, iy+ih-ir), col)
	// Corners: a quarter of a ring each, drawn in its own r x r box.
	k, ri := r*(1-kappa), r-t
	ki := ri * (1 - kappa)
	corner := func(cx, cy, sx, sy float32) {
		// (cx, cy) is the corner's centre of curvature; sx and sy point
		// outwards.
		x0, x1 := min(cx, cx+sx*r), max(cx, cx+sx*r)
		y0, y1 := min(cy, cy+sy*r), max(cy, cy+sy*r)
		b := p.begin(x0, y0, x1, y1)
		p.moveTo(cx+sx*r, cy)
		p.cubeTo(cx+sx*r, cy+sy*(r-k), cx+sx*(r-k), cy+sy*r, cx, cy+sy*r)
		p.lineTo(cx, cy+sy*ri)
		p.cubeTo(cx+sx*(ri-ki), cy+sy*ri, cx+sx*ri, cy+sy*(ri-ki), cx+sx*ri, cy)
		p.close()
		p.end(b, col)
	}
	corner(x+r, y+r, -1, -1)
	corner(x+w-r, y+r, 1, -1)
	corner(x+r, y+h-r, -1, 1)
	corner(x+w-r, y+h-r, 1, 1)
}

func round(v float32) float32 { return float32(math.Round(float64(v))) }

// pill fills a rectangle with round ends (its corner radius half its
// height): a flat middle and two discs, so that only the ends are
// rasterized. The box is snapped to whole pixels.
func (p *painter) pill(x, y, w, h float32, col color.Color) {
	x, y, w, h = round(x), round(y), round(w), round(h)
	r := h / 2
	if w <= h {
		p.roundRect(x, y, w, h, r, col)
		return
	}
	p.rect(image.Rect(int(x+r), int(y), int(x+w-r), int(y+h)), col)
	p.circle(x+r, y+r, r, col)
	p.circle(x+w-r, y+r, r, col)
}
