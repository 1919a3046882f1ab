package figures

import (
	"maps"
	"slices"
)

// labelled is one figure a label names: the row and the cell.
type labelled struct {
	r *row
	c cell
}

// byRole collects the figures each role's rows print, by column. A role
// printed twice in one column with different values is ambiguous there
// and left out.
func byRole(rows []row) map[role]map[int]labelled {
	out := map[role]map[int]labelled{}
	bad := map[role]map[int]bool{}
	for i := range rows {
		r := &rows[i]
		if r.role == plain || r.role == forward {
			continue
		}
		if out[r.role] == nil {
			out[r.role], bad[r.role] = map[int]labelled{}, map[int]bool{}
		}
		for _, c := range r.money() {
			if prev, ok := out[r.role][c.col]; ok && prev.c.amt != c.amt {
				bad[r.role][c.col] = true
			}
			out[r.role][c.col] = labelled{r, c}
		}
	}
	for ro, cols := range bad {
		for c := range cols {
			delete(out[ro], c)
		}
	}
	return out
}

// term is one operand of an equation: a role's figure(s) with a sign.
type term struct {
	role role
	sign int64
}

// equation is result = Σ terms, named by a relation.
type equation struct {
	name   string
	result role
	terms  []term
}

var statementEquations = []equation{
	{Summary, closing, []term{{role: opening, sign: 1}, {role: moneyIn, sign: 1}, {role: moneyOut, sign: -1}}},
}

var invoiceEquations = []equation{
	{AmountDue, due, []term{{role: total, sign: 1}, {role: paid, sign: -1}}},
}

var payEquations = []equation{
	{NetPay, net, []term{{role: gross, sign: 1}, {role: deductions, sign: -1}}},
}

// payByTotal stands in where no deductions label was read: the total that
// follows the gross pay ("Summe", "Totals") is then the deductions'.
var payByTotal = equation{NetPay, net, []term{{role: gross, sign: 1}, {role: sum, sign: -1}}}

// equations test what the labels establish: a statement's summary, an
// invoice's total and tax, a payslip's gross to net, and a statement's
// summary against its transactions when a chain is established.
func equations(rows []row, ch chain) []instance {
	roles := byRole(rows)
	var out []instance
	for _, eqs := range [][]equation{statementEquations, invoiceEquations, payEquations} {
		for _, eq := range eqs {
			out = append(out, solve(eq, roles)...)
		}
	}
	if len(roles[deductions]) == 0 && len(roles[sum]) > 0 && afterGross(roles) {
		out = append(out, solve(payByTotal, roles)...)
	}
	out = append(out, invoiceTotal(rows, roles)...)
	out = append(out, taxRates(rows, roles)...)
	out = append(out, summaryAgainstChain(rows, roles, ch)...)
	return out
}

// solve tests eq in each column where the result and every operand are
// printed; when they stand in different columns (a summary box laid out
// freely) and each is printed once, it tests those.
func solve(eq equation, roles map[role]map[int]labelled) []instance {
	res := roles[eq.result]
	if len(res) == 0 {
		return nil
	}
	for _, t := range eq.terms {
		if len(roles[t.role]) == 0 {
			return nil
		}
	}
	var out []instance
	cols := sortedCols(res)
	for _, col := range cols {
		ops := make([]labelled, 0, len(eq.terms))
		for _, t := range eq.terms {
			l, ok := roles[t.role][col]
			if !ok && len(roles[t.role]) == 1 && len(res) == 1 {
				l, ok = only(roles[t.role])
			}
			if !ok {
				break
			}
			ops = append(ops, l)
		}
		if len(ops) != len(eq.terms) {
			continue
		}
		r := res[col]
		var want int64
		figs := []Figure{fig(r.r, r.c)}
		keys := []figKey{key(r.r, r.c)}
		for k, t := range eq.terms {
			// Labelled figures add by their label's sign, whatever sign
			// they print with; only an opening balance may be overdrawn.
			v := ops[k].c.amt.Units
			if t.role != opening {
				v = abs(v)
			}
			want += t.sign * v
			figs = append(figs, fig(ops[k].r, ops[k].c))
			keys = append(keys, key(ops[k].r, ops[k].c))
		}
		printed := r.c.amt.Units
		if eq.result != closing {
			printed = abs(printed)
		}
		out = append(out, instance{
			brk:  Break{Relation: eq.name, Page: r.r.page, Row: r.r.index, Printed: r.c.amt, Expected: amt(want), Figures: figs},
			held: printed == want, kind: eq.name, keys: keys,
		})
	}
	return out
}

