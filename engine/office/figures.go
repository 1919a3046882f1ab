package office

import (
	"context"
	"math/big"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/figures"
	"github.com/doctrust/doctrust/engine/report"
)

// The figure-arithmetic family (declared in engine/pdf) over an Office
// file's tables: a workbook's cells and a Word document's tables become
// lines of words placed by column and row, and engine/figures tests the
// same relations it tests on a PDF page. A workbook also keeps each
// formula's saved result, which must follow from the cells it reads.
const (
	maxFigureCells  = 200_000 // cells read from a workbook
	maxFormulaChars = 512
	maxStrings      = 100_000 // shared strings kept
)

// maxLabelChars: a label's words say what a row is; a longer text is cut.
const maxLabelChars = 256

// writeCapped appends p to b up to limit bytes in all: one token of a
// hostile part can be megabytes long.
func writeCapped(b *strings.Builder, p []byte, limit int) {
	if room := limit - b.Len(); room > 0 {
		b.Write(p[:min(len(p), room)])
	}
}

// figureCell is one worksheet cell as the arithmetic reads it.
type figureCell struct {
	col, row int
	text     string   // a label, or the figure as text (resolved once the workbook is worth it)
	raw      string   // a number as stored
	shared   int      // a shared string's index, or -1
	style    int      // the cell's style (cellXfs index), or -1
	value    *big.Rat // a number's value (resolved with the text)
	formula  string   // the formula's text ("" for a value), a shared formula's anchor text on its later cells
	dCol     int      // a shared formula's later cell: its offset from the anchor,
	dRow     int      // by which the anchor's relative references move
	date     bool
}

// minFigureNumbers: a workbook with fewer numbers holds no relation, so its
// strings and styles are not even read for the check.
const minFigureNumbers = 4

// resolveCells gives each cell its text and value: shared strings, numbers
// as a money column shows them, date-formatted numbers left out.
func resolveCells(cells []figureCell, strs []string, dates map[int]bool) {
	for i := range cells {
		c := &cells[i]
		switch {
		case c.shared >= 0:
			if c.shared < len(strs) {
				c.text = strs[c.shared]
			}
		case c.raw != "":
			c.date = dates[c.style]
			if r, ok := new(big.Rat).SetString(c.raw); ok {
				c.text, c.value = figureText(r, c.raw)
			}
		}
	}
}

// figureArithmetic runs the checks on the package's tables.
func (a *analysis) figureArithmetic() *report.Finding {
	var s figureSet
	switch a.kind {
	case "xl":
		var sheets [][]figureCell
		cells, numbers := 0, 0
		for _, part := range a.pkg.Matching("xl/worksheets/", ".xml") {
			if a.ctx.Err() != nil || cells >= maxFigureCells {
				break
			}
			sheet := readFigureCells(a.ctx, a.pkg.Read(part), maxFigureCells-cells)
			numbers += countNumbers(sheet)
			cells += len(sheet)
			sheets = append(sheets, sheet)
		}
		if numbers < minFigureNumbers {
			return nil
		}
		strs, dates := a.sharedStrings(), a.dateStyles()
		for i, sheet := range sheets {
			resolveCells(sheet, strs, dates)
			s.addSheet(sheet, i+1)
		}
	case "word":
		for i, t := range a.wordTables() {
			s.addSheet(t, i+1)
		}
	default:
		return nil
	}
	return s.finding(a.kind == "word")
}

// countNumbers counts the cells that hold a number.
func countNumbers(cells []figureCell) int {
	n := 0
	for _, c := range cells {
		if c.raw != "" {
			n++
		}
	}
	return n
}

// figureSet is what one file gives the check, whatever its format: lines
// of words and the formulas recomputed so far.
type figureSet struct {
	lines        []figures.Line
	formulas     []formulaBreak
	formulasHeld int
	formulaReads int // cells the formulas have read (maxFormulaReads)
}

// addSheet lays out a sheet's resolved cells and recomputes its formulas.
func (s *figureSet) addSheet(cells []figureCell, sheet int) {
	s.lines = append(s.lines, cellLines(cells, sheet)...)
	held, broken := checkFormulas(cells, sheet, &s.formulaReads)
	s.formulasHeld += held
	s.formulas = append(s.formulas, broken...)
}

