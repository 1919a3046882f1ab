package image

import (
	"bytes"
	"strings"
)

// XMP is read as text, not as RDF: the few properties the families use are
// found as attributes (prefix:Name="v") or simple elements
// (<prefix:Name>v</prefix:Name>). Packets written with other prefixes for
// the same namespace are missed; that is a documented limit.

// xmpValues returns the values of one property across all packets, in file
// order, capped.
func xmpValues(packets [][]byte, name string) []string {
	var out []string
	attr := []byte(name + `="`)
	elem := []byte("<" + name + ">")
	for _, x := range packets {
		for _, pat := range [][]byte{attr, elem} {
			rest := x
			for len(out) < 64 {
				i := bytes.Index(rest, pat)
				if i < 0 {
					break
				}
				rest = rest[i+len(pat):]
				stop := byte('"')
				if pat[0] == '<' {
					stop = '<'
				}
				j := bytes.IndexByte(rest, stop)
				if j < 0 {
					break
				}
				if v := bytes.TrimSpace(rest[:j]); len(v) > 0 {
					out = append(out, string(v))
				}
				rest = rest[j:]
			}
		}
	}
	return out
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
// (an XMP packet or a C2PA manifest, which uses the same IPTC URIs).
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

// provenance reads the first dcterms:provenance value and says where its
// manifest is. Other values (a free-text provenance statement) are not
// manifest references and give provenanceNone.
func provenance(f *facts) (where, ref string) {
	for _, v := range xmpValues(f.xmp, "dcterms:provenance") {
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
