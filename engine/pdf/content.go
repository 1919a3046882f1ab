package pdf

import (
	"bytes"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/filters"
)

// Content walk limits.
const (
	maxOperands   = 64
	maxGStack     = 64
	fullPageShare = 0.9 // share of the page an image must cover to count as full-page
)

// walkContent decodes every page's content streams (the per-page content
// walk that triage mode skips) and records pages painted by one image that
// covers almost all of the page, the trace a scanned or flattened page
// leaves.
func (a *analysis) walkContent() {
	for i, p := range a.pages {
		if a.f.Err() != nil {
			return
		}
		data := a.pageContent(p)
		if len(data) == 0 {
			continue
		}
		if a.paintsFullPageImage(p, data) {
			a.fullPageImagePages = append(a.fullPageImagePages, i+1)
		}
	}
}

// pageContent concatenates a page's decoded content streams.
func (a *analysis) pageContent(p page) []byte {
	var parts []cos.Object
	switch c := p.dict.Get("Contents").(type) {
	case cos.Array:
		parts = c
	case nil:
		return nil
	default:
		if arr, ok := a.resolve(c).(cos.Array); ok {
			parts = arr
		} else {
			parts = []cos.Object{c}
		}
	}
	var buf []byte
	for _, part := range parts {
		st, ok := a.resolve(part).(*cos.Stream)
		if !ok {
			continue
		}
		data, err := filters.Decode(st.Raw(a.f.Data), st.Dict, a.resolve, a.f.Budget)
		if err != nil && err != filters.ErrBudget && len(data) == 0 {
			a.f.Warn.StreamErrors++
		}
		buf = append(buf, data...)
		buf = append(buf, '\n')
	}
	return buf
}

// matrix is a PDF transformation matrix [a b c d e f].
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// paintsFullPageImage interprets the operators that place images: q, Q, cm
// and Do. Text, paths and colours are not needed for this fact.
func (a *analysis) paintsFullPageImage(p page, data []byte) bool {
	mb := p.mediaBox
	pageArea := (mb[2] - mb[0]) * (mb[3] - mb[1])
	if pageArea <= 0 {
		return false
	}
	var xobjects *cos.Dict
	if p.resources != nil {
		xobjects = a.dict(p.resources.Get("XObject"))
	}
	if xobjects == nil {
		return false
	}
	ctm := identity
	var stack []matrix
	var operands []cos.Object
	found := false
	scanOperators(data, func(op []byte, args []cos.Object) bool {
		switch string(op) {
		case "q":
			if len(stack) < maxGStack {
				stack = append(stack, ctm)
			}
		case "Q":
			if len(stack) > 0 {
				ctm = stack[len(stack)-1]
				stack = stack[:len(stack)-1]
			}
		case "cm":
			if len(args) == 6 {
				var m matrix
				for i, o := range args {
					v, _ := cos.AsNumber(o)
					m[i] = v
				}
				ctm = m.mul(ctm)
			}
		case "Do":
			if len(args) == 1 {
				name, _ := args[0].(cos.Name)
				st, ok := a.resolve(xobjects.Get(name)).(*cos.Stream)
				if ok && st.Dict.Name("Subtype") == "Image" && coverage(ctm, mb) >= fullPageShare*pageArea {
					found = true
					return false
				}
			}
		}
		return true
	}, &operands)
	return found
}

// coverage is the area of the page box covered by the unit square under m
// (its axis-aligned bounding box clipped to the box).
func coverage(m matrix, box [4]float64) float64 {
	xs := []float64{m[4], m[0] + m[4], m[2] + m[4], m[0] + m[2] + m[4]}
	ys := []float64{m[5], m[1] + m[5], m[3] + m[5], m[1] + m[3] + m[5]}
	x0, x1, y0, y1 := xs[0], xs[0], ys[0], ys[0]
	for i := 1; i < 4; i++ {
		x0, x1 = min(x0, xs[i]), max(x1, xs[i])
		y0, y1 = min(y0, ys[i]), max(y1, ys[i])
	}
	w := min(x1, box[2]) - max(x0, box[0])
	h := min(y1, box[3]) - max(y0, box[1])
	if w <= 0 || h <= 0 {
		return 0
	}
	return w * h
}

// scanOperators tokenises a content stream, calling fn for each operator
// with its operands. Inline image data (BI ... ID data EI) is skipped.
// fn returns false to stop. The operands slice is reused between calls.
func scanOperators(data []byte, fn func(op []byte, args []cos.Object) bool, operands *[]cos.Object) {
	p := cos.NewParser(data, 0)
	args := (*operands)[:0]
	for {
		p.SkipSpace()
		pos := p.Pos()
		if pos >= len(data) {
			return
		}
		c := data[pos]
		if isOperatorStart(c) {
			op := p.Keyword()
			if len(op) == 0 {
				p.Seek(pos + 1)
				args = args[:0]
				continue
			}
			switch string(op) {
			case "true", "false", "null":
				if len(args) < maxOperands {
					args = append(args, nil)
				}
				continue
			case "BI":
				skipInlineImage(p, data)
				args = args[:0]
				continue
			}
			if !fn(op, args) {
				return
			}
			args = args[:0]
			continue
		}
		o, err := p.Object()
		if err != nil {
			if p.Pos() == pos {
				p.Seek(pos + 1)
			}
			args = args[:0]
			continue
		}
		if len(args) < maxOperands {
			args = append(args, o)
		}
	}
}

func isOperatorStart(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'' || c == '"' || c == '*'
}

// skipInlineImage moves past "ID <data> EI". The data has no length, so the
// end is the first "EI" standing alone between white space.
func skipInlineImage(p *cos.Parser, data []byte) {
	i := bytes.Index(data[p.Pos():], []byte("ID"))
	if i < 0 {
		p.Seek(len(data))
		return
	}
	from := p.Pos() + i + 2
	for {
		j := bytes.Index(data[from:], []byte("EI"))
		if j < 0 {
			p.Seek(len(data))
			return
		}
		at := from + j
		before := at == 0 || cos.IsWhite(data[at-1])
		after := at+2 >= len(data) || cos.IsWhite(data[at+2]) || cos.IsDelim(data[at+2])
		if before && after {
			p.Seek(at + 2)
			return
		}
		from = at + 2
	}
}