// finding runs the relations over the lines and composes the signal;
// tables: the lines are a text document's tables, not a workbook's sheets.
func (s *figureSet) finding(tables bool) *report.Finding {
	res := figures.Check(s.lines, figures.TableLimits)
	var vs []report.Variant
	ev := map[string]any{}
	var breaks []officeBreak
	for _, b := range res.Breaks {
		ob := officeBreak{Relation: b.Relation, Table: b.Page, Printed: b.Printed.String(), Expected: b.Expected.String()}
		for _, f := range b.Figures {
			ob.Cells = append(ob.Cells, cellName(int(f.Box.X0), int(-f.Box.Y0)))
		}
		breaks = append(breaks, ob)
	}
	if len(breaks) > 0 {
		first := res.Breaks[0]
		row := int(-first.Figures[0].Box.Y0)
		msg := report.Msg("figure-arithmetic.sheet-break", "sheet", first.Page, "row", row, "held", res.Held)
		if tables {
			msg = report.Msg("figure-arithmetic.table-break", "table", first.Page, "row", row, "held", res.Held)
		}
		vs = append(vs, report.Variant{Severity: report.Medium, Message: msg})
		report.Capped(ev, "breaks", breaks)
		report.Capped(ev, "relations", res.Relations)
		ev["rowsHeld"] = res.Held
	}
	// A saved result that disagrees is reported where most formulas of the
	// workbook agree with their inputs.
	if len(s.formulas) > 0 && s.formulasHeld >= minFormulasHeld && len(s.formulas) <= s.formulasHeld {
		vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("figure-arithmetic.formula-result",
			"sheet", s.formulas[0].Sheet, "formulas", len(s.formulas), "held", s.formulasHeld)})
		report.Capped(ev, "formulas", s.formulas)
	}
	if len(vs) == 0 {
		return nil
	}
	return report.Compose(report.FamilyFigureArithmetic, vs, ev)
}

// minFormulasHeld: formulas whose saved results follow from their inputs
// before one that does not is a finding, not a workbook saved without
// recalculation.
const minFormulasHeld = 3

// officeBreak is a broken relation in evidence: cells by reference (the
// sheet or table by its order in the file, never its name).
type officeBreak struct {
	Relation string   `json:"relation"`
	Table    int      `json:"table"`
	Printed  string   `json:"printed"`
	Expected string   `json:"expected"`
	Cells    []string `json:"cells"`
}

// formulaBreak is a formula whose saved result its inputs contradict.
type formulaBreak struct {
	Sheet    int    `json:"sheet"`
	Cell     string `json:"cell"`
	Saved    string `json:"saved"`
	Computed string `json:"computed"`
}

// cellName is an A1 reference (1-based column and row).
func cellName(col, row int) string {
	if col < 1 || row < 1 {
		return ""
	}
	var b []byte
	for c := col; c > 0; c = (c - 1) / 26 {
		b = append([]byte{byte('A' + (c-1)%26)}, b...)
	}
	return string(b) + strconv.Itoa(row)
}

// cellLines lays a sheet's cells out as lines of words, one line a row,
// a word a cell at x = its column: the same reading a page gets.
func cellLines(cells []figureCell, sheet int) []figures.Line {
	var lines []figures.Line
	for i := 0; i < len(cells); {
		j := i
		ln := figures.Line{Page: sheet}
		for ; j < len(cells) && cells[j].row == cells[i].row; j++ {
			c := cells[j]
			if c.date || c.text == "" {
				continue
			}
			ln.Words = append(ln.Words, figures.Word{Text: c.text, Box: cellBox(c.col, c.row)})
		}
		if len(ln.Words) > 0 {
			lines = append(lines, ln)
		}
		i = j
	}
	return lines
}

// cellBox places a cell: columns one unit apart, rows downwards.
func cellBox(col, row int) figures.Box {
	return figures.Box{X0: float64(col), Y0: -float64(row), X1: float64(col) + 0.5, Y1: -float64(row) + 0.5}
}

// figureText prints a number the way a money column shows it: two
// decimals when it has no more, once the binary noise of a saved double
// (906.17999999999995) is taken off; else as stored. The value itself is
// rounded the same way, so the arithmetic sees the figure a reader sees.
func figureText(v *big.Rat, raw string) (string, *big.Rat) {
	if whole, frac, ok := strings.Cut(raw, "."); (!ok || len(frac) <= 2) && isPlainNumber(whole) && isPlainNumber("0"+frac) {
		// Two decimals or fewer, as most money is stored: no rounding to do.
		return whole + "." + (frac + "00")[:2], v
	}
	cents := roundHalfAway(v, 2)
	if d := new(big.Rat).Sub(v, cents); d.Abs(d).Cmp(doubleNoise) <= 0 {
		return cents.FloatString(2), cents
	}
	return raw, v
}

// isPlainNumber reports digits with an optional leading minus.
func isPlainNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// doubleNoise is far below a cent and far above a double's rounding error
// on amounts of up to ten digits.
var doubleNoise = big.NewRat(1, 10_000_000)

