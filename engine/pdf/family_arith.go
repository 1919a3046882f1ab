package pdf

import (
	"cmp"
	"slices"
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/figures"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// figureArithmeticFamily declares the figure-arithmetic family
// (docs/architecture.md): the document's own sums, recomputed.
var figureArithmeticFamily = declaration{
	ID:    "figure-arithmetic",
	Order: 145,
	Run:   (*analysis).figureArithmetic,
	Summary: "Figures the document's own rows say must add up and do not: running balances, " +
		"column totals, row totals, statement summaries, invoice lines and totals, gross to net pay.",
	ContentDependent: true,
	TriageSuppressed: true,
	Evidence:         []string{"breaks[]", "relations[]", "rowsHeld", "pages[]", "boxes[]", "formulas[]"},
	Variants: []report.VariantDecl{
		{Code: "running-balance", Severity: report.Medium, UpTo: report.High, Title: "Running balance does not follow",
			Text: "The running balance does not follow from the transactions on page {page}, row {row}, while {held#other relation of the document's figures holds|other relations of the document's figures hold}."},
		{Code: "page-carry", Severity: report.Medium, UpTo: report.High, Title: "Page does not continue the balance",
			Text: "The first balance on page {page} does not continue the last balance of the page before it, while {held#other relation of the document's figures holds|other relations of the document's figures hold}: a page may have been swapped in."},
		{Code: "column-total", Severity: report.Medium, UpTo: report.High, Title: "Total disagrees with its column",
			Text: "The total on page {page}, row {row} is not the sum of the figures above it, while {held#other relation of the document's figures holds|other relations of the document's figures hold}."},
		{Code: "statement-summary", Severity: report.Medium, UpTo: report.High, Title: "Statement summary does not add up",
			Text: "The summary on page {page} does not agree with the opening balance, the money in and out, or the transactions, while {held#other relation of the document's figures holds|other relations of the document's figures hold}."},
		{Code: "line-amount", Severity: report.Medium, UpTo: report.High, Title: "Line amount is not quantity times price",
			Text: "On page {page}, row {row}, the line amount is not the quantity times the unit price, while {held#other line holds|other lines hold}."},
		{Code: "row-total", Severity: report.Medium, UpTo: report.High, Title: "Row does not add up",
			Text: "On page {page}, row {row}, a figure is not the sum of the two figures its column is the sum of on the other rows (a line's net and tax against its gross), while {held#other relation of the document's figures holds|other relations of the document's figures hold}."},
		{Code: "invoice-total", Severity: report.Medium, UpTo: report.High, Title: "Total does not add up",
			Text: "The total on page {page} is not the subtotal plus the tax and charges printed above it, while {held#other relation of the document's figures holds|other relations of the document's figures hold}."},
		{Code: "tax-rate", Severity: report.Medium, UpTo: report.High, Title: "Tax does not match its rate",
			Text: "The tax on page {page}, row {row} is not the subtotal at the rate printed beside it, while {held#other relation of the document's figures holds|other relations of the document's figures hold}."},
		{Code: "amount-due", Severity: report.Medium, UpTo: report.High, Title: "Amount due does not follow",
			Text: "The amount due on page {page} is not the total less what was paid, while {held#other relation of the document's figures holds|other relations of the document's figures hold}."},
		{Code: "net-pay", Severity: report.Medium, UpTo: report.High, Title: "Net pay does not follow from gross",
			Text: "The net pay on page {page} is not the gross pay less the deductions, while {held#other relation of the document's figures holds|other relations of the document's figures hold}."},
		// Office files (engine/office/figures.go): the same relations over a
		// workbook's cells or a document's tables, and saved formula results.
		{Code: "sheet-break", Severity: report.Medium, Title: "Sheet figures do not add up",
			Text: "In sheet {sheet}, row {row}, figures the sheet's own rows tie together (a running balance, a total, an invoice's or a payslip's sums) do not add up, while {held#other relation of its figures holds|other relations of its figures hold}."},
		{Code: "table-break", Severity: report.Medium, Title: "Table figures do not add up",
			Text: "In table {table}, row {row}, figures the table's own rows tie together (a running balance, a total, an invoice's or a payslip's sums) do not add up, while {held#other relation of its figures holds|other relations of its figures hold}."},
		{Code: "formula-result", Severity: report.Medium, Title: "Saved formula results disagree",
			Text: "In sheet {sheet}, {formulas#formula's saved result does|formulas' saved results do} not follow from the cells {formulas?it reads|they read}, while the saved results of {held#formula agree|formulas agree} with their inputs: a figure was changed without the workbook being recalculated."},
		{Code: "written-apart", Text: "The figure that disagrees was written by a later revision or in a font its neighbours do not use."},
	},
}

// Bounds of what the walk keeps for the family.
const (
	maxFigureLines   = 8_000
	maxFigurePageGly = 12_000 // glyphs on a page's figure lines; a denser page is no statement
	lineTolerance    = 0.35   // share of a glyph's height two baselines may differ by
	wordGap          = 0.15   // share of the height that separates two words
)

// figureFacts are the lines of figures the walk keeps, and the fonts their
// glyphs came in (a mark is a font's index and the writing revision).
type figureFacts struct {
	lines []figures.Line
	fonts map[*paint.Font]int
	items []glyphItem // storage reused from page to page
}

// figureMark tags a word with its font and the revision that wrote it.
func figureMark(font, revision int) int { return font<<8 | min(revision, 255) }

// figuresPage keeps the page's lines that show a digit.
func (a *analysis) figuresPage(cp *contentPage) {
	f := &a.content.figures
	if len(f.lines) >= maxFigureLines {
		return
	}
	if f.fonts == nil {
		f.fonts = map[*paint.Font]int{}
	}
	var lines []figures.Line
	lines, f.items = pageLines(cp.paint, cp.number, f.fonts, f.items[:0])
	for _, ln := range lines {
		if len(f.lines) >= maxFigureLines {
			return
		}
		f.lines = append(f.lines, ln)
	}
}

// glyphItem is one visible glyph in page space.
type glyphItem struct {
	x0, x1, yc, h float64
	text          string
	mark          int
}

// span is one run's glyphs in the page's item list, and where the run sits.
type span struct {
	yc, h, x0  float64
	start, end int
}

// pageLines rebuilds a page's lines of words from its visible glyphs:
// glyphs on one baseline (to a share of their height) form a line, and
// a space or a gap wider than a share of the height ends a word. Only
// lines that show an amount are kept.
func pageLines(pg *paint.Page, page int, fonts map[*paint.Font]int, items []glyphItem) ([]figures.Line, []glyphItem) {
	// Only the glyphs of lines that show an amount are sorted: a run is
	// kept when a run showing two decimals sits on its baseline. A writer
	// that shows a glyph at a time has no such run; its pages fall back to
	// the runs that show a digit.
	var bands, digitBands []float64 // centres of those runs
	maxH, glyphs := 0.0, 0
	for i := range pg.Text {
		r := &pg.Text[i]
		glyphs += len(r.Glyphs)
		if !visible(r) || r.Clipped || !strings.ContainsAny(r.Text, "0123456789") {
			continue
		}
		yc := (r.Box.Y0 + r.Box.Y1) / 2
		digitBands = append(digitBands, yc)
		if figures.HasCents(r.Text) {
			bands = append(bands, yc)
		}
		maxH = max(maxH, r.Box.Height())
	}
	if len(bands) == 0 && len(pg.Text) > 0 && glyphs < 3*len(pg.Text) {
		bands = digitBands
	}
	if len(bands) == 0 {
		return nil, items // no amount on the page
	}
	slices.Sort(bands)
	onFigureLine := func(r *paint.TextRun) bool {
		yc, tol := (r.Box.Y0+r.Box.Y1)/2, lineTolerance*max(maxH, r.Box.Height())
		k, _ := slices.BinarySearch(bands, yc-tol)
		return k < len(bands) && bands[k] <= yc+tol
	}
	var spans []span
	for i := range pg.Text {
		r := &pg.Text[i]
		if !visible(r) || r.Clipped || !onFigureLine(r) {
			continue
		}
		id, ok := fonts[r.Font]
		if !ok {
			id = len(fonts) + 1
			fonts[r.Font] = id
		}
		if len(items)+len(r.Glyphs) > maxFigurePageGly {
			return nil, items // a page of figures too dense to be a table people read
		}
		sp := span{start: len(items), yc: (r.Box.Y0 + r.Box.Y1) / 2, h: r.Box.Height(), x0: r.Box.X0}
		for _, g := range r.Glyphs {
			h := g.Box.Height()
			if h <= 0 || g.Box.Width() < 0 {
				continue
			}
			items = append(items, glyphItem{g.Box.X0, g.Box.X1, (g.Box.Y0 + g.Box.Y1) / 2, h, g.Text, figureMark(id, r.Revision)})
		}
		if sp.end = len(items); sp.end > sp.start {
			spans = append(spans, sp)
		}
	}
	// A run sits on one baseline (TJ and Tj move along it), so runs, far
	// fewer than glyphs, are ordered top to bottom and grouped into
	// lines; a line's glyphs are then ordered left to right. The order is
	// total, so the unstable sort gives the same lines on every run.
	slices.SortFunc(spans, func(a, b span) int {
		if c := cmp.Compare(b.yc, a.yc); c != 0 {
			return c
		}
		if c := cmp.Compare(a.x0, b.x0); c != 0 {
			return c
		}
		return cmp.Compare(a.start, b.start)
	})
	var lines []figures.Line
	var line []glyphItem
	for first := 0; first < len(spans); {
		last := first + 1
		for last < len(spans) && spans[first].yc-spans[last].yc <= lineTolerance*max(spans[first].h, spans[last].h) {
			last++
		}
		line = line[:0]
		for _, sp := range spans[first:last] {
			line = append(line, items[sp.start:sp.end]...)
		}
		if ln, ok := lineOf(line, page); ok {
			lines = append(lines, ln)
		}
		first = last
	}
	return lines, items
}

// lineOf orders one line's glyphs and cuts them into words; false when
// the line shows no amount (no word with two decimals).
func lineOf(gs []glyphItem, page int) (figures.Line, bool) {
	digit := false
	for _, g := range gs {
		for _, c := range g.text {
			digit = digit || (c >= '0' && c <= '9')
		}
	}
	if !digit {
		return figures.Line{}, false
	}
	slices.SortStableFunc(gs, func(a, b glyphItem) int { return cmp.Compare(a.x0, b.x0) })
	ln := figures.Line{Page: page}
	var cur *figures.Word
	var text []byte
	flush := func() {
		if cur != nil {
			cur.Text = string(text)
			ln.Words = append(ln.Words, *cur)
			cur, text = nil, text[:0]
		}
	}
	for _, g := range gs {
		if blank(g.text) {
			flush()
			continue
		}
		y0, y1 := g.yc-g.h/2, g.yc+g.h/2
		if cur != nil && g.x0-cur.Box.X1 > wordGap*g.h {
			flush()
		}
		if cur == nil {
			cur = &figures.Word{Box: figures.Box{X0: g.x0, Y0: y0, X1: g.x1, Y1: y1}, Mark: g.mark}
		} else {
			cur.Box = figures.Box{X0: min(cur.Box.X0, g.x0), Y0: min(cur.Box.Y0, y0), X1: max(cur.Box.X1, g.x1), Y1: max(cur.Box.Y1, y1)}
		}
		text = append(text, g.text...)
	}
	flush()
	for _, w := range ln.Words {
		if figures.HasCents(w.Text) {
			return ln, true
		}
	}
	return figures.Line{}, false // no amount on the line
}

func blank(s string) bool {
	for _, r := range s {
		if r != ' ' && r != '\t' && r != '\u00a0' {
			return false
		}
	}
	return s != ""
}

// arithBreak is one broken relation in evidence: figures as plain decimal
// numbers (no currency, no grouping), never the document's text.
type arithBreak struct {
	Relation string `json:"relation"`
	Page     int    `json:"page"`
	Row      int    `json:"row"`
	Printed  string `json:"printed"`
	Expected string `json:"expected"`
	Boxes    []box  `json:"boxes"`
}

// figureArithmetic recomputes the relations the document's rows establish.
func (a *analysis) figureArithmetic() *report.Finding {
	f := &a.content.figures
	if len(f.lines) == 0 {
		return nil
	}
	res := figures.Check(f.lines, figures.PageLimits)
	if len(res.Breaks) == 0 {
		return nil
	}
	apart := false
	var breaks []arithBreak
	var pages []int
	var boxes []box
	var vs []report.Variant
	seen := map[string]bool{}
	uses := fontUses(f.lines)
	for _, b := range res.Breaks {
		ab := arithBreak{Relation: b.Relation, Page: b.Page, Row: b.Row, Printed: b.Printed.String(), Expected: b.Expected.String()}
		for _, fg := range b.Figures {
			bx := boxOf(fg.Page, paint.Rect{X0: fg.Box.X0, Y0: fg.Box.Y0, X1: fg.Box.X1, Y1: fg.Box.Y1})
			ab.Boxes = append(ab.Boxes, bx)
			if len(boxes) < 4*report.MaxArray {
				boxes = append(boxes, bx)
			}
		}
		breaks = append(breaks, ab)
		pages = addPageSorted(pages, b.Page)
		if writtenApart(b, uses) {
			apart = true
		}
		if !seen[b.Relation] {
			seen[b.Relation] = true
			vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("figure-arithmetic."+b.Relation, "page", b.Page, "row", b.Row, "held", res.Held)})
		}
	}
	if apart {
		vs[0].Severity = report.High
		vs = append(vs, report.Variant{Severity: report.Info, Message: report.Msg("figure-arithmetic.written-apart")})
	}
	ev := map[string]any{"rowsHeld": res.Held}
	report.Capped(ev, "breaks", breaks)
	report.Capped(ev, "relations", res.Relations)
	report.Capped(ev, "pages", pages)
	report.Capped(ev, "boxes", boxes)
	return report.Compose(report.FamilyFigureArithmetic, vs, ev)
}

