package compare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/report"
)

func run(t *testing.T, original, candidate []byte) *Report {
	t.Helper()
	r, err := Compare(context.Background(), original, candidate, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func hasFinding(r *Report, id string) bool {
	for _, f := range r.Findings {
		if f.ID == id {
			return true
		}
	}
	return false
}

func wantFindings(t *testing.T, r *Report, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if !hasFinding(r, id) {
			t.Errorf("%s: no %s finding in %+v", r.Relationship, id, r.Findings)
		}
	}
}

const id = "/ID [<0102030405060708> <1112131415161718>]"

func original() []byte {
	b := pdftest.OnePage("Total due 100.00")
	b.Add("<< /Producer (Acme Billing 4.2) /Title (Invoice 7) >>") // object 6
	b.Trailer(fmt.Sprintf("/Root %d 0 R /Info 6 0 R %s", pdftest.CatalogObj, id))
	return b.Bytes()
}

func TestIdentical(t *testing.T) {
	o := original()
	r := run(t, o, o)
	if r.Relationship != Identical || r.Ancestry != nil || r.Differences != nil {
		t.Fatalf("%+v", r)
	}
	wantFindings(t, r, "identical-bytes")
}

func TestExtendsWithContentTouched(t *testing.T) {
	o := original()
	u := pdftest.Update(o)
	u.Stream(pdftest.ContentObj, "", []byte("BT /F1 24 Tf 72 700 Td (Total due 900.00) Tj ET"))
	u.Trailer(fmt.Sprintf("/Root %d 0 R /Info 6 0 R %s", pdftest.CatalogObj, id))
	c := u.Bytes()

	r := run(t, o, c)
	if r.Relationship != Extends || r.Ancestry == nil {
		t.Fatalf("%+v", r)
	}
	an := r.Ancestry
	if an.SharedRevisions != 1 || an.RevisionsAdded != 1 || !an.ContentTouched || an.BytesAdded != len(c)-len(o) {
		t.Fatalf("ancestry %+v", an)
	}
	if len(an.ChangedPerRevision) != 1 || an.ChangedPerRevision[0]["revision"] != 2 {
		t.Fatalf("per revision %+v", an.ChangedPerRevision)
	}
	wantFindings(t, r, "revisions-appended", "content-touched")
	if r.Findings[0].ID != "content-touched" {
		t.Errorf("most severe first: %+v", r.Findings)
	}

	// The reverse pair: the candidate is an earlier state.
	r = run(t, c, o)
	if r.Relationship != Truncates || !r.Ancestry.ContentTouched {
		t.Fatalf("%+v", r)
	}
	wantFindings(t, r, "candidate-is-earlier-version", "content-touched")
}

func TestExtendsWithoutContent(t *testing.T) {
	o := original()
	u := pdftest.Update(o)
	u.Set(6, "<< /Producer (Acme Billing 4.2) /Title (Invoice 7) /Keywords (paid) >>")
	u.Trailer(fmt.Sprintf("/Root %d 0 R /Info 6 0 R %s", pdftest.CatalogObj, id))
	r := run(t, o, u.Bytes())
	if r.Relationship != Extends || r.Ancestry.ContentTouched || hasFinding(r, "content-touched") {
		t.Fatalf("%+v", r)
	}
	// A final newline the writer dropped before appending still counts as
	// the same prefix.
	trimmed := o[:len(o)-1]
	r = run(t, trimmed, u.Bytes())
	if r.Relationship != Extends {
		t.Fatalf("trimmed original: %s", r.Relationship)
	}
	// Junk appended after %%EOF is no revision.
	r = run(t, o, append(append([]byte(nil), o...), "\ngarbage"...))
	if r.Relationship != Extends || r.Ancestry.RevisionsAdded != 0 {
		t.Fatalf("junk: %+v", r.Ancestry)
	}
	wantFindings(t, r, "bytes-appended-without-revision")
}

func TestRewritten(t *testing.T) {
	o := original()
	b := pdftest.New("1.7")
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict(""))
	b.Set(pdftest.PagesObj, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R 9 0 R] /Count 2 >>", pdftest.PageObj))
	b.Set(pdftest.PageObj, pdftest.TextPageDict(""))
	b.Set(9, fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R >>", pdftest.PagesObj, pdftest.FontObj, pdftest.ContentObj))
	b.Stream(pdftest.ContentObj, "", []byte("BT /F1 24 Tf 72 700 Td (Total due 900.00) Tj ET"))
	b.Set(pdftest.FontObj, "<< /Type /Font /Subtype /TrueType /BaseFont /ABCDEF+Arial >>")
	b.Set(6, "<< /Producer (PDF Editor Pro) /Title (Invoice 7) >>")
	b.Trailer(fmt.Sprintf("/Root %d 0 R /Info 6 0 R /ID [<aaaa> <bbbb>]", pdftest.CatalogObj))
	r := run(t, o, b.Bytes())
	if r.Relationship != Rewritten || r.Differences == nil {
		t.Fatalf("%+v", r)
	}
	d := r.Differences
	if d.ID.Assessment != "different-document" || d.PageCount.Candidate != 2 || d.Fonts.NewBaseNames != 1 ||
		len(d.Fonts.Removed) != 1 || d.Info.Total != 1 || d.Info.Items[0].Key != "Producer" || d.Producer.Candidate.Producer != "PDF Editor Pro" {
		t.Fatalf("differences %+v", d)
	}
	wantFindings(t, r, "rewritten", "different-document", "page-count-changed", "fonts-added", "fonts-removed", "metadata-changed", "producer-changed")

	// The same document saved again keeps the permanent half of its ID.
	again := pdftest.OnePage("Total due 100.00")
	again.Set(pdftest.FontObj, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	again.Trailer(fmt.Sprintf("/Root %d 0 R /ID [<0102030405060708> <99>]", pdftest.CatalogObj))
	r = run(t, o, again.Bytes())
	wantFindings(t, r, "rewritten", "same-document-resaved", "metadata-changed")
	if hasFinding(r, "fonts-added") || hasFinding(r, "page-count-changed") || hasFinding(r, "page-geometry-changed") {
		t.Errorf("re-save: %+v", r.Findings)
	}
}

// TestQPDFResave re-saves a file through qpdf (Debian's, when installed):
// a full rewrite of the same document.
func TestQPDFResave(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf not installed")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "out.pdf")
	o := original()
	os.WriteFile(in, o, 0o600)
	if msg, err := exec.Command(qpdf, "--object-streams=generate", in, out).CombinedOutput(); err != nil {
		t.Fatalf("qpdf: %v %s", err, msg)
	}
	c, _ := os.ReadFile(out)
	r := run(t, o, c)
	if r.Relationship != Rewritten || r.Differences.XrefStyle.Candidate != "stream" {
		t.Fatalf("%+v", r)
	}
	wantFindings(t, r, "rewritten", "same-document-resaved", "structure-changed")
	if hasFinding(r, "fonts-added") || hasFinding(r, "page-count-changed") {
		t.Errorf("qpdf re-save: %+v", r.Findings)
	}
}

func TestNotPDF(t *testing.T) {
	o := original()
	for _, pair := range [][2][]byte{{o, []byte("hello")}, {[]byte("PK\x03\x04"), o}} {
		if _, err := Compare(context.Background(), pair[0], pair[1], Options{}); !errors.Is(err, ErrNotPDF) {
			t.Errorf("err %v", err)
		}
	}
}

// TestHostileCorpus compares every hostile corpus file against a clean one
// in both positions: a result or ErrNotPDF, never a panic.
func TestHostileCorpus(t *testing.T) {
	files, _ := filepath.Glob("../../../shared/corpus/pdf-hostile/*/*")
	if len(files) == 0 {
		t.Skip("corpus not present")
	}
	o := original()
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil || len(b) > 4<<20 {
			continue
		}
		for _, pair := range [][2][]byte{{o, b}, {b, o}, {b, b}} {
			if _, err := Compare(context.Background(), pair[0], pair[1], Options{}); err != nil && !errors.Is(err, ErrNotPDF) {
				t.Errorf("%s: %v", filepath.Base(f), err)
			}
		}
	}
}

func FuzzCompare(f *testing.F) {
	o := original()
	u := pdftest.Update(o)
	u.Set(6, "<< /Title (x) >>")
	f.Add(o, u.Bytes())
	f.Add(o, o[:len(o)/2])
	// Real files whose page text differs (pagetext.go).
	genuine, _ := os.ReadFile(statements + "statement.pdf")
	for _, name := range []string{"statement-forged.pdf", "statement-rewritten.pdf"} {
		if b, err := os.ReadFile(statements + name); err == nil {
			f.Add(genuine, b)
		}
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		r, err := Compare(context.Background(), a, b, Options{})
		if err != nil {
			return
		}
		if r.Relationship == "" || r.Findings == nil {
			t.Fatalf("incomplete report %+v", r)
		}
		if pt := r.PageText; pt != nil && (len(pt.Items) > maxListLen || pt.Total < len(pt.Items) || pt.Total != pt.FiguresChanged+pt.WordsChanged) {
			t.Fatalf("page text counts %+v", pt)
		}
	})
}

