package office

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"math"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestODFFormula(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"of:=SUM([.B2:.B5])", "SUM(B2:B5)"},
		{"of:=[.B2]+[.C2]", "B2+C2"},
		{"of:=ROUND([.$B$2]*[.C2];2)", "ROUND($B$2*C2,2)"},
		{"of:=[.E2]+[.D3]-[.C3]", "E2+D3-C3"},
		{"of:=[Sheet2.B2]+1", ""},
		{"of:=[$Sheet2.B2:.B5]", ""},
		{"of:=SUM([.B2:Sheet2.B5])", ""},
		{`of:=IF([.B2]>0;"yes";"no")`, ""},
		{"msoxl:=B2+C2", ""},
		{"of:=[.B2", ""},
		{"=[.B2]*2", "B2*2"},
	} {
		if got := odfFormula(c.in); got != c.want {
			t.Errorf("%s: %q, want %q", c.in, got, c.want)
		}
	}
}

// odsContent wraps table XML as a content.xml.
func odsContent(tables string) []byte {
	return []byte(`<?xml version="1.0" encoding="UTF-8"?><office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"><office:body><office:spreadsheet>` +
		tables + `</office:spreadsheet></office:body></office:document-content>`)
}

// TestODFTableCells: rows and columns as LibreOffice saves them (empty
// rows repeated, cells repeated, merged cells covered), a comment's text
// and a nested table kept out of the cell.
func TestODFTableCells(t *testing.T) {
	data := odsContent(`<table:table table:name="S">
<table:table-row><table:table-cell office:value-type="string"><text:p>Total</text:p><office:annotation><text:p>note 99.00</text:p></office:annotation></table:table-cell>
<table:table-cell table:number-columns-spanned="2" office:value-type="float" office:value="12.5" table:formula="of:=[.D3]*2"><text:p>12.50</text:p></table:table-cell><table:covered-table-cell/>
<table:table-cell office:value-type="percentage" office:value="0.2"><text:p>20%</text:p></table:table-cell></table:table-row>
<table:table-row table:number-rows-repeated="5"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>
<table:table-row><table:table-cell table:number-columns-repeated="2" office:value-type="float" office:value="3" table:formula="of:=[.A1]"><text:p>3</text:p></table:table-cell>
<table:table-cell office:value-type="date" office:date-value="2026-03-01"><text:p>01/03/26</text:p></table:table-cell>
<table:table-cell><text:p>a</text:p><table:table><table:table-row><table:table-cell><text:p>inner</text:p></table:table-cell></table:table-row></table:table><text:p>b</text:p></table:table-cell></table:table-row>
</table:table><table:table table:name="T"><table:table-row><table:table-cell office:value-type="float" office:value="1"><text:p>1</text:p></table:table-cell></table:table-row></table:table>`)
	tables := readODFTables(context.Background(), data, maxFigureCells, true)
	if len(tables) != 2 {
		t.Fatalf("%d tables", len(tables))
	}
	var got []string
	for _, c := range tables[0] {
		v := c.text
		if c.raw != "" {
			v = c.raw
		}
		got = append(got, cellName(c.col, c.row)+"="+v+"|"+c.formula)
	}
	want := "A1=Total| B1=12.5|D3*2 D1=0.2| A7=3|A1 B7=3| D7=a b|"
	if strings.Join(got, " ") != want {
		t.Errorf("cells\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	// The same table read as a text document's: the text each cell shows.
	if c := tables[0][1]; c.text != "12.50" || c.value.Cmp(big.NewRat(25, 2)) != 0 {
		t.Errorf("number cell %+v", c)
	}
	text := readODFTables(context.Background(), data, maxFigureCells, false)
	if c := text[0][1]; c.text != "12.50" || c.raw != "" || c.formula != "" {
		t.Errorf("text cell %+v", c)
	}
}

// TestODFRepeatsBounded: a row that claims a million repetitions of a
// full row of figures stops at the cell cap, quickly.
func TestODFRepeatsBounded(t *testing.T) {
	data := odsContent(`<table:table><table:table-row table:number-rows-repeated="1048576">` +
		`<table:table-cell table:number-columns-repeated="1000000" office:value-type="float" office:value="1.5"/>` +
		`</table:table-row><table:table-row table:number-rows-repeated="99999999"/><table:table-row><table:table-cell office:value-type="float" office:value="2"/></table:table-row></table:table>`)
	start := time.Now()
	tables := readODFTables(context.Background(), data, maxFigureCells, true)
	if n := len(tables[0]); n != maxFigureCells {
		t.Fatalf("%d cells, want the cap %d", n, maxFigureCells)
	}
	last := tables[0][len(tables[0])-1]
	if last.col > maxODFColumns || last.row > maxODFRows {
		t.Fatalf("cell at column %d, row %d", last.col, last.row)
	}
	a := &analysis{ctx: context.Background(), kind: "xl"}
	a.odfFigures(data)
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
}

// TestXLSDateCells: a .xls statement whose dates are date cells: they are
// read as dates (the XF's format shows a date) and stay out of the lines.
func TestXLSDateCells(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(arithDir, "statement-dates-openpyxl.xls"))
	if err != nil {
		t.Fatal(err)
	}
	l := openLegacy(context.Background(), data, "xls", 0)
	f := l.cells.figures
	if len(f.sheets) != 1 {
		t.Fatalf("%d sheets", len(f.sheets))
	}
	sheet := f.sheets[0]
	resolveCells(sheet, l.cells.sst, f.dateXFs)
	dates := 0
	for _, c := range sheet {
		if c.col == 1 && c.raw != "" {
			if !c.date {
				t.Errorf("%s (%s) not read as a date", cellName(c.col, c.row), c.raw)
			}
			dates++
		}
	}
	if dates < 5 {
		t.Fatalf("%d date cells", dates)
	}
	for _, ln := range cellLines(sheet, 1) {
		if ln.Words[0].Box.X0 == 1 && strings.ContainsAny(ln.Words[0].Text[:1], "0123456789") {
			t.Errorf("a date in the lines: %q", ln.Words[0].Text)
		}
	}
}

// ptg helpers build formula tokens ([MS-XLS] 2.5.198).
func ptgRef(row, col uint16) []byte {
	return binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint16([]byte{0x24}, row), col|0xC000)
}

