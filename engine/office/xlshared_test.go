package office

import (
	"archive/zip"
	"bytes"
	"context"
	"io"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"testing"

	"github.com/doctrust/doctrust/engine/sniff"
)

// TestSharedFormulaShift: a shared formula's later cell reads its anchor's
// text with the references not anchored by $ moved by its offset.
func TestSharedFormulaShift(t *testing.T) {
	values := map[[2]int]*big.Rat{}
	// Column A holds 1..9 in rows 1..9, column B 10, 20, ... 90, C1 = 1000.
	for r := 1; r <= 9; r++ {
		values[[2]int{1, r}] = big.NewRat(int64(r), 1)
		values[[2]int{2, r}] = big.NewRat(int64(10*r), 1)
	}
	values[[2]int{3, 1}] = big.NewRat(1000, 1)
	for _, c := range []struct {
		f          string
		dCol, dRow int
		want       string // "" when the formula is not read
	}{
		{"A1+B1", 0, 0, "11.00"},
		{"A1+B1", 0, 3, "44.00"},        // relative: both move down
		{"A1*2", 1, 0, "20.00"},         // relative: A moves to B
		{"$A$1+B1", 0, 4, "51.00"},      // absolute A1 stays
		{"$A1+B$1", 0, 2, "13.00"},      // $A1 moves by row only, B$1 not at all
		{"$A1+B$1", 1, 2, "1003.00"},    // $A3 + C$1: B$1 moves by column only
		{"A$1", 2, 5, "1000.00"},        // column moves, row stays
		{"SUM(A1:A3)", 0, 1, "9.00"},    // a range moves whole: A2:A4
		{"SUM(A1:A3)", 1, 0, "60.00"},   // B1:B3
		{"SUM($A$1:A2)", 0, 2, "10.00"}, // a running total: A1:A4
		{"ROUND(A1*$C$1/3,2)", 0, 0, "333.33"},
		{"A1-B1", 0, -1, ""},           // moved above row 1: #REF!
		{"A1", -1, 0, ""},              // moved left of column A
		{"$A$1", -1, -1, "1.00"},       // absolute: nothing moves
		{"SUM(A1:A3)", 0, 1 << 20, ""}, // moved past the last row
	} {
		p := formulaParser{src: c.f, values: values, dCol: c.dCol, dRow: c.dRow}
		v, ok := p.expr()
		got := ""
		if ok && p.pos == len(p.src) {
			got = v.FloatString(2)
		}
		if got != c.want {
			t.Errorf("%s moved by %d,%d = %q, want %q", c.f, c.dCol, c.dRow, got, c.want)
		}
	}
}

// TestSharedFormulaCells: readFigureCells hands a later cell of a shared
// range its anchor's text and offset, and leaves alone a cell outside the
// range its anchor names or of a group without an anchor.
func TestSharedFormulaCells(t *testing.T) {
	sheet := `<worksheet><sheetData>` +
		`<row r="2"><c r="C2"><v>1</v></c><c r="D2"><f t="shared" ref="D2:D4" si="0">C2+D1</f><v>1</v></c></row>` +
		`<row r="3"><c r="C3"><v>2</v></c><c r="D3"><f t="shared" si="0"/><v>3</v></c></row>` +
		`<row r="4"><c r="C4"><v>3</v></c><c r="D4"><f t="shared" si="0"/><v>6</v></c></row>` +
		`<row r="5"><c r="C5"><v>4</v></c><c r="D5"><f t="shared" si="0"/><v>10</v></c><c r="E5"><f t="shared" si="7"/><v>1</v></c></row>` +
		`</sheetData></worksheet>`
	cells := readFigureCells(context.Background(), []byte(sheet), maxFigureCells)
	got := map[string][3]any{}
	for _, c := range cells {
		if c.formula != "" {
			got[cellName(c.col, c.row)] = [3]any{c.formula, c.dCol, c.dRow}
		}
	}
	want := map[string][3]any{
		"D2": {"C2+D1", 0, 0}, "D3": {"C2+D1", 0, 1}, "D4": {"C2+D1", 0, 2},
	}
	if len(got) != len(want) {
		t.Fatalf("formulas %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %v, want %v", k, got[k], v)
		}
	}
	resolveCells(cells, nil, nil)
	var reads int
	if held, broken := checkFormulas(cells, 1, &reads); held != 3 || len(broken) != 0 {
		t.Errorf("held %d, broken %v", held, broken)
	}
}

