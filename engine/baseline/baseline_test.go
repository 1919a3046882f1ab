package baseline

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// statement builds one output of a fictional bank's statement writer:
// cross-reference stream with packed objects, a subset Helvetica whose tag
// changes per file, A4 pages, Producer and Creator fixed. n varies the text.
func statement(t testing.TB, n int) *pdf.Description {
	b := pdftest.OnePage(fmt.Sprintf("Statement %d", n))
	b.Set(pdftest.PageObj, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	b.Set(pdftest.FontObj, fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /%s+Helvetica >>", subsetTag(n)))
	b.Set(6, "<< /Producer (Acme Statements 4.2) /Creator (Acme Core Banking) /CreationDate (D:20240101000000Z) >>")
	b.Trailer("/Root 1 0 R /Info 6 0 R")
	b.XrefStream(pdftest.CatalogObj, pdftest.PagesObj, pdftest.PageObj, 6)
	return describe(t, b.Bytes())
}

// wordExport is the same page as another writer saves it: classic table,
// US Letter, a word processor's Producer.
func wordExport(t testing.TB) *pdf.Description {
	b := pdftest.OnePage("Statement 99")
	b.Set(6, "<< /Producer (Microsoft: Print To PDF) /Creator (Microsoft Word) /Author (someone) >>")
	b.Trailer("/Root 1 0 R /Info 6 0 R")
	return describe(t, b.Bytes())
}

func subsetTag(n int) string {
	return string([]byte{'A' + byte(n%26), 'B', 'C', 'D', 'E', 'F'})
}

func describe(t testing.TB, data []byte) *pdf.Description {
	t.Helper()
	d, err := pdf.Describe(context.Background(), data, 0, pdf.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func trained(t testing.TB, n int) *Profile {
	p := New("acme-bank", "Acme Bank")
	for i := range n {
		p.Add(Observe(statement(t, i)))
	}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestObserve(t *testing.T) {
	o := Observe(statement(t, 1))
	want := Observation{
		Producers: Unrecognised, Creators: Unrecognised, PDFVersions: "1.7",
		FontSets: "Helvetica", PageGeometry: "595x842", XrefStyle: "stream", ObjectStreams: "true",
		Revisions: "1", Linearized: "false", InfoKeys: "CreationDate,Creator,Producer",
	}
	for k, v := range want {
		if o[k] != v {
			t.Errorf("%s = %q, want %q", k, o[k], v)
		}
	}
}

func TestSummaries(t *testing.T) {
	p := trained(t, 5)
	p.Add(Observe(wordExport(t)))
	s := p.Summaries()
	if len(s) != len(dimensions) || s[0].Dimension != Producers {
		t.Fatalf("summaries = %+v", s)
	}
	if s[0].Consistency != 0.833 || s[0].DistinctValues != 2 || s[0].Top != Unrecognised {
		t.Errorf("producers = %+v", s[0])
	}
	for _, d := range s {
		if d.Dimension == ObjectStreams && d.Top != true {
			t.Errorf("objectStreams top = %#v, want typed true", d.Top)
		}
		if d.Dimension == Revisions && d.Top != 1 {
			t.Errorf("revisions top = %#v, want typed 1", d.Top)
		}
	}
}

func TestMatchSameWriterQuiet(t *testing.T) {
	res := Match(trained(t, 5), statement(t, 42))
	if !res.MatchingActive || res.Divergence != 0 || len(res.MismatchedDimensions) != 0 || res.Finding != nil {
		t.Fatalf("same writer: %+v", res)
	}
}

func TestMatchOtherWriterFlags(t *testing.T) {
	res := Match(trained(t, 6), wordExport(t))
	// The word processor writes its own cross-reference table, object
	// order, catalogue layout and unsubset fonts: its habits differ too.
	want := []string{Producers, Creators, PageGeometry, XrefStyle, ObjectStreams, InfoKeys, XrefForm, ObjectOrder, ObjectSyntax, SubsetNaming}
	if !slices.Equal(res.MismatchedDimensions, want) {
		t.Fatalf("mismatched = %v, want %v", res.MismatchedDimensions, want)
	}
	if res.Finding == nil || res.Finding.Family != "issuer-mismatch" || res.Finding.Message.Code != "issuer-mismatch.diverges" {
		t.Fatalf("finding = %+v", res.Finding)
	}
	if res.Divergence < mediumDivergence || res.Finding.Severity != "medium" {
		t.Errorf("divergence %v severity %v", res.Divergence, res.Finding.Severity)
	}
	res.Finding.Signal() // params must be numbers only: Signal panics otherwise
}

func TestMatchNeverBelowFloor(t *testing.T) {
	res := Match(trained(t, MinSamplesForMatching-1), wordExport(t))
	if res.MatchingActive || res.Finding != nil || res.Divergence != 0 || len(res.MismatchedDimensions) != 0 {
		t.Fatalf("below the floor: %+v", res)
	}
}

// A dimension the issuer varies on never mismatches.
func TestMatchUnstableDimensionIgnored(t *testing.T) {
	p := trained(t, 3)
	for range 3 {
		p.Add(Observe(wordExport(t)))
	}
	res := Match(p, statement(t, 7))
	if res.Finding != nil || len(res.MismatchedDimensions) != 0 {
		t.Fatalf("mixed profile flagged: %+v", res)
	}
}

func TestMerge(t *testing.T) {
	a, b := trained(t, 3), trained(t, 2)
	a.Merge(b)
	if a.SampleCount != 5 || a.Counts[Producers][Unrecognised] != 5 || !a.MatchingActive() {
		t.Fatalf("merged = %+v", a)
	}
}

func TestDistinctValuesBounded(t *testing.T) {
	p := New("x", "")
	for i := range MaxValues + 10 {
		o := Observe(statement(t, 0))
		o[Producers] = fmt.Sprintf("Writer %d", i)
		p.Add(o)
	}
	if n := len(p.Counts[Producers]); n != MaxValues+1 || p.Counts[Producers][Other] != 10 {
		t.Fatalf("producers kept %d values, other %d", n, p.Counts[Producers][Other])
	}
}

func TestPrivacyRejects(t *testing.T) {
	for _, v := range []string{
		"Statement for jane.doe@example.com",
		"Acct 12345678901",
		"Acct 1234 5678 9012",
		"Sort code and account 12-34-56 12345678",
		"Dear customer, this statement covers the period of your account with us and the balance below",
	} {
		p := trained(t, 5)
		o := Observe(statement(t, 0))
		o[Producers] = v
		p.Add(o)
		if err := p.Check(); !errors.Is(err, ErrRejected) {
			t.Errorf("%q accepted", v)
		}
	}
	p := trained(t, 5)
	o := Observe(statement(t, 0))
	o[FontSets] = "Arial,Helvetica,ACCT-123456789"
	p.Add(o)
	if p.Check() == nil {
		t.Error("font item with an account number accepted")
	}
}

// TestPrivacyAccepts: a tool's name and version are kept, and what a
// writer adds after them (a licensee, a product line, a build) is not; the
// kept form passes the check.
func TestPrivacyAccepts(t *testing.T) {
	for v, want := range map[string]string{
		"Microsoft® Word for Microsoft 365":                        "Microsoft® Word",
		"Microsoft® Word 16.0.17928.20114":                         "Microsoft® Word 16.0.17928.20114",
		"iText® 5.5.13.3 ©2000-2022 iText Group NV (AGPL-version)": "iText® 5.5.13.3",
		"Skia/PDF m120":           "Skia/PDF m120",
		"GPL Ghostscript 10.02.1": "Ghostscript 10.02.1",
		"macOS Version 14.2.1 (Build 23C71) Quartz PDFContext":       "macOS Quartz PDFContext",
		"Acrobat Distiller 9.0 for Johnathan Doe, net 12,345.67 EUR": "Acrobat Distiller 9.0",
		"PScript5.dll Version 5.2.2":                                 "PScript5.dll Version 5.2.2",
		"LibreOffice 5.2":                                            "LibreOffice 5.2",
	} {
		if got := toolValue(v); got != want || toolValue(got) != got {
			t.Errorf("toolValue(%q) = %q (again %q), want %q", v, got, toolValue(got), want)
		}
		p := New("x", "")
		o := Observe(statement(t, 0))
		o[Producers] = toolValue(v)
		p.Add(o)
		if err := p.Check(); err != nil {
			t.Errorf("%q rejected", v)
		}
	}
}

// personal writes the statement page with an Info dictionary a person
// filled in: their name as Creator, and a custom key named after them.
func personal(t testing.TB, info string) *pdf.Description {
	b := pdftest.OnePage("Statement 1")
	b.Set(6, info)
	b.Trailer("/Root 1 0 R /Info 6 0 R")
	return describe(t, b.Bytes())
}

// TestPrivacyKeepsNoName: a person's name as Creator or Producer, a file
// name after a print driver's tool name, and a custom Info key named after
// a person never reach the observation, so never a profile; a profile
// stored before the rule that holds them is refused.
func TestPrivacyKeepsNoName(t *testing.T) {
	o := Observe(personal(t, "<< /Creator (Jane Doe) /Producer (Microsoft Word - Jane Doe CV.docx) /JaneDoe (x) /Company (Acme) /CreationDate (D:20240101000000Z) >>"))
	if o[Creators] != Unrecognised || o[Producers] != "Microsoft Word" {
		t.Fatalf("creator %q producer %q", o[Creators], o[Producers])
	}
	if o[InfoKeys] != "Company,CreationDate,Creator,Producer,custom:1" {
		t.Fatalf("info keys %q", o[InfoKeys])
	}
	p := New("x", "")
	p.Add(o)
	if err := p.Check(); err != nil {
		t.Fatalf("the scrubbed profile: %v", err)
	}
	for dim, v := range map[string]string{Creators: "Jane Doe", Producers: "Microsoft Word - Jane Doe CV.docx", InfoKeys: "Author,JaneDoe"} {
		old := New("x", "")
		old.Add(o)
		old.Counts[dim] = map[string]int{v: 1}
		if err := old.Check(); !errors.Is(err, ErrRejected) {
			t.Errorf("stored %s %q accepted", dim, v)
		}
	}
	// The catalogue's tools keep their name and version.
	if o := Observe(personal(t, "<< /Producer (GPL Ghostscript 10.02.1) /Creator (PScript5.dll Version 5.2.2) >>")); o[Producers] != "Ghostscript 10.02.1" || o[Creators] != "PScript5.dll Version 5.2.2" {
		t.Fatalf("tools rewritten: %q %q", o[Producers], o[Creators])
	}
}
