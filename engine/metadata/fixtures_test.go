package metadata

import (
	"archive/zip"
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"strings"
	"testing"
)

// Fixture builders: small, valid files assembled in code, so each test
// says exactly which bytes it lists.

// ent is one TIFF directory entry; val is in the block's byte order.
type ent struct {
	tag, typ uint16
	count    uint32
	val      []byte
}

// tiffWriter lays out a TIFF-structured block: IFD0 at offset 8, then the
// Exif, GPS, Interop and IFD1 directories, each followed by its values.
type tiffWriter struct{ o byteOrder }

type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}

var le = tiffWriter{binary.LittleEndian}

func (w tiffWriter) ascii(tag uint16, s string) ent {
	v := append([]byte(s), 0)
	return ent{tag, tASCII, uint32(len(v)), v}
}

func (w tiffWriter) short(tag uint16, vs ...uint16) ent {
	var b []byte
	for _, v := range vs {
		b = w.o.AppendUint16(b, v)
	}
	return ent{tag, tShort, uint32(len(vs)), b}
}

func (w tiffWriter) long(tag uint16, v uint32) ent {
	return ent{tag, tLong, 1, w.o.AppendUint32(nil, v)}
}

// rat takes numerator, denominator pairs.
func (w tiffWriter) rat(tag uint16, nd ...uint32) ent {
	var b []byte
	for _, v := range nd {
		b = w.o.AppendUint32(b, v)
	}
	return ent{tag, tRational, uint32(len(nd) / 2), b}
}

func (w tiffWriter) srat(tag uint16, n, d int32) ent {
	return ent{tag, tSRational, 1, w.o.AppendUint32(w.o.AppendUint32(nil, uint32(n)), uint32(d))}
}

func undef(tag uint16, b []byte) ent { return ent{tag, tUndefined, uint32(len(b)), b} }

func ifdLen(es []ent) int {
	n := 2 + 12*len(es) + 4
	for _, e := range es {
		if len(e.val) > 4 {
			n += len(e.val) + len(e.val)&1
		}
	}
	return n
}

func (w tiffWriter) putIFD(out []byte, es []ent, next uint32) []byte {
	off := len(out)
	data := off + 2 + 12*len(es) + 4
	out = w.o.AppendUint16(out, uint16(len(es)))
	var tail []byte
	for _, e := range es {
		out = w.o.AppendUint16(out, e.tag)
		out = w.o.AppendUint16(out, e.typ)
		out = w.o.AppendUint32(out, e.count)
		if len(e.val) <= 4 {
			v := make([]byte, 4)
			copy(v, e.val)
			out = append(out, v...)
			continue
		}
		out = w.o.AppendUint32(out, uint32(data+len(tail)))
		tail = append(tail, e.val...)
		if len(e.val)&1 == 1 {
			tail = append(tail, 0)
		}
	}
	out = w.o.AppendUint32(out, next)
	return append(out, tail...)
}

// block builds the TIFF structure; nil directories are left out.
func (w tiffWriter) block(ifd0, exif, gps, interop, ifd1 []ent) []byte {
	ifd0 = append([]ent(nil), ifd0...)
	exif = append([]ent(nil), exif...)
	if exif != nil || interop != nil {
		ifd0 = append(ifd0, w.long(tagExifPointer, 0))
	}
	if gps != nil {
		ifd0 = append(ifd0, w.long(tagGPSPointer, 0))
	}
	if interop != nil {
		exif = append(exif, w.long(tagInteropPointer, 0))
	}
	offE := 8 + ifdLen(ifd0)
	offG := offE + ifdLen(exif)
	offI := offG + ifdLen(gps)
	off1 := offI + ifdLen(interop)
	for i := range ifd0 {
		switch ifd0[i].tag {
		case tagExifPointer:
			ifd0[i] = w.long(tagExifPointer, uint32(offE))
		case tagGPSPointer:
			ifd0[i] = w.long(tagGPSPointer, uint32(offG))
		}
	}
	for i := range exif {
		if exif[i].tag == tagInteropPointer {
			exif[i] = w.long(tagInteropPointer, uint32(offI))
		}
	}
	out := []byte("II*\x00")
	if w.o.String() == binary.BigEndian.String() {
		out = []byte("MM\x00*")
	}
	out = w.o.AppendUint32(out, 8)
	next := uint32(0)
	if ifd1 != nil {
		next = uint32(off1)
	}
	out = w.putIFD(out, ifd0, next)
	for _, d := range [][]ent{exif, gps, interop, ifd1} {
		if d != nil {
			out = w.putIFD(out, d, 0)
		}
	}
	return out
}

