package image

import (
	"bytes"
	"strings"

	"github.com/doctrust/doctrust/engine/xmp"
)

// maxXMPValues caps the values of one property the families look at.
const maxXMPValues = 64

// xmpValues returns the values of one property across the file's packets,
// in file order, capped.
func (a *analysis) xmpValues(ns, name string) []string {
	return xmp.Values(a.packets, ns, name, maxXMPValues)
}

// generativeSourceTypes are the IPTC DigitalSourceType terms that declare
// synthetic content, in a fixed order.
var generativeSourceTypes = []string{
	"trainedAlgorithmicMedia",
	"compositeWithTrainedAlgorithmicMedia",
	"algorithmicMedia",
	"compositeSynthetic",
}

// sourceTypes returns the generative DigitalSourceType terms named in b
// (an XMP packet or a C2PA manifest, which uses the same IPTC URIs). It is
// a search for the IPTC vocabulary's URIs, not a reading of the packet: the
// term may sit in an element, an attribute or an rdf:resource, and a
// manifest store is CBOR, so both are searched as bytes.
func sourceTypes(b []byte) []string {
	var out []string
	const pfx = "digitalsourcetype/"
	rest := b
	for n := 0; n < 256; n++ {
		i := bytes.Index(rest, []byte(pfx))
		if i < 0 {
			break
		}
		rest = rest[i+len(pfx):]
		j := 0
		for j < len(rest) && isAlpha(rest[j]) {
			j++
		}
		term := string(rest[:j])
		for _, t := range generativeSourceTypes {
			if t == term && !contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Where the C2PA manifest an XMP dcterms:provenance names is. C2PA 1.x and
// 2.x write "self#jumbf=/c2pa/<manifest>/..." for a manifest embedded in
// the same file and an http(s) address for a remote one (the spec's
// "remote manifest"); a file whose XMP names an in-file manifest it does
// not hold had its manifest store removed after the XMP was written.
const (
	provenanceNone     = ""
	provenanceEmbedded = "embedded"
	provenanceRemote   = "remote"
	provenanceMissing  = "missing"
)

// readProvenance reads the first dcterms:provenance value and says where
// its manifest is. Other values (a free-text provenance statement) are not
// manifest references and give provenanceNone.
func (a *analysis) readProvenance() (where, ref string) {
	f := a.f
	for _, v := range a.xmpValues(xmp.NSDCTerms, "provenance") {
		lv := strings.ToLower(v)
		switch {
		case strings.HasPrefix(lv, "self#jumbf="):
			if f.has(cC2PA) {
				return provenanceEmbedded, v
			}
			return provenanceMissing, v
		case strings.HasPrefix(lv, "https://"), strings.HasPrefix(lv, "http://"):
			return provenanceRemote, v
		}
	}
	return provenanceNone, ""
}
