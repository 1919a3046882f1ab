package office

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// figure-arithmetic on a .xls: the cell records of each worksheet
// substream, seen by the one walk of scanBIFFCells, become the cells a
// workbook gives (figureCell): numbers with their XF (whose number format
// may show a date), shared and inline strings, and each FORMULA's cached
// number with its parsed expression written in the A1 syntax formula.go
// reads, so one evaluator checks every format.

// biffFigures collects the cells as the records pass.
type biffFigures struct {
	sheets  [][]figureCell
	cells   int
	numbers int
	// formats are the custom number formats (FORMAT, by ifmt); dateXFs
	// the cell styles (XF records, by index) whose format shows a date.
	formats    map[int]string
	dateXFs    map[int]bool
	xfs        int
	substreams []uint16 // the BOF types open (a chart may nest in a sheet)
	// shared are the open sheet's shared formulas (SHRFMLA) by their
	// first cell; pending the cells that use one (ptgExp), resolved when
	// the sheet ends.
	shared  map[[2]uint16][]byte
	pending []sharedUse
}

// sharedUse is a cell of the open sheet whose formula is a shared one.
type sharedUse struct {
	cell   int // index in the sheet's cells
	master [2]uint16
}

// maxSharedFormulas caps the shared formulas kept for one sheet.
const maxSharedFormulas = 4096

// BOF substream types ([MS-XLS] 2.4.21).
const (
	bofWorksheet = 0x0010
	maxBIFFNest  = 8
)

func (f *biffFigures) bof(d []byte) {
	dt := uint16(0)
	if len(d) >= 4 {
		dt = binary.LittleEndian.Uint16(d[2:])
	}
	if len(f.substreams) < maxBIFFNest {
		f.substreams = append(f.substreams, dt)
	}
	if dt == bofWorksheet {
		f.sheets = append(f.sheets, nil)
		clear(f.shared)
		f.pending = f.pending[:0]
	}
}

func (f *biffFigures) eof() {
	if n := len(f.substreams); n > 0 {
		if f.substreams[n-1] == bofWorksheet {
			f.resolveShared()
		}
		f.substreams = f.substreams[:n-1]
	}
}

// sharedFormula keeps a SHRFMLA record: the range's first cell, then the
// tokens, whose references are relative to each cell that uses them.
func (f *biffFigures) sharedFormula(d []byte) {
	if len(d) < 10 || !f.inWorksheet() || len(f.shared) >= maxSharedFormulas {
		return
	}
	cce := int(binary.LittleEndian.Uint16(d[8:]))
	if 10+cce > len(d) {
		return
	}
	if f.shared == nil {
		f.shared = map[[2]uint16][]byte{}
	}
	f.shared[[2]uint16{binary.LittleEndian.Uint16(d), uint16(d[4])}] = d[10 : 10+cce]
}

// resolveShared writes the open sheet's shared formulas into the cells
// that use them.
func (f *biffFigures) resolveShared() {
	if len(f.sheets) == 0 {
		return
	}
	sheet := f.sheets[len(f.sheets)-1]
	for _, u := range f.pending {
		if rgce, ok := f.shared[u.master]; ok && u.cell < len(sheet) {
			c := &sheet[u.cell]
			c.formula = ptgFormula(rgce, c.row-1, c.col-1)
		}
	}
	f.pending = f.pending[:0]
}

func (f *biffFigures) inWorksheet() bool {
	n := len(f.substreams)
	return n > 0 && f.substreams[n-1] == bofWorksheet && len(f.sheets) > 0
}

// format reads a FORMAT record: ifmt, then the format string.
func (f *biffFigures) format(d []byte) {
	if len(d) < 5 {
		return
	}
	if f.formats == nil {
		f.formats = map[int]string{}
	}
	if len(f.formats) >= maxStyles {
		return
	}
	cch := int(binary.LittleEndian.Uint16(d[2:]))
	f.formats[int(binary.LittleEndian.Uint16(d))] = biffStringNoCch(d[4:], min(cch, maxLabelChars))
}

// xf reads an XF record's number format; the records are the XF indexes
// in order.
func (f *biffFigures) xf(d []byte) {
	if len(d) < 4 || f.xfs >= 65536 {
		return
	}
	if f.dateXFs == nil {
		f.dateXFs = map[int]bool{}
	}
	n := int(binary.LittleEndian.Uint16(d[2:]))
	f.dateXFs[f.xfs] = formatKind(n, f.formats) != notDate
	f.xfs++
}

