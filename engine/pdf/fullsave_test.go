package pdf_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf"
)

// tracesDir holds real files made by scripts/fixtures/traces: genuine
// statements, invoices and payslips from reportlab, LibreOffice Writer,
// Chromium and Ghostscript, and forgeries of them saved in full.
const tracesDir = "../testdata/detection/traces"

// reportCodes lists every message code of a report, notes included.
func reportCodes(r *jsonReport) []string {
	var out []string
	for _, s := range r.Signals {
		out = append(out, s.Message.Code)
		for _, n := range s.Notes {
			out = append(out, n.Code)
		}
	}
	return out
}

// TestFullSaveTraces holds each full-save trace to real forgeries of
// several generators, and to the genuine originals they were made from.
func TestFullSaveTraces(t *testing.T) {
	read := func(name string) *jsonReport {
		t.Helper()
		data, err := os.ReadFile(filepath.Join(tracesDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return analyze(t, data, pdf.Options{})
	}
	traces := []struct {
		code   string
		forged []string
	}{
		{"font-anomalies.figure-font", []string{
			"forged-redact-retype-rl-statement-7.pdf", "forged-redact-retype-helv-rl-statement-8.pdf",
			"forged-redact-retype-rl-invoice-1.pdf", "forged-redact-retype-rl-payslip-1.pdf",
			"forged-redact-retype-lo-statement-1.pdf", "forged-redact-retype-cr-invoice-1.pdf",
			"forged-redact-retype-gs-statement-1.pdf", "forged-redact-retype-calc-statement-1.pdf",
			"forged-redact-retype-cr-invoice-mono-1.pdf"}},
		{"annotation-overlays.opaque-cover", []string{
			"forged-annot-freetext-rl-statement-2.pdf", "forged-annot-freetext-lo-statement-1.pdf",
			"forged-annot-freetext-gs-statement-1.pdf", "forged-annot-square-rl-invoice-2.pdf",
			"forged-annot-square-cr-invoice-1.pdf", "forged-annot-stamp-rl-payslip-2.pdf",
			"forged-annot-freetext-calc-statement-1.pdf", "forged-annot-square-pl-statement-1.pdf",
			"forged-annot-stamp-cr-invoice-mono-1.pdf"}},
		{"page-geometry.foreign-page", []string{
			"forged-page-swap-pdftk-rl-statement-3p.pdf", "forged-page-swap-pdftk-cr-invoice-3p.pdf",
			"forged-page-swap-qpdf-rl-invoice-3p.pdf", "forged-page-swap-qpdf-gs-statement-3p.pdf",
			"forged-page-swap-pypdf-lo-statement-3p.pdf"}},
		{"numeric-edits.text-pattern", []string{
			"forged-redact-retype-rl-statement-7.pdf", "forged-redact-retype-rl-invoice-1.pdf",
			"forged-redact-retype-cr-invoice-1.pdf", "forged-annot-square-rl-invoice-2.pdf",
			"forged-redact-retype-pl-statement-1.pdf"}},
	}
	for _, tr := range traces {
		for _, f := range tr.forged {
			if got := reportCodes(read(f)); !slices.Contains(got, tr.code) {
				t.Errorf("%s: no %s; codes %v", f, tr.code, got)
			}
		}
	}
	genuine, err := filepath.Glob(filepath.Join(tracesDir, "genuine-*.pdf"))
	if err != nil || len(genuine) < 10 {
		t.Fatalf("genuine fixtures: %d, %v", len(genuine), err)
	}
	for _, g := range genuine {
		got := reportCodes(read(filepath.Base(g)))
		for _, tr := range traces {
			if slices.Contains(got, tr.code) {
				t.Errorf("genuine %s raises %s", filepath.Base(g), tr.code)
			}
		}
	}
}
