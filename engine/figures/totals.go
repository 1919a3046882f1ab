package figures

// Line products: quantity × unit price = line amount, on the rows of an
// invoice. The rows establish the pattern (which figures, counted from the
// right, are the three) when it holds on most of them.
const (
	productMinHeld = 2
	productRate    = 0.6
)

// productPattern names three figures of a row by their place from the
// right: quantity, unit price, amount; n is the row's count of figures. A
// row with another count (a number the description did not print, a
// quantity not read) would shift the places, so it is not tested.
type productPattern struct{ q, u, a, n int }

func products(rows []row) []instance {
	counts := map[productPattern]int{}
	tested := 0
	for i := range rows {
		r := &rows[i]
		if !productRow(r) {
			continue
		}
		tested++
		for _, p := range patternsOf(r) {
			if productHolds(r, p) {
				counts[p]++
			}
		}
	}
	var best productPattern
	bestN := 0
	for p, n := range counts {
		if n > bestN || (n == bestN && (p.a < best.a || (p.a == best.a && (p.u < best.u || (p.u == best.u && (p.q < best.q || (p.q == best.q && p.n < best.n))))))) {
			best, bestN = p, n
		}
	}
	if bestN < productMinHeld || float64(bestN) < productRate*float64(tested) {
		return nil
	}
	var out []instance
	for i := range rows {
		r := &rows[i]
		if !productRow(r) || len(r.cells) != best.n {
			continue
		}
		q, u, a := fromRight(r, best.q), fromRight(r, best.u), fromRight(r, best.a)
		if !a.money || !u.money || q.pct || !q.tests(u, a) {
			continue
		}
		want, _ := product(q.amt, u.amt)
		out = append(out, instance{
			brk:  Break{Relation: LineAmount, Page: r.page, Row: r.index, Printed: a.amt, Expected: want, Figures: []Figure{fig(r, a), fig(r, q), fig(r, u)}},
			held: productHolds(r, best), kind: LineAmount, trust: true,
			keys: []figKey{key(r, a)},
		})
	}
	return out
}

// productRow is an invoice line: a plain row with a count or amount and
// at least two amounts, and nothing negative (a discount line). A rate on
// the line (its tax) is none of the three figures.
func productRow(r *row) bool {
	if r.role != plain || len(r.cells) < 3 || len(r.cells) > 8 {
		return false
	}
	money := 0
	for _, c := range r.cells {
		if c.amt.Units < 0 {
			return false
		}
		if c.money {
			money++
		}
	}
	return money >= 2
}

func patternsOf(r *row) []productPattern {
	var out []productPattern
	n := len(r.cells)
	for a := 0; a < n && a < 4; a++ {
		for u := a + 1; u < n; u++ {
			for q := u + 1; q < n && q <= u+2; q++ {
				out = append(out, productPattern{q, u, a, n})
			}
		}
	}
	return out
}

// tests reports a quantity that can tell a product from a copy: none, or
// one unit priced at the amount, proves nothing.
func (q cell) tests(u, a cell) bool {
	return q.amt.Units != 0 && (q.amt.at(2) != 100 || u.amt != a.amt)
}

func fromRight(r *row, k int) cell { return r.cells[len(r.cells)-1-k] }

func productHolds(r *row, p productPattern) bool {
	if p.q >= len(r.cells) {
		return false
	}
	q, u, a := fromRight(r, p.q), fromRight(r, p.u), fromRight(r, p.a)
	if !a.money || !u.money || q.pct || !q.tests(u, a) {
		return false
	}
	want, half := product(q.amt, u.amt)
	d := a.amt.Units - want.Units
	return d <= half && -d <= half
}

// product is q × u in the amount's two decimals, rounded half away from
// zero, and the tolerance: half a cent per rounding (none when exact).
func product(q, u Amount) (Amount, int64) {
	p := q.Units * u.Units // scale q.Scale+2
	div := int64(1)
	for i := 0; i < q.Scale; i++ {
		div *= 10
	}
	r := p / div
	rem := p % div
	if rem < 0 {
		rem = -rem
	}
	if 2*rem >= div {
		if p < 0 {
			r--
		} else {
			r++
		}
	}
	var half int64
	if rem != 0 {
		half = 1 // the document may round another way
	}
	return amt(r), half
}

