package engine_test

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/report"
)

// rawPDF lays out numbered object bodies with a correct classic xref table.
func rawPDF(objs map[int]string, trailer string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	max := 0
	for n := range objs {
		max = maxInt(max, n)
	}
	offs := make([]int, max+1)
	for n := 1; n <= max; n++ {
		body, ok := objs[n]
		if !ok {
			continue
		}
		offs[n] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, body)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", max+1)
	for n := 1; n <= max; n++ {
		if offs[n] == 0 {
			b.WriteString("0000000000 65535 f \n")
		} else {
			fmt.Fprintf(&b, "%010d 00000 n \n", offs[n])
		}
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n", max+1, trailer, xref)
	return b.Bytes()
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func deflate(t testing.TB, data []byte) []byte {
	var b bytes.Buffer
	w, _ := zlib.NewWriterLevel(&b, zlib.BestCompression)
	w.Write(data)
	w.Close()
	return b.Bytes()
}

func inspectBounded(t *testing.T, data []byte) *report.Report {
	t.Helper()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	r, err := engine.Inspect(ctx, data, engine.Options{})
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("hostile file gave %v, want a report", err)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20+16*uint64(len(data)) {
		t.Errorf("allocated %d MB", alloc>>20)
	}
	return r
}

func codes(r *report.Report) []string {
	for _, s := range r.Signals {
		if s.ID == "structure-warnings" {
			return s.Evidence["codes"].([]string)
		}
	}
	return nil
}

func hasCode(r *report.Report, code string) bool {
	for _, c := range codes(r) {
		if c == code {
			return true
		}
	}
	return false
}

// TestNestedFlateBomb: two Flate filters turn a few kilobytes into
// gigabytes; the budget stops the decoding and the report says so.
func TestNestedFlateBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 64 MB bomb")
	}
	inner := deflate(t, make([]byte, 64<<20))
	outer := deflate(t, inner)
	if len(outer) > 64<<10 {
		t.Fatalf("bomb is %d bytes", len(outer))
	}
	content := fmt.Sprintf("<< /Length %d /Filter [/FlateDecode /FlateDecode] >>\nstream\n%s\nendstream", len(outer), outer)
	pdf := rawPDF(map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R >>",
		2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>",
		4: content,
	}, "/Root 1 0 R")
	r := inspectBounded(t, pdf)
	if !hasCode(r, "budget-exhausted") {
		t.Fatalf("codes %v", codes(r))
	}
	if r.Summary.Cost.ExpandedBytes > 64<<20 {
		t.Fatalf("expanded %d bytes past the budget", r.Summary.Cost.ExpandedBytes)
	}
}

// TestDeepNesting: arrays nested far beyond the parser's depth limit.
func TestDeepNesting(t *testing.T) {
	deep := strings.Repeat("[", 200000) + strings.Repeat("]", 200000)
	pdf := rawPDF(map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R /Deep " + deep + " >>",
		2: "<< /Type /Pages /Kids [] /Count 0 >>",
	}, "/Root 1 0 R")
	r := inspectBounded(t, pdf)
	if len(codes(r)) == 0 {
		t.Fatal("deep nesting raised no structure warning")
	}
}

// TestSelfReferencingObjectStream: an object stream whose /N and /First
// live inside itself, and a compressed entry pointing at its own host.
func TestSelfReferencingObjectStream(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	off5 := b.Len()
	b.WriteString("5 0 obj\n<< /Type /ObjStm /N 6 0 R /First 7 0 R /Length 10 >>\nstream\n6 0 7 2 12\nendstream\nendobj\n")
	// xref stream: 1 catalog compressed in 5; 5 in use at off5; 6 and 7 compressed in 5.
	rows := []byte{}
	row := func(t, f2, f3 int) { rows = append(rows, byte(t), byte(f2>>8), byte(f2), byte(f3)) }
	row(0, 0, 0)
	row(2, 5, 0)
	row(0, 0, 0)
	row(0, 0, 0)
	row(0, 0, 0)
	row(1, off5, 0)
	row(2, 5, 0)
	row(2, 5, 1)
	xo := b.Len()
	fmt.Fprintf(&b, "8 0 obj\n<< /Type /XRef /Size 9 /Index [0 8] /W [1 2 1] /Root 1 0 R /Length %d >>\nstream\n%s\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", len(rows), rows, xo)
	r := inspectBounded(t, b.Bytes())
	if len(codes(r)) == 0 {
		t.Fatal("self-referencing object stream raised no structure warning")
	}
}

