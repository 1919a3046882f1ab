package pdf

import (
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// FuzzParseXMP: the XMP flattener never panics, stays within its token
// budget, and every value it returns came from the packet.
func FuzzParseXMP(f *testing.F) {
	f.Add([]byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer="iLovePDF"/></rdf:RDF></x:xmpmeta>`))
	f.Add([]byte(`<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><a:b xmlns:a="u"><a:c>&amp;&lt;&#x41;</a:c><a:d>unclosed`))
	f.Add([]byte(`<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><x>&b;</x>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		x := ParseXMP(data)
		if len(x.Props) > maxToks {
			t.Fatalf("%d properties from %d bytes", len(x.Props), len(data))
		}
	})
}

// FuzzScanOperators: the content tokenizer never panics, always ends, and
// hands at most maxOperands operands to an operator.
func FuzzScanOperators(f *testing.F) {
	f.Add([]byte("q 612 0 0 792 0 0 cm /Im1 Do Q BT /F1 12 Tf (Hi) Tj ET"))
	f.Add([]byte("BI /W 2 /H 2 /BPC 8 /CS /G ID \x00\xffEI\x00 EI Q"))
	f.Add([]byte("[ << /A ( ) >> ] ] ) } { true false null 1 2 3 4 5 6 7 cm"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var operands []cos.Object
		ops := 0
		scanOperators(data, func(op []byte, args []cos.Object) bool {
			ops++
			if len(args) > maxOperands {
				t.Fatalf("%d operands", len(args))
			}
			return ops < 100000
		}, &operands)
	})
}
