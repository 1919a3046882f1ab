package figures

import (
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"
)

// layout prints rows as a generator would: a label at the left, figures
// right-aligned at the columns' right edges (x = 300, 380, 460, 540),
// 12 points between baselines, 40 rows a page. A cell "" is left empty.
func layout(rows [][]string) []Line {
	var lines []Line
	for i, r := range rows {
		page, y := 1+i/40, 800-float64(i%40)*12
		ln := Line{Page: page}
		x := 40.0
		for _, w := range strings.Fields(r[0]) {
			ln.Words = append(ln.Words, Word{Text: w, Box: Box{x, y, x + 6*float64(len(w)), y + 9}})
			x += 6*float64(len(w)) + 3
		}
		for k, cell := range r[1:] {
			if cell == "" {
				continue
			}
			right := 300 + 80*float64(k)
			ln.Words = append(ln.Words, Word{Text: cell, Box: Box{right - 5*float64(len(cell)), y, right, y + 9}})
		}
		lines = append(lines, ln)
	}
	return lines
}

// statementRows: paid out, paid in, balance; the deposit of row k may be
// printed wrong.
func statementRows(n int, wrongAt int) [][]string {
	rows := [][]string{{"Opening balance", "", "", "1,000.00"}}
	bal := 100000
	for i := 0; i < n; i++ {
		amt := 1000 + 37*i
		out, in := "", ""
		if i%3 == 0 {
			bal += amt
			in = money(amt)
			if i == wrongAt {
				in = money(amt + 10000)
			}
		} else {
			bal -= amt
			out = money(amt)
		}
		rows = append(rows, []string{fmt.Sprintf("%02d/03 Payment %d", i+1, i), out, in, money(bal)})
	}
	return rows
}

func money(cents int) string {
	s := fmt.Sprintf("%d.%02d", cents/100, cents%100)
	if cents >= 100000 {
		s = fmt.Sprintf("%d,%03d.%02d", cents/100000, (cents/100)%1000, cents%100)
	}
	return s
}

func TestStatementChain(t *testing.T) {
	res := Check(layout(statementRows(20, -1)), PageLimits)
	if len(res.Breaks) != 0 || !slices.Contains(res.Relations, RunningBalance) {
		t.Fatalf("genuine: %+v", res)
	}
	res = Check(layout(statementRows(20, 6)), PageLimits)
	if len(res.Breaks) != 1 || res.Breaks[0].Relation != RunningBalance || res.Breaks[0].Row != 8 {
		t.Fatalf("forged deposit: %+v", res.Breaks)
	}
	if got := res.Breaks[0].Expected.String(); got != "994.98" && res.Breaks[0].Printed.String() == got {
		t.Fatalf("expected %s", got)
	}
}

func TestPageCarry(t *testing.T) {
	rows := statementRows(60, -1)
	// A second page carried over, then a page from another month.
	res := Check(layout(rows), PageLimits)
	if len(res.Breaks) != 0 {
		t.Fatalf("genuine: %+v", res.Breaks)
	}
	swapped := slices.Clone(rows[:40])
	other := statementRows(60, -1)
	for _, r := range other[40:] {
		r = slices.Clone(r)
		if r[3] != "" {
			r[3] = "9" + r[3] // another account's balances
		}
		swapped = append(swapped, r)
	}
	swapped = append(swapped[:40], append([][]string{{"Balance brought forward", "", "", "9" + other[39][3]}}, swapped[40:]...)...)
	res = Check(layout(swapped), PageLimits)
	if len(res.Breaks) == 0 || res.Breaks[0].Relation != PageCarry || res.Breaks[0].Page != 2 {
		t.Fatalf("swapped page: %+v", res.Breaks)
	}
}

func invoiceRows(total string) [][]string {
	return [][]string{
		{"Consulting hours", "3", "120.00", "360.00"},
		{"Licence fee", "2", "49.50", "99.00"},
		{"Support plan", "4", "25.25", "101.00"},
		{"Subtotal", "", "", "560.00"},
		{"VAT 20%", "", "", "112.00"},
		{"Total", "", "", total},
		{"Amount paid", "", "", "100.00"},
		{"Amount due", "", "", "572.00"},
	}
}

