package figures

import (
	"slices"
	"sort"
)

// chain is a running balance: the column that carries it, the sign each
// other column adds it with, and its tested steps.
type chain struct {
	balance int // column; -1 when no chain is established
	signs   map[int]int64
	arr     signArr // the same signs by place in known
	steps   []instance
	last    *row  // the balance the last tested step ends on
	known   []int // the columns beside the balance the hypothesis read
	// counts of the steps: held, held while the balance moved, tested
	held, moving, tested int
}

// Thresholds of an established chain: enough steps that move the balance
// hold, and most steps hold.
const (
	chainMinHeld  = 3
	chainHeldRate = 0.75
	maxOptional   = 3 // labelled rows inside one step whose figures may or may not count
	maxBalanceCol = 8
)

// plainLike roles are transactions inside a chain: a description may name
// a tax, a delivery or a payment.
func plainLike(r role) bool {
	return r == plain || r == paid || r == tax || r == shipping || r == discount
}

// bestChain tries each column with enough amounts as the balance and each
// way of signing the columns beside it, read top down and bottom up (an
// online banking export lists the newest transaction first: each balance
// is the one below it moved by its own row), and keeps the hypothesis
// under which most balance moves hold. Quiet (balance -1) when none is
// established.
func bestChain(rows []row) chain {
	best, use := searchChain(rows), rows
	up := slices.Clone(rows)
	slices.Reverse(up)
	if ch := searchChain(up); ch.balance >= 0 && (best.balance < 0 || ch.moving > best.moving) {
		best, use = ch, up
	}
	if best.balance < 0 {
		return best
	}
	return keepCarries(evalChain(use, viewOf(nil, use, best.balance, best.known), best.balance, best.arr, best.known, true), use)
}

// searchChain is bestChain in one reading order, without recording steps.
func searchChain(rows []row) chain {
	count := map[int]int{}
	for _, r := range rows {
		for _, c := range r.cells {
			if c.money {
				count[c.col]++
			}
		}
	}
	var cands []int
	for c, n := range count {
		if n >= chainMinHeld+1 {
			cands = append(cands, c)
		}
	}
	sort.Slice(cands, func(i, j int) bool {
		if count[cands[i]] != count[cands[j]] {
			return count[cands[i]] > count[cands[j]]
		}
		return cands[i] < cands[j]
	})
	if len(cands) > maxBalanceCol {
		cands = cands[:maxBalanceCol]
	}
	best := chain{balance: -1}
	bestScore := [2]int{}
	var view []rowView
	for _, b := range cands {
		others := partners(rows, b)
		view = viewOf(view, rows, b, others)
		n := 1
		for range others {
			n *= 3
		}
		for code := 1; code < n; code++ {
			var signs signArr
			x, used := code, 0
			for k := range others {
				if signs[k] = int64(x%3) - 1; signs[k] != 0 {
					used++
				}
				x /= 3
			}
			if used == 0 {
				continue
			}
			ch := evalChain(rows, view, b, signs, others, false)
			if ch.moving < chainMinHeld || float64(ch.held) < chainHeldRate*float64(ch.tested) {
				continue
			}
			score := [2]int{ch.moving, -used}
			if score[0] > bestScore[0] || (score[0] == bestScore[0] && score[1] > bestScore[1]) {
				best, bestScore = ch, score
				best.known = others
			}
		}
	}
	return best
}

// signArr signs the columns a chain may read, by their place in its known
// list: +1 adds, -1 subtracts, 0 leaves the column out.
type signArr [maxChainCols]int64

// rowView is a row as every hypothesis over one balance column reads it,
// worked out once for the column: the search tries up to 80 ways of
// signing the columns beside it, each a walk of every row.
type rowView struct {
	bc      cell // the balance, when hasB
	hasB    bool
	sum     [maxChainCols]int64 // the row's figures in each known column
	cnt     [maxChainCols]int
	unknown bool // a figure beside the balance in a column not known
}

