package office

import (
	"math/big"
	"slices"
	"strings"
)

// Formulas the check recomputes: numbers, cell references and ranges of
// the same sheet, + - * /, parentheses, SUM and ROUND. Anything else (a
// function it does not know, another sheet, a name) is left alone: the
// check speaks only of formulas it can read whole. A shared formula's
// later cells store no text: they are read as their anchor's text with
// its relative references moved by the cell's offset from the anchor.
const maxRangeCells = 10_000

// maxFormulaReads caps the cells one file's formulas read in all: a few
// bytes of shared formula can ask for a 10,000-cell SUM in every one of
// 200,000 cells. Formulas past it are left alone.
const maxFormulaReads = 2_000_000

// halfCent is the tolerance: a saved result may differ from the exact
// value by what a two-decimal display hides.
var halfCent = big.NewRat(1, 200)

// checkFormulas recomputes each formula of a sheet from the saved values
// of the cells it reads and returns how many agree and the ones that do
// not; reads counts the cells the file's formulas have read so far.
func checkFormulas(cells []figureCell, sheet int, reads *int) (held int, broken []formulaBreak) {
	if !slices.ContainsFunc(cells, func(c figureCell) bool { return c.formula != "" }) {
		return 0, nil // a table of values (all a text document's): no map to build
	}
	values := make(map[[2]int]*big.Rat, len(cells))
	for _, c := range cells {
		if c.value != nil {
			values[[2]int{c.col, c.row}] = c.value
		}
	}
	for _, c := range cells {
		if c.formula == "" || c.value == nil {
			continue
		}
		p := formulaParser{src: strings.ToUpper(c.formula), values: values, dCol: c.dCol, dRow: c.dRow, reads: *reads}
		v, ok := p.expr()
		*reads = p.reads
		if !ok || p.pos != len(p.src) || p.cells == 0 {
			continue
		}
		d := new(big.Rat).Sub(v, c.value)
		if d.Abs(d).Cmp(halfCent) <= 0 {
			held++
			continue
		}
		broken = append(broken, formulaBreak{Sheet: sheet, Cell: cellName(c.col, c.row), Saved: c.value.FloatString(2), Computed: v.FloatString(2)})
	}
	return held, broken
}

// formulaParser is a recursive-descent reader of the formula subset.
type formulaParser struct {
	src    string
	pos    int
	values map[[2]int]*big.Rat
	cells  int // cell references read
	depth  int
	// dCol and dRow move the references not anchored by $: a shared
	// formula's later cell reads its anchor's text this far away.
	dCol, dRow int
	reads      int // cells read by this file's formulas, against maxFormulaReads
}

func (p *formulaParser) peek() byte {
	for p.pos < len(p.src) && p.src[p.pos] == ' ' {
		p.pos++
	}
	if p.pos < len(p.src) {
		return p.src[p.pos]
	}
	return 0
}

func (p *formulaParser) expr() (*big.Rat, bool) {
	p.depth++
	defer func() { p.depth-- }()
	if p.depth > 32 {
		return nil, false
	}
	v, ok := p.term()
	for ok {
		switch p.peek() {
		case '+':
			p.pos++
			w, ok2 := p.term()
			if !ok2 {
				return nil, false
			}
			v = new(big.Rat).Add(v, w)
		case '-':
			p.pos++
			w, ok2 := p.term()
			if !ok2 {
				return nil, false
			}
			v = new(big.Rat).Sub(v, w)
		default:
			return v, true
		}
	}
	return nil, false
}

func (p *formulaParser) term() (*big.Rat, bool) {
	v, ok := p.factor()
	for ok {
		switch p.peek() {
		case '*':
			p.pos++
			w, ok2 := p.factor()
			if !ok2 {
				return nil, false
			}
			v = new(big.Rat).Mul(v, w)
		case '/':
			p.pos++
			w, ok2 := p.factor()
			if !ok2 || w.Sign() == 0 {
				return nil, false
			}
			v = new(big.Rat).Quo(v, w)
		default:
			return v, true
		}
	}
	return nil, false
}

