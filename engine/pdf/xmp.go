package pdf

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
)

// XMP namespaces the families read.
const (
	nsPDF   = "http://ns.adobe.com/pdf/1.3/"
	nsXMP   = "http://ns.adobe.com/xap/1.0/"
	nsMM    = "http://ns.adobe.com/xap/1.0/mm/"
	nsEvt   = "http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"
	nsRDF   = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	maxXMP  = 4 << 20 // bytes of XMP read
	maxToks = 200000  // XML tokens read
	maxXMLD = 64      // element depth
)

// XMPProp is one leaf value of an XMP packet: the namespace and local name
// of the innermost property, and its text.
type XMPProp struct {
	NS, Name string
	Value    string
}

// XMP is a flattened XMP packet: every text node and attribute value in
// document order, each attributed to its nearest property.
type XMP struct {
	Props []XMPProp
}

// First returns the first value of a property.
func (x *XMP) First(ns, name string) string {
	if x == nil {
		return ""
	}
	for _, p := range x.Props {
		if p.NS == ns && p.Name == name {
			return p.Value
		}
	}
	return ""
}

// All returns every value of a property.
func (x *XMP) All(ns, name string) []string {
	if x == nil {
		return nil
	}
	var out []string
	for _, p := range x.Props {
		if p.NS == ns && p.Name == name {
			out = append(out, p.Value)
		}
	}
	return out
}

// ParseXMP flattens an XMP packet. It is bounded in bytes, tokens and depth,
// tolerates malformed XML by keeping what it read, and never expands
// external entities (encoding/xml does not).
func ParseXMP(data []byte) *XMP {
	if len(data) > maxXMP {
		data = data[:maxXMP]
	}
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	x := &XMP{}
	var stack []xml.Name
	for toks := 0; toks < maxToks; toks++ {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxXMLD {
				return x
			}
			name := t.Name
			stack = append(stack, name)
			for _, at := range t.Attr {
				an := at.Name
				if an.Space == nsRDF || an.Space == "xmlns" || at.Name.Space == "xmlns" || an.Space == "" || an.Space == "http://www.w3.org/XML/1998/namespace" {
					continue
				}
				x.Props = append(x.Props, XMPProp{NS: an.Space, Name: an.Local, Value: at.Value})
			}
		case xml.EndElement:
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case xml.CharData:
			v := strings.TrimSpace(string(t))
			if v == "" || len(stack) == 0 {
				continue
			}
			// Attribute the text to the innermost non-RDF element.
			for i := len(stack) - 1; i >= 0; i-- {
				if stack[i].Space != nsRDF {
					x.Props = append(x.Props, XMPProp{NS: stack[i].Space, Name: stack[i].Local, Value: v})
					break
				}
			}
		}
	}
	return x
}
