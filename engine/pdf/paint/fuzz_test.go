package paint

import (
	"fmt"
	"math"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// FuzzScan: the tokenizer never panics, always ends, hands at most
// MaxOperands operands to an operator, and reads the same operators and
// operands as the boxing tokenizer it replaced (refScan).
func FuzzScan(f *testing.F) {
	f.Add([]byte("q 612 0 0 792 0 0 cm /Im1 Do Q BT /F1 12 Tf (Hi) Tj ET"))
	f.Add([]byte("BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\xffEI\x00 EI Q"))
	f.Add([]byte("[ << /A ( ) >> ] ] ) } { true false null 1 2 3 4 5 6 7 cm"))
	f.Add([]byte("[(a\\(b) <41 4> -12.5 +.5 --3 1.2.3 /N#41me [1 [2]] << /K 1 0 R >> 4 0 R x ) true] TJ 1 0 R 99999999999999999999 Tw"))
	f.Add([]byte("/Span << /MCID 3 >> BDC [1 2 endobj 3] d <0041> Tj (unterminated"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var sc Scanner
		var got []string
		sc.Scan(data, MaxOperands, func(op []byte, args []Operand) bool {
			if len(args) > MaxOperands {
				t.Fatalf("%d operands", len(args))
			}
			got = append(got, describeOp(op, args))
			return len(got) < 100000
		})
		var want []string
		refScan(data, MaxOperands, func(op []byte, args []cos.Object) bool {
			d := string(op) + ":"
			for _, a := range args {
				d += " " + describeRef(a, true)
			}
			want = append(want, d)
			return len(want) < 100000
		})
		if len(got) != len(want) {
			t.Fatalf("%d operators, reference %d", len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("operator %d: %q, reference %q", i, got[i], want[i])
			}
		}
	})
}

func describeOp(op []byte, args []Operand) string {
	d := string(op) + ":"
	for _, a := range args {
		d += " " + describe(a)
	}
	return d
}

func describe(o Operand) string {
	switch o.Kind {
	case Number:
		return fmt.Sprintf("n%x", math.Float64bits(o.Num))
	case Name:
		return fmt.Sprintf("/%q", o.Bytes)
	case String:
		return fmt.Sprintf("s%q", o.Bytes)
	case Array:
		d := "["
		for _, e := range o.Elems {
			d += " " + describe(e)
		}
		return d + "]"
	}
	return "o"
}

// describeRef describes a boxed operand the way describe does a typed one.
func describeRef(o cos.Object, top bool) string {
	switch v := o.(type) {
	case cos.Int:
		return describe(Operand{Kind: Number, Num: float64(v)})
	case cos.Real:
		return describe(Operand{Kind: Number, Num: float64(v)})
	case cos.Name:
		return describe(Operand{Kind: Name, Bytes: []byte(v)})
	case cos.String:
		return describe(Operand{Kind: String, Bytes: v.Bytes})
	case cos.Array:
		if !top {
			return "o"
		}
		d := "["
		for i, e := range v {
			if i >= maxArrayElems {
				break
			}
			d += " " + describeRef(e, false)
		}
		return d + "]"
	}
	return "o"
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
	// frames (issue 25): holes by the even-odd and non-zero rules; a soft
	// mask whose group is this same stream
	f.Add([]byte("0 g 50 680 320 60 re 55 685 310 50 re f* 50 680 320 60 re 365 685 -310 50 re f 0 0 m 9 0 l 9 9 l 0 9 l h 1 1 m 1 8 l 8 8 l 8 1 l h B"))
	f.Add([]byte("/GM gs 0.05 g 0 0 10 10 re f BT /F1 10 Tf (Ag) Tj ET"))
	// concealment (issue 34): squeezed, rotated, optional content, Type 3
	f.Add([]byte("/OC /L BDC BT /F2 12 Tf 1 Tz 0 1 -1 0 30 200 Tm ( !) Tj ET EMC q 0.01 0 0 0.01 0 0 cm BT /F3 9 Tf <00> Tj ET Q"))
	f.Fuzz(func(t *testing.T, data []byte) {
		ob := newObjects()
		ob.stream(7, nil, "1 begincodespacerange <0000> <FFFF> endcodespacerange 1 beginbfrange <0000> <00FF> <0041> endbfrange")
		ob.objs[5] = parse(t, "<< /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /ToUnicode 7 0 R /DescendantFonts [<< /W [0 [500] 1 10 300] >>] >>")
		ob.objs[6] = parse(t, "<< /Subtype /Type1 /FirstChar 32 /Widths [250 300] /Encoding << /Differences [32 /space /one 300 /x] >> >>")
		ob.objs[8] = parse(t, "<< /Subtype /Type3 /FontMatrix [0.001 0 0 0.001 0 0] /CharProcs << >> /FirstChar 0 /Widths [1000] >>")
		ob.stream(20, parse(t, "<< /Subtype /Image /Width 1 /Height 1 /ImageMask true >>").(*cos.Dict), "x")
		ob.stream(21, parse(t, "<< /Subtype /Form /BBox [0 0 10 10] /Resources << /XObject << /Fm 21 0 R >> >> >>").(*cos.Dict), string(data))
		ob.stream(22, parse(t, "<< /Subtype /Form /BBox [0 0 10 10] /Resources << /Font << /F1 5 0 R >> /ExtGState << /GM << /SMask << /S /Luminosity /G 22 0 R >> >> >> >> >>").(*cos.Dict), string(data))
		res := parse(t, "<< /Font << /F1 5 0 R /F2 6 0 R /F3 8 0 R >> /XObject << /Fm 21 0 R /Im 20 0 R >> /ExtGState << /GS << /ca 0.3 /SMask /None >> /GM << /SMask << /S /Luminosity /G 22 0 R /BC [0.5] >> >> >> /ColorSpace << /CS0 [/ICCBased << /N 4 >>] >> >>").(*cos.Dict)
		ob.stream(12, nil, string(data))
		pg := New(ob.source()).Page(cos.Array{cos.Ref{Num: 12}, cos.Ref{Num: 12}}, res)
		if len(pg.Text) > maxRuns || len(pg.Shapes) > maxShapes || len(pg.Images) > maxImages || pg.Operators > maxOps {
			t.Fatalf("limits: %d %d %d %d", len(pg.Text), len(pg.Shapes), len(pg.Images), pg.Operators)
		}
		for _, r := range pg.Text {
			if !r.Box.finite() || len(r.Text) > maxRunText {
				t.Fatalf("run %+v", r.Box)
			}
			for _, g := range r.Glyphs {
				if !g.Ink.finite() {
					t.Fatalf("glyph ink %+v", g.Ink)
				}
			}
			if r.Fill.A < 0 || r.Fill.A > 1 {
				t.Fatalf("fill opacity %v", r.Fill.A)
			}
		}
	})
}

// FuzzRowMap: a glyph box mapped through rowMap is bit for bit the box
// Rect.transform gives.
func FuzzRowMap(f *testing.F) {
	f.Add(1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 10.0, 15.5, -2.0, 8.0)
	f.Add(0.0, 1.0, -1.0, 0.0, 612.0, 0.0, math.Copysign(0, -1), 0.0, 1e308, -1e308)
	f.Add(2.5, 0.3, -0.7, 1.1, 3.0, -4.0, 1.0/3, 2.0/3, -0.2, 0.8)
	f.Fuzz(func(t *testing.T, a, b, c, d, e, ff, x0, x1, y0, y1 float64) {
		m := Matrix{a, b, c, d, e, ff}
		rm := newRowMap(m, y0, y1)
		got, want := rm.box(x0, x1), Rect{x0, y0, x1, y1}.transform(m)
		for i, g := range [4]float64{got.X0, got.Y0, got.X1, got.Y1} {
			w := [4]float64{want.X0, want.Y0, want.X1, want.Y1}[i]
			if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
				t.Fatalf("coordinate %d: %v, transform %v", i, g, w)
			}
		}
	})
}
