package pdf_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf"
)

// arithDir holds the figure-arithmetic fixtures (scripts/fixtures/arith).
const arithDir = "../testdata/detection/arith"

// TestFigureArithmeticVariants: each relation's break is reported on a
// forgery that changes the figure it reads, with boxes and values, and
// the genuine file it was made from stays quiet.
func TestFigureArithmeticVariants(t *testing.T) {
	for _, c := range []struct {
		file, original, code, severity string
	}{
		{"statement-en-reportlab-pikepdf.pdf", "statement-en-reportlab.pdf", "running-balance", "medium"},
		{"statement-en-reportlab-pikepdf.pdf", "statement-en-reportlab.pdf", "statement-summary", "medium"},
		{"statement-en-reportlab-pageswap.pdf", "statement-en-reportlab.pdf", "page-carry", "medium"},
		{"payslip-en-reportlab-basic-salary-pikepdf.pdf", "payslip-en-reportlab.pdf", "column-total", "medium"},
		{"invoice-en-reportlab-unit-price-pikepdf.pdf", "invoice-en-reportlab.pdf", "line-amount", "medium"},
		{"invoice-en-reportlab-pikepdf.pdf", "invoice-en-reportlab.pdf", "invoice-total", "medium"},
		{"invoice-en-reportlab-vat-pikepdf.pdf", "invoice-en-reportlab.pdf", "tax-rate", "medium"},
		{"invoice-en-reportlab-paid-pikepdf.pdf", "invoice-en-reportlab.pdf", "amount-due", "medium"},
		{"payslip-de-reportlab-pikepdf.pdf", "payslip-de-reportlab.pdf", "net-pay", "medium"},
		{"linevat-de-fpdf2-vat-pikepdf.pdf", "linevat-de-fpdf2.pdf", "row-total", "medium"},
		{"short-en6-fpdf2-balance-pikepdf.pdf", "short-en6-fpdf2.pdf", "running-balance", "medium"},
		{"newest-en40-fpdf2-payment-pikepdf.pdf", "newest-en40-fpdf2.pdf", "running-balance", "medium"},
		// A figure retyped in a font of its own: the second trace raises it.
		{"statement-en-weasyprint-pymupdf.pdf", "statement-en-weasyprint.pdf", "written-apart", "high"},
		{"invoice-fr-libreoffice-pymupdf.pdf", "invoice-fr-libreoffice.pdf", "written-apart", "high"},
	} {
		t.Run(c.file+"/"+c.code, func(t *testing.T) {
			r := analyze(t, readArith(t, c.file), pdf.Options{})
			s := must(t, r, "figure-arithmetic")
			codes := []string{s.Message.Code}
			for _, n := range s.Notes {
				codes = append(codes, n.Code)
			}
			if !slices.Contains(codes, "figure-arithmetic."+c.code) {
				t.Fatalf("codes %v, want %s", codes, c.code)
			}
			eq(t, "severity", s.Severity, c.severity)
			breaks, _ := s.Evidence["breaks"].([]any)
			if len(breaks) == 0 {
				t.Fatal("no breaks in evidence")
			}
			b := breaks[0].(map[string]any)
			if b["printed"] == b["expected"] || len(b["boxes"].([]any)) == 0 {
				t.Fatalf("break %v", b)
			}
			absent(t, analyze(t, readArith(t, c.original), pdf.Options{}), "figure-arithmetic")
		})
	}
}

// TestFigureArithmeticTriage: the family reads the content walk, which
// triage mode skips.
func TestFigureArithmeticTriage(t *testing.T) {
	absent(t, analyze(t, readArith(t, "statement-en-reportlab-pikepdf.pdf"), pdf.Options{Triage: true}), "figure-arithmetic")
}

func readArith(t *testing.T, name string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(arithDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
