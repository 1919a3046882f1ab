package engine

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/report"
)

func producedBy(producer string, n int) []byte {
	b := pdftest.OnePage(fmt.Sprintf("Invoice %d", n))
	b.Set(6, "<< /Producer "+pdftest.Lit(producer)+" >>")
	b.Trailer("/Root 1 0 R /Info 6 0 R")
	return b.Bytes()
}

func issuerProfile(t *testing.T, samples int) *baseline.Profile {
	p := baseline.New("acme", "")
	for i := range samples {
		d, err := pdf.Describe(context.Background(), producedBy("Acme Invoicer 2.0", i), 0, pdf.Options{})
		if err != nil {
			t.Fatal(err)
		}
		p.Add(baseline.Observe(d))
	}
	return p
}

func TestInspectIssuerMismatch(t *testing.T) {
	is := &Issuer{Slug: "acme", Profile: issuerProfile(t, 5), Source: baseline.SourceCustomer}
	// A catalogued editor: an uncatalogued one reads as "(unrecognised)",
	// like the issuer's own in-house writer (baseline/privacy.go).
	rep, err := Inspect(context.Background(), producedBy("Sejda PDF", 9), Options{Issuer: is})
	if err != nil {
		t.Fatal(err)
	}
	b := rep.IssuerBaseline
	if b == nil || !b.Resolved || b.Source != "customer" || *b.SampleCount != 5 || !*b.MatchingActive ||
		!slices.Equal(b.MismatchedDimensions, []string{baseline.Producers}) || *b.Divergence <= 0 {
		t.Fatalf("block = %+v", b)
	}
	if !rep.Has("issuer-mismatch") {
		t.Fatal("no issuer-mismatch signal")
	}

	rep, err = Inspect(context.Background(), producedBy("Acme Invoicer 2.0", 9), Options{Issuer: is})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Has("issuer-mismatch") || *rep.IssuerBaseline.Divergence != 0 {
		t.Fatalf("same writer flagged: %+v", rep.IssuerBaseline)
	}
}

func TestInspectIssuerBelowFloor(t *testing.T) {
	is := &Issuer{Slug: "acme", Profile: issuerProfile(t, 4), Source: baseline.SourceCustomer}
	// A catalogued editor: an uncatalogued one reads as "(unrecognised)",
	// like the issuer's own in-house writer (baseline/privacy.go).
	rep, err := Inspect(context.Background(), producedBy("Sejda PDF", 9), Options{Issuer: is})
	if err != nil {
		t.Fatal(err)
	}
	b := rep.IssuerBaseline
	if rep.Has("issuer-mismatch") || *b.MatchingActive || b.Divergence != nil || len(b.MismatchedDimensions) != 0 {
		t.Fatalf("below floor: %+v", b)
	}
}

func TestInspectIssuerUnresolved(t *testing.T) {
	rep, err := Inspect(context.Background(), producedBy("x", 1), Options{Issuer: &Issuer{Slug: "nobody"}})
	if err != nil {
		t.Fatal(err)
	}
	if b := rep.IssuerBaseline; b.Resolved || b.Reason != "no_profile" || b.Requested != "nobody" {
		t.Fatalf("block = %+v", b)
	}
	if rep.MediaType != report.MediaPDF {
		t.Fatal(rep.MediaType)
	}
}
