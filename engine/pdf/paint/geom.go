package paint

import "math"

// Matrix is a PDF transformation matrix [a b c d e f].
type Matrix [6]float64

// Identity is the identity matrix.
var Identity = Matrix{1, 0, 0, 1, 0, 0}

// Mul returns m×n: m applied first, then n.
func (m Matrix) Mul(n Matrix) Matrix {
	return Matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// Apply maps a point.
func (m Matrix) Apply(x, y float64) (float64, float64) {
	return x*m[0] + y*m[2] + m[4], x*m[1] + y*m[3] + m[5]
}

// axisAligned reports a matrix without rotation or skew, under which a
// rectangle stays a rectangle.
func (m Matrix) axisAligned() bool {
	const eps = 1e-6
	return (math.Abs(m[1]) < eps && math.Abs(m[2]) < eps) || (math.Abs(m[0]) < eps && math.Abs(m[3]) < eps)
}

// Rect is an axis-aligned rectangle in page space, X0 <= X1 and Y0 <= Y1.
type Rect struct{ X0, Y0, X1, Y1 float64 }

// everything is the clip of a fresh graphics state: far beyond any page
// (PDF limits pages to 14 400 units) yet small enough for finite areas.
var everything = Rect{-1e9, -1e9, 1e9, 1e9}

// RectOf normalises a box given as [x0 y0 x1 y1].
func RectOf(b [4]float64) Rect {
	return Rect{min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])}
}

// Width and Height of the rectangle.
func (r Rect) Width() float64  { return r.X1 - r.X0 }
func (r Rect) Height() float64 { return r.Y1 - r.Y0 }

// Area is zero for an empty rectangle.
func (r Rect) Area() float64 {
	if r.X1 <= r.X0 || r.Y1 <= r.Y0 {
		return 0
	}
	return (r.X1 - r.X0) * (r.Y1 - r.Y0)
}

// Intersect returns the common part (empty when they do not meet).
func (r Rect) Intersect(s Rect) Rect {
	return Rect{max(r.X0, s.X0), max(r.Y0, s.Y0), min(r.X1, s.X1), min(r.Y1, s.Y1)}
}

// Overlaps reports a common part of positive area.
func (r Rect) Overlaps(s Rect) bool { return r.Intersect(s).Area() > 0 }

// Contains reports s lying inside r, with tolerance tol.
func (r Rect) Contains(s Rect, tol float64) bool {
	return s.X0 >= r.X0-tol && s.Y0 >= r.Y0-tol && s.X1 <= r.X1+tol && s.Y1 <= r.Y1+tol
}

// minus appends the parts of r outside s to out: up to four bands.
func (r Rect) minus(s Rect, out []Rect) []Rect {
	i := r.Intersect(s)
	if i.Area() <= 0 {
		return append(out, r)
	}
	for _, p := range [4]Rect{
		{r.X0, r.Y0, r.X1, i.Y0}, // below
		{r.X0, i.Y1, r.X1, r.Y1}, // above
		{r.X0, i.Y0, i.X0, i.Y1}, // left
		{i.X1, i.Y0, r.X1, i.Y1}, // right
	} {
		if p.Area() > 0 {
			out = append(out, p)
		}
	}
	return out
}

// Union grows r to cover s; the zero Rect counts as empty.
func (r Rect) Union(s Rect) Rect {
	if r == (Rect{}) {
		return s
	}
	return Rect{min(r.X0, s.X0), min(r.Y0, s.Y0), max(r.X1, s.X1), max(r.Y1, s.Y1)}
}

// transform returns the bounding box of r mapped by m.
func (r Rect) transform(m Matrix) Rect {
	x0, y0 := m.Apply(r.X0, r.Y0)
	x1, y1 := m.Apply(r.X1, r.Y0)
	x2, y2 := m.Apply(r.X0, r.Y1)
	x3, y3 := m.Apply(r.X1, r.Y1)
	return Rect{min(x0, x1, x2, x3), min(y0, y1, y2, y3), max(x0, x1, x2, x3), max(y0, y1, y2, y3)}
}

// rowMap maps boxes that share their vertical extent [y0, y1], as the
// glyphs of one show operator do, computing exactly what Rect.transform
// computes with the products of y taken once instead of per glyph.
type rowMap struct {
	m                  Matrix
	cy0, cy1, dy0, dy1 float64
}

func newRowMap(m Matrix, y0, y1 float64) rowMap {
	return rowMap{m: m, cy0: y0 * m[2], cy1: y1 * m[2], dy0: y0 * m[3], dy1: y1 * m[3]}
}

// box is Rect{x0, y0, x1, y1}.transform(m).
func (rm *rowMap) box(x0, x1 float64) Rect {
	m := &rm.m
	ax0, ax1 := x0*m[0], x1*m[0]
	bx0, bx1 := x0*m[1], x1*m[1]
	// The corners in transform's order: (x0,y0) (x1,y0) (x0,y1) (x1,y1).
	px0, py0 := ax0+rm.cy0+m[4], bx0+rm.dy0+m[5]
	px1, py1 := ax1+rm.cy0+m[4], bx1+rm.dy0+m[5]
	px2, py2 := ax0+rm.cy1+m[4], bx0+rm.dy1+m[5]
	px3, py3 := ax1+rm.cy1+m[4], bx1+rm.dy1+m[5]
	return Rect{min(px0, px1, px2, px3), min(py0, py1, py2, py3), max(px0, px1, px2, px3), max(py0, py1, py2, py3)}
}

// finite reports a rectangle whose coordinates are all numbers.
func (r Rect) finite() bool {
	for _, v := range [4]float64{r.X0, r.Y0, r.X1, r.Y1} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}