// writtenApart reports a figure of the relation that a later revision
// wrote, or that stands in a font none of the relation's other figures
// use while they share one: a second, independent trace on the figures
// that disagree.
func writtenApart(b figures.Break, uses map[int]int) bool {
	if len(b.Figures) < 3 {
		return false
	}
	for i, f := range b.Figures {
		fonts := map[int]bool{}
		later := false
		for k, o := range b.Figures {
			if k == i {
				continue
			}
			fonts[o.Mark>>8] = true
			later = later || f.Mark&0xff > max(o.Mark&0xff, 1)
		}
		// A font of its own shows almost nothing else: a bold face the
		// generator sets every total in is no trace.
		if later || (len(fonts) == 1 && !fonts[f.Mark>>8] && uses[f.Mark>>8] <= maxOwnFontWords) {
			return true
		}
	}
	return false
}

// maxOwnFontWords: the words of the kept lines a font may show and still
// be a font of the retyped figure's own.
const maxOwnFontWords = 2

// fontUses counts the words of the kept lines in each font.
func fontUses(lines []figures.Line) map[int]int {
	uses := map[int]int{}
	for _, ln := range lines {
		for _, w := range ln.Words {
			uses[w.Mark>>8]++
		}
	}
	return uses
}

// addPageSorted adds n to a sorted list of pages once.
func addPageSorted(pages []int, n int) []int {
	i := sort.SearchInts(pages, n)
	if i < len(pages) && pages[i] == n {
		return pages
	}
	return append(pages[:i], append([]int{n}, pages[i:]...)...)
}