// readFigureCells reads a worksheet's cells in order, at most limit.
func readFigureCells(ctx context.Context, data []byte, limit int) []figureCell {
	w := newWalker(ctx, data)
	var cells []figureCell
	var cur figureCell
	var typ string
	var in string // "v", "f" or "t" while reading one
	var val, formula strings.Builder
	var shared sharedFormulas
	si, siRef := -1, "" // the cell's shared formula group, if any
	for k := w.next(); k != tokNone && len(cells) < limit; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "c":
				ref, _ := w.attr("r")
				cur = figureCell{col: colIndex(ref), row: rowIndex(ref), shared: -1, style: -1}
				typ, _ = w.attr("t")
				if s, ok := w.attr("s"); ok {
					if n, err := strconv.Atoi(s); err == nil {
						cur.style = n
					}
				}
				val.Reset()
				formula.Reset()
				si, siRef = -1, ""
			case "f":
				in = "f"
				si, siRef = fAttrs(w)
			case "v", "t":
				in = w.start.Name.Local
			}
		case tokText:
			switch in {
			case "v", "t":
				writeCapped(&val, w.text, maxFormulaChars)
			case "f":
				writeCapped(&formula, w.text, maxFormulaChars)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "v", "f", "t":
				in = ""
			case "c":
				v := strings.TrimSpace(val.String())
				cur.formula = strings.TrimSpace(formula.String())
				switch typ {
				case "s":
					if n, err := strconv.Atoi(v); err == nil && n >= 0 {
						cur.shared = n
					}
				case "inlineStr", "str":
					cur.text = v
				case "", "n":
					if v != "" && len(v) < 40 {
						cur.raw = v
					}
				}
				if cur.col > 0 && cur.row > 0 && (cur.text != "" || cur.raw != "" || cur.shared >= 0 || cur.formula != "") {
					if si >= 0 {
						shared.add(len(cells), cur, si, siRef)
					}
					cells = append(cells, cur)
				}
			}
		}
	}
	shared.resolve(cells)
	return cells
}

// rowIndex returns the row of an A1 reference, 0 when absent.
func rowIndex(ref string) int {
	i := strings.IndexAny(ref, "0123456789")
	if i < 0 {
		return 0
	}
	n, err := strconv.Atoi(ref[i:])
	if err != nil || n > 1<<20 {
		return 0
	}
	return n
}

// sharedStrings reads the workbook's shared strings, each cut short.
func (a *analysis) sharedStrings() []string {
	part := a.pkg.Lookup("xl/sharedStrings.xml")
	if part == nil {
		return nil
	}
	var out []string
	w := newWalker(a.ctx, a.pkg.Read(part))
	var buf strings.Builder
	inT := false
	for k := w.next(); k != tokNone && len(out) < maxStrings; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "si":
				buf.Reset()
			case "t":
				inT = true
			}
		case tokText:
			if inT {
				writeCapped(&buf, w.text, maxLabelChars)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "t":
				inT = false
			case "si":
				out = append(out, buf.String())
			}
		}
	}
	return out
}

// dateStyles marks the cell styles whose number format shows a date or
// time: such a number is a date, not an amount.
func (a *analysis) dateStyles() map[int]bool {
	st := a.styles()
	out := make(map[int]bool, len(st.xfs))
	for i := range st.xfs {
		out[i] = st.kind(i) != notDate
	}
	return out
}

// wordTables reads every table of the document's body as cells: a row
// of a table a row, a cell its text at its place in the row, laid out
// as a sheet's cells are.
func (a *analysis) wordTables() [][]figureCell {
	part := a.pkg.Lookup(a.main)
	if part == nil {
		return nil
	}
	w := newWalker(a.ctx, a.pkg.Read(part))
	var tables [][]figureCell
	depth, row, col, total := 0, 0, 0, 0
	var cell strings.Builder
	inText := false
	for k := w.next(); k != tokNone && total < maxFigureCells; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "tbl":
				depth++
				if depth == 1 {
					tables = append(tables, nil)
					row = 0
				}
			case "tr":
				if depth == 1 {
					row++
					col = 0
				}
			case "tc":
				if depth == 1 {
					col++
					cell.Reset()
				}
			case "t":
				inText = depth == 1
			}
		case tokText:
			if inText {
				writeCapped(&cell, w.text, maxLabelChars)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "t":
				inText = false
			case "tc":
				if t := strings.TrimSpace(cell.String()); depth == 1 && t != "" && len(tables) > 0 {
					tables[len(tables)-1] = append(tables[len(tables)-1], figureCell{col: col, row: row, text: t, shared: -1, style: -1})
					total++
				}
			case "tbl":
				depth--
			}
		}
	}
	return tables
}