func ptgArea(r1, r2, c1, c2 uint16) []byte {
	b := []byte{0x25}
	for _, v := range []uint16{r1, r2, c1 | 0xC000, c2 | 0xC000} {
		b = binary.LittleEndian.AppendUint16(b, v)
	}
	return b
}

func TestPtgFormula(t *testing.T) {
	num := binary.LittleEndian.AppendUint64([]byte{0x1F}, math.Float64bits(1.5))
	cat := func(parts ...[]byte) []byte { return bytes.Join(parts, nil) }
	for _, c := range []struct {
		name string
		rgce []byte
		want string
	}{
		{"add", cat(ptgRef(0, 0), ptgRef(0, 1), []byte{0x03}), "(A1+B1)"},
		{"sum attr", cat(ptgArea(1, 4, 3, 3), []byte{0x19, 0x10, 0, 0}), "SUM(D2:D5)"},
		{"sum var", cat(ptgRef(0, 0), ptgArea(1, 2, 0, 1), []byte{0x22, 2, 4, 0}), "SUM(A1,A2:B3)"},
		{"round", cat(ptgRef(2, 2), num, []byte{0x05}, []byte{0x1E, 2, 0}, []byte{0x21, 27, 0}), "ROUND((C3*1.5),2)"},
		{"minus paren", cat(ptgRef(0, 0), []byte{0x13, 0x15}), "(-A1)"},
		{"space attr", cat([]byte{0x19, 0x40, 0, 1}, ptgRef(0, 0)), "A1"},
		{"string", []byte{0x17, 1, 0, 'x'}, ""},
		{"shared", []byte{0x01, 2, 0, 4, 0}, ""},
		{"other function", cat(ptgRef(0, 0), []byte{0x22, 1, 5, 0}), ""},
		{"short", []byte{0x24, 0}, ""},
		{"two left", cat(ptgRef(0, 0), ptgRef(0, 1)), ""},
		{"operator alone", []byte{0x03}, ""},
	} {
		if got := ptgFormula(c.rgce, 0, 0); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// A shared formula's relative references (ptgRefN: a row offset of
	// -1, column offsets of 0, -1 and -2), placed at E3.
	refN := func(row int16, col int8) []byte {
		return binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint16([]byte{0x4C}, uint16(row)), uint16(uint8(col))|0xC000)
	}
	shared := cat(refN(-1, 0), refN(0, -1), []byte{0x03}, refN(0, -2), []byte{0x04})
	if got := ptgFormula(shared, 2, 4); got != "((E2+D3)-C3)" {
		t.Errorf("shared at E3: %q", got)
	}
}

