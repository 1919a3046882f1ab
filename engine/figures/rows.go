package figures

import (
	"sort"
	"strings"
	"unicode"
)

// Box is a word's box in the medium's own space: page units with y up for
// a PDF, column and row indexes for a table.
type Box struct{ X0, Y0, X1, Y1 float64 }

// Word is one word of a line. Mark is the caller's tag for the word's
// origin (a PDF run's font and revision), which lets it say whether a
// broken figure was written unlike its neighbours.
type Word struct {
	Text string
	Box  Box
	Mark int
}

// Line is one line of words, left to right. The caller hands lines in
// reading order: page by page, top to bottom.
type Line struct {
	Page  int
	Words []Word
}

// Limits bound one check.
type Limits struct {
	// Align is how far apart two right edges may be and still be one column.
	Align float64
	// Gap is the widest space between the words of one amount
	// ("1 234,56", "EUR 12.00"), as a share of the line's height.
	Gap float64
}

// PageLimits suit words placed on a page in points.
var PageLimits = Limits{Align: 2.5, Gap: 0.6}

// TableLimits suit cells placed by column and row index.
var TableLimits = Limits{Align: 0.25, Gap: 0}

// Caps on the work of one document.
const (
	maxLines     = 8_000
	maxCells     = 20_000
	maxColumns   = 64
	maxChainCols = 4   // the columns a balance chain may draw amounts from
	maxLabel     = 256 // bytes of a row's label read
	maxWords     = 200 // words of a line read
)

// cell is one figure of a row.
type cell struct {
	amt   Amount
	money bool // an amount with a decimal part (else a count or rate)
	box   Box
	col   int // column, by right edge; -1 for counts
	mark  int
	pct   bool // followed by a percent sign: a rate
}

// row is a line with at least one figure.
type row struct {
	line  int // index in the document's lines
	page  int
	index int // 1-based among the page's rows
	label []string
	role  role
	cells []cell
}

// money returns the row's amounts, left to right.
func (r *row) money() []cell {
	var out []cell
	for _, c := range r.cells {
		if c.money {
			out = append(out, c)
		}
	}
	return out
}

// inCol returns the row's amount in column c.
func (r *row) inCol(c int) (cell, bool) {
	for _, x := range r.cells {
		if x.money && x.col == c {
			return x, true
		}
	}
	return cell{}, false
}

// buildRows finds the figures of each line and assigns amounts to columns
// by their right edges.
func buildRows(lines []Line, lim Limits) []row {
	if len(lines) > maxLines {
		lines = lines[:maxLines]
	}
	dec := decimalMark(lines)
	var rows []row
	cells := 0
	perPage := map[int]int{}
	for li, ln := range lines {
		r := row{line: li, page: ln.Page}
		ws := ln.Words
		if len(ws) > maxWords {
			ws = ws[:maxWords]
		}
		var label strings.Builder
		for i := 0; i < len(ws) && cells < maxCells; {
			if c, n := readAmount(ws, i, lim); n > 0 {
				r.cells = append(r.cells, c)
				i += n
				cells++
				continue
			}
			if a, ok := ParseNumber(strings.TrimSuffix(strings.TrimSpace(ws[i].Text), "%"), dec); ok {
				pct := strings.HasSuffix(strings.TrimSpace(ws[i].Text), "%") || (i+1 < len(ws) && strings.TrimSpace(ws[i+1].Text) == "%")
				r.cells = append(r.cells, cell{amt: a, box: ws[i].Box, col: -1, mark: ws[i].Mark, pct: pct})
				i++
				cells++
				continue
			}
			if label.Len() < maxLabel {
				label.WriteString(ws[i].Text[:min(len(ws[i].Text), maxLabel)])
				label.WriteByte(' ')
			}
			i++
		}
		if len(r.cells) == 0 {
			continue
		}
		r.label = labelWords(label.String())
		r.role = classify(r.label)
		perPage[r.page]++
		r.index = perPage[r.page]
		rows = append(rows, r)
	}
	assignColumns(rows, lim)
	return rows
}

