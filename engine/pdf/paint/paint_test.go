package paint

import (
	"math"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// objects is a tiny object store for tests: numbered objects, each stream's
// data given decoded.
type objects struct {
	objs map[int]cos.Object
	data map[*cos.Stream][]byte
}

func newObjects() *objects {
	return &objects{objs: map[int]cos.Object{}, data: map[*cos.Stream][]byte{}}
}

// parse reads one object of PDF syntax.
func parse(t testing.TB, s string) cos.Object {
	o, err := cos.NewParser([]byte(s), 0).Object()
	if err != nil {
		t.Fatalf("parse %q: %v", s, err)
	}
	return o
}

func (ob *objects) stream(num int, dict *cos.Dict, data string) {
	st := &cos.Stream{Dict: dict}
	if st.Dict == nil {
		st.Dict = &cos.Dict{}
	}
	ob.objs[num] = st
	ob.data[st] = []byte(data)
}

func (ob *objects) source() Source {
	return Source{
		Resolve: func(o cos.Object) cos.Object {
			for range 8 {
				r, ok := o.(cos.Ref)
				if !ok {
					return o
				}
				o = ob.objs[r.Num]
			}
			return nil
		},
		Decode: func(st *cos.Stream, _ bool) []byte { return ob.data[st] },
		Origin: func(num int) int { return num % 10 },
	}
}

func near2(a, b float64) bool { return math.Abs(a-b) < 0.01 }

func TestTextPlacement(t *testing.T) {
	ob := newObjects()
	ob.objs[5] = parse(t, "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+Helv /FirstChar 48 /Widths [500 600] /FontDescriptor << /Ascent 700 /Descent -200 /FontFile2 9 0 R >> >>")
	ob.stream(12, nil, "q 2 0 0 2 10 20 cm BT /F1 10 Tf 1 0 0 1 5 6 Tm 3 Tr 0.5 g (01) Tj [(0) -1000 (1)] TJ ET Q")
	res := parse(t, "<< /Font << /F1 5 0 R >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	if len(pg.Text) != 2 {
		t.Fatalf("runs %d", len(pg.Text))
	}
	r := pg.Text[0]
	if r.Text != "01" || r.Mode != 3 || !near2(r.Size, 20) || r.Revision != 2 || r.Stream != 12 || !near2(r.Fill.R, 0.5) {
		t.Fatalf("run %+v", r)
	}
	// origin (5,6) in text space -> (20,32) on the page; 1.1 em wide at 20 pt.
	want := Rect{20, 32 - 4, 20 + 22, 32 + 14}
	if !near2(r.Box.X0, want.X0) || !near2(r.Box.X1, want.X1) || !near2(r.Box.Y0, want.Y0) || !near2(r.Box.Y1, want.Y1) {
		t.Fatalf("box %+v want %+v", r.Box, want)
	}
	if !r.Font.Subset() || r.Font.Family() != "Helv" || !r.Font.Embedded {
		t.Fatalf("font %+v", r.Font)
	}
	// TJ: the -1000 adjustment moves one em to the right.
	if g := pg.Text[1].Glyphs; len(g) != 2 || !near2(g[1].Box.X0-g[0].Box.X1, 20) {
		t.Fatalf("TJ glyphs %+v", g)
	}
}

func TestToUnicodeAndDifferences(t *testing.T) {
	ob := newObjects()
	ob.stream(7, nil, "/CIDInit /ProcSet findresource begin 1 begincodespacerange <0000> <FFFF> endcodespacerange 2 beginbfchar <0003> <0041> <0004> <00660069> endbfchar 1 beginbfrange <0010> <0012> <0030> endbfrange end")
	ob.objs[5] = parse(t, "<< /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 7 0 R /DescendantFonts [<< /DW 1000 /W [3 [250 500]] >>] >>")
	ob.objs[6] = parse(t, "<< /Subtype /Type1 /BaseFont /Y /Encoding << /BaseEncoding /WinAnsiEncoding /Differences [65 /seven /uni0041 /eacute] >> >>")
	ob.stream(8, nil, "<< /Length 0 >>")
	ob.stream(12, nil, "BT /F1 1 Tf <000300040011> Tj /F2 1 Tf (ABC\x80) Tj ET")
	res := parse(t, "<< /Font << /F1 5 0 R /F2 6 0 R >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	if len(pg.Text) != 2 || pg.Text[0].Text != "Afi1" || pg.Text[1].Text != "7Aé€" {
		t.Fatalf("text %+v", pg.Text)
	}
	if w := pg.Text[0].Glyphs[1].Box.Width(); !near2(w, 0.5) {
		t.Fatalf("cid width %v", w)
	}
}

func TestDigitConflicts(t *testing.T) {
	ob := newObjects()
	ob.stream(7, nil, "2 beginbfchar <31> <0037> <32> <0032> endbfchar")
	ob.objs[5] = parse(t, "<< /Subtype /TrueType /BaseFont /Z /Encoding /WinAnsiEncoding /ToUnicode 7 0 R >>")
	ob.stream(12, nil, "BT /F1 9 Tf (12) Tj ET")
	res := parse(t, "<< /Font << /F1 5 0 R >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	if pg.Text[0].Font.DigitConflicts != 1 || pg.Text[0].Text != "72" {
		t.Fatalf("%+v %q", pg.Text[0].Font, pg.Text[0].Text)
	}
}

func TestShapesImagesFormsClip(t *testing.T) {
	ob := newObjects()
	ob.stream(20, parse(t, "<< /Subtype /Image /Width 1 /Height 1 >>").(*cos.Dict), "x")
	ob.stream(21, parse(t, "<< /Subtype /Form /BBox [0 0 10 10] /Matrix [1 0 0 1 100 100] /Resources << /XObject << /I 20 0 R /Me 21 0 R >> >> >>").(*cos.Dict),
		"0 0 1 rg 0 0 50 50 re f 5 0 0 5 0 0 cm /I Do /Me Do")
	ob.objs[22] = parse(t, "<< /Type /ExtGState /ca 0.5 >>")
	ob.stream(12, nil, "1 g 10 10 100 20 re 200 200 m 300 200 l 300 250 l 200 250 l h f "+
		"q 0 0 5 5 re W n 0 G 1 1 m 50 50 l S Q /Fm Do /GS1 gs 0 g 0 0 1 1 re f BI /W 1 /H 1 ID \x00 EI")
	res := parse(t, "<< /XObject << /Fm 21 0 R >> /ExtGState << /GS1 22 0 R >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	if len(pg.Shapes) != 5 {
		t.Fatalf("shapes %+v", pg.Shapes)
	}
	s := pg.Shapes
	if !s[0].Rect || !s[1].Rect || s[0].Box != (Rect{10, 10, 110, 30}) || s[1].Box != (Rect{200, 200, 300, 250}) || !s[0].FillColor.Light() {
		t.Fatalf("rects %+v", s[:2])
	}
	if s[2].Rect || !s[2].Stroke || s[2].Box != (Rect{1, 1, 5, 5}) {
		t.Fatalf("clipped stroke %+v", s[2])
	}
	if !s[3].Form || s[3].Box != (Rect{100, 100, 110, 110}) || s[3].Revision != 1 || s[3].Stream != 21 {
		t.Fatalf("form fill %+v", s[3])
	}
	if s[4].FillColor.Opaque() {
		t.Fatalf("alpha ignored %+v", s[4])
	}
	if len(pg.Images) != 2 || pg.Images[0].Object != 20 || pg.Images[0].Box != (Rect{100, 100, 105, 105}) || !pg.Images[1].Inline {
		t.Fatalf("images %+v", pg.Images)
	}
	if pg.Truncated {
		t.Fatal("truncated")
	}
}

func TestClippedAndOptionalText(t *testing.T) {
	ob := newObjects()
	ob.objs[5] = parse(t, "<< /Subtype /Type1 /BaseFont /Helvetica >>")
	ob.stream(12, nil, "q 0 0 10 10 re W n BT /F1 10 Tf 500 500 Td (x) Tj ET Q /OC /L1 BDC BT /F1 10 Tf (y) Tj ET EMC")
	res := parse(t, "<< /Font << /F1 5 0 R >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	if len(pg.Text) != 2 || !pg.Text[0].Clipped || pg.Text[1].Clipped || !pg.Text[1].Optional || pg.Text[0].Optional {
		t.Fatalf("%+v", pg.Text)
	}
}

func TestLimits(t *testing.T) {
	ob := newObjects()
	// A form that runs itself, and deep q nesting: both end.
	ob.stream(21, parse(t, "<< /Subtype /Form /Resources << /XObject << /A 21 0 R >> >> >>").(*cos.Dict), "/A Do 0 0 1 1 re f")
	data := ""
	for range 200 {
		data += "q "
	}
	ob.stream(12, nil, data+"/A Do")
	res := parse(t, "<< /XObject << /A 21 0 R >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	if len(pg.Shapes) != 1 {
		t.Fatalf("shapes %d", len(pg.Shapes))
	}
	stops := 0
	src := ob.source()
	src.Stop = func() bool { stops++; return true }
	big := make([]byte, 0, 8*stopEvery)
	for range 2 * stopEvery {
		big = append(big, "0 g\n"...)
	}
	ob.stream(13, nil, string(big))
	pg = New(src).Page(cos.Ref{Num: 13}, res)
	if !pg.Truncated || stops != 1 || pg.Operators != stopEvery {
		t.Fatalf("deadline: truncated %v stops %d ops %d", pg.Truncated, stops, pg.Operators)
	}
}

func TestGlyphNames(t *testing.T) {
	for name, want := range map[string]rune{"eacute": 'é', "Udieresis": 'Ü', "one.tf": '1', "uni20AC": '€', "u1F600": '😀', "f_i": 'f', "bogus": 0, "Aring": 'Å'} {
		if got := glyphRune(name); got != want {
			t.Errorf("%s: %q want %q", name, got, want)
		}
	}
}

// BenchmarkPage runs a dense synthetic page: 2 000 lines of text with
// ruled rectangles, a form and an image per 100 lines.
func BenchmarkPage(b *testing.B) {
	ob := newObjects()
	ob.objs[5] = parse(b, "<< /Subtype /TrueType /BaseFont /ABCDEF+Arial /FirstChar 32 /Widths [278 278 355 556 556 889 667 191 333 333 389 584 278 333 278 278 556 556 556 556 556 556 556 556 556 556] /Encoding /WinAnsiEncoding >>")
	ob.stream(20, parse(b, "<< /Subtype /Image /Width 1 /Height 1 >>").(*cos.Dict), "x")
	ob.stream(21, parse(b, "<< /Subtype /Form /BBox [0 0 10 10] >>").(*cos.Dict), "0 0 1 rg 0 0 5 5 re f")
	res := parse(b, "<< /Font << /F1 5 0 R >> /XObject << /I 20 0 R /Fm 21 0 R >> >>").(*cos.Dict)
	var data []byte
	for i := range 2000 {
		data = append(data, "BT /F1 9 Tf 72 700 Td [(Invoice 2024-0042, total 1,250.00) -250 (due 12/01/2024)] TJ ET 0.5 g 70 698 400 12 re f\n"...)
		if i%100 == 0 {
			data = append(data, "q 50 0 0 50 300 300 cm /I Do Q /Fm Do\n"...)
		}
	}
	ob.stream(12, nil, string(data))
	in := New(ob.source())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		in.Page(cos.Ref{Num: 12}, res)
	}
}
