package figures

import "sort"

// Relation names, as evidence carries them.
const (
	RunningBalance = "running-balance" // balance(i) = balance(i-1) + in(i) - out(i)
	PageCarry      = "page-carry"      // a page's first balance continues the page before
	ColumnTotal    = "column-total"    // a printed total equals the figures above it
	Summary        = "statement-summary"
	LineAmount     = "line-amount" // quantity × unit price = line amount
	InvoiceTotal   = "invoice-total"
	TaxRate        = "tax-rate"
	AmountDue      = "amount-due"
	NetPay         = "net-pay"
	RowTotal       = "row-total" // a figure is the sum of two others on its row
)

// Figure is one printed figure of a relation.
type Figure struct {
	Page  int
	Box   Box
	Value Amount
	Mark  int
}

// Break is a relation the document establishes elsewhere that does not
// hold here. Figures[0] is the printed figure that disagrees.
type Break struct {
	Relation string
	Page     int
	Row      int // 1-based among the page's rows with figures
	Printed  Amount
	Expected Amount
	Figures  []Figure
}

// Result is what one check found.
type Result struct {
	Breaks []Break
	// Held counts the instances of established relations that hold;
	// Relations names the relations established, sorted.
	Held      int
	Relations []string
}

// instance is one tested relation: where it sits, whether it holds, and
// which figures it reads (row line and column), so a lone equation is
// trusted only when a held one shares a figure with it.
type instance struct {
	brk   Break
	held  bool
	kind  string
	keys  []figKey
	trust bool // established by its own kind (a chain, a run of line products)
}

type figKey struct{ line, col int }

// Check reads the figures of the lines and tests every relation their
// rows establish.
func Check(lines []Line, lim Limits) Result {
	rows := buildRows(lines, lim)
	if len(rows) < 2 {
		return Result{}
	}
	var all []instance
	ch := bestChain(rows)
	all = append(all, ch.steps...)
	all = append(all, products(rows)...)
	all = append(all, rowTotals(rows)...)
	all = append(all, blockTotals(rows, ch)...)
	all = append(all, equations(rows, ch)...)
	return judge(all)
}

// judge keeps the breaks of established relations: a chain or a run of line
// products trusted by its own rows, or a lone relation (a total, an
// equation) that shares a figure with one that holds.
func judge(all []instance) Result {
	heldKeys := map[figKey]bool{}
	for _, in := range all {
		if in.held {
			for _, k := range in.keys {
				heldKeys[k] = true
			}
		}
	}
	var res Result
	kinds := map[string]bool{}
	for _, in := range all {
		if in.held {
			res.Held++
			kinds[in.brk.Relation] = true
			continue
		}
		// A printed total is trusted by its column only (blockTotals): an
		// equation that holds on the same figure says nothing of which
		// rows the total adds. A broken instance is not held, so the held
		// keys it meets are other instances'.
		if in.trust || (in.kind != ColumnTotal && sharesKey(in.keys, heldKeys)) {
			res.Breaks = append(res.Breaks, in.brk)
			kinds[in.brk.Relation] = true
		}
	}
	for k := range kinds {
		res.Relations = append(res.Relations, k)
	}
	sort.Strings(res.Relations)
	return res
}

// sharesKey reports that one of keys is read by a held instance.
func sharesKey(keys []figKey, held map[figKey]bool) bool {
	for _, k := range keys {
		if held[k] {
			return true
		}
	}
	return false
}

func fig(r *row, c cell) Figure {
	return Figure{Page: r.page, Box: c.box, Value: c.amt, Mark: c.mark}
}

func key(r *row, c cell) figKey { return figKey{r.line, c.col} }

func amt(u int64) Amount { return Amount{Units: u, Scale: 2} }