// readAmount reads the amount that starts at word i, joining up to four
// close words ("EUR", "1", "234,56", "CR"), and returns how many it took.
func readAmount(ws []Word, i int, lim Limits) (cell, int) {
	const longest = 48 // no amount is longer
	if len(ws[i].Text) > longest {
		return cell{}, 0
	}
	h := ws[i].Box.Y1 - ws[i].Box.Y0
	end := i
	for end+1 < len(ws) && end+1-i < 4 && len(ws[end+1].Text) <= longest && ws[end+1].Box.X0-ws[end].Box.X1 <= lim.Gap*h {
		end++
	}
	// An amount has two decimals: a span without them is none, and what
	// may follow them is a mark or two (CR, a currency code, a minus).
	core := -1
	for k := i; k <= end && core < 0; k++ {
		if hasCents(ws[k].Text) {
			core = k
		}
	}
	if core < 0 {
		return cell{}, 0
	}
	end = min(end, core+2)
	for j := end; j >= i; j-- {
		parts := make([]string, 0, j-i+1)
		for _, w := range ws[i : j+1] {
			parts = append(parts, w.Text)
		}
		if a, ok := ParseAmount(strings.Join(parts, " ")); ok {
			b := ws[i].Box
			for _, w := range ws[i+1 : j+1] {
				b = union(b, w.Box)
			}
			// The right edge is the number's own: a trailing CR, code or
			// minus sits beyond the column.
			right := ws[j].Box.X1
			for k := j; k > i && !hasDigit(ws[k].Text); k-- {
				right = ws[k-1].Box.X1
			}
			b.X1 = right
			return cell{amt: a, money: true, box: b, col: -1, mark: ws[i].Mark}, j - i + 1
		}
	}
	return cell{}, 0
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

// HasCents reports a word that may be an amount's core: a decimal mark
// followed by exactly two digits. A line without one holds no amount, so a
// caller need not keep it.
func HasCents(s string) bool { return hasCents(s) }

// hasCents reports a decimal mark followed by exactly two digits.
func hasCents(s string) bool {
	for k := 0; k+2 < len(s); k++ {
		if (s[k] == '.' || s[k] == ',') && isDigit(s[k+1]) && isDigit(s[k+2]) && (k+3 == len(s) || !isDigit(s[k+3])) {
			return true
		}
	}
	return false
}

func union(a, b Box) Box {
	return Box{min(a.X0, b.X0), min(a.Y0, b.Y0), max(a.X1, b.X1), max(a.Y1, b.Y1)}
}

// decimalMark is the decimal mark most of the document's amounts use.
func decimalMark(lines []Line) byte {
	dot, comma := 0, 0
	for _, ln := range lines {
		for _, w := range ln.Words {
			t := strings.TrimRight(w.Text, " )-CRD")
			if n := len(t); n >= 4 && isDigit(t[n-1]) && isDigit(t[n-2]) {
				switch t[n-3] {
				case '.':
					dot++
				case ',':
					comma++
				}
			}
		}
	}
	if comma > dot {
		return ','
	}
	return '.'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// assignColumns groups amounts into columns. A column's figures share
// their right edge when set right-aligned, whatever their width; a word
// processor's table may set them left-aligned instead, and then the
// groups of one right edge (figures of one width) share a left edge,
// which joins them.
func assignColumns(rows []row, lim Limits) {
	type ref struct{ r, c int }
	var refs []ref
	for ri := range rows {
		for ci, c := range rows[ri].cells {
			if c.money {
				refs = append(refs, ref{ri, ci})
			}
		}
	}
	box := func(k int) Box { return rows[refs[k].r].cells[refs[k].c].box }
	sort.SliceStable(refs, func(a, b int) bool { return box(a).X1 < box(b).X1 })
	var groups [][]int // by right edge
	for k := range refs {
		if k == 0 || box(k).X1-box(k-1).X1 > lim.Align {
			groups = append(groups, nil)
		}
		groups[len(groups)-1] = append(groups[len(groups)-1], k)
	}
	if len(groups) > maxColumns*8 {
		return // no table: edges everywhere
	}
	// Each group's usual left edge, when most of its figures share it.
	type lefty struct {
		g    int
		left float64
	}
	var lefts []lefty
	for g, ks := range groups {
		x0 := make([]float64, len(ks))
		for i, k := range ks {
			x0[i] = box(k).X0
		}
		sort.Float64s(x0)
		best, at := 0, 0.0
		for i := range x0 {
			n := sort.SearchFloat64s(x0, x0[i]+lim.Align+1e-9) - i
			if n > best {
				best, at = n, x0[i]
			}
		}
		if float64(best) >= 0.6*float64(len(ks)) {
			lefts = append(lefts, lefty{g, at})
		}
	}
	sort.Slice(lefts, func(a, b int) bool { return lefts[a].left < lefts[b].left })
	col := make([]int, len(groups))
	for g := range col {
		col[g] = g
	}
	for i := 1; i < len(lefts); i++ {
		if lefts[i].left-lefts[i-1].left <= lim.Align {
			col[lefts[i].g] = col[lefts[i-1].g]
		}
	}
	// A joined column takes the number of its first group; renumber left
	// to right so columns stay ordered by position.
	for g := range col {
		for col[g] != col[col[g]] {
			col[g] = col[col[g]]
		}
	}
	for g, ks := range groups {
		for _, k := range ks {
			rows[refs[k].r].cells[refs[k].c].col = col[g]
		}
	}
}

// labelWords are a label's words, lower case, letters only: "Sub-total
// (EUR):" is [sub total eur].
func labelWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) })
}
