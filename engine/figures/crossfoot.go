package figures

import (
	"cmp"
	"slices"
)

// Row totals (cross-footing): a figure that is the sum of two others on
// its own row, column by column, as an invoice line's net + tax = gross,
// an amount's principal + interest = payment, or a payslip row's basic +
// overtime = gross. The rows establish which columns tie together when the
// sum holds on enough rows where both addends move it; then a row that
// prints all three and does not add up breaks it.
const (
	rowTotalMinMoving = 3
	rowTotalRate      = 0.75
	maxRowTotalCells  = 8 // amounts of one row tried against each other
)

// rowTotal names three columns: x = y + z, with y < z.
type rowTotal struct{ x, y, z int }

type rowTotalCount struct{ tested, held, moving int }

func rowTotals(rows []row) []instance {
	counts := map[rowTotal]*rowTotalCount{}
	for i := range rows {
		cells := crossCells(&rows[i])
		for _, x := range cells {
			for j, y := range cells {
				for _, z := range cells[j+1:] {
					if x.col == y.col || x.col == z.col {
						continue
					}
					p := rowTotal{x.col, y.col, z.col}
					c := counts[p]
					if c == nil {
						c = &rowTotalCount{}
						counts[p] = c
					}
					c.tested++
					if crossHolds(x, y, z) {
						c.held++
						if y.amt.Units != 0 && z.amt.Units != 0 {
							c.moving++
						}
					}
				}
			}
		}
	}
	var kept []rowTotal
	for p, c := range counts {
		if c.moving >= rowTotalMinMoving && float64(c.held) >= rowTotalRate*float64(c.tested) {
			kept = append(kept, p)
		}
	}
	slices.SortFunc(kept, func(a, b rowTotal) int {
		return cmp.Or(cmp.Compare(a.x, b.x), cmp.Compare(a.y, b.y), cmp.Compare(a.z, b.z))
	})
	var out []instance
	for _, p := range kept {
		for i := range rows {
			r := &rows[i]
			x, okx := r.inCol(p.x)
			y, oky := r.inCol(p.y)
			z, okz := r.inCol(p.z)
			if !okx || !oky || !okz {
				continue
			}
			out = append(out, instance{
				brk:  Break{Relation: RowTotal, Page: r.page, Row: r.index, Printed: x.amt, Expected: amt(y.amt.Units + z.amt.Units), Figures: []Figure{fig(r, x), fig(r, y), fig(r, z)}},
				held: crossHolds(x, y, z), kind: RowTotal, trust: true,
				keys: []figKey{key(r, x), key(r, y), key(r, z)},
			})
		}
	}
	return out
}

// crossCells are a row's amounts placed in columns, at most
// maxRowTotalCells of them: a wider row is a grid of figures, not a line
// with a total.
func crossCells(r *row) []cell {
	var out []cell
	for _, c := range r.cells {
		if c.money && !c.pct && c.col >= 0 {
			out = append(out, c)
		}
	}
	if len(out) < 3 || len(out) > maxRowTotalCells {
		return nil
	}
	return out
}

// crossHolds allows a cent either way: figures rounded one by one (a tax
// rounded, the gross computed from the rounded net) may differ by one.
func crossHolds(x, y, z cell) bool {
	d := x.amt.Units - y.amt.Units - z.amt.Units
	return d >= -1 && d <= 1
}