// viewOf fills view (its storage reused from one column to the next) with
// the rows as a hypothesis over balance column b reads them.
func viewOf(view []rowView, rows []row, b int, known []int) []rowView {
	view = slices.Grow(view[:0], len(rows))[:len(rows)]
	for i := range rows {
		v := &view[i]
		*v = rowView{}
		v.bc, v.hasB = rows[i].inCol(b)
		for _, c := range rows[i].cells {
			if !c.money || c.col == b {
				continue
			}
			if k := slices.Index(known, c.col); k >= 0 {
				v.sum[k] += c.amt.Units
				v.cnt[k]++
			} else {
				v.unknown = true
			}
		}
	}
	return view
}

// keepCarries drops the broken page carries of a document that never shows
// a balance carried over a page: no brought-forward line, no page boundary
// where the balance continues. Each page is then a sheet of its own (one
// member or account a page), not a continued statement.
func keepCarries(ch chain, rows []row) chain {
	shown := false
	for _, r := range rows {
		shown = shown || r.role == forward
	}
	for _, st := range ch.steps {
		shown = shown || (st.held && st.brk.Relation == PageCarry)
	}
	if shown {
		return ch
	}
	kept := ch.steps[:0]
	for _, st := range ch.steps {
		if st.held || st.brk.Relation != PageCarry {
			kept = append(kept, st)
		}
	}
	ch.steps = kept
	return ch
}

// partners are the columns that most often share a row with column b.
func partners(rows []row, b int) []int {
	with := map[int]int{}
	for _, r := range rows {
		if _, ok := r.inCol(b); !ok {
			continue
		}
		for _, c := range r.cells {
			if c.money && c.col != b {
				with[c.col]++
			}
		}
	}
	var cols []int
	for c := range with {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool {
		if with[cols[i]] != with[cols[j]] {
			return with[cols[i]] > with[cols[j]]
		}
		return cols[i] < cols[j]
	})
	if len(cols) > maxChainCols {
		cols = cols[:maxChainCols]
	}
	sort.Ints(cols)
	return cols
}

// evalChain walks the rows under one hypothesis. A step runs from one
// printed balance to the next; the transactions between (and on the
// balance's own row) move it. Labelled rows inside a step (a subtotal, a
// line whose description happens to say "total") may or may not count:
// the step holds if it holds either way.
//
// record keeps each step with its figures; without it only the counts are
// kept, which is all the search among hypotheses needs.
func evalChain(rows []row, view []rowView, b int, signs signArr, known []int, record bool) chain {
	ch := chain{balance: b, arr: signs}
	if record {
		ch.signs = map[int]int64{}
		for k, c := range known {
			if signs[k] != 0 {
				ch.signs[c] = signs[k]
			}
		}
	}
	prev := -1
	var base int64
	var opts []int64
	var moved []Figure // the step's transaction figures, when recording
	var keys []figKey
	txs := 0 // the step's transaction figures
	tooMany := false
	var last tested // the step before, for bridging an odd balance
	for i := range rows {
		r, v := &rows[i], &view[i]
		bc, hasB := v.bc, v.hasB
		var contrib int64
		var figs []Figure
		n := 0 // figures of the row in the columns the chain reads
		for k := range known {
			if signs[k] != 0 {
				contrib += signs[k] * v.sum[k]
				n += v.cnt[k]
			}
		}
		if record && n > 0 {
			for _, c := range r.cells {
				if k := slices.Index(known, c.col); c.money && c.col != b && k >= 0 && signs[k] != 0 {
					keys = append(keys, key(r, c))
					figs = append(figs, fig(r, c))
				}
			}
		}
		if v.unknown && plainLike(r.role) {
			// a figure in a column the hypothesis does not read: the step
			// cannot be judged
			tooMany = true
		}
		switch {
		case r.role == forward:
			// running totals, not transactions
		case plainLike(r.role):
			base += contrib
			moved, txs = append(moved, figs...), txs+n
		case contrib != 0:
			if len(opts) < maxOptional {
				opts = append(opts, contrib)
			} else {
				tooMany = true
			}
			moved, txs = append(moved, figs...), txs+n
		}
		if !hasB || !balanceRow(r.role) {
			continue
		}
		if prev >= 0 && txs == 0 && len(opts) == 0 {
			carried := r.role == forward && (firstBalanceOnPage(rows, i, b) || lastBalanceOnPage(rows, i, b))
			if r.role == opening || (r.role == forward && !carried) {
				// An opening balance, or a balance brought forward in the
				// middle of a page, starts another account's chain: a
				// statement of several accounts or currencies.
				prev = i
				continue
			}
			if r.role == closing {
				prev = -1 // the account's chain ends here (see below)
				continue
			}
			if !carried && rows[prev].role != forward {
				// Two balances with no transaction between (a summary
				// box's opening and closing balance above the table): no
				// step to test, and the chain goes on from the balance it
				// had. Only a balance carried over a page must repeat the
				// one before it.
				continue
			}
		}
		step, bridged := tested{}, false
		if prev >= 0 && !tooMany {
			p := &rows[prev]
			pc, _ := p.inCol(b)
			want := pc.amt.Units + base
			held := subsetHolds(bc.amt.Units-want, opts)
			step = tested{from: prev, to: i, base: base, opts: opts, broken: !held}
			// One odd balance breaks the step into it and the step out of
			// it, and the two hold together: one break, reported on the odd
			// balance, not two.
			bridged = !held && last.bridges(step, rows, b)
			if bridged {
				step = tested{}
			} else {
				ch.tested++
			}
			if held {
				ch.held++
				if want != pc.amt.Units || len(opts) > 0 {
					ch.moving++
				}
			}
			if record && !bridged {
				rel := RunningBalance
				if p.page != r.page && firstBalanceOnPage(rows, i, b) {
					rel = PageCarry
				}
				figsAll := append([]Figure{fig(r, bc), fig(p, pc)}, moved...)
				ch.steps = append(ch.steps, instance{
					brk:  Break{Relation: rel, Page: r.page, Row: r.index, Printed: bc.amt, Expected: amt(want), Figures: figsAll},
					held: held, kind: RunningBalance, trust: true,
					keys: append(keys, key(r, bc), key(p, pc)),
				})
			}
		}
		if step.to > 0 || bridged {
			ch.last = r
		}
		prev, base, opts, moved, keys, txs, tooMany = i, 0, nil, nil, nil, 0, false
		last = step
		if r.role == closing {
			// A closing balance ends the account's chain: what follows (a
			// page of its own, another account) starts anew.
			prev = -1
		}
	}
	return ch
}

