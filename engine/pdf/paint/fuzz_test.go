package paint

import (
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// FuzzScan: the tokenizer never panics, always ends, and hands at most
// MaxOperands operands to an operator.
func FuzzScan(f *testing.F) {
	f.Add([]byte("q 612 0 0 792 0 0 cm /Im1 Do Q BT /F1 12 Tf (Hi) Tj ET"))
	f.Add([]byte("BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\xffEI\x00 EI Q"))
	f.Add([]byte("[ << /A ( ) >> ] ] ) } { true false null 1 2 3 4 5 6 7 cm"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var operands []cos.Object
		ops := 0
		Scan(data, MaxOperands, func(op []byte, args []cos.Object) bool {
			ops++
			if len(args) > MaxOperands {
				t.Fatalf("%d operands", len(args))
			}
			return ops < 100000
		}, &operands)
	})
}

// FuzzInterpret: any content stream, run against resources with fonts (a
// composite font with a ToUnicode map, a simple font with Differences, a
// Type3 font), a form that calls itself and an image, never panics, ends,
// keeps every list within its limit and yields finite boxes.
func FuzzInterpret(f *testing.F) {
	f.Add([]byte("q 2 0 0 2 10 20 cm BT /F1 10 Tf 1 0 0 1 5 6 Tm 3 Tr 0.5 g (01) Tj [(0) -1000 (1)] TJ ET Q"))
	f.Add([]byte("BT /F2 12 Tf <00030004> Tj T* (x) ' 1 2 (y) \" ET /Fm Do /Im Do BI /W 1 ID x EI"))
	f.Add([]byte("0 0 1 rg 0 0 50 50 re W* n /GS gs /CS0 cs 0.2 scn 1 1 m 2 2 l 3 3 4 4 5 5 c h B* /OC /L BDC EMC EMC"))
	f.Add([]byte("BT /F3 1e308 Tf 1e308 0 0 1e308 0 0 Tm (abc) Tj -1e308 TL T* ET 0 0 0 0 0 0 cm"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ob := newObjects()
		ob.stream(7, nil, "1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <00FF> <0041> endbfrange")
		ob.objs[5] = parse(t, "<< /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 7 0 R /DescendantFonts [<< /W [0 [500] 1 10 300] >>] >>")
		ob.objs[6] = parse(t, "<< /Subtype /Type1 /FirstChar 32 /Widths [250 300] /Encoding << /Differences [32 /space /one 300 /x] >> >>")
		ob.objs[8] = parse(t, "<< /Subtype /Type3 /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << >> /FirstChar 0 /Widths [1000] >>")
		ob.stream(20, parse(t, "<< /Subtype /Image /Width 1 /Height 1 /ImageMask true >>").(*cos.Dict), "x")
		ob.stream(21, parse(t, "<< /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /Fm 21 0 R >> >> >>").(*cos.Dict), string(data))
		res := parse(t, "<< /Font << /F1 5 0 R /F2 6 0 R /F3 8 0 R >> /XObject << /Fm 21 0 R /Im 20 0 R >> /ExtGState << /GS << /ca 0.3 /SMask /None >> >> /ColorSpace << /CS0 [/ICCBased << /N 4 >>] >> >>").(*cos.Dict)
		ob.stream(12, nil, string(data))
		pg := New(ob.source()).Page(cos.Array{cos.Ref{Num: 12}, cos.Ref{Num: 12}}, res)
		if len(pg.Text) > maxRuns || len(pg.Shapes) > maxShapes || len(pg.Images) > maxImages || pg.Operators > maxOps {
			t.Fatalf("limits: %d %d %d %d", len(pg.Text), len(pg.Shapes), len(pg.Images), pg.Operators)
		}
		for _, r := range pg.Text {
			if !r.Box.finite() || len(r.Text) > maxRunText {
				t.Fatalf("run %+v", r.Box)
			}
		}
	})
}