func TestInvoice(t *testing.T) {
	res := Check(layout(invoiceRows("672.00")), PageLimits)
	if len(res.Breaks) != 0 {
		t.Fatalf("genuine: %+v", res.Breaks)
	}
	for _, rel := range []string{LineAmount, InvoiceTotal, TaxRate, AmountDue, ColumnTotal} {
		if !slices.Contains(res.Relations, rel) {
			t.Errorf("%s not established: %v", rel, res.Relations)
		}
	}
	res = Check(layout(invoiceRows("772.00")), PageLimits)
	var rels []string
	for _, b := range res.Breaks {
		rels = append(rels, b.Relation)
	}
	if !slices.Contains(rels, InvoiceTotal) {
		t.Fatalf("forged total: %v", rels)
	}
}

func TestPayslip(t *testing.T) {
	rows := func(net string) [][]string {
		return [][]string{
			{"Basic salary", "2,960.00"}, {"Overtime", "166.50"}, {"Gross pay", "3,126.50"},
			{"Income tax", "512.40"}, {"National Insurance", "218.35"}, {"Total deductions", "730.75"},
			{"Net pay", net},
		}
	}
	if res := Check(layout(rows("2,395.75")), PageLimits); len(res.Breaks) != 0 || !slices.Contains(res.Relations, NetPay) {
		t.Fatalf("genuine: %+v", res)
	}
	res := Check(layout(rows("3,395.75")), PageLimits)
	if len(res.Breaks) != 1 || res.Breaks[0].Relation != NetPay || res.Breaks[0].Expected.String() != "2395.75" {
		t.Fatalf("forged net: %+v", res.Breaks)
	}
}

// TestUnfamiliarLayoutQuiet: figures that establish no relation (a price
// list, a table of measurements) give nothing, however they disagree.
func TestUnfamiliarLayoutQuiet(t *testing.T) {
	rnd := rand.New(rand.NewSource(1))
	var rows [][]string
	for i := 0; i < 80; i++ {
		rows = append(rows, []string{"Item", money(rnd.Intn(100000)), money(rnd.Intn(100000)), money(rnd.Intn(100000))})
	}
	rows = append(rows, []string{"Total", "", "", "1,234.56"})
	if res := Check(layout(rows), PageLimits); len(res.Breaks) != 0 {
		t.Fatalf("%+v", res.Breaks)
	}
}

// TestBounded: a page of nothing but figures stays within the caps.
func TestBounded(t *testing.T) {
	var rows [][]string
	for i := 0; i < maxLines+10; i++ {
		rows = append(rows, []string{"x", "1.00", "2.00", "3.00", "4.00"})
	}
	Check(layout(rows), PageLimits)
}

func FuzzCheck(f *testing.F) {
	f.Add([]byte("Opening balance|||1,000.00\n01 Pay|10.00||990.00\n02 Pay||20.00|1,010.00\nTotal|10.00|20.00|"))
	f.Add([]byte("Item|3|120.00|360.00\nSubtotal|||360.00\nVAT 20%|||72.00\nTotal|||432.00"))
	f.Add([]byte("A|100.00|20.00|120.00\nB|50.00|10.00|60.00\nC|70.00||70.00\nD|30.00|6.00|36.00\nE|40.00|8.00|49.00"))
	f.Add([]byte("Closing balance|||1,010.00\n02 Pay||20.00|1,010.00\n01 Pay|10.00||990.00\nOpening balance|||1,000.00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var rows [][]string
		for _, ln := range strings.Split(string(data), "\n") {
			cells := strings.Split(ln, "|")
			if len(cells) > 6 || len(rows) > 500 {
				return
			}
			rows = append(rows, cells)
		}
		res := Check(layout(rows), PageLimits)
		for _, b := range res.Breaks {
			if len(b.Figures) == 0 {
				t.Fatalf("a break without figures: %+v", b)
			}
		}
	})
}

// TestShortStatementOddBalance: six transactions, one balance printed
// wrong. It breaks the step into it and the step out of it; counted as
// one break (the two hold together without it) the chain is established,
// and the break is reported on the odd balance alone.
func TestShortStatementOddBalance(t *testing.T) {
	rows := statementRows(6, -1)
	if res := Check(layout(rows), PageLimits); len(res.Breaks) != 0 || !slices.Contains(res.Relations, RunningBalance) {
		t.Fatalf("genuine: %+v", res)
	}
	rows[3][3] = "1,999.99"
	res := Check(layout(rows), PageLimits)
	if len(res.Breaks) != 1 || res.Breaks[0].Relation != RunningBalance || res.Breaks[0].Printed.String() != "1999.99" {
		t.Fatalf("odd balance: %+v", res.Breaks)
	}
	// Two balances wrong in a row are not one odd balance: the chain of
	// six is then not established, and nothing is said.
	rows[4][3] = "1,888.88"
	if res := Check(layout(rows), PageLimits); len(res.Breaks) != 0 {
		t.Fatalf("two odd balances: %+v", res.Breaks)
	}
}

