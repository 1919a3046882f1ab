package paint

import (
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// TestTextGeometry: a run's nominal size, its width along the baseline
// (Tz, Tm and cm applied) and the angle of its baseline.
func TestTextGeometry(t *testing.T) {
	ob := newObjects()
	ob.objs[5] = parse(t, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	ob.stream(12, nil, "BT /F1 10 Tf (a) Tj ET BT /F1 12 Tf 1 Tz (b) Tj 100 Tz ET q 0.05 0 0 0.05 0 0 cm BT /F1 12 Tf (c) Tj ET Q BT /F1 6 Tf 0 1 -1 0 30 200 Tm (d) Tj ET")
	res := parse(t, "<< /Font << /F1 5 0 R >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	want := []struct{ nominal, size, width, angle float64 }{
		{10, 10, 10, 0},
		{12, 12, 0.12, 0},
		{12, 0.6, 0.6, 0},
		{6, 6, 6, 90},
	}
	if len(pg.Text) != len(want) {
		t.Fatalf("runs %d", len(pg.Text))
	}
	for i, w := range want {
		r := pg.Text[i]
		if !near2(r.Nominal, w.nominal) || !near2(r.Size, w.size) || !near2(r.Width, w.width) || !near2(r.Angle, w.angle) {
			t.Errorf("run %d %q: nominal %v size %v width %v angle %v, want %+v", i, r.Text, r.Nominal, r.Size, r.Width, r.Angle, w)
		}
	}
}

// TestOptionalContentOff: text, fills and images inside a /OC sequence or
// a form whose group the source reports off are marked; the state ends
// with the sequence and the form.
func TestOptionalContentOff(t *testing.T) {
	ob := newObjects()
	ob.objs[5] = parse(t, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	ob.objs[30] = parse(t, "<< /Type /OCG /Name (off) >>")
	ob.objs[31] = parse(t, "<< /Type /OCG /Name (on) >>")
	ob.stream(21, parse(t, "<< /Subtype /Form /BBox [0 0 100 100] /OC 30 0 R >>").(*cos.Dict), "BT /F1 9 Tf (form) Tj ET")
	ob.stream(20, parse(t, "<< /Subtype /Image /Width 1 /Height 1 >>").(*cos.Dict), "x")
	ob.stream(12, nil, "/OC /Off BDC BT /F1 9 Tf (hidden) Tj ET 0 0 9 9 re f /Im Do EMC /OC /On BDC BT /F1 9 Tf (shown) Tj ET EMC BT /F1 9 Tf (after) Tj ET /Fm Do BT /F1 9 Tf (last) Tj ET")
	res := parse(t, "<< /Font << /F1 5 0 R >> /Properties << /Off 30 0 R /On 31 0 R >> /XObject << /Fm 21 0 R /Im 20 0 R >> >>").(*cos.Dict)
	src := ob.source()
	src.OCOff = func(o cos.Object) bool { r, ok := o.(cos.Ref); return ok && r.Num == 30 }
	pg := New(src).Page(cos.Ref{Num: 12}, res)
	got := map[string]bool{}
	for _, r := range pg.Text {
		got[r.Text] = r.OCOff
	}
	want := map[string]bool{"hidden": true, "shown": false, "after": false, "form": true, "last": false}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: OCOff %v, want %v (%v)", k, got[k], v, got)
		}
	}
	if len(pg.Shapes) != 1 || !pg.Shapes[0].OCOff || len(pg.Images) != 1 || !pg.Images[0].OCOff {
		t.Fatalf("shapes %+v images %+v", pg.Shapes, pg.Images)
	}
}

// TestRemappedGlyphs: an explicit encoding naming one letter and a
// ToUnicode map extracting another; a Type 3 glyph that paints nothing.
// Small capitals named for the lowercase letter, ligatures and math
// italic letters extracted in their mathematical form are not remaps.
func TestRemappedGlyphs(t *testing.T) {
	ob := newObjects()
	ob.stream(7, nil, "1 begincodespacerange <00> <FF> endcodespacerange 4 beginbfchar <01> <0078> <02> <0062> <03> <0043> <04> <00660069> <05> <D835DC5B> endbfchar")
	ob.objs[5] = parse(t, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Differences [1 /a /b /c /fi /n] >> /ToUnicode 7 0 R >>")
	ob.stream(40, nil, "500 0 0 0 400 600 d1")
	ob.stream(41, nil, "500 0 0 0 400 600 d1 0 0 400 600 re f")
	ob.objs[6] = parse(t, "<< /Type /Font /Subtype /Type3 /FontMatrix [0.001 0 0 0.001 0 0] /FirstChar 65 /Widths [500 500] /Encoding << /Differences [65 /A /B] >> /CharProcs << /A 40 0 R /B 41 0 R >> >>")
	ob.stream(12, nil, "BT /F1 9 Tf <0102030405> Tj /F3 9 Tf (AB) Tj ET")
	res := parse(t, "<< /Font << /F1 5 0 R /F3 6 0 R >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	if len(pg.Text) != 2 {
		t.Fatalf("runs %d", len(pg.Text))
	}
	if r := pg.Text[0]; r.Text != "xbCfi\U0001D45B" || r.Remapped != 1 {
		t.Errorf("simple font: %q remapped %d, want xbCfi𝑛 1", r.Text, r.Remapped)
	}
	if r := pg.Text[1]; r.Text != "AB" || r.Remapped != 1 {
		t.Errorf("Type 3: %q remapped %d, want AB 1", r.Text, r.Remapped)
	}
}

// TestAppearance: an appearance stream is fitted to its annotation's
// rectangle, its Matrix applied first.
func TestAppearance(t *testing.T) {
	ob := newObjects()
	ob.objs[5] = parse(t, "<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>")
	ob.stream(21, parse(t, "<< /Subtype /Form /BBox [0 0 100 20] /Resources << /Font << /F1 5 0 R >> >> >>").(*cos.Dict), "0 g 0 0 100 20 re f BT /F1 10 Tf 0 5 Td (ab) Tj ET")
	in := New(ob.source())
	st := ob.objs[21].(*cos.Stream)
	pg := in.Appearance(st, 21, Rect{100, 500, 300, 540}, nil)
	if len(pg.Shapes) != 1 || pg.Shapes[0].Box != (Rect{100, 500, 300, 540}) {
		t.Fatalf("shapes %+v", pg.Shapes)
	}
	// Courier: 0.6 em a glyph; scaled by 2 in both directions.
	if len(pg.Text) != 1 || !near2(pg.Text[0].Box.X0, 100) || !near2(pg.Text[0].Box.X1, 124) || pg.Text[0].Stream != 21 {
		t.Fatalf("text %+v", pg.Text)
	}
	if pg := in.Appearance(st, 21, Rect{0, 0, 0, 10}, nil); len(pg.Text)+len(pg.Shapes) != 0 {
		t.Fatalf("empty rectangle drew %+v", pg)
	}
}

// TestBlendMode: a blend mode other than Normal marks what it paints; an
// array names the mode a viewer takes first.
func TestBlendMode(t *testing.T) {
	ob := newObjects()
	ob.objs[5] = parse(t, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	ob.stream(12, nil, "/N gs 0 0 9 9 re f BT /F1 9 Tf (a) Tj ET /D gs 0 0 9 9 re f BT /F1 9 Tf (b) Tj ET /A gs BT (c) Tj ET /C gs 0 0 1 1 re f")
	res := parse(t, "<< /Font << /F1 5 0 R >> /ExtGState << /N << /BM /Normal >> /D << /BM /Difference >> /A << /BM [/Multiply /Normal] >> /C << /BM /Compatible >> >> >>").(*cos.Dict)
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, res)
	if len(pg.Shapes) != 3 || pg.Shapes[0].Blend || !pg.Shapes[1].Blend || pg.Shapes[2].Blend {
		t.Fatalf("shapes %+v", pg.Shapes)
	}
	if len(pg.Text) != 3 || pg.Text[0].Blend || !pg.Text[1].Blend || !pg.Text[2].Blend {
		t.Fatalf("text %+v", pg.Text)
	}
}

// TestClipShaped: a fill under a clipping path that is not a rectangle is
// marked; a rectangular clip and the state after Q are not.
func TestClipShaped(t *testing.T) {
	ob := newObjects()
	ob.stream(12, nil, "q 0 0 10 10 re W n 0 0 20 20 re f Q q 0 0 m 10 0 l 5 9 l h W n 0 0 20 20 re f Q 0 0 20 20 re f")
	pg := New(ob.source()).Page(cos.Ref{Num: 12}, &cos.Dict{})
	if len(pg.Shapes) != 3 || pg.Shapes[0].ClipShaped || !pg.Shapes[1].ClipShaped || pg.Shapes[2].ClipShaped {
		t.Fatalf("shapes %+v", pg.Shapes)
	}
}
