package office

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// arithDir holds the figure-arithmetic fixtures (scripts/fixtures/arith).
const arithDir = "../testdata/detection/arith"

// TestFigureArithmeticOffice: each Office variant is reported on a forgery
// that changes one figure, and the file it was made from stays quiet.
func TestFigureArithmeticOffice(t *testing.T) {
	for _, c := range []struct {
		file, original, code string
		format               sniff.Format
	}{
		{"statement-en-openpyxl-edit.xlsx", "statement-en-openpyxl.xlsx", "sheet-break", sniff.XLSX},
		{"invoice-en-openpyxl-edit-calc.xlsx", "invoice-en-openpyxl.xlsx", "sheet-break", sniff.XLSX},
		{"payslip-en-word-edit.docx", "payslip-en-word.docx", "table-break", sniff.DOCX},
		{"statement-en-word-edit-writer.docx", "statement-en-word-writer.docx", "table-break", sniff.DOCX},
		{"statement-formulas-xml-edit.xlsx", "statement-formulas-calc.xlsx", "formula-result", sniff.XLSX},
		{"statement-en-openpyxl-edit.ods", "statement-en-openpyxl.ods", "sheet-break", sniff.ODS},
		{"invoice-en-openpyxl-edit.ods", "invoice-en-openpyxl.ods", "sheet-break", sniff.ODS},
		{"payslip-en-openpyxl-edit.ods", "payslip-en-openpyxl.ods", "sheet-break", sniff.ODS},
		{"statement-formulas-xml-edit.ods", "statement-formulas-calc.ods", "formula-result", sniff.ODS},
		{"statement-en-word-edit.odt", "statement-en-word.odt", "table-break", sniff.ODT},
		{"invoice-en-word-edit.odt", "invoice-en-word.odt", "table-break", sniff.ODT},
		{"payslip-en-word-edit.odt", "payslip-en-word.odt", "table-break", sniff.ODT},
		{"statement-en-openpyxl-edit.xls", "statement-en-openpyxl.xls", "sheet-break", sniff.XLS},
		{"invoice-en-openpyxl-edit.xls", "invoice-en-openpyxl.xls", "sheet-break", sniff.XLS},
		{"payslip-en-openpyxl-edit.xls", "payslip-en-openpyxl.xls", "sheet-break", sniff.XLS},
		{"statement-formulas-bytes-edit.xls", "statement-formulas-calc.xls", "formula-result", sniff.XLS},
		{"statement-long-openpyxl-edit.xls", "statement-long-openpyxl.xls", "sheet-break", sniff.XLS},
	} {
		t.Run(c.file, func(t *testing.T) {
			if f := figureFinding(t, c.original, c.format); f != nil {
				t.Fatalf("genuine %s: %+v", c.original, f)
			}
			f := figureFinding(t, c.file, c.format)
			if f == nil || f.Message.Code != "figure-arithmetic."+c.code || f.Severity != report.Medium {
				t.Fatalf("got %+v", f)
			}
		})
	}
}

func figureFinding(t *testing.T, name string, format sniff.Format) *report.Signal {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(arithDir, name))
	if err != nil {
		t.Fatal(err)
	}
	analyze := Analyze
	switch format {
	case sniff.ODS, sniff.ODT:
		analyze = AnalyzeODF
	case sniff.XLS:
		analyze = AnalyzeLegacy
	}
	r, err := analyze(context.Background(), data, format, Options{Budget: 64 << 20})
	if err != nil {
		t.Fatal(err)
	}
	for i := range r.Signals {
		if r.Signals[i].ID == string(report.FamilyFigureArithmetic) {
			return &r.Signals[i]
		}
	}
	return nil
}

func TestFormulaSubset(t *testing.T) {
	values := map[[2]int]*big.Rat{
		{1, 1}: big.NewRat(1050, 100), {1, 2}: big.NewRat(2025, 100), {2, 1}: big.NewRat(3, 1),
	}
	for _, c := range []struct {
		f    string
		want string // "" when the formula is not read
	}{
		{"SUM(A1:A2)", "30.75"},
		{"A1+A2-B1", "27.75"},
		{"ROUND(A1*B1/7,2)", "4.50"},
		{"$A$1*(B1+1)", "42.00"},
		{"SUM(A1,A2,1)", "31.75"},
		{"VLOOKUP(A1,B1:C9,2)", ""},
		{"Sheet2!A1", ""},
		{"A1:A2", ""},
		{"A1/0", ""},
	} {
		p := formulaParser{src: c.f, values: values}
		v, ok := p.expr()
		got := ""
		if ok && p.pos == len(p.src) {
			got = v.FloatString(2)
		}
		if got != c.want {
			t.Errorf("%s = %q, want %q", c.f, got, c.want)
		}
	}
}

func FuzzFormula(f *testing.F) {
	for _, s := range []string{"SUM(A1:B9)", "ROUND(A1*1.2,2)", "(A1+B2)-C3*2", "-A1/B1"} {
		f.Add(s, 0, 0)
	}
	// A shared formula's later cells: relative, absolute and mixed
	// references moved (xlshared.go).
	f.Add("E2+D3-C3", 0, 17)
	f.Add("ROUND(D2*$I$1,2)", 0, 3)
	f.Add("SUM($B2:B$9)+$A$1", 2, -1)
	f.Fuzz(func(t *testing.T, s string, dCol, dRow int) {
		if len(s) > maxFormulaChars {
			return
		}
		p := formulaParser{src: s, values: map[[2]int]*big.Rat{{1, 1}: big.NewRat(1, 1)}, dCol: dCol, dRow: dRow}
		p.expr()
		if p.reads > maxFormulaReads {
			t.Fatalf("read %d cells", p.reads)
		}
	})
}