func segment(marker byte, payload []byte) []byte {
	n := len(payload) + 2
	return append([]byte{0xFF, marker, byte(n >> 8), byte(n)}, payload...)
}

// jpeg builds a baseline JPEG header: SOI, the given segments, an 8x8 SOF0,
// an SOS with one byte of entropy-coded data, EOI.
func jpeg(segments ...[]byte) []byte {
	out := []byte{0xFF, 0xD8}
	for _, s := range segments {
		out = append(out, s...)
	}
	out = append(out, segment(0xC0, []byte{8, 0, 8, 0, 8, 1, 1, 0x11, 0})...)
	out = append(out, segment(0xDA, []byte{1, 1, 0, 0, 63, 0})...)
	return append(out, 0x00, 0xFF, 0xD9)
}

func app1EXIF(tiff []byte) []byte { return segment(0xE1, append([]byte("Exif\x00\x00"), tiff...)) }

func app1XMP(packet string) []byte {
	return segment(0xE1, append([]byte("http://ns.adobe.com/xap/1.0/\x00"), packet...))
}

func pngChunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(typ), data...)))
}

func png(chunks ...[]byte) []byte {
	out := []byte("\x89PNG\r\n\x1a\n")
	out = append(out, pngChunk("IHDR", []byte{0, 0, 0, 3, 0, 0, 0, 2, 8, 2, 0, 0, 0})...)
	for _, c := range chunks {
		out = append(out, c...)
	}
	out = append(out, pngChunk("IDAT", []byte{0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1})...)
	return append(out, pngChunk("IEND", nil)...)
}

func deflate(b []byte) []byte {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	zw.Write(b)
	zw.Close()
	return buf.Bytes()
}

// rawProfileText is ImageMagick's hex encoding of a profile in PNG text.
func rawProfileText(kind string, data []byte) string {
	h := hex.EncodeToString(data)
	var lines []string
	for len(h) > 72 {
		lines, h = append(lines, h[:72]), h[72:]
	}
	lines = append(lines, h)
	return "\n" + kind + "\n" + strings.Repeat(" ", 4) + itoa(len(data)) + "\n" + strings.Join(lines, "\n") + "\n"
}

// xmpPacket wraps RDF properties with the usual namespaces declared.
func xmpPacket(props string) string {
	return `<?xpacket begin="` + "\uFEFF" + `" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Test Toolkit">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:dc="http://purl.org/dc/elements/1.1/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"
    xmlns:tiff="http://ns.adobe.com/tiff/1.0/"
    xmlns:exif="http://ns.adobe.com/exif/1.0/"
    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/">
` + props + `
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`
}

type zipEntry struct{ name, body string }

func buildZip(t testing.TB, entries ...zipEntry) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// docx is a minimal Word package with the given property parts and extra
// parts.
func docx(t testing.TB, core, app, custom string, extra ...zipEntry) []byte {
	entries := []zipEntry{
		{"[Content_Types].xml", `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
			`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
			`<Default Extension="xml" ContentType="application/xml"/><Default Extension="jpeg" ContentType="image/jpeg"/>` +
			`<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>` +
			`</Types>`},
		{"_rels/.rels", `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/>` +
			`</Relationships>`},
		{"word/document.xml", `<?xml version="1.0"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>x</w:t></w:r></w:p></w:body></w:document>`},
	}
	if core != "" {
		entries = append(entries, zipEntry{"docProps/core.xml", `<?xml version="1.0"?><cp:coreProperties ` +
			`xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" ` +
			`xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">` + core + `</cp:coreProperties>`})
	}
	if app != "" {
		entries = append(entries, zipEntry{"docProps/app.xml", `<?xml version="1.0"?><Properties ` +
			`xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" ` +
			`xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` + app + `</Properties>`})
	}
	if custom != "" {
		entries = append(entries, zipEntry{"docProps/custom.xml", `<?xml version="1.0"?><Properties ` +
			`xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" ` +
			`xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">` + custom + `</Properties>`})
	}
	return buildZip(t, append(entries, extra...)...)
}
