package pdf

import (
	"context"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// TestOptionalContentConfig: the default configuration's base state, its
// /ON and /OFF lists, the View usage its /AS entries apply, membership
// dictionaries under each policy, and references to what is not a group.
func TestOptionalContentConfig(t *testing.T) {
	b := pdftest.OnePage("x")
	g := [4]int{}
	for i := range g {
		g[i] = b.Add("<< /Type /OCG /Name (g) >>")
	}
	viewOff := b.Add("<< /Type /OCG /Name (print only) /Usage << /View << /ViewState /OFF >> /Print << /PrintState /ON >> >> >>")
	font := b.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	md := func(p string, groups ...int) int {
		refs := ""
		for _, n := range groups {
			refs += cos.Ref{Num: n}.String() + " "
		}
		return b.Add("<< /Type /OCMD /OCGs [" + refs + "] /P /" + p + " >>")
	}
	// g0 on by /ON, g1 off by /OFF, g2 off by the base state, g3 on.
	anyOn, allOn, anyOff, allOff := md("AnyOn", g[0], g[1]), md("AllOn", g[0], g[1]), md("AnyOff", g[0], g[3]), md("AllOff", g[1], g[2])
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict("/OCProperties << /OCGs [] /D << /BaseState /OFF /ON ["+
		cos.Ref{Num: g[0]}.String()+" "+cos.Ref{Num: g[3]}.String()+"] /OFF ["+cos.Ref{Num: g[1]}.String()+" "+cos.Ref{Num: font}.String()+
		"] /AS [<< /Event /View /Category [/View] /OCGs ["+cos.Ref{Num: viewOff}.String()+"] >>] >> >>"))
	data := b.Bytes()
	d, err := Open(context.Background(), data, 0, DefaultBudget)
	if err != nil {
		t.Fatal(err)
	}
	c := d.optionalContent()
	for _, tc := range []struct {
		name string
		num  int
		off  bool
	}{
		{"on by /ON", g[0], false}, {"off by /OFF", g[1], true}, {"off by the base state", g[2], true},
		{"view state off", viewOff, true}, {"a font in /OFF", font, false},
		{"AnyOn with one on", anyOn, false}, {"AllOn with one off", allOn, true},
		{"AnyOff with none off", anyOff, true}, {"AllOff with all off", allOff, false},
	} {
		if got := c.Off(cos.Ref{Num: tc.num}); got != tc.off {
			t.Errorf("%s: off %v, want %v", tc.name, got, tc.off)
		}
	}
	var none *ocConfig
	if none.Off(cos.Ref{Num: g[1]}) {
		t.Error("no configuration hides nothing")
	}
}
