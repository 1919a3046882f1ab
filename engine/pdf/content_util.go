package pdf

import (
	"math"
	"strings"
	"unicode"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// box is a rectangle in evidence: a page number and [x0 y0 x1 y1] rounded
// to a tenth of a point.
type box struct {
	Page int        `json:"page"`
	Box  [4]float64 `json:"box"`
}

func boxOf(page int, r paint.Rect) box {
	round := func(v float64) float64 { return math.Round(v*10) / 10 }
	return box{Page: page, Box: [4]float64{round(r.X0), round(r.Y0), round(r.X1), round(r.Y1)}}
}

// addPage appends a page number once (pages arrive in order).
func addPage(pages []int, n int) []int {
	if len(pages) > 0 && pages[len(pages)-1] == n {
		return pages
	}
	return append(pages, n)
}

// addNum appends an object number once, keeping the list short.
func addNum(list []int, n int) []int {
	if n == 0 || len(list) >= 4*report.MaxArray {
		return list
	}
	for _, v := range list {
		if v == n {
			return list
		}
	}
	return append(list, n)
}

// inkGlyph reports a glyph that shows something (not white space, or not
// decodable, which may still show).
func inkGlyph(g paint.Glyph) bool {
	for _, r := range g.Text {
		if r != ' ' && r != '\t' && r != '\n' && r != '\r' && r != '\u00a0' {
			return true
		}
	}
	return g.Text == ""
}

// wordGlyph reports a glyph decoded to a letter or digit.
func wordGlyph(g paint.Glyph) bool {
	return strings.ContainsFunc(g.Text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) })
}

// inkRun reports a run with at least one glyph that shows something.
func inkRun(r *paint.TextRun) bool {
	for _, g := range r.Glyphs {
		if inkGlyph(g) {
			return true
		}
	}
	return false
}

// visible reports render modes that paint glyphs (not 3 invisible, 7 clip).
func visible(r *paint.TextRun) bool { return r.Mode != 3 && r.Mode != 7 }

// covered reports that at least share of the glyph's area lies inside b.
// A glyph of no area (zero width) counts when its box lies inside b.
func covered(g paint.Rect, b paint.Rect, share float64) bool {
	a := g.Area()
	if a <= 0 {
		return b.Contains(g, 0)
	}
	return g.Intersect(b).Area() >= share*a
}

// annot is one page annotation with what the content families read.
type annot struct {
	ref     int // object number; 0 when direct
	subtype cos.Name
	rect    paint.Rect
	dict    *cos.Dict
}

// maxAnnotsPerPage bounds the annotations read per page.
const maxAnnotsPerPage = 1000

// pageAnnots lists a page's annotations that have a rectangle and are not
// hidden.
func (a *analysis) pageAnnots(p page) []annot {
	arr, _ := a.resolve(p.dict.Get("Annots")).(cos.Array)
	var out []annot
	for i, o := range arr {
		if i >= maxAnnotsPerPage {
			break
		}
		d := a.dict(o)
		if d == nil {
			continue
		}
		r, ok := rect(a.resolve(d.Get("Rect")), a.resolve)
		if !ok {
			continue
		}
		if flags, _ := cos.AsInt(a.resolve(d.Get("F"))); flags&(2|32) != 0 {
			continue // Hidden or NoView
		}
		an := annot{subtype: d.Name("Subtype"), rect: paint.RectOf(r), dict: d}
		if ref, ok := o.(cos.Ref); ok {
			an.ref = ref.Num
		}
		out = append(out, an)
	}
	return out
}

// colorArray reads an annotation colour array (/C, /IC): 1, 3 or 4
// components.
func colorArray(o cos.Object, resolve func(cos.Object) cos.Object) (paint.Color, bool) {
	arr, _ := o.(cos.Array)
	v := make([]float64, 0, 4)
	for _, x := range arr {
		n, ok := cos.AsNumber(resolve(x))
		if !ok {
			return paint.Color{}, false
		}
		v = append(v, max(0, min(1, n)))
	}
	c := paint.Color{A: 1, Known: true}
	switch len(v) {
	case 1:
		c.R, c.G, c.B = v[0], v[0], v[0]
	case 3:
		c.R, c.G, c.B = v[0], v[1], v[2]
	case 4:
		c.R, c.G, c.B = (1-v[0])*(1-v[3]), (1-v[1])*(1-v[3]), (1-v[2])*(1-v[3])
	default:
		return paint.Color{}, false
	}
	return c, true
}

// glyphsUnder counts ink glyphs with at least share of their area inside
// b, painted before seq (0: any time), in runs that paint (visible modes).
func glyphsUnder(pg *paint.Page, b paint.Rect, seq int, share float64) int {
	n := 0
	for i := range pg.Text {
		r := &pg.Text[i]
		if (seq > 0 && r.Seq >= seq) || !visible(r) || r.Clipped || !r.Box.Overlaps(b) {
			continue
		}
		for _, g := range r.Glyphs {
			if inkGlyph(g) && covered(g.Box, b, share) {
				n++
			}
		}
	}
	return n
}
