package engine_test

import (
	"context"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/internal/baselines"
)

// BenchmarkInspectPDFIssuer sweeps the PDFs of BenchmarkInspectPDF with a
// built-in issuer named: the report and the baseline's structural
// description of each file (docs/performance.md).
func BenchmarkInspectPDFIssuer(b *testing.B) {
	files := benchLoad(b, benchPDFCategories...)
	p := baselines.BuiltIn()[0]
	opt := engine.Options{Issuer: &engine.Issuer{Slug: p.Issuer, Profile: p, Source: "public-specimen"}}
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			engine.Inspect(ctx, f.data, opt)
		}
	}
	b.StopTimer()
	benchRates(b, len(files), benchTotalBytes(files))
}

// BenchmarkLedgerRead sweeps the same PDFs as the supplier ledger reads an
// attachment: the report, then the page text.
func BenchmarkLedgerRead(b *testing.B) {
	files := benchLoad(b, benchPDFCategories...)
	ctx := context.Background()
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, f := range files {
			ledgerRead(ctx, f.data)
		}
	}
	b.StopTimer()
	benchRates(b, len(files), benchTotalBytes(files))
}

func ledgerRead(ctx context.Context, data []byte) {
	doc := engine.Read(data)
	if _, err := doc.Inspect(ctx, engine.Options{}); err != nil {
		return
	}
	doc.Text(ctx, 64<<10)
}