// invoiceTotal: total = subtotal + taxes + charges after the subtotal −
// discounts after it.
func invoiceTotal(rows []row, roles map[role]map[int]labelled) []instance {
	tot, sub := roles[total], roles[subtotal]
	if len(tot) != 1 || len(sub) != 1 {
		return nil
	}
	t, _ := only(tot)
	s, _ := only(sub)
	if t.r.line <= s.r.line {
		return nil
	}
	want := abs(s.c.amt.Units)
	figs := []Figure{fig(t.r, t.c), fig(s.r, s.c)}
	keys := []figKey{key(t.r, t.c), key(s.r, s.c)}
	for i := range rows {
		r := &rows[i]
		if r.line <= s.r.line || r.line >= t.r.line {
			continue
		}
		m := r.money()
		if len(m) == 0 {
			continue
		}
		c := m[len(m)-1]
		switch r.role {
		case tax, shipping, plain:
			want += c.amt.Units
		case discount:
			want -= abs(c.amt.Units)
		default:
			continue
		}
		figs = append(figs, fig(r, c))
		keys = append(keys, key(r, c))
	}
	return []instance{{
		brk:  Break{Relation: InvoiceTotal, Page: t.r.page, Row: t.r.index, Printed: t.c.amt, Expected: amt(want), Figures: figs},
		held: abs(t.c.amt.Units) == want, kind: InvoiceTotal, keys: keys,
	}}
}

// taxRates: a tax line that prints its rate is the subtotal at that rate.
func taxRates(rows []row, roles map[role]map[int]labelled) []instance {
	sub := roles[subtotal]
	if len(sub) != 1 {
		return nil
	}
	s, _ := only(sub)
	var out []instance
	for i := range rows {
		r := &rows[i]
		if r.role != tax || r.line <= s.r.line {
			continue
		}
		var rate *cell
		for k := range r.cells {
			if r.cells[k].pct {
				rate = &r.cells[k]
			}
		}
		m := r.money()
		if rate == nil || len(m) == 0 {
			continue
		}
		c := m[len(m)-1]
		// subtotal × rate / 100, rounded half away from zero
		want, half := product(Amount{Units: rate.amt.Units, Scale: rate.amt.Scale + 2}, Amount{Units: abs(s.c.amt.Units), Scale: 2})
		d := abs(c.amt.Units) - want.Units
		out = append(out, instance{
			brk:  Break{Relation: TaxRate, Page: r.page, Row: r.index, Printed: c.amt, Expected: want, Figures: []Figure{fig(r, c), fig(s.r, s.c)}},
			held: d <= half && -d <= half, kind: TaxRate, keys: []figKey{key(r, c), key(s.r, s.c)},
		})
	}
	return out
}

// summaryAgainstChain: with a running balance established, the summary's
// closing balance is the chain's last, and its money in and out are the
// sums of the columns the chain adds and subtracts.
func summaryAgainstChain(rows []row, roles map[role]map[int]labelled, ch chain) []instance {
	if ch.balance < 0 || ch.last == nil {
		return nil
	}
	var out []instance
	if l, ok := only(roles[closing]); ok && len(roles[closing]) == 1 && l.r.line != ch.last.line {
		lc, _ := ch.last.inCol(ch.balance)
		out = append(out, instance{
			brk:  Break{Relation: Summary, Page: l.r.page, Row: l.r.index, Printed: l.c.amt, Expected: lc.amt, Figures: []Figure{fig(l.r, l.c), fig(ch.last, lc)}},
			held: l.c.amt == lc.amt, kind: Summary, keys: []figKey{key(l.r, l.c), key(ch.last, lc)},
		})
	}
	var in, outSum int64
	var inN, outN int
	for i := range rows {
		r := &rows[i]
		if !plainLike(r.role) {
			continue
		}
		for _, c := range r.cells {
			s, ok := ch.signs[c.col]
			if !ok || !c.money {
				continue
			}
			if v := s * c.amt.Units; v >= 0 {
				in += v
				inN++
			} else {
				outSum -= v
				outN++
			}
		}
	}
	for _, side := range []struct {
		role role
		sum  int64
		n    int
	}{{moneyIn, in, inN}, {moneyOut, outSum, outN}} {
		l, ok := only(roles[side.role])
		if !ok || len(roles[side.role]) != 1 || side.n < 2 {
			continue
		}
		// The figures summed are the chain's: a held chain vouches for them.
		keys := []figKey{key(l.r, l.c)}
		if ch.last != nil {
			lc, _ := ch.last.inCol(ch.balance)
			keys = append(keys, key(ch.last, lc))
		}
		out = append(out, instance{
			brk:  Break{Relation: Summary, Page: l.r.page, Row: l.r.index, Printed: l.c.amt, Expected: amt(side.sum), Figures: []Figure{fig(l.r, l.c)}},
			held: abs(l.c.amt.Units) == side.sum, kind: Summary, keys: keys,
		})
	}
	return out
}

// afterGross reports that every total labelled only as a total stands after
// the gross pay and before the net pay.
func afterGross(roles map[role]map[int]labelled) bool {
	g, ok1 := firstOf(roles[gross])
	n, ok2 := firstOf(roles[net])
	if !ok1 || !ok2 {
		return false
	}
	for _, l := range roles[sum] {
		if l.r.line <= g.r.line || l.r.line >= n.r.line {
			return false
		}
	}
	return true
}

func firstOf(m map[int]labelled) (labelled, bool) {
	for _, c := range sortedCols(m) {
		return m[c], true
	}
	return labelled{}, false
}

// only returns the one figure a role printed, when it printed one.
func only(m map[int]labelled) (labelled, bool) {
	if len(m) != 1 {
		return labelled{}, false
	}
	return firstOf(m)
}

func sortedCols(m map[int]labelled) []int { return slices.Sorted(maps.Keys(m)) }

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
