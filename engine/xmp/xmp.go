// Package xmp is the one XMP reader of the engine: PDF metadata streams,
// image packets (JPEG APP1 and extended XMP, PNG iTXt, WebP, ISOBMFF) and
// the packets an Office file's images carry are all flattened here, so two
// readings of one packet cannot disagree. It is pure and bounded: a packet
// is read as XML (namespaces resolved, entities decoded, never an external
// entity), within a byte, token and depth budget, and malformed XML keeps
// what was read before the fault.
package xmp

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
	"unicode/utf16"
)

// Namespaces the engine reads properties from.
const (
	NSPDF       = "http://ns.adobe.com/pdf/1.3/"
	NSBasic     = "http://ns.adobe.com/xap/1.0/"
	NSMM        = "http://ns.adobe.com/xap/1.0/mm/"
	NSEvt       = "http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"
	NSMeta      = "adobe:ns:meta/"
	NSDCTerms   = "http://purl.org/dc/terms/"
	NSEXIF      = "http://ns.adobe.com/exif/1.0/"
	NSEXIFEX    = "http://cipa.jp/exif/1.0/"
	NSTIFF      = "http://ns.adobe.com/tiff/1.0/"
	NSPhotoshop = "http://ns.adobe.com/photoshop/1.0/"
)

const (
	nsRDF = "http://www.w3.org/1999/02/22-rdf-syntax-ns#"
	nsXML = "http://www.w3.org/XML/1998/namespace"
	// MaxTokens is the most XML tokens one packet is read for, so the most
	// properties it can yield.
	MaxTokens = 200000
	maxBytes  = 4 << 20 // bytes of a packet read
	maxDepth  = 64      // element depth
)

// Prop is one leaf value of an XMP packet: the namespace and local name
// of the innermost property, and its text.
type Prop struct {
	NS, Name string
	Value    string
	// Path places the value in the packet for a listing: prefixed
	// property names joined by "/", with "[n]" after an array for its
	// n-th item, as in xmpMM:History[2]/stEvt:action. Lang is the
	// item's xml:lang (language alternatives such as dc:title).
	Path string
	Lang string
}

// Packet is a flattened XMP packet: every text node and attribute value in
// document order, each attributed to its nearest property.
type Packet struct {
	Props []Prop
}