// FuzzODFTables drives the OpenDocument table reader, the formula
// rewrite and the layout over arbitrary content.xml, seeded from the
// committed .ods and .odt fixtures.
func FuzzODFTables(f *testing.F) {
	for _, ext := range []string{"*.ods", "*.odt"} {
		names, _ := filepath.Glob(filepath.Join(arithDir, ext))
		for _, n := range names[:min(len(names), 3)] {
			if b := zipEntry(f, n, "content.xml"); b != nil {
				f.Add(b, ext == "*.ods")
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, spreadsheet bool) {
		tables := readODFTables(context.Background(), data, 5000, spreadsheet)
		total := 0
		for _, tb := range tables {
			total += len(tb)
			for _, c := range tb {
				if c.col < 1 || c.row < 1 || c.row > maxODFRows || c.col > maxODFColumns || len(c.formula) > 4*maxFormulaChars {
					t.Fatalf("cell %+v", c)
				}
			}
		}
		if total > 5000 {
			t.Fatalf("%d cells past the limit", total)
		}
		kind := "word"
		if spreadsheet {
			kind = "xl"
		}
		start := time.Now()
		(&analysis{ctx: context.Background(), kind: kind}).odfFigures(data)
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("%v on %d bytes", d, len(data))
		}
	})
}

// FuzzPtgFormula drives the Ptg reader and the evaluator on what it writes.
func FuzzPtgFormula(f *testing.F) {
	f.Add(append(ptgArea(1, 4, 3, 3), 0x19, 0x10, 0, 0), uint16(5), uint16(3))
	f.Add([]byte{0x4C, 0xFF, 0xFF, 0x00, 0xC0, 0x4C, 0, 0, 0xFF, 0xC0, 0x03}, uint16(2), uint16(4))
	f.Fuzz(func(t *testing.T, rgce []byte, row, col uint16) {
		s := ptgFormula(rgce, int(row), int(col))
		if len(s) > maxFormulaChars+64 {
			t.Fatalf("%d characters", len(s))
		}
		p := formulaParser{src: s, values: map[[2]int]*big.Rat{{1, 1}: big.NewRat(1, 1)}}
		p.expr()
	})
}

// zipEntry reads one entry of a committed package, for fuzz seeds.
func zipEntry(tb testing.TB, name, entry string) []byte {
	data, err := os.ReadFile(name)
	if err != nil {
		tb.Fatal(err)
	}
	z, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		tb.Fatal(err)
	}
	for _, e := range z.File {
		if e.Name == entry {
			r, err := e.Open()
			if err != nil {
				tb.Fatal(err)
			}
			defer r.Close()
			b, err := io.ReadAll(r)
			if err != nil {
				tb.Fatal(err)
			}
			return b
		}
	}
	return nil
}

// TestSSTContinue: a shared string table that goes on in CONTINUE records,
// a string split between them (its rest two bytes a character), and the
// long .xls statement whose labels need them.
func TestSSTContinue(t *testing.T) {
	segs := [][]byte{
		{2, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 'a', 'b'},
		{1, 'c', 0, 'd', 0, 2, 0, 0, 'e', 'f'},
	}
	if got := readSST(segs); strings.Join(got, "|") != "abcd|ef" {
		t.Errorf("split strings: %q", got)
	}
	data, err := os.ReadFile(filepath.Join(arithDir, "statement-long-openpyxl.xls"))
	if err != nil {
		t.Fatal(err)
	}
	l := openLegacy(context.Background(), data, "xls", 0)
	if n := len(l.cells.sst); n < 400 {
		t.Fatalf("%d shared strings", n)
	}
	sheet := l.cells.figures.sheets[0]
	resolveCells(sheet, l.cells.sst, l.cells.figures.dateXFs)
	last := sheet[len(sheet)-1]
	for _, c := range sheet {
		if c.row == last.row && c.col == 1 && c.text != "Closing balance" {
			t.Errorf("last row's label %q", c.text)
		}
	}
	if l.figureArithmetic() != nil {
		t.Error("the genuine long statement alerts")
	}
}

// FuzzSST drives the shared string reader over a table cut into an SST
// record and a CONTINUE record at any place.
func FuzzSST(f *testing.F) {
	f.Add([]byte{2, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 'a', 'b', 1, 'c', 0, 'd', 0, 2, 0, 0, 'e', 'f'}, uint16(13))
	f.Add([]byte{1, 0, 0, 0, 1, 0, 0, 0, 3, 0, 0x0D, 1, 0, 9, 0, 0, 0, 'x', 'y', 'z', 1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 9}, uint16(18))
	f.Fuzz(func(t *testing.T, data []byte, cut uint16) {
		c := min(int(cut), len(data))
		out := readSST([][]byte{data[:c], data[c:]})
		if len(out) > maxSST {
			t.Fatalf("%d strings", len(out))
		}
		for _, s := range out {
			if len(s) > 4*maxLabelChars {
				t.Fatalf("a string of %d bytes", len(s))
			}
		}
	})
}