func (p *formulaParser) factor() (*big.Rat, bool) {
	switch c := p.peek(); {
	case c == '-':
		p.pos++
		v, ok := p.factor()
		if !ok {
			return nil, false
		}
		return new(big.Rat).Neg(v), true
	case c == '+':
		p.pos++
		return p.factor()
	case c == '(':
		p.pos++
		v, ok := p.expr()
		if !ok || p.peek() != ')' {
			return nil, false
		}
		p.pos++
		return v, true
	case c >= '0' && c <= '9' || c == '.':
		start := p.pos
		for p.pos < len(p.src) && (p.src[p.pos] >= '0' && p.src[p.pos] <= '9' || p.src[p.pos] == '.') {
			p.pos++
		}
		return new(big.Rat).SetString(p.src[start:p.pos])
	case c == '$' || c >= 'A' && c <= 'Z':
		start := p.pos
		for p.pos < len(p.src) && (p.src[p.pos] >= 'A' && p.src[p.pos] <= 'Z' || p.src[p.pos] == '$') {
			p.pos++
		}
		word := p.src[start:p.pos]
		if p.peek() == '(' {
			return p.call(word)
		}
		p.pos = start
		col, row, ok := p.ref()
		if !ok {
			return nil, false
		}
		if p.peek() == ':' {
			return nil, false // a range outside SUM
		}
		if p.reads >= maxFormulaReads {
			return nil, false
		}
		p.reads++
		p.cells++
		if v := p.values[[2]int{col, row}]; v != nil {
			return v, true
		}
		return new(big.Rat), true // an empty cell reads as zero
	}
	return nil, false
}

// call evaluates SUM(...) and ROUND(x, n).
func (p *formulaParser) call(name string) (*big.Rat, bool) {
	p.pos++ // (
	switch name {
	case "SUM":
		total := new(big.Rat)
		for {
			if v, ok := p.rangeSum(); ok {
				total.Add(total, v)
			} else if v, ok := p.expr(); ok {
				total.Add(total, v)
			} else {
				return nil, false
			}
			switch p.peek() {
			case ',':
				p.pos++
			case ')':
				p.pos++
				return total, true
			default:
				return nil, false
			}
		}
	case "ROUND":
		v, ok := p.expr()
		if !ok || p.peek() != ',' {
			return nil, false
		}
		p.pos++
		n, ok := p.expr()
		if !ok || !n.IsInt() || p.peek() != ')' {
			return nil, false
		}
		p.pos++
		digits := n.Num().Int64()
		if digits < 0 || digits > 10 {
			return nil, false
		}
		return roundHalfAway(v, int(digits)), true
	}
	return nil, false
}

// rangeSum reads A1:B9 and sums its cells; the position is restored when
// what follows is no range.
func (p *formulaParser) rangeSum() (*big.Rat, bool) {
	start := p.pos
	c1, r1, ok := p.ref()
	if !ok || p.peek() != ':' {
		p.pos = start
		return nil, false
	}
	p.pos++
	c2, r2, ok := p.ref()
	if !ok {
		p.pos = start
		return nil, false
	}
	if c1 > c2 {
		c1, c2 = c2, c1
	}
	if r1 > r2 {
		r1, r2 = r2, r1
	}
	area := (c2 - c1 + 1) * (r2 - r1 + 1)
	if area > maxRangeCells || p.reads+area > maxFormulaReads {
		p.pos = start
		return nil, false
	}
	p.reads += area
	total := new(big.Rat)
	for c := c1; c <= c2; c++ {
		for r := r1; r <= r2; r++ {
			if v := p.values[[2]int{c, r}]; v != nil {
				total.Add(total, v)
			}
		}
	}
	p.cells++
	return total, true
}

// ref reads a cell reference ($A$1, B12), moved by the parser's offset
// where no $ anchors it.
func (p *formulaParser) ref() (col, row int, ok bool) {
	p.peek()
	i := p.pos
	absCol, absRow := false, false
	if i < len(p.src) && p.src[i] == '$' {
		absCol = true
		i++
	}
	for ; i < len(p.src) && p.src[i] >= 'A' && p.src[i] <= 'Z'; i++ {
		col = col*26 + int(p.src[i]-'A'+1)
		if col > 16384 {
			return 0, 0, false
		}
	}
	if col == 0 {
		return 0, 0, false
	}
	if i < len(p.src) && p.src[i] == '$' {
		absRow = true
		i++
	}
	for ; i < len(p.src) && p.src[i] >= '0' && p.src[i] <= '9'; i++ {
		row = row*10 + int(p.src[i]-'0')
		if row > 1<<20 {
			return 0, 0, false
		}
	}
	if row == 0 {
		return 0, 0, false
	}
	if !absCol {
		col += p.dCol
	}
	if !absRow {
		row += p.dRow
	}
	if col < 1 || col > 16384 || row < 1 || row > 1<<20 {
		return 0, 0, false // moved off the sheet: Excel shows #REF!
	}
	p.pos = i
	return col, row, true
}

// roundHalfAway rounds v to digits decimals as Excel's ROUND does.
func roundHalfAway(v *big.Rat, digits int) *big.Rat {
	scale := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(digits)), nil)
	x := new(big.Rat).Mul(v, new(big.Rat).SetInt(scale))
	num, den := x.Num(), x.Denom()
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(den) >= 0 {
		if num.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	return new(big.Rat).SetFrac(q, scale)
}
