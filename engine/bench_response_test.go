package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/receipt"
	"github.com/doctrust/doctrust/engine/report"
)

// typicalReportFile is an edited PDF whose report (about 3 KB) carries the
// common evidence shapes: producer tools, per-revision blocks, counts.
const typicalReportFile = "pdf-general/pdfjs/doc_actions.pdf"

func typicalReport(tb testing.TB) (*report.Report, []byte) {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(benchCorpusRoot(tb), typicalReportFile))
	if err != nil {
		tb.Fatal(err)
	}
	r, err := engine.Inspect(context.Background(), data, engine.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return r, data
}

// BenchmarkResponse is what the service and batch mode do per document
// beyond the analysis: the inspection itself (for scale), the signed body
// (encode the report, canonicalise it for the hash, sign) and the verify
// route's hash of a received report (docs/performance.md, "Speed-only code
// retired").
func BenchmarkResponse(b *testing.B) {
	r, data := typicalReport(b)
	issued := time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC)
	body, _, err := receipt.Attach(r, []byte("secret"), issued, false)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("inspect", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			engine.Inspect(context.Background(), data, engine.Options{})
		}
	})
	b.Run("attach", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			receipt.Attach(r, []byte("secret"), issued, false)
		}
	})
	b.Run("report-hash", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			receipt.ReportHash(body)
		}
	})
}