// TestOffsetsPointingAnywhere: every xref entry and startxref point into
// the middle of other tokens, and /Prev points back at itself.
func TestOffsetsPointingAnywhere(t *testing.T) {
	good := rawPDF(map[int]string{
		1: "<< /Type /Catalog /Pages 2 0 R >>",
		2: "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
	}, "/Root 1 0 R")
	s := string(good)
	i := strings.Index(s, "xref\n")
	bad := s[:i] + "xref\n0 4\n0000000000 65535 f \n0000000003 00000 n \n0000099999 00000 n \n0000000001 00000 n \ntrailer\n<< /Size 4 /Root 1 0 R /Prev " + fmt.Sprint(i) + " >>\nstartxref\n" + fmt.Sprint(i) + "\n%%EOF\n"
	r := inspectBounded(t, []byte(bad))
	if r.Document.Pages != 1 {
		t.Fatalf("pages %d: repair did not find the objects", r.Document.Pages)
	}
	if !hasCode(r, "xref-loop") || !hasCode(r, "xref-entries-repaired") {
		t.Fatalf("codes %v", codes(r))
	}
}

// xrefStreamPDF is a two-object file whose compressed xref stream lists
// n entries: the real two, then n-3 more of kind typ (0 free, 1 in use at
// the page tree's offset, 2 compressed), as a generator of hostile files
// writes them: a million entries fit in a few kilobytes.
func xrefStreamPDF(t testing.TB, n int, typ byte) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	o1 := b.Len()
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	o2 := b.Len()
	b.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	rows := make([]byte, 0, n*4)
	for i := 0; i < n; i++ {
		switch i {
		case 0:
			rows = append(rows, 0, 0, 0, 255)
		case 1:
			rows = append(rows, 1, byte(o1>>8), byte(o1), 0)
		case 2:
			rows = append(rows, 1, byte(o2>>8), byte(o2), 0)
		default:
			rows = append(rows, typ, byte(o2>>8), byte(o2), 0)
		}
	}
	z := deflate(t, rows)
	xo := b.Len()
	fmt.Fprintf(&b, "3 0 obj\n<< /Type /XRef /Size %d /W [1 2 1] /Root 1 0 R /Filter /FlateDecode /Length %d >>\nstream\n", n, len(z))
	b.Write(z)
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xo)
	return b.Bytes()
}

// TestMillionEntryXrefStream: a few kilobytes listing a million objects
// cost seconds and 150 MB before entries were bounded by the file's size;
// now reading stops at the allowance and the report says so, while an
// honest xref stream of the same shape stays quiet.
func TestMillionEntryXrefStream(t *testing.T) {
	for _, typ := range []byte{0, 1, 2} {
		data := xrefStreamPDF(t, 1_000_000, typ)
		if len(data) > 10<<10 {
			t.Fatalf("fixture is %d bytes", len(data))
		}
		r := inspectBounded(t, data)
		if !hasCode(r, "xref-entries-capped") {
			t.Fatalf("kind %d: codes %v", typ, codes(r))
		}
	}
	if r := inspectBounded(t, xrefStreamPDF(t, 3, 0)); hasCode(r, "xref-entries-capped") {
		t.Fatal("a three-entry xref stream was capped")
	}
}

// packageWithEntries is a minimal docx followed by extra empty entries.
func packageWithEntries(t testing.TB, extra int) []byte {
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	for name, body := range map[string]string{
		"[Content_Types].xml": `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
		"_rels/.rels":         `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
		"word/document.xml":   `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Invoice 42</w:t></w:r></w:p></w:body></w:document>`,
	} {
		f, _ := w.Create(name)
		f.Write([]byte(body))
	}
	for i := 0; i < extra; i++ {
		if _, err := w.CreateHeader(&zip.FileHeader{Name: strconv.FormatInt(int64(i), 36), Method: zip.Store}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return b.Bytes()
}

// TestHundredThousandEntryPackage: a docx listing 100,000 entries was
// refused as unreadable (422); it is now analysed from its first entries
// and the report says the package was cut.
func TestHundredThousandEntryPackage(t *testing.T) {
	capped := func(r *report.Report) bool {
		for _, s := range r.Signals {
			if s.ID == "office-structure-anomalies" {
				if v, _ := s.Evidence["tooManyEntries"].(bool); v {
					return true
				}
			}
		}
		return false
	}
	r := inspectBounded(t, packageWithEntries(t, 100_000))
	if !capped(r) || r.Office == nil || r.Office.Format != "docx" {
		t.Fatalf("office block %+v, capped %v", r.Office, capped(r))
	}
	if r := inspectBounded(t, packageWithEntries(t, 0)); capped(r) {
		t.Fatal("a plain docx reported as cut")
	}
}
