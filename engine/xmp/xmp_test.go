package xmp

import (
	"strings"
	"testing"
)

const packet = `<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Adobe XMP Core 5.6">
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
<rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
  xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
  xmlns:dc="http://purl.org/dc/elements/1.1/" pdf:Producer="Acrobat &amp; Co">
<xmp:CreatorTool>Writer</xmp:CreatorTool>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Title</rdf:li><rdf:li xml:lang="fr">Titre</rdf:li></rdf:Alt></dc:title>
<xmpMM:History><rdf:Seq>
<rdf:li rdf:parseType="Resource"><stEvt:action>created</stEvt:action><stEvt:softwareAgent>Tool A</stEvt:softwareAgent></rdf:li>
<rdf:li stEvt:action="saved" stEvt:softwareAgent="Tool B"/>
</rdf:Seq></xmpMM:History>
</rdf:Description></rdf:RDF></x:xmpmeta>`

func TestParse(t *testing.T) {
	x := Parse([]byte(packet))
	if got := x.First(NSPDF, "Producer"); got != "Acrobat & Co" {
		t.Errorf("pdf:Producer %q", got)
	}
	if got := x.First(NSBasic, "CreatorTool"); got != "Writer" {
		t.Errorf("xmp:CreatorTool %q", got)
	}
	if got := x.First(NSMeta, "xmptk"); got != "Adobe XMP Core 5.6" {
		t.Errorf("x:xmptk %q", got)
	}
	if got := strings.Join(x.All(NSEvt, "softwareAgent"), "|"); got != "Tool A|Tool B" {
		t.Errorf("stEvt:softwareAgent %q", got)
	}
	var paths []string
	for _, p := range x.Props {
		paths = append(paths, p.Path+"="+p.Value+"@"+p.Lang)
	}
	want := "pdf:Producer=Acrobat & Co@|xmp:CreatorTool=Writer@|dc:title[1]=Title@x-default|dc:title[2]=Titre@fr|" +
		"xmpMM:History[1]/stEvt:action=created@|xmpMM:History[1]/stEvt:softwareAgent=Tool A@|" +
		"xmpMM:History[2]/stEvt:action=saved@|xmpMM:History[2]/stEvt:softwareAgent=Tool B@"
	if got := strings.Join(paths[1:], "|"); got != want {
		t.Errorf("paths\n got %s\nwant %s", got, want)
	}
}

// TestParseUTF16: a UTF-16 packet, with or without a byte-order mark,
// reads as its UTF-8 form does.
func TestParseUTF16(t *testing.T) {
	src := `<x xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer="Ünï"/>`
	for name, enc := range map[string]func() []byte{
		"BE BOM": func() []byte { return append([]byte{0xFE, 0xFF}, utf16Bytes(src, true)...) },
		"LE BOM": func() []byte { return append([]byte{0xFF, 0xFE}, utf16Bytes(src, false)...) },
		"BE":     func() []byte { return utf16Bytes(src, true) },
		"LE":     func() []byte { return utf16Bytes(src, false) },
	} {
		if got := Parse(enc()).First(NSPDF, "Producer"); got != "Ünï" {
			t.Errorf("%s: %q", name, got)
		}
	}
}

func utf16Bytes(s string, bigEndian bool) []byte {
	var out []byte
	for _, r := range s {
		if bigEndian {
			out = append(out, byte(r>>8), byte(r))
		} else {
			out = append(out, byte(r), byte(r>>8))
		}
	}
	return out
}

// TestParseAll: JPEG extended-XMP chunks are joined behind the main
// packets and read as one packet.
func TestParseAll(t *testing.T) {
	main := []byte(`<x xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreatorTool="Main"/>`)
	ext := `<x xmlns:xmp="http://ns.adobe.com/xap/1.0/"><xmp:CreatorTool>Extended</xmp:CreatorTool></x>`
	guid := "0123456789ABCDEF0123456789ABCDEF" + "\x00\x00\x00\x60" + "\x00\x00\x00\x00"
	chunk1 := []byte(guid + ext[:30])
	chunk2 := []byte(guid + ext[30:])
	xs := ParseAll([][]byte{chunk1, main, chunk2})
	if got := strings.Join(Values(xs, NSBasic, "CreatorTool", 10), "|"); got != "Main|Extended" {
		t.Errorf("values %q", got)
	}
	if got := Values(xs, NSBasic, "CreatorTool", 1); len(got) != 1 {
		t.Errorf("limit 1 gave %q", got)
	}
}

// FuzzParse: the XMP flattener never panics and stays within its token
// budget.
func FuzzParse(f *testing.F) {
	f.Add([]byte(packet))
	f.Add([]byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:pdf="http://ns.adobe.com/pdf/1.3/" pdf:Producer="iLovePDF"/></rdf:RDF></x:xmpmeta>`))
	f.Add([]byte(`<?xpacket begin="" id="W5M0MpCehiHzreSzNTczkc9d"?><a:b xmlns:a="u"><a:c>&amp;&lt;&#x41;</a:c><a:d>unclosed`))
	f.Add([]byte(`<!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;&a;">]><x>&b;</x>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		x := Parse(data)
		if len(x.Props) > MaxTokens {
			t.Fatalf("%d properties from %d bytes", len(x.Props), len(data))
		}
		ParseAll([][]byte{data, data})
	})
}

// TestUndeclaredPrefix: a packet that uses a well-known prefix without
// declaring it still yields the property under its namespace, listed as
// written.
func TestUndeclaredPrefix(t *testing.T) {
	x := Parse([]byte(`<x:xmpmeta><rdf:RDF><rdf:Description xmlns:xap="http://ns.adobe.com/xap/1.0/" exif:DateTimeOriginal="2023-01-01T09:00:00">` +
		`<xmp:ModifyDate>2024-01-01</xmp:ModifyDate><odd:Thing>v</odd:Thing></rdf:Description></rdf:RDF></x:xmpmeta>`))
	if got := x.First(NSEXIF, "DateTimeOriginal"); got != "2023-01-01T09:00:00" {
		t.Errorf("exif:DateTimeOriginal %q", got)
	}
	if got := x.First(NSBasic, "ModifyDate"); got != "2024-01-01" {
		t.Errorf("xmp:ModifyDate %q", got)
	}
	var paths []string
	for _, p := range x.Props {
		paths = append(paths, p.Path)
	}
	if got := strings.Join(paths, "|"); got != "exif:DateTimeOriginal|xmp:ModifyDate|odd:Thing" {
		t.Errorf("paths %s", got)
	}
}
