package figures

import (
	"cmp"
	"slices"
)

// Row totals (cross-footing): a figure that is the sum of the figures
// beside it on its own row, as an invoice line's net + tax = gross, an
// ageing report's buckets and their total, or gross = deductions + net.
// The addends are a run of the row's amounts next to the total, on its
// left or its right: a relation between columns that are not neighbours
// is left alone, since a row that leaves a column blank would then be read
// against the wrong figures. The rows establish which columns tie
// together when the sum holds on enough rows where two addends or more
// move it; a row that prints them and adds up in no run is a break.
const (
	rowTotalMinMoving = 3
	rowTotalRate      = 0.75
	maxRowTotalCells  = 8 // amounts of one row tried against each other
)

// rowRun is a total and the run of columns beside it that sum to it.
type rowRun struct {
	x     int
	run   [maxRowTotalCells]int // the addends' columns, left to right
	n     int
	right bool // the addends are on the total's right
}

type rowRunCount struct{ tested, held, moving int }

func rowTotals(rows []row) []instance {
	counts := map[rowRun]*rowRunCount{}
	for i := range rows {
		cells := crossCells(&rows[i])
		eachRun(cells, func(p rowRun, x cell, addends []cell) {
			c := counts[p]
			if c == nil {
				c = &rowRunCount{}
				counts[p] = c
			}
			c.tested++
			if sumHolds(x, addends) {
				c.held++
				if moves(addends) {
					c.moving++
				}
			}
		})
	}
	var kept []rowRun
	for p, c := range counts {
		if c.moving >= rowTotalMinMoving && float64(c.held) >= rowTotalRate*float64(c.tested) {
			kept = append(kept, p)
		}
	}
	slices.SortFunc(kept, compareRuns)
	var out []instance
	for i := range rows {
		r := &rows[i]
		cells := crossCells(r)
		eachRun(cells, func(p rowRun, x cell, addends []cell) {
			if _, ok := slices.BinarySearchFunc(kept, p, compareRuns); !ok {
				return
			}
			var want int64
			figs := []Figure{fig(r, x)}
			keys := []figKey{key(r, x)}
			for _, a := range addends {
				want += a.amt.Units
				figs = append(figs, fig(r, a))
				keys = append(keys, key(r, a))
			}
			out = append(out, instance{
				brk: Break{Relation: RowTotal, Page: r.page, Row: r.index, Printed: x.amt, Expected: amt(want), Figures: figs},
				// A row that sums another way beside the same total (a
				// blank bucket, one more addend) holds.
				held: anyRunHolds(cells, x, p.right), kind: RowTotal, trust: true, keys: keys,
			})
		})
	}
	return out
}

func compareRuns(a, b rowRun) int {
	r := func(right bool) int {
		if right {
			return 1
		}
		return 0
	}
	return cmp.Or(cmp.Compare(a.x, b.x), cmp.Compare(r(a.right), r(b.right)), cmp.Compare(a.n, b.n), slices.Compare(a.run[:], b.run[:]))
}

// eachRun calls f with each figure of the row and each run of two or more
// of its neighbours on one side.
func eachRun(cells []cell, f func(p rowRun, x cell, addends []cell)) {
	for t, x := range cells {
		for k := 2; k <= t; k++ {
			f(runOf(x, cells[t-k:t], false), x, cells[t-k:t])
		}
		for k := 2; t+k < len(cells); k++ {
			f(runOf(x, cells[t+1:t+1+k], true), x, cells[t+1:t+1+k])
		}
	}
}

func runOf(x cell, addends []cell, right bool) rowRun {
	p := rowRun{x: x.col, n: len(addends), right: right}
	for i, a := range addends {
		p.run[i] = a.col
	}
	return p
}

// anyRunHolds reports that x is the sum of some run beside it on the side.
func anyRunHolds(cells []cell, x cell, right bool) bool {
	t := slices.IndexFunc(cells, func(c cell) bool { return c.col == x.col })
	for k := 2; ; k++ {
		lo, hi := t-k, t
		if right {
			lo, hi = t+1, t+1+k
		}
		if lo < 0 || hi > len(cells) {
			return false
		}
		if sumHolds(x, cells[lo:hi]) {
			return true
		}
	}
}

// crossCells are a row's amounts placed in columns, left to right, at
// most maxRowTotalCells of them: a wider row is a grid of figures, not a
// line with a total.
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

// sumHolds allows a cent either way for each addend past the first:
// figures rounded one by one (a tax rounded, the gross from the rounded
// net) may differ by that much.
func sumHolds(x cell, addends []cell) bool {
	d := x.amt.Units
	for _, a := range addends {
		d -= a.amt.Units
	}
	tol := int64(len(addends) - 1)
	return d >= -tol && d <= tol
}

// moves reports two addends or more that are not zero: a sum of one
// figure and zeros is a copy, which proves no relation.
func moves(addends []cell) bool {
	n := 0
	for _, a := range addends {
		if a.amt.Units != 0 {
			n++
		}
	}
	return n >= 2
}