// tested is a step of the chain as the next step needs it: the balances
// it runs between and the transactions that moved it.
type tested struct {
	from, to int // row indexes; to is 0 when there is no step
	base     int64
	opts     []int64
	broken   bool
}

// bridges reports that the broken step next, which starts where the broken
// step s ends, holds when the balance between them is skipped.
func (s tested) bridges(next tested, rows []row, b int) bool {
	if !s.broken || !next.broken || s.to == 0 || s.to != next.from || len(s.opts)+len(next.opts) > maxOptional {
		return false
	}
	pc, _ := rows[s.from].inCol(b)
	bc, _ := rows[next.to].inCol(b)
	return subsetHolds(bc.amt.Units-pc.amt.Units-s.base-next.base, append(slices.Clip(s.opts), next.opts...))
}

// balanceRow roles may print a balance: transactions, carried balances
// and the opening and closing balances (a total's figure in the balance
// column is no balance).
func balanceRow(r role) bool {
	return plainLike(r) || r == forward || summaryRole(r)
}

func summaryRole(r role) bool { return r == opening || r == closing }

// subsetHolds reports that diff is the sum of some of opts.
func subsetHolds(diff int64, opts []int64) bool {
	for m := 0; m < 1<<len(opts); m++ {
		var s int64
		for i, o := range opts {
			if m&(1<<i) != 0 {
				s += o
			}
		}
		if s == diff {
			return true
		}
	}
	return false
}

// lastBalanceOnPage reports that rows[i] is the last row of its page with
// a balance.
func lastBalanceOnPage(rows []row, i, b int) bool {
	for j := i + 1; j < len(rows) && rows[j].page == rows[i].page; j++ {
		if _, ok := rows[j].inCol(b); ok {
			return false
		}
	}
	return true
}

// firstBalanceOnPage reports that rows[i] is the first row of its page
// with a balance.
func firstBalanceOnPage(rows []row, i, b int) bool {
	for j := i - 1; j >= 0 && rows[j].page == rows[i].page; j-- {
		if _, ok := rows[j].inCol(b); ok {
			return false
		}
	}
	return true
}