// add keeps a cell of the open worksheet (rw, col 0-based), up to the cap.
func (f *biffFigures) add(rw, col, ixfe uint16, c figureCell) {
	if !f.inWorksheet() || f.cells >= maxFigureCells {
		return
	}
	c.row, c.col, c.style = int(rw)+1, int(col)+1, int(ixfe)
	if c.shared < 0 && c.text == "" && c.raw == "" {
		return
	}
	if c.raw != "" {
		f.numbers++
	}
	f.sheets[len(f.sheets)-1] = append(f.sheets[len(f.sheets)-1], c)
	f.cells++
}

// number keeps a NUMBER, RK or MULRK value.
func (f *biffFigures) number(rw, col, ixfe uint16, v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	f.add(rw, col, ixfe, figureCell{shared: -1, raw: strconv.FormatFloat(v, 'f', -1, 64)})
}

// label keeps a LABELSST (a shared string's index) or a LABEL's text.
func (f *biffFigures) label(rw, col, ixfe uint16, shared int, text string) {
	f.add(rw, col, ixfe, figureCell{shared: shared, text: text})
}

// formula keeps a FORMULA record whose cached result is a number, with
// its expression when formula.go can read it.
func (f *biffFigures) formula(d []byte) {
	if len(d) < 22 || (d[12] == 0xFF && d[13] == 0xFF) {
		return // too short, or a string, boolean, error or empty result
	}
	rw, col, ixfe := binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:]), binary.LittleEndian.Uint16(d[4:])
	v := math.Float64frombits(binary.LittleEndian.Uint64(d[6:]))
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	cce := int(binary.LittleEndian.Uint16(d[20:]))
	var rgce []byte
	if 22+cce <= len(d) {
		rgce = d[22 : 22+cce]
	}
	before := f.cells
	f.add(rw, col, ixfe, figureCell{shared: -1, raw: strconv.FormatFloat(v, 'f', -1, 64), formula: ptgFormula(rgce, int(rw), int(col))})
	// A shared formula's cell holds only ptgExp: the cell that starts
	// the range, whose SHRFMLA record follows its own FORMULA.
	if f.cells > before && len(rgce) == 5 && rgce[0] == 0x01 && len(f.pending) < maxFigureCells {
		sheet := f.sheets[len(f.sheets)-1]
		f.pending = append(f.pending, sharedUse{cell: len(sheet) - 1,
			master: [2]uint16{binary.LittleEndian.Uint16(rgce[1:]), binary.LittleEndian.Uint16(rgce[3:])}})
	}
}

// ptgCell reads a reference's row and column (0-based). Relative ones
// (ptgRefN, ptgAreaN, in a shared formula) are offsets from the cell at
// baseRow, baseCol: a signed row and a signed 8-bit column.
func ptgCell(rw, col uint16, relative bool, baseRow, baseCol int) (int, int, bool) {
	r, c := int(rw), int(col&0x3FFF)
	if relative {
		if col&0x8000 != 0 {
			r = (baseRow + int(int16(rw))) & 0xFFFF
		}
		if col&0x4000 != 0 {
			c = (baseCol + int(int8(uint8(col)))) & 0xFF
		}
	}
	return r, c, c < 16384 && r < 1<<20
}

