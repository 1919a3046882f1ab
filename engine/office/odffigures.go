package office

import (
	"context"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
)

// figure-arithmetic on OpenDocument: a spreadsheet's table:table elements
// are its sheets, a text document's are its tables. Both become the cells
// a workbook gives (figureCell), so the layout and the formula check are
// those of xlsx.

// maxODFRows bounds the row count a table:number-rows-repeated may claim:
// the last rows of a sheet are saved as one empty row repeated to the
// sheet's end.
const maxODFRows = 1 << 20

// odfFigures runs the check on content.xml of an .ods or .odt.
func (a *analysis) odfFigures(content []byte) *report.Finding {
	if content == nil || (a.kind != "xl" && a.kind != "word") {
		return nil
	}
	spreadsheet := a.kind == "xl"
	tables := readODFTables(a.ctx, content, maxFigureCells, spreadsheet)
	if spreadsheet {
		numbers := 0
		for _, t := range tables {
			numbers += countNumbers(t)
		}
		if numbers < minFigureNumbers {
			return nil
		}
	}
	var s figureSet
	for i, t := range tables {
		s.addSheet(t, i+1)
	}
	return s.finding(!spreadsheet)
}

// readODFTables reads the cells of every top-level table:table, at most
// limit in all, resolved (resolveCells). values: a spreadsheet, whose
// numbers are read from office:value and whose formulas are kept;
// otherwise a text document, whose cells are read as the text they show.
func readODFTables(ctx context.Context, data []byte, limit int, values bool) [][]figureCell {
	w := newWalker(ctx, data)
	var tables [][]figureCell
	var row []figureCell // the current row's cells, before its repetition
	depth := 0           // table:table nesting
	r, c := 0, 0         // the current row and the next cell's column (1-based)
	rowRepeat := 1
	var cur figureCell
	cellRepeat := 0 // >0 inside a cell that is read
	paragraphs := 0 // text:p seen in the cell
	note := 0       // office:annotation nesting: a comment is not the cell's text
	var text strings.Builder
	total := 0
	for k := w.next(); k != tokNone && total < limit; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "table":
				depth++
				if depth == 1 {
					tables = append(tables, nil)
					r, c = 0, 0
				}
			case "table-row":
				if depth == 1 && len(tables) > 0 {
					row = row[:0]
					c = 1
					rowRepeat = odfRows(w.attr("number-rows-repeated"))
					r++
				}
			case "table-cell", "covered-table-cell":
				if depth != 1 || c < 1 {
					break // outside a row
				}
				n := odfRepeat(w.attr("number-columns-repeated"))
				// A covered cell lies under a merged one: it takes its
				// column and shows nothing.
				if w.start.Name.Local == "table-cell" && c <= maxODFColumns {
					cur = odfCell(w, c, r, values)
					cellRepeat = n
					paragraphs = 0
					text.Reset()
				}
				c += n
			case "p", "h":
				if cellRepeat > 0 && note == 0 && depth == 1 {
					if paragraphs > 0 {
						text.WriteByte(' ')
					}
					paragraphs++
				}
			case "s", "tab", "line-break":
				if cellRepeat > 0 && note == 0 && depth == 1 {
					text.WriteByte(' ')
				}
			case "annotation":
				note++
			}
		case tokText:
			if cellRepeat > 0 && note == 0 && depth == 1 {
				writeCapped(&text, w.text, maxLabelChars)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "annotation":
				note = max(note-1, 0)
			case "table-cell":
				if cellRepeat == 0 || depth != 1 {
					break
				}
				if cur.raw == "" && !cur.date {
					cur.text = strings.Join(strings.Fields(text.String()), " ")
				}
				if cur.raw != "" {
					// Resolved once: a repeated cell's copies share it.
					one := []figureCell{cur}
					resolveCells(one, nil, nil)
					cur = one[0]
				}
				if cur.text != "" || cur.raw != "" {
					// A repeated cell's copies show its figure; its
					// formula's references are the first copy's.
					for i := 0; i < cellRepeat && cur.col <= maxODFColumns && len(row)+total < limit; i++ {
						row = append(row, cur)
						cur.col++
						cur.formula = ""
					}
				}
				cellRepeat = 0
			case "table-row":
				if depth != 1 || c < 1 {
					break
				}
				c = 0
				t := &tables[len(tables)-1]
				for i := 0; i < rowRepeat && r+i <= maxODFRows && len(row) > 0 && total < limit; i++ {
					for _, cell := range row {
						if total >= limit {
							break
						}
						cell.row = r + i
						if i > 0 {
							cell.formula = ""
						}
						*t = append(*t, cell)
						total++
					}
				}
				r = min(r+rowRepeat-1, maxODFRows)
			case "table":
				depth = max(depth-1, 0)
			}
		}
	}
	return tables
}

// odfCell starts a cell from its attributes: a spreadsheet's number from
// office:value and its formula in the A1 form formula.go reads; a date or
// time is marked to be left out. The cell's text comes from its
// paragraphs.
func odfCell(w *walker, col, row int, values bool) figureCell {
	c := figureCell{col: col, row: row, shared: -1, style: -1}
	if !values {
		return c
	}
	switch t, _ := w.attr("value-type"); t {
	case "float", "currency", "percentage":
		if v, ok := w.attr("value"); ok && len(v) < 40 {
			c.raw = strings.TrimSpace(v)
		}
		if f, ok := w.attr("formula"); ok && len(f) <= maxFormulaChars {
			c.formula = odfFormula(f)
		}
	case "date", "time":
		c.date = true
	}
	return c
}

// odfFormula rewrites an OpenFormula expression (of:=SUM([.B2:.B5]),
// of:=[.B2]+[.C2]) in the A1 syntax of a workbook formula (SUM(B2:B5),
// B2+C2). It returns "" for what the evaluator must not read: another
// sheet, another namespace's syntax, a string.
func odfFormula(f string) string {
	ns, expr, ok := strings.Cut(f, ":=")
	switch {
	case !ok && strings.HasPrefix(f, "="):
		expr = f[1:]
	case !ok || (ns != "of" && ns != "oooc"):
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(expr); i++ {
		switch ch := expr[i]; ch {
		case '[':
			end := strings.IndexByte(expr[i:], ']')
			if end < 0 {
				return ""
			}
			ref, ok := odfReference(expr[i+1 : i+end])
			if !ok {
				return ""
			}
			b.WriteString(ref)
			i += end
		case ';':
			b.WriteByte(',')
		case '"', '\'', '!':
			return ""
		default:
			b.WriteByte(ch)
		}
	}
	return b.String()
}

// odfReference reads the inside of [.B2] or [.B2:.B5] (this sheet's
// cells); a reference naming a sheet ([Sheet2.B2], [$Sheet2.B2]) is
// refused.
func odfReference(r string) (string, bool) {
	from, to, isRange := strings.Cut(r, ":")
	a, ok := strings.CutPrefix(from, ".")
	if !ok || a == "" {
		return "", false
	}
	if !isRange {
		return a, true
	}
	z, ok := strings.CutPrefix(to, ".")
	if !ok || z == "" {
		return "", false
	}
	return a + ":" + z, true
}

// odfRows reads table:number-rows-repeated as odfRepeat reads the
// columns' count, under the larger bound of rows.
func odfRows(v string, ok bool) int {
	n, err := strconv.Atoi(v)
	if !ok || err != nil || n < 1 {
		return 1
	}
	return min(n, maxODFRows)
}
