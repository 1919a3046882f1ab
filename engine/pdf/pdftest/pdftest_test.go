package pdftest_test

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// open reads a built file with the engine's file layer.
func open(t *testing.T, pdf []byte) *file.File {
	t.Helper()
	f, err := file.Open(context.Background(), pdf, 0, filters.NewBudget(1<<20))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// clean asserts the file layer met nothing to tolerate or repair.
func clean(t *testing.T, f *file.File) {
	t.Helper()
	want := file.Warnings{Sections: len(f.Revisions)}
	if f.Warn != want {
		t.Fatalf("warnings = %+v, want none", f.Warn)
	}
}

// validate has qpdf, an independent reader, check the file when it is
// installed: the engine's own reader is lenient, so a fixture it accepts
// could still be malformed.
func validate(t *testing.T, pdf []byte) {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		return
	}
	path := filepath.Join(t.TempDir(), "fixture.pdf")
	if err := os.WriteFile(path, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(qpdf, "--check", path).CombinedOutput()
	if err != nil || bytes.Contains(out, []byte("WARNING")) {
		t.Fatalf("qpdf --check: %v\n%s", err, out)
	}
}

func decoded(t *testing.T, f *file.File, num int) string {
	t.Helper()
	st, ok := f.Resolve(cos.Ref{Num: num}).(*cos.Stream)
	if !ok {
		t.Fatalf("object %d is %T, not a stream", num, f.Resolve(cos.Ref{Num: num}))
	}
	data, err := filters.Decode(st.Raw(f.Data), st.Dict, f.Resolve, f.Budget)
	if err != nil {
		t.Fatalf("decode object %d: %v", num, err)
	}
	return string(data)
}

func TestNewBuildsOpenableFile(t *testing.T) {
	b := pdftest.New("1.4")
	cat := b.Add("<< /Type /Catalog /Pages 2 0 R >>")
	b.Set(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
	b.Set(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 100 100] /Contents 4 0 R >>")
	b.Stream(4, "<< >>", []byte("BT /F1 12 Tf (Hi) Tj ET"))
	if n := b.Add("<< /Producer (x) >>"); n != 5 {
		t.Fatalf("Add after Set(4) = %d, want 5", n)
	}
	b.Trailer(fmt.Sprintf("/Root %d 0 R /Info 5 0 R /ID [<aa><bb>]", cat))
	pdf := b.Bytes()
	if cat != 1 {
		t.Fatalf("first Add = %d, want 1", cat)
	}
	if !bytes.HasPrefix(pdf, []byte("%PDF-1.4\n%")) || pdf[10] < 0x80 {
		t.Fatalf("header = %q", pdf[:min(len(pdf), 16)])
	}
	if !bytes.Equal(pdf, b.Bytes()) {
		t.Fatal("Bytes is not repeatable")
	}
	f := open(t, pdf)
	clean(t, f)
	if len(f.Revisions) != 1 || f.Revisions[0].Sections[0].Kind != file.XrefTable {
		t.Fatalf("revisions = %d, kind %s", len(f.Revisions), f.Revisions[0].Sections[0].Kind)
	}
	if got := decoded(t, f, 4); got != "BT /F1 12 Tf (Hi) Tj ET" {
		t.Fatalf("content = %q", got)
	}
	if _, ok := f.Trailer().Get("ID").(cos.Array); !ok {
		t.Fatal("trailer /ID missing")
	}
	if size, _ := cos.AsInt(f.Trailer().Get("Size")); size != 6 {
		t.Fatalf("/Size = %d, want 6", size)
	}
	validate(t, pdf)
}

func TestHelpersOpenCleanly(t *testing.T) {
	for name, b := range map[string]*pdftest.Builder{
		"OnePage":   pdftest.OnePage("Hello (world) \\ 100%"),
		"ImagePage": pdftest.ImagePage(),
	} {
		t.Run(name, func(t *testing.T) {
			pdf := b.Bytes()
			f := open(t, pdf)
			clean(t, f)
			cat := cos.DictOf(f.Resolve(f.Trailer().Get("Root")))
			if cat.Name("Type") != "Catalog" {
				t.Fatalf("root is not a catalogue: %v", cat)
			}
			page := cos.DictOf(f.Resolve(cos.Ref{Num: pdftest.PageObj}))
			if page.Name("Type") != "Page" {
				t.Fatal("object PageObj is not a page")
			}
			validate(t, pdf)
		})
	}
	f := open(t, pdftest.OnePage("Hello (world) \\ 100%").Bytes())
	if got := decoded(t, f, pdftest.ContentObj); !strings.Contains(got, `(Hello \(world\) \\ 100%) Tj`) {
		t.Fatalf("OnePage content = %q", got)
	}
	font := cos.DictOf(f.Resolve(cos.Ref{Num: pdftest.FontObj}))
	if font.Name("BaseFont") != "Helvetica" {
		t.Fatalf("font = %v", font)
	}
	f = open(t, pdftest.ImagePage().Bytes())
	if got := decoded(t, f, pdftest.ContentObj); got != "q 612 0 0 792 0 0 cm /Im1 Do Q" {
		t.Fatalf("ImagePage content = %q", got)
	}
	img, _ := f.Resolve(cos.Ref{Num: pdftest.ImageObj}).(*cos.Stream)
	if img == nil || img.Dict.Name("Subtype") != "Image" {
		t.Fatal("ImageObj is not an image stream")
	}
	page := cos.DictOf(f.Resolve(cos.Ref{Num: pdftest.PageObj}))
	xo := cos.DictOf(cos.DictOf(page.Get("Resources")).Get("XObject"))
	if ref, _ := xo.Get("Im1").(cos.Ref); ref.Num != pdftest.ImageObj {
		t.Fatalf("/Im1 = %v", xo.Get("Im1"))
	}
}

func TestFlateStream(t *testing.T) {
	data := bytes.Repeat([]byte("0 0 m 10 10 l S\n"), 500)
	b := pdftest.OnePage("x")
	b.FlateStream(pdftest.ContentObj, "", data)
	pdf := b.Bytes()
	if bytes.Contains(pdf, data[:64]) {
		t.Fatal("stream data is not compressed")
	}
	f := open(t, pdf)
	clean(t, f)
	st := f.Resolve(cos.Ref{Num: pdftest.ContentObj}).(*cos.Stream)
	if st.Dict.Name("Filter") != "FlateDecode" || st.LengthRepaired {
		t.Fatalf("dict = %v, length repaired %v", st.Dict, st.LengthRepaired)
	}
	if got := decoded(t, f, pdftest.ContentObj); got != string(data) {
		t.Fatalf("decoded %d bytes, want %d", len(got), len(data))
	}
	if f.Budget.Used != int64(len(data)) {
		t.Fatalf("budget used = %d, want %d", f.Budget.Used, len(data))
	}
}

func TestUpdateAppendsRevisions(t *testing.T) {
	base := pdftest.OnePage("one")
	base.Set(6, "<< /Unused true >>")
	base.Trailer("/Root 1 0 R /ID [<aa><bb>]")
	pdf1 := base.Bytes()
	x1, _ := pdftest.StartXref(pdf1)

	u := pdftest.Update(pdf1)
	u.Stream(pdftest.ContentObj, "<< >>", []byte("BT /F1 24 Tf 72 700 Td (two) Tj ET"))
	u.Free(6)
	annot := u.Add("<< /Type /Annot /Subtype /Text /Rect [0 0 10 10] >>")
	u.Trailer("/Root 1 0 R /ID [<aa><cc>]")
	pdf2 := u.Bytes()
	x2, _ := pdftest.StartXref(pdf2)

	if annot != 7 {
		t.Fatalf("Add in an update = %d, want 7 (after the base's /Size)", annot)
	}
	if !bytes.HasPrefix(pdf2, pdf1) {
		t.Fatal("an update must keep the original bytes")
	}
	f := open(t, pdf2)
	clean(t, f)
	if len(f.Revisions) != 2 {
		t.Fatalf("revisions = %d, want 2", len(f.Revisions))
	}
	r2 := f.Revisions[1]
	if r2.XrefOffset != x2 || f.Revisions[0].XrefOffset != x1 {
		t.Fatalf("xref offsets %d, %d; want %d, %d", f.Revisions[0].XrefOffset, r2.XrefOffset, x1, x2)
	}
	if prev, _ := cos.AsInt(r2.Trailer.Get("Prev")); int(prev) != x1 {
		t.Fatalf("/Prev = %d, want %d", prev, x1)
	}
	if size, _ := cos.AsInt(r2.Trailer.Get("Size")); size != 8 {
		t.Fatalf("/Size = %d, want 8", size)
	}
	var nums []int
	for _, e := range r2.Entries {
		nums = append(nums, int(e.Num))
	}
	if fmt.Sprint(nums) != "[4 6 7]" {
		t.Fatalf("update entries = %v, want [4 6 7]", nums)
	}
	if e, _ := r2.Find(6); e.Kind != file.Free {
		t.Fatalf("object 6 in the update: %+v, want free", e)
	}
	if got := decoded(t, f, pdftest.ContentObj); !strings.Contains(got, "(two)") {
		t.Fatalf("newest content = %q", got)
	}
	old, _ := f.ResolveIn(cos.Ref{Num: pdftest.ContentObj}, 1).(*cos.Stream)
	if old == nil || !bytes.Contains(old.Raw(f.Data), []byte("(one)")) {
		t.Fatal("revision 1 view lost the original content")
	}
	if f.Object(6, 0) != nil || f.Object(6, 1) == nil {
		t.Fatal("object 6 should exist in revision 1 only")
	}
	validate(t, pdf2)

	// A third revision chains to the second.
	u3 := pdftest.Update(pdf2)
	u3.Set(annot, "<< /Type /Annot /Subtype /Text /Rect [0 0 20 20] >>")
	u3.Trailer("/Root 1 0 R")
	f3 := open(t, u3.Bytes())
	clean(t, f3)
	if len(f3.Revisions) != 3 {
		t.Fatalf("revisions = %d, want 3", len(f3.Revisions))
	}
	if prev, _ := cos.AsInt(f3.Revisions[2].Trailer.Get("Prev")); int(prev) != x2 {
		t.Fatalf("third /Prev = %d, want %d", prev, x2)
	}
}

func TestXrefStreamMode(t *testing.T) {
	b := pdftest.OnePage("packed").XrefStream(pdftest.CatalogObj, pdftest.PagesObj, pdftest.PageObj, pdftest.FontObj, pdftest.ContentObj)
	b.Trailer("/Root 1 0 R /ID [<01><02>]")
	pdf := b.Bytes()
	if bytes.Contains(pdf, []byte("\nxref")) || bytes.Contains(pdf, []byte("trailer")) {
		t.Fatal("an xref-stream file has no classic table or trailer")
	}
	f := open(t, pdf)
	clean(t, f)
	if len(f.Revisions) != 1 || f.Revisions[0].Sections[0].Kind != file.XrefStream {
		t.Fatalf("revisions %d, kind %s", len(f.Revisions), f.Revisions[0].Sections[0].Kind)
	}
	kinds := map[int]file.EntryKind{}
	for _, e := range f.Entries() {
		kinds[int(e.Num)] = e.Kind
	}
	for _, n := range []int{pdftest.CatalogObj, pdftest.PagesObj, pdftest.PageObj, pdftest.FontObj} {
		if kinds[n] != file.Compressed {
			t.Errorf("object %d kind %d, want compressed", n, kinds[n])
		}
	}
	// A stream cannot live in an object stream; the builder writes it plainly.
	if kinds[pdftest.ContentObj] != file.InUse {
		t.Errorf("content stream kind %d, want in use", kinds[pdftest.ContentObj])
	}
	// Object 6 is the object stream, 7 the xref stream.
	if st, _ := f.Resolve(cos.Ref{Num: 6}).(*cos.Stream); st == nil || st.Dict.Name("Type") != "ObjStm" {
		t.Fatal("object 6 is not the object stream")
	}
	if size, _ := cos.AsInt(f.Trailer().Get("Size")); size != 8 {
		t.Fatalf("/Size = %d, want 8", size)
	}
	page := cos.DictOf(f.Resolve(cos.Ref{Num: pdftest.PageObj}))
	if page.Name("Type") != "Page" {
		t.Fatal("page not readable from the object stream")
	}
	if f.Budget.Used == 0 {
		t.Fatal("the xref and object streams should be compressed")
	}
	validate(t, pdf)

	// An update in xref-stream mode chains with /Prev and its own streams.
	x1, _ := pdftest.StartXref(pdf)
	u := pdftest.Update(pdf).XrefStream(9)
	u.Set(9, "<< /Type /Annot /Subtype /Text /Rect [0 0 5 5] >>")
	u.Set(pdftest.PageObj, pdftest.TextPageDict("/Annots [9 0 R]"))
	u.Trailer("/Root 1 0 R /ID [<01><03>]")
	pdf2 := u.Bytes()
	f2 := open(t, pdf2)
	clean(t, f2)
	if len(f2.Revisions) != 2 || f2.Revisions[1].Sections[0].Kind != file.XrefStream {
		t.Fatalf("revisions %d", len(f2.Revisions))
	}
	if prev, _ := cos.AsInt(f2.Trailer().Get("Prev")); int(prev) != x1 {
		t.Fatalf("/Prev = %d, want %d", prev, x1)
	}
	var nums []int
	for _, e := range f2.Revisions[1].Entries {
		nums = append(nums, int(e.Num))
	}
	// 3 (page), 9 (packed annotation), 10 (object stream), 11 (xref stream).
	if fmt.Sprint(nums) != "[3 9 10 11]" {
		t.Fatalf("update entries %v", nums)
	}
	if d := cos.DictOf(f2.Resolve(cos.Ref{Num: 9})); d.Name("Subtype") != "Text" {
		t.Fatal("packed object of the update not readable")
	}
	validate(t, pdf2)
}

func TestStringHelpers(t *testing.T) {
	for _, s := range []string{"plain", "a(b)c\\d", "tab\tnew\nline\x00\xff", ""} {
		p := cos.NewParser([]byte(pdftest.Lit(s)), 0)
		o, err := p.Object()
		if err != nil || string(o.(cos.String).Bytes) != s {
			t.Errorf("Lit(%q) parses to %v, %v", s, o, err)
		}
	}
	for _, s := range []string{"Ωmega Writer 1.0", "emoji \U0001F600 ok"} {
		o, err := cos.NewParser([]byte(pdftest.UTF16(s)), 0).Object()
		if err != nil || cos.Text(o) != s {
			t.Errorf("UTF16(%q) decodes to %q, %v", s, cos.Text(o), err)
		}
	}
	if got := pdftest.Hex([]byte{0xde, 0xad}); got != "<dead>" {
		t.Errorf("Hex = %s", got)
	}
	at := time.Date(2024, 3, 15, 9, 30, 5, 0, time.FixedZone("", -(5*3600+30*60)))
	if got := pdftest.Date(at); got != "(D:20240315093005-05'30')" {
		t.Errorf("Date = %s", got)
	}
	d, ok := cos.ParseDate(strings.Trim(pdftest.Date(at), "()"))
	if !ok || !d.Time.Equal(at) || !d.HasZone {
		t.Errorf("Date does not round-trip: %v %v", d, ok)
	}
	if !bytes.Contains(pdftest.XMP("<pdf:Producer>P</pdf:Producer>"), []byte("<pdf:Producer>P</pdf:Producer>")) {
		t.Error("XMP lost its properties")
	}
}

func TestStreamDictionaryForms(t *testing.T) {
	b := pdftest.New("1.7")
	b.Stream(1, "", []byte("a"))
	b.Stream(2, "<<>>", []byte("bb"))
	b.Stream(3, " << /Type /XObject /Subtype /Form >> ", []byte("ccc"))
	b.Trailer("")
	f := open(t, b.Bytes())
	for n, want := range map[int]int64{1: 1, 2: 2, 3: 3} {
		st, ok := f.Resolve(cos.Ref{Num: n}).(*cos.Stream)
		if !ok || st.LengthRepaired {
			t.Fatalf("object %d: %T repaired=%v", n, f.Resolve(cos.Ref{Num: n}), ok && st.LengthRepaired)
		}
		if l, _ := cos.AsInt(st.Dict.Get("Length")); l != want {
			t.Errorf("object %d /Length %d, want %d", n, l, want)
		}
	}
	if st := f.Resolve(cos.Ref{Num: 3}).(*cos.Stream); st.Dict.Name("Subtype") != "Form" {
		t.Error("stream dictionary keys lost")
	}
	defer func() {
		if recover() == nil {
			t.Error("a non-dictionary stream dictionary should panic")
		}
	}()
	b.Stream(4, "[1 2]", nil)
}