// ptgFormula writes a parsed formula (Ptg tokens in reverse Polish order,
// [MS-XLS] 2.5.198) in A1 syntax: numbers, same-sheet references and
// areas, + - * /, unary signs, parentheses, SUM and ROUND. Anything else
// gives "", a formula left alone. row and col place the cell, for the
// relative references of a shared formula.
func ptgFormula(rgce []byte, row, col int) string {
	var st []string
	pop := func(n int) []string {
		if len(st) < n {
			return nil
		}
		args := slices.Clone(st[len(st)-n:])
		st = st[:len(st)-n]
		return args
	}
	for p := 0; p < len(rgce); {
		t := rgce[p]
		if t >= 0x80 {
			return ""
		}
		switch {
		case t >= 0x03 && t <= 0x06: // ptgAdd, ptgSub, ptgMul, ptgDiv
			ab := pop(2)
			if ab == nil {
				return ""
			}
			st = append(st, "("+ab[0]+string("+-*/"[t-3])+ab[1]+")")
			p++
		case t == 0x12 || t == 0x13: // ptgUplus, ptgUminus
			a := pop(1)
			if a == nil {
				return ""
			}
			st = append(st, "("+string("+-"[t-0x12])+a[0]+")")
			p++
		case t == 0x15: // ptgParen: the text already groups every operation
			p++
		case t == 0x19: // ptgAttr
			if p+4 > len(rgce) {
				return ""
			}
			switch grbit := rgce[p+1]; {
			case grbit&0x04 != 0: // tAttrChoose: a jump table follows
				return ""
			case grbit&0x10 != 0: // tAttrSum: SUM of one argument
				a := pop(1)
				if a == nil {
					return ""
				}
				st = append(st, "SUM("+a[0]+")")
			}
			p += 4
		case t == 0x1E: // ptgInt
			if p+3 > len(rgce) {
				return ""
			}
			st = append(st, strconv.Itoa(int(binary.LittleEndian.Uint16(rgce[p+1:]))))
			p += 3
		case t == 0x1F: // ptgNum
			if p+9 > len(rgce) {
				return ""
			}
			v := math.Float64frombits(binary.LittleEndian.Uint64(rgce[p+1:]))
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return ""
			}
			st = append(st, strconv.FormatFloat(v, 'f', -1, 64))
			p += 9
		case t&0x1F == 0x04 || t&0x1F == 0x0C: // ptgRef, ptgRefN (of any class)
			if t < 0x20 || p+5 > len(rgce) {
				return ""
			}
			r, c, ok := ptgCell(binary.LittleEndian.Uint16(rgce[p+1:]), binary.LittleEndian.Uint16(rgce[p+3:]), t&0x1F == 0x0C, row, col)
			if !ok {
				return ""
			}
			st = append(st, cellName(c+1, r+1))
			p += 5
		case t&0x1F == 0x05 || t&0x1F == 0x0D: // ptgArea, ptgAreaN
			if t < 0x20 || p+9 > len(rgce) {
				return ""
			}
			rel := t&0x1F == 0x0D
			r1, c1, ok1 := ptgCell(binary.LittleEndian.Uint16(rgce[p+1:]), binary.LittleEndian.Uint16(rgce[p+5:]), rel, row, col)
			r2, c2, ok2 := ptgCell(binary.LittleEndian.Uint16(rgce[p+3:]), binary.LittleEndian.Uint16(rgce[p+7:]), rel, row, col)
			if !ok1 || !ok2 {
				return ""
			}
			st = append(st, cellName(c1+1, r1+1)+":"+cellName(c2+1, r2+1))
			p += 9
		case t == 0x21 || t == 0x41 || t == 0x61: // ptgFunc: fixed arguments
			if p+3 > len(rgce) || binary.LittleEndian.Uint16(rgce[p+1:]) != 27 { // ROUND
				return ""
			}
			ab := pop(2)
			if ab == nil {
				return ""
			}
			st = append(st, "ROUND("+ab[0]+","+ab[1]+")")
			p += 3
		case t == 0x22 || t == 0x42 || t == 0x62: // ptgFuncVar
			if p+4 > len(rgce) {
				return ""
			}
			n, fn := int(rgce[p+1]), binary.LittleEndian.Uint16(rgce[p+2:])&0x7FFF
			args := pop(n)
			switch {
			case args == nil || n == 0:
				return ""
			case fn == 4: // SUM
				st = append(st, "SUM("+strings.Join(args, ",")+")")
			case fn == 27 && n == 2:
				st = append(st, "ROUND("+args[0]+","+args[1]+")")
			default:
				return ""
			}
			p += 4
		default:
			return ""
		}
		if len(st) > 0 && len(st[len(st)-1]) > maxFormulaChars {
			return ""
		}
	}
	if len(st) != 1 {
		return ""
	}
	return st[0]
}

// figureArithmetic runs the checks on a .xls's worksheets.
func (l *legacy) figureArithmetic() *report.Finding {
	f := &l.cells.figures
	if l.format != sniff.XLS || f.numbers < minFigureNumbers {
		return nil
	}
	f.resolveShared() // a last sheet without its EOF
	var s figureSet
	for i, sheet := range f.sheets {
		// Cell records follow their rows; a sheet written out of order
		// is laid out all the same.
		slices.SortStableFunc(sheet, func(a, b figureCell) int {
			return cmp.Or(cmp.Compare(a.row, b.row), cmp.Compare(a.col, b.col))
		})
		resolveCells(sheet, l.cells.sst, f.dateXFs)
		s.addSheet(sheet, i+1)
	}
	return s.finding(false)
}