// First returns the first value of a property.
func (x *Packet) First(ns, name string) string {
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
func (x *Packet) All(ns, name string) []string {
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

// frame is one open element: its name, its segment of the listing
// path ("" for RDF syntax and the xmpmeta wrapper), the items counted so
// far when it is an array, and its xml:lang.
type frame struct {
	name  xml.Name
	seg   string
	items int
	lang  string
}

// Parse flattens an XMP packet. It is bounded in bytes, tokens and depth,
// tolerates malformed XML by keeping what it read, and never expands
// external entities (encoding/xml does not).
func Parse(data []byte) *Packet {
	if len(data) > maxBytes {
		data = data[:maxBytes]
	}
	data = toUTF8(data)
	dec := xml.NewDecoder(bytes.NewReader(data))
	dec.Strict = false
	dec.Entity = xml.HTMLEntity
	// The packet is UTF-8 by now whatever its declaration says.
	dec.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	x := &Packet{}
	var stack []frame
	prefixes := map[string]string{} // namespace URI -> first prefix declared for it
	for toks := 0; toks < MaxTokens; toks++ {
		tok, err := dec.Token()
		if err == io.EOF || err != nil {
			break
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if len(stack) >= maxDepth {
				return x
			}
			// Paths keep a name as written; properties carry its namespace.
			written, writtenAttr := t.Name, make([]xml.Name, len(t.Attr))
			t.Name = undeclared(t.Name)
			for i := range t.Attr {
				writtenAttr[i] = t.Attr[i].Name
				t.Attr[i].Name = undeclared(t.Attr[i].Name)
			}
			fr := frame{name: t.Name}
			for _, at := range t.Attr {
				switch {
				case at.Name.Space == "xmlns":
					if _, ok := prefixes[at.Value]; !ok {
						prefixes[at.Value] = at.Name.Local
					}
				case at.Name.Space == nsXML && at.Name.Local == "lang":
					fr.lang = at.Value
				}
			}
			switch {
			case t.Name.Space == nsRDF && t.Name.Local == "li":
				if len(stack) > 0 {
					stack[len(stack)-1].items++
					fr.seg = "[" + strconv.Itoa(stack[len(stack)-1].items) + "]"
				}
			case t.Name.Space == nsRDF, t.Name.Space == NSMeta:
			default:
				fr.seg = qualified(prefixes, written)
			}
			stack = append(stack, fr)
			path := pathOf(stack)
			for i, at := range t.Attr {
				an := at.Name
				if an.Space == nsRDF || an.Space == "xmlns" || an.Space == "" || an.Space == nsXML {
					continue
				}
				p := qualified(prefixes, writtenAttr[i])
				if path != "" {
					p = path + "/" + p
				}
				x.Props = append(x.Props, Prop{NS: an.Space, Name: an.Local, Value: at.Value, Path: p, Lang: langOf(stack)})
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
				if stack[i].name.Space != nsRDF {
					x.Props = append(x.Props, Prop{NS: stack[i].name.Space, Name: stack[i].name.Local, Value: v,
						Path: pathOf(stack), Lang: langOf(stack)})
					break
				}
			}
		}
	}
	return x
}

// toUTF8 converts a UTF-16 packet (XMP allows UTF-16, with or without a
// byte-order mark) to UTF-8; UTF-8 comes back as it is.
func toUTF8(b []byte) []byte {
	if len(b) < 2 {
		return b
	}
	switch {
	case b[0] == 0xFE && b[1] == 0xFF:
		return decodeUTF16(b[2:], true)
	case b[0] == 0xFF && b[1] == 0xFE:
		return decodeUTF16(b[2:], false)
	case b[0] == 0 && b[1] != 0:
		return decodeUTF16(b, true)
	case b[0] != 0 && b[1] == 0:
		return decodeUTF16(b, false)
	}
	return b
}

// decodeUTF16 decodes UTF-16 code units, a lone surrogate as U+FFFD and an
// odd last byte dropped.
func decodeUTF16(b []byte, bigEndian bool) []byte {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		if bigEndian {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		} else {
			u = append(u, uint16(b[i+1])<<8|uint16(b[i]))
		}
	}
	return []byte(string(utf16.Decode(u)))
}

// commonPrefixes name the namespaces XMP writers use, for packets whose
// elements carry a namespace no prefix was declared for (a default
// namespace). An array searched in order.
var commonPrefixes = [...][2]string{
	{"http://purl.org/dc/elements/1.1/", "dc"},
	{NSBasic, "xmp"},
	{NSMM, "xmpMM"},
	{NSPDF, "pdf"},
	{NSEvt, "stEvt"},
	{"http://ns.adobe.com/xap/1.0/rights/", "xmpRights"},
	{"http://ns.adobe.com/photoshop/1.0/", "photoshop"},
	{"http://ns.adobe.com/tiff/1.0/", "tiff"},
	{"http://ns.adobe.com/exif/1.0/", "exif"},
	{"http://cipa.jp/exif/1.0/", "exifEX"},
	{"http://ns.adobe.com/exif/1.0/aux/", "aux"},
	{"http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/", "Iptc4xmpCore"},
	{"http://iptc.org/std/Iptc4xmpExt/2008-02-29/", "Iptc4xmpExt"},
	{"http://ns.adobe.com/pdfx/1.3/", "pdfx"},
	{"http://www.aiim.org/pdfa/ns/id/", "pdfaid"},
	{"http://ns.adobe.com/xap/1.0/sType/ResourceRef#", "stRef"},
	{"http://ns.adobe.com/camera-raw-settings/1.0/", "crs"},
	{"http://ns.adobe.com/xap/1.0/t/pg/", "xmpTPg"},
	{"http://ns.useplus.org/ldf/xmp/1.0/", "plus"},
	{"http://ns.google.com/photos/1.0/camera/", "GCamera"},
	{"http://ns.adobe.com/xmp/note/", "xmpNote"},
	{"http://ns.adobe.com/lightroom/1.0/", "lr"},
	{"http://ns.adobe.com/xmp/1.0/DynamicMedia/", "xmpDM"},
	{"http://ns.microsoft.com/photo/1.0/", "MicrosoftPhoto"},
	{"http://purl.org/dc/terms/", "dcterms"},
	{"http://ns.adobe.com/xap/1.0/sType/Version#", "stVer"},
	{"http://ns.adobe.com/xap/1.0/sType/Job#", "stJob"},
	{"http://ns.adobe.com/xap/1.0/sType/Dimensions#", "stDim"},
	{"http://ns.adobe.com/xap/1.0/g/", "xmpG"},
	{"http://ns.adobe.com/xap/1.0/bj/", "xmpBJ"},
	{"http://ns.adobe.com/hdr-gain-map/1.0/", "hdrgm"},
	{"http://ns.apple.com/HDRGainMap/1.0/", "HDRGainMap"},
	{"http://ns.adobe.com/xap/1.0/sType/ManifestItem#", "stMfs"},
	{"http://ns.adobe.com/xap/1.0/sType/Font#", "stFnt"},
	{"http://www.npes.org/pdfx/ns/id/", "pdfxid"},
	{"http://ns.adobe.com/illustrator/1.0/", "illustrator"},
	{"http://ns.adobe.com/xmp/Identifier/qual/1.0/", "xmpidq"},
	{"http://ns.adobe.com/xap/1.0/sType/Area#", "stArea"},
	{"http://www.metadataworkinggroup.com/schemas/regions/", "mwg-rs"},
}

// undeclared gives a name whose prefix was never declared (the decoder
// leaves the prefix as its space) the namespace writers mean by that
// prefix, when it is a well-known one: such packets are malformed, but
// the values they carry are still read under their namespace.
func undeclared(n xml.Name) xml.Name {
	if n.Space == "" || strings.ContainsAny(n.Space, "/:") {
		return n
	}
	switch n.Space {
	case "rdf":
		n.Space = nsRDF
		return n
	case "x":
		n.Space = NSMeta
		return n
	}
	for _, p := range commonPrefixes {
		if p[1] == n.Space {
			n.Space = p[0]
			return n
		}
	}
	return n
}

// qualified names an element or attribute prefix:Local, with the prefix the
// packet declared for its namespace (Clark notation when none is known).
func qualified(prefixes map[string]string, n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	if p, ok := prefixes[n.Space]; ok {
		return p + ":" + n.Local
	}
	for _, p := range commonPrefixes {
		if p[0] == n.Space {
			return p[1] + ":" + n.Local
		}
	}
	if !strings.Contains(n.Space, "/") && !strings.Contains(n.Space, ":") {
		return n.Space + ":" + n.Local // an undeclared prefix, kept as written
	}
	return "{" + n.Space + "}" + n.Local
}

func pathOf(stack []frame) string {
	var b strings.Builder
	for _, f := range stack {
		switch {
		case f.seg == "":
		case f.seg[0] == '[' || b.Len() == 0:
			b.WriteString(f.seg)
		default:
			b.WriteByte('/')
			b.WriteString(f.seg)
		}
	}
	return b.String()
}

func langOf(stack []frame) string {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].lang != "" {
			return stack[i].lang
		}
	}
	return ""
}
