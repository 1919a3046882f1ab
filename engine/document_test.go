package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/baselines"
)

// TestIssuerInspectParsesOnce: a request naming an issuer gets its report
// and its baseline description from one parse (issue 29), and a text or
// metadata reading of the same document parses nothing more.
func TestIssuerInspectParsesOnce(t *testing.T) {
	p := baselines.BuiltIn()[0]
	doc := engine.Read(pdftest.OnePage("Invoice 42").Bytes())
	ctx := context.Background()
	r, err := doc.Inspect(ctx, engine.Options{Issuer: &engine.Issuer{Slug: p.Issuer, Profile: p, Source: "public-specimen"}})
	if err != nil {
		t.Fatal(err)
	}
	if r.IssuerBaseline == nil || !r.IssuerBaseline.Resolved {
		t.Fatalf("issuer block not filled: %+v", r.IssuerBaseline)
	}
	if n := doc.PDFOpens(); n != 1 {
		t.Errorf("an issuer-named inspect parsed the PDF %d times, want 1", n)
	}
	if _, err := doc.Text(ctx, 1<<10); err != nil {
		t.Fatal(err)
	}
	if n := doc.PDFOpens(); n != 1 {
		t.Errorf("an issuer-named inspect and the text parsed the PDF %d times, want 1", n)
	}
}

// TestSharedReadingsMatchAlone: each reading of a shared document gives
// what it gives on a document read for it alone, over the corpus's
// incremental and signed files. The report and the text share one parse; a
// listing after them, whose structure notes count what the file layer met,
// gets a parse of its own.
func TestSharedReadingsMatchAlone(t *testing.T) {
	dir := corpusDir(t)
	p := baselines.BuiltIn()[0]
	ctx := context.Background()
	opt := engine.Options{Now: goldenNow, Issuer: &engine.Issuer{Slug: p.Issuer, Profile: p, Source: "public-specimen"}}
	checked := 0
	for _, row := range manifest(t) {
		if row.Category != "pdf-incremental" && row.Category != "pdf-signed" {
			continue
		}
		data := readCorpus(t, dir, row.File)
		doc := engine.Read(data)
		r, err := doc.Inspect(ctx, opt)
		text, terr := doc.Text(ctx, goldenTextBytes)
		m, merr := doc.Metadata(ctx, engine.Options{})
		if got, want := reportLine(r, err), reportLine(engine.Inspect(ctx, data, opt)); got != want {
			t.Errorf("%s: shared inspect %s, alone %s", row.File, got, want)
		}
		if got, want := jsonLine(text, terr), jsonLine(engine.Text(ctx, data, goldenTextBytes)); got != want {
			t.Errorf("%s: text after inspect differs from text alone", row.File)
		}
		if got, want := jsonLine(m, merr), jsonLine(engine.Metadata(ctx, data, engine.Options{})); got != want {
			t.Errorf("%s: metadata after inspect and text differs from metadata alone", row.File)
		}
		if n := doc.PDFOpens(); n != 2 {
			t.Errorf("%s: parsed %d times, want 2 (inspect and text, then the listing)", row.File, n)
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no incremental or signed corpus file")
	}
}

func readCorpus(t *testing.T, dir, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