// TestNewestFirst: the same statement listed newest first (each balance is
// the one below it moved by its own row) establishes its chain read bottom
// up, and a wrong deposit breaks it on that deposit's row; the rows listed
// oldest first stay as they were.
func TestNewestFirst(t *testing.T) {
	flip := func(rows [][]string) [][]string {
		out := [][]string{{"Closing balance", "", "", rows[len(rows)-1][3]}}
		for i := len(rows) - 1; i >= 1; i-- {
			out = append(out, rows[i])
		}
		return out
	}
	res := Check(layout(flip(statementRows(20, -1))), PageLimits)
	if len(res.Breaks) != 0 || !slices.Contains(res.Relations, RunningBalance) {
		t.Fatalf("genuine: %+v", res)
	}
	res = Check(layout(flip(statementRows(20, 6))), PageLimits)
	if len(res.Breaks) != 1 || res.Breaks[0].Relation != RunningBalance || res.Breaks[0].Row != 15 {
		t.Fatalf("forged deposit: %+v", res.Breaks)
	}
}

// TestRowTotal: net + tax = gross on each line establishes the row's sum;
// one gross changed breaks it on that row alone. Rows whose tax is nothing
// (gross = net) hold without moving it, so lines that all carry no tax
// establish nothing.
func TestRowTotal(t *testing.T) {
	lines := func(n int, taxed bool, wrongAt int) [][]string {
		rows := [][]string{{"Item Net Tax Gross"}}
		for i := 0; i < n; i++ {
			net, tax := 10000+731*i, 0
			if taxed {
				tax = net / 5
			}
			gross := net + tax
			if i == wrongAt {
				gross += 900
			}
			rows = append(rows, []string{fmt.Sprintf("Service %c", 'A'+i), money(net), money(tax), money(gross)})
		}
		return rows
	}
	if res := Check(layout(lines(6, true, -1)), PageLimits); len(res.Breaks) != 0 || !slices.Contains(res.Relations, RowTotal) {
		t.Fatalf("genuine: %+v", res)
	}
	res := Check(layout(lines(6, true, 3)), PageLimits)
	if len(res.Breaks) != 1 || res.Breaks[0].Relation != RowTotal || res.Breaks[0].Row != 4 {
		t.Fatalf("forged gross: %+v", res.Breaks)
	}
	if res := Check(layout(lines(6, false, 3)), PageLimits); len(res.Breaks) != 0 {
		t.Fatalf("untaxed lines establish nothing: %+v", res.Breaks)
	}
}

// TestRowTotalAgeing: an ageing report's total is the sum of the buckets a
// row prints, and rows leave different buckets blank; none of that is a
// break. A total changed on one row is.
func TestRowTotalAgeing(t *testing.T) {
	rows := [][]string{{"Customer Current 30 days 60 days 90 days Total"}}
	buckets := [][4]int{{12000, 3400, 0, 0}, {5000, 0, 2500, 0}, {0, 7300, 1200, 800}, {9100, 4100, 0, 0},
		{3300, 1500, 0, 0}, {0, 0, 4400, 600}, {7700, 2200, 0, 0}, {2500, 900, 300, 0}}
	ageing := func(wrongAt int) [][]string {
		out := slices.Clone(rows)
		for i, b := range buckets {
			r := []string{fmt.Sprintf("Customer %c", 'A'+i)}
			total := 0
			for _, v := range b {
				cell := ""
				if v != 0 {
					cell = money(v)
				}
				r = append(r, cell)
				total += v
			}
			if i == wrongAt {
				total += 1000
			}
			out = append(out, append(r, money(total)))
		}
		return out
	}
	if res := Check(layout(ageing(-1)), PageLimits); len(res.Breaks) != 0 {
		t.Fatalf("genuine: %+v", res.Breaks)
	}
	// The heading's "30", "60" and "90" make it row 1.
	res := Check(layout(ageing(3)), PageLimits)
	if len(res.Breaks) != 1 || res.Breaks[0].Relation != RowTotal || res.Breaks[0].Row != 5 {
		t.Fatalf("forged total: %+v", res.Breaks)
	}
}