func BenchmarkCompareExtends(b *testing.B) {
	o := original()
	u := pdftest.Update(o)
	u.Set(6, "<< /Title (x) >>")
	c := u.Bytes()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Compare(context.Background(), o, c, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestFindingsCatalogued keeps the severity table and the English
// catalogue in step.
func TestFindingsCatalogued(t *testing.T) {
	for _, id := range IDs() {
		if !report.HasCode("compare." + id) {
			t.Errorf("finding %s has no catalogue text", id)
		}
	}
	for _, code := range report.Codes() {
		if rest, ok := strings.CutPrefix(code, "compare."); ok {
			if _, known := Severity(rest); !known {
				t.Errorf("catalogue code %s has no severity", code)
			}
		}
	}
}

func TestSeverityIDsUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range severities {
		if seen[e.id] {
			t.Errorf("finding id %s is in the table twice", e.id)
		}
		seen[e.id] = true
	}
}

// TestSignatureIntegrityChanged: a signed file against its twin with a
// same-length edit under the signature notes the signature whose integrity
// differs; against its twin with a changed /Contents padding byte, which no
// range covers, it does not (issue 38).
func TestSignatureIntegrityChanged(t *testing.T) {
	read := func(name string) []byte {
		data, err := os.ReadFile(filepath.Join("../testdata/detection/signed", name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	genuine := read("genuine-rsa-pkcs1.pdf")
	r := run(t, genuine, read("forged-rsa-pkcs1-edit-range2.pdf"))
	wantFindings(t, r, "signature-integrity-changed")
	for _, f := range r.Findings {
		if f.ID == "signature-integrity-changed" && (f.Severity != report.High || f.Message.Params["signatures"] != 1) {
			t.Errorf("finding %+v", f)
		}
	}
	if r := run(t, genuine, read("padding-rsa-pkcs1.pdf")); hasFinding(r, "signature-integrity-changed") {
		t.Errorf("padding change noted: %+v", r.Findings)
	}
	// Appending a revision keeps the first signature's integrity.
	two := read("genuine-incremental-two-signatures.pdf")
	if r := run(t, two[:bytesIndexSecondRevision(t, two)], two); hasFinding(r, "signature-integrity-changed") || r.Relationship != Extends {
		t.Errorf("%s: %+v", r.Relationship, r.Findings)
	}
}

// bytesIndexSecondRevision is where the first revision of a two-revision
// fixture ends.
func bytesIndexSecondRevision(t *testing.T, data []byte) int {
	i := strings.Index(string(data), "%%EOF\n")
	if i < 0 {
		t.Fatal("no end-of-file marker")
	}
	return i + len("%%EOF\n")
}