// blockMembers are the roles a printed total of each kind adds up.
var blockMembers = map[role][]role{
	sum:        {plain, shipping, discount, paid, tax},
	subtotal:   {plain, shipping, discount},
	moneyIn:    {plain, paid, tax, shipping, discount},
	moneyOut:   {plain, paid, tax, shipping, discount},
	gross:      {plain},
	deductions: {plain, tax},
}

// blockTotals test each printed total against the figures above it in its
// column: since the previous total in that column, since the top of its
// page, or since the start of the document, whichever it says.
func blockTotals(rows []row, ch chain) []instance {
	var out []instance
	for i := range rows {
		r := &rows[i]
		members, ok := blockMembers[r.role]
		if !ok {
			continue
		}
		for _, c := range r.cells {
			if !c.money || c.col < 0 || (ch.balance >= 0 && c.col == ch.balance) {
				continue
			}
			sums, keys, n := blockSums(rows, i, c.col, members)
			if n < 2 {
				continue
			}
			held := false
			for _, s := range sums {
				held = held || s == c.amt.Units
			}
			figs := []Figure{fig(r, c)}
			out = append(out, instance{
				brk:  Break{Relation: ColumnTotal, Page: r.page, Row: r.index, Printed: c.amt, Expected: amt(sums[0]), Figures: figs},
				held: held, kind: ColumnTotal, keys: append(keys, key(r, c)),
				// a column that sums elsewhere in the document is a summed column
				trust: false,
			})
		}
	}
	// A break in a column whose totals hold elsewhere is established by
	// that column.
	heldCols := map[int]bool{}
	for _, in := range out {
		if in.held {
			heldCols[in.keys[len(in.keys)-1].col] = true
		}
	}
	for i := range out {
		if !out[i].held && heldCols[out[i].keys[len(out[i].keys)-1].col] {
			out[i].trust = true
		}
	}
	return out
}

// blockSums returns what a printed total in column col at row i may add
// up: the member rows above it back to the previous total in the column,
// any first or last run of them (a gross pay over the earnings listed
// before the deductions), their positive or their negative figures alone,
// the figures since the top of the page (a page starting from a carried
// total adds to it), and since the start of the document. n is how many
// figures the block holds.
func blockSums(rows []row, i, col int, members []role) (sums []int64, keys []figKey, n int) {
	var block []int64
	var page, doc int64
	blockOpen, pageOpen := true, true
	for j := i - 1; j >= 0; j-- {
		r := &rows[j]
		c, ok := r.inCol(col)
		if !ok {
			continue
		}
		if _, isTotal := blockMembers[r.role]; isTotal || r.role == total || r.role == forward {
			blockOpen = false
			if r.role == forward && r.page == rows[i].page && pageOpen {
				page += c.amt.Units
				pageOpen = false
			}
			continue
		}
		if !isMember(r.role, members) {
			continue
		}
		if r.page != rows[i].page {
			pageOpen = false
		}
		if blockOpen {
			block = append(block, c.amt.Units) // nearest first
			keys = append(keys, key(r, c))
		}
		if pageOpen {
			page += c.amt.Units
		}
		doc += c.amt.Units
	}
	var whole, pos, neg, run int64
	for _, v := range block {
		whole += v
		if v > 0 {
			pos += v
		} else {
			neg += v
		}
	}
	sums = []int64{whole, pos, neg, page, doc}
	for k := 0; k+1 < len(block) && len(block) <= maxBlockRuns; k++ {
		run += block[k]
		sums = append(sums, run, whole-run) // the last k+1 rows, the first ones
	}
	return sums, keys, len(block)
}

// maxBlockRuns bounds the runs of a block tried as a total's parts.
const maxBlockRuns = 200

func isMember(r role, list []role) bool {
	for _, x := range list {
		if x == r {
			return true
		}
	}
	return false
}