// TestSharedFormulaFixtures: every formula of the xlshared.py workbooks is
// recomputed, later cells of shared ranges included; the genuine ones all
// hold and each forgery breaks exactly the cells its edit reaches.
func TestSharedFormulaFixtures(t *testing.T) {
	for _, c := range []struct {
		file     string
		formulas int      // formula cells, anchors and later cells
		broken   []string // the cells whose saved result no longer follows
	}{
		{"statement-shared-openpyxl.xlsx", 36, nil},
		{"statement-shared-openpyxl-result-edit.xlsx", 36, []string{"E20", "E21"}},
		{"statement-shared-openpyxl-input-edit.xlsx", 36, []string{"E14", "D37"}},
		{"invoice-shared-openpyxl.xlsx", 27, nil},
		{"invoice-shared-openpyxl-result-edit.xlsx", 27, []string{"D5", "E5", "F5", "D10"}},
		{"invoice-shared-openpyxl-input-edit.xlsx", 27, []string{"D6"}},
		{"sales-shared-openpyxl.xlsx", 13, nil},
		{"sales-shared-openpyxl-result-edit.xlsx", 13, []string{"F6", "F10"}},
		{"sales-shared-openpyxl-input-edit.xlsx", 13, []string{"F4", "C10"}},
	} {
		t.Run(c.file, func(t *testing.T) {
			cells := readFigureCells(context.Background(), fixtureSheet(t, c.file), maxFigureCells)
			resolveCells(cells, nil, nil)
			var reads int
			held, broken := checkFormulas(cells, 1, &reads)
			var names []string
			for _, b := range broken {
				names = append(names, b.Cell)
			}
			if held+len(broken) != c.formulas || !slices.Equal(names, c.broken) {
				t.Errorf("held %d, broken %v; want %d formulas, broken %v", held, names, c.formulas, c.broken)
			}
			f := figureFinding(t, c.file, sniff.XLSX)
			switch {
			case c.broken == nil && f != nil:
				t.Errorf("genuine: %+v", f)
			case c.broken != nil:
				// Reported with the cells the walk found, whatever else
				// the sheet's relations say.
				if f == nil {
					t.Fatal("forged: no finding")
				}
				if ev, _ := f.Evidence["formulas"].([]formulaBreak); !slices.Equal(ev, broken) {
					t.Errorf("forged: evidence %v, want %v", f.Evidence["formulas"], broken)
				}
			}
		})
	}
}

// fixtureSheet reads the first worksheet of an arithmetic fixture.
func fixtureSheet(t testing.TB, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(arithDir, name))
	if err != nil {
		t.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	rc, err := z.Open("xl/worksheets/sheet1.xml")
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFormulaReadsBounded: a shared SUM of 10,000 cells filled over
// 200,000 cells stops at maxFormulaReads instead of summing 2·10^9 cells.
func TestFormulaReadsBounded(t *testing.T) {
	var b bytes.Buffer
	b.WriteString(`<worksheet><sheetData><row r="1"><c r="A1"><f t="shared" ref="A1:A300000" si="0">SUM(B1:CW100)</f><v>0</v></c></row>`)
	for r := 2; r <= 300_000; r++ {
		b.WriteString(`<row r="` + strconv.Itoa(r) + `"><c r="A` + strconv.Itoa(r) + `"><f t="shared" si="0"/><v>0</v></c></row>`)
	}
	b.WriteString(`</sheetData></worksheet>`)
	cells := readFigureCells(context.Background(), b.Bytes(), maxFigureCells)
	resolveCells(cells, nil, nil)
	var reads int
	held, _ := checkFormulas(cells, 1, &reads)
	if reads > maxFormulaReads || held != maxFormulaReads/10_000 {
		t.Fatalf("read %d cells, %d formulas held", reads, held)
	}
}

// FuzzFigureSheet drives the worksheet cell reader, the shared formula
// groups and the evaluator, seeded from the xlshared.py workbooks.
func FuzzFigureSheet(f *testing.F) {
	for _, name := range []string{"statement-shared-openpyxl.xlsx", "invoice-shared-openpyxl-result-edit.xlsx", "sales-shared-openpyxl-input-edit.xlsx"} {
		f.Add(fixtureSheet(f, name))
	}
	f.Add([]byte(`<worksheet><sheetData><row r="1"><c r="B2"><f t="shared" ref="B2:C3" si="0">$A1+A$1</f><v>1</v></c><c r="C3"><f t="shared" si="0"/><v>2</v></c></row></sheetData></worksheet>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		cells := readFigureCells(context.Background(), data, 1000)
		if len(cells) > 1000 {
			t.Fatalf("%d cells past the limit", len(cells))
		}
		resolveCells(cells, nil, nil)
		var reads int
		held, broken := checkFormulas(cells, 1, &reads)
		if reads > maxFormulaReads || held+len(broken) > len(cells) {
			t.Fatalf("read %d, held %d, broken %d of %d cells", reads, held, len(broken), len(cells))
		}
	})
}
