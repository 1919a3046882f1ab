package metadata

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/report"
)

func list(t *testing.T, data []byte) *Report {
	t.Helper()
	r, err := List(context.Background(), data, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatal(err)
	}
	return r
}

// entry finds key in the first container named name (and part).
func entry(r *Report, name, part, key string) (Entry, bool) {
	for _, c := range r.Containers {
		if c.Name != name || c.Part != part {
			continue
		}
		for _, e := range c.Entries {
			if e.Key == key {
				return e, true
			}
		}
	}
	return Entry{}, false
}

// want checks value, raw and code of one entry.
func want(t *testing.T, r *Report, name, part, key, value, raw, code string) {
	t.Helper()
	e, ok := entry(r, name, part, key)
	if !ok {
		t.Errorf("%s %s: %s missing", name, part, key)
		return
	}
	if e.Value != value || e.Raw != raw || e.Code != code {
		t.Errorf("%s %s: %s = %q raw %q code %q; want %q raw %q code %q", name, part, key, e.Value, e.Raw, e.Code, value, raw, code)
	}
}

func containerNames(r *Report) []string {
	var out []string
	for _, c := range r.Containers {
		n := c.Name
		if c.Part != "" {
			n += "@" + c.Part
		}
		out = append(out, n)
	}
	return out
}

func hasNote(r *Report, code string) bool {
	for _, n := range r.Notes {
		if n.Code == code && n.Text != "" && n.Text != n.Code {
			return true
		}
	}
	return false
}

func personalKeys(r *Report) []string {
	var out []string
	for _, p := range r.Personal {
		out = append(out, p.Container+":"+p.Key)
	}
	return out
}

// cameraEXIF is a camera's EXIF block: every directory, the enumerations
// the issue names, rationals, GPS and a thumbnail directory.
func cameraEXIF(w tiffWriter) []byte {
	return w.block(
		[]ent{w.ascii(0x010f, "Canon"), w.ascii(0x0110, "Canon EOS 5D"), w.short(0x0112, 6),
			w.rat(0x011a, 72, 1), w.rat(0x011b, 72, 1), w.short(0x0128, 2), w.ascii(0x0131, "Adobe Photoshop 25.0"),
			w.ascii(0x0132, "2024:03:01 10:20:30"), w.ascii(0x013b, "Jane Doe"), w.short(0x0213, 2), w.short(0x0103, 6)},
		[]ent{w.rat(0x829a, 1, 60), w.rat(0x829d, 28, 10), w.short(0x8822, 3), w.short(0x8827, 400),
			undef(0x9000, []byte("0232")), w.ascii(0x9003, "2024:03:01 10:20:30"),
			undef(0x9101, []byte{1, 2, 3, 0}), w.srat(0x9201, 6, 1), w.rat(0x9202, 3, 1), w.srat(0x9204, -1, 3),
			w.short(0x9207, 5), w.short(0x9208, 10), w.short(0x9209, 16), w.rat(0x920a, 50, 1),
			undef(0x9286, append([]byte("ASCII\x00\x00\x00"), "hello"...)), w.short(0xa001, 1),
			undef(0xa300, []byte{3}), undef(0xa301, []byte{1}), w.short(0xa402, 0), w.short(0xa403, 1),
			w.short(0xa406, 0), w.ascii(0xa431, "SN-12345"), w.ascii(0xa430, "Jane"), w.rat(0xa432, 24, 1, 70, 1, 28, 10, 28, 10),
			w.short(0xa405, 75), w.short(0x9999, 7)},
		[]ent{{0x0000, tByte, 4, []byte{2, 3, 0, 0}}, w.ascii(0x0001, "S"), w.rat(0x0002, 33, 1, 51, 1, 3456, 100),
			w.ascii(0x0003, "E"), w.rat(0x0004, 151, 1, 12, 1, 3000, 100), {0x0005, tByte, 1, []byte{0}},
			w.rat(0x0006, 584, 10), w.rat(0x0007, 14, 1, 5, 1, 30, 1), w.ascii(0x001d, "2024:03:01")},
		[]ent{w.ascii(0x0001, "R98"), undef(0x0002, []byte("0100"))},
		[]ent{w.short(0x0103, 6), w.long(0x0201, 0), w.long(0x0202, 0)},
	)
}

func TestEXIFDirectories(t *testing.T) {
	for _, w := range []tiffWriter{le, {binary.BigEndian}} {
		r := list(t, jpeg(app1EXIF(cameraEXIF(w))))
		if got := strings.Join(containerNames(r), ","); got != "File,IFD0,ExifIFD,InteropIFD,GPS,IFD1" {
			t.Fatalf("containers %s", got)
		}
		want(t, r, "File", "", "FileType", "JPEG", "", "")
		want(t, r, "File", "", "ImageWidth", "8", "", "")
		want(t, r, "IFD0", "", "Make", "Canon", "", "")
		want(t, r, "IFD0", "", "Orientation", "Rotate 90 CW", "6", "exif.Orientation.6")
		want(t, r, "IFD0", "", "XResolution", "72", "72/1", "")
		want(t, r, "IFD0", "", "ResolutionUnit", "inches", "2", "exif.ResolutionUnit.2")
		want(t, r, "IFD0", "", "YCbCrPositioning", "Co-sited", "2", "exif.YCbCrPositioning.2")
		want(t, r, "IFD0", "", "Compression", "JPEG (old-style)", "6", "exif.Compression.6")
		want(t, r, "IFD0", "", "ModifyDate", "2024:03:01 10:20:30", "", "")
		want(t, r, "ExifIFD", "", "ExposureTime", "1/60", "", "")
		want(t, r, "ExifIFD", "", "FNumber", "2.8", "28/10", "")
		want(t, r, "ExifIFD", "", "ExposureProgram", "Aperture-priority AE", "3", "exif.ExposureProgram.3")
		want(t, r, "ExifIFD", "", "ISO", "400", "", "")
		want(t, r, "ExifIFD", "", "ExifVersion", "0232", "", "")
		want(t, r, "ExifIFD", "", "ComponentsConfiguration", "Y, Cb, Cr, -", "1 2 3 0", "")
		want(t, r, "ExifIFD", "", "ShutterSpeedValue", "1/64", "6/1", "")
		want(t, r, "ExifIFD", "", "ApertureValue", "2.8", "3/1", "")
		want(t, r, "ExifIFD", "", "ExposureCompensation", "-1/3", "", "")
		want(t, r, "ExifIFD", "", "MeteringMode", "Multi-segment", "5", "exif.MeteringMode.5")
		want(t, r, "ExifIFD", "", "LightSource", "Cloudy", "10", "exif.LightSource.10")
		want(t, r, "ExifIFD", "", "Flash", "Off, Did not fire", "16", "exif.Flash.16")
		want(t, r, "ExifIFD", "", "FocalLength", "50.0 mm", "50/1", "")
		want(t, r, "ExifIFD", "", "UserComment", "hello", "", "")
		want(t, r, "ExifIFD", "", "ColorSpace", "sRGB", "1", "exif.ColorSpace.1")
		want(t, r, "ExifIFD", "", "FileSource", "Digital Camera", "3", "exif.FileSource.3")
		want(t, r, "ExifIFD", "", "SceneType", "Directly photographed", "1", "exif.SceneType.1")
		want(t, r, "ExifIFD", "", "ExposureMode", "Auto", "0", "exif.ExposureMode.0")
		want(t, r, "ExifIFD", "", "WhiteBalance", "Manual", "1", "exif.WhiteBalance.1")
		want(t, r, "ExifIFD", "", "LensInfo", "24-70mm f/2.8", "24/1 70/1 28/10 28/10", "")
		want(t, r, "ExifIFD", "", "FocalLengthIn35mmFormat", "75 mm", "75", "")
		want(t, r, "ExifIFD", "", "SerialNumber", "SN-12345", "", "")
		want(t, r, "ExifIFD", "", "Tag0x9999", "7", "", "")
		want(t, r, "GPS", "", "GPSVersionID", "2.3.0.0", "2 3 0 0", "")
		want(t, r, "GPS", "", "GPSLatitudeRef", "South", "S", "exif.GPSLatitudeRef.S")
		want(t, r, "GPS", "", "GPSLatitude", `33 deg 51' 34.56"`, "33/1 51/1 3456/100", "")
		want(t, r, "GPS", "", "GPSAltitudeRef", "Above Sea Level", "0", "exif.GPSAltitudeRef.0")
		want(t, r, "GPS", "", "GPSAltitude", "58.4 m", "584/10", "")
		want(t, r, "GPS", "", "GPSTimeStamp", "14:05:30", "14/1 5/1 30/1", "")
		want(t, r, "InteropIFD", "", "InteropIndex", "R98 - DCF basic file (sRGB)", "R98", "exif.InteropIndex.R98")
		want(t, r, "InteropIFD", "", "InteropVersion", "0100", "", "")
		want(t, r, "IFD1", "", "Compression", "JPEG (old-style)", "6", "exif.Compression.6")
		// Pointers lead to directories; they are not entries themselves.
		if _, ok := entry(r, "IFD0", "", "ExifOffset"); ok {
			t.Error("pointer listed")
		}
		g := r.GPS
		if g == nil || math.Abs(g.Latitude+33.8596) > 1e-4 || math.Abs(g.Longitude-151.2083) > 1e-4 || g.Container != "GPS" {
			t.Fatalf("gps %+v", g)
		}
		p := strings.Join(personalKeys(r), ",")
		for _, k := range []string{"IFD0:Make", "IFD0:Model", "IFD0:Software", "IFD0:Artist", "ExifIFD:SerialNumber", "ExifIFD:OwnerName", "GPS:GPSLatitude", "GPS:GPSAltitude"} {
			if !strings.Contains(p, k) {
				t.Errorf("personal lacks %s: %s", k, p)
			}
		}
		for _, k := range []string{"IFD0:Orientation", "ExifIFD:FNumber", "GPS:GPSVersionID"} {
			if strings.Contains(p, k+",") || strings.HasSuffix(p, k) {
				t.Errorf("personal has %s", k)
			}
		}
		if len(r.Notes) != 0 || len(r.NotEnumerated) != 0 {
			t.Fatalf("notes %+v notEnumerated %+v", r.Notes, r.NotEnumerated)
		}
	}
}

func TestPrintConversions(t *testing.T) {
	cases := []struct {
		f    printConv
		v    num
		want string
	}{
		{printExposureTime, num{n: 1, d: 8000, kind: 'r'}, "1/8000"},
		{printExposureTime, num{n: 2, d: 1, kind: 'r'}, "2"},
		{printExposureTime, num{n: 13, d: 10, kind: 'r'}, "1.3"},
		{printFNumber, num{n: 95, d: 100, kind: 'r'}, "0.95"},
		{printFraction, num{n: 2, d: 3, kind: 'r'}, "+2/3"},
		{printFraction, num{n: -1, d: 2, kind: 'r'}, "-1/2"},
		{printFraction, num{n: 1, d: 1, kind: 'r'}, "+1"},
		{printFraction, num{n: 7, d: 10, kind: 'r'}, "+0.7"},
		{printUnit(" m"), num{n: 1, d: 0, kind: 'r'}, "inf"},
	}
	for _, c := range cases {
		be := binary.BigEndian
		v, ok := numberValue(tSRational, be.AppendUint32(be.AppendUint32(nil, uint32(int32(c.v.n))), uint32(int32(c.v.d))))
		if !ok {
			t.Fatalf("%v: goexif refused the entry", c.v)
		}
		if got, ok := c.f(v); !ok || got != c.want {
			t.Errorf("%v: %q, want %q", c.v, got, c.want)
		}
	}
	if got := dms(54.98966666); got != `54 deg 59' 22.80"` {
		t.Errorf("dms %q", got)
	}
	if got := dms(10.999999999); got != `11 deg 0' 0.00"` {
		t.Errorf("dms rounding %q", got)
	}
	if got := (value{typ: tUndefined, b: []byte("UNICODE\x00h\x00i\x00"), order: binary.LittleEndian}); true {
		if s, _ := printCharsetText(got); s != "hi" {
			t.Errorf("unicode comment %q", s)
		}
	}
	if s, _ := printCFAPattern(value{typ: tUndefined, b: []byte{0, 2, 0, 2, 1, 2, 0, 1}, order: binary.BigEndian}); s != "[Green,Blue][Red,Green]" {
		t.Errorf("CFA %q", s)
	}
	if s, _ := printUCS2(value{typ: tByte, b: []byte("T\x00i\x00t\x00\x00\x00")}); s != "Tit" {
		t.Errorf("XP %q", s)
	}
	// An unknown enumeration value stays data: no code.
	orientation, _ := numberValue(tShort, []byte{0, 9})
	val, raw, code := render(exifTags()[0x0112], orientation)
	if val != "Unknown (9)" || raw != "9" || code != "" {
		t.Errorf("unknown orientation %q %q %q", val, raw, code)
	}
}

func TestXMPProperties(t *testing.T) {
	packet := xmpPacket(`
<xmp:CreatorTool>Adobe Photoshop 25.0</xmp:CreatorTool>
<dc:creator><rdf:Seq><rdf:li>Ann Author</rdf:li><rdf:li>Bob Builder</rdf:li></rdf:Seq></dc:creator>
<dc:title><rdf:Alt><rdf:li xml:lang="x-default">Report</rdf:li><rdf:li xml:lang="fr">Rapport</rdf:li></rdf:Alt></dc:title>
<xmpMM:History><rdf:Seq>
 <rdf:li rdf:parseType="Resource"><stEvt:action>created</stEvt:action><stEvt:softwareAgent>Camera</stEvt:softwareAgent></rdf:li>
 <rdf:li stEvt:action="saved" stEvt:softwareAgent="Adobe Photoshop 25.0"/>
</rdf:Seq></xmpMM:History>
<tiff:Orientation>8</tiff:Orientation>
<exif:FNumber>28/10</exif:FNumber>
<exif:GPSLatitude>48,51.4N</exif:GPSLatitude>
<exif:GPSLongitude>2,17.7W</exif:GPSLongitude>
<photoshop:City>Paris</photoshop:City>`)
	r := list(t, jpeg(app1XMP(packet)))
	want(t, r, "XMP", "", "x:xmptk", "Test Toolkit", "", "")
	want(t, r, "XMP", "", "xmp:CreatorTool", "Adobe Photoshop 25.0", "", "")
	want(t, r, "XMP", "", "dc:creator", "Ann Author, Bob Builder", "", "")
	want(t, r, "XMP", "", "dc:title", "Report", "", "")
	want(t, r, "XMP", "", "dc:title-fr", "Rapport", "", "")
	want(t, r, "XMP", "", "xmpMM:History[1]/stEvt:action", "created", "", "")
	want(t, r, "XMP", "", "xmpMM:History[2]/stEvt:softwareAgent", "Adobe Photoshop 25.0", "", "")
	want(t, r, "XMP", "", "tiff:Orientation", "Rotate 270 CW", "8", "exif.Orientation.8")
	want(t, r, "XMP", "", "exif:FNumber", "2.8", "28/10", "")
	want(t, r, "XMP", "", "exif:GPSLatitude", `48 deg 51' 24.00" N`, "48,51.4N", "")
	if g := r.GPS; g == nil || math.Abs(g.Latitude-48.8567) > 1e-3 || math.Abs(g.Longitude+2.295) > 1e-3 || g.Container != "XMP" {
		t.Fatalf("gps %+v", g)
	}
	p := strings.Join(personalKeys(r), ",")
	for _, k := range []string{"XMP:dc:creator", "XMP:xmp:CreatorTool", "XMP:xmpMM:History[2]/stEvt:softwareAgent", "XMP:photoshop:City", "XMP:exif:GPSLatitude"} {
		if !strings.Contains(p, k) {
			t.Errorf("personal lacks %s: %s", k, p)
		}
	}
	if strings.Contains(p, "dc:title") {
		t.Errorf("title is not personal: %s", p)
	}

	// UTF-16 packets (XMP allows them) and JPEG extended XMP.
	utf16 := []byte{}
	for _, c := range packet {
		utf16 = binary.BigEndian.AppendUint16(utf16, uint16(c))
	}
	ext := append([]byte("0123456789ABCDEF0123456789ABCDEF\x00\x00\x10\x00\x00\x00\x00\x00"),
		xmpPacket(`<photoshop:Credit>Extended</photoshop:Credit>`)...)
	r = list(t, jpeg(segment(0xE1, append([]byte("http://ns.adobe.com/xap/1.0/\x00"), utf16...)),
		segment(0xE1, append([]byte("http://ns.adobe.com/xmp/extension/\x00"), ext...))))
	want(t, r, "XMP", "", "dc:creator", "Ann Author, Bob Builder", "", "")
	want(t, r, "XMP", "", "photoshop:Credit", "Extended", "", "")
}

func TestPNGText(t *testing.T) {
	exif := le.block([]ent{le.ascii(0x010f, "Google"), le.ascii(0x0110, "Pixel 4a")}, nil, nil, nil, nil)
	r := list(t, png(
		pngChunk("tEXt", []byte("Author\x00Ren\xe9e")),
		pngChunk("tEXt", []byte("Comment\x00line one\nline two")),
		pngChunk("zTXt", append([]byte("Raw profile type exif\x00\x00"), deflate([]byte(rawProfileText("exif", append([]byte("Exif\x00\x00"), exif...))))...)),
		pngChunk("iTXt", append([]byte("XML:com.adobe.xmp\x00\x00\x00\x00\x00"), xmpPacket(`<xmp:Rating>3</xmp:Rating>`)...)),
		pngChunk("iCCP", []byte("icc\x00\x00x")),
	))
	want(t, r, "File", "", "ImageWidth", "3", "", "")
	want(t, r, "PNG", "", "Author", "Renée", "", "")
	want(t, r, "PNG", "", "Comment", "line one line two", "", "")
	want(t, r, "PNG", "", "Raw profile type exif", "(binary data, "+itoa(len(exif)+6)+" bytes)", "", "")
	want(t, r, "IFD0", "", "Model", "Pixel 4a", "", "")
	want(t, r, "XMP", "", "xmp:Rating", "3", "", "")
	if len(r.NotEnumerated) != 1 || r.NotEnumerated[0].Name != "ICC" {
		t.Fatalf("notEnumerated %+v", r.NotEnumerated)
	}
	if p := strings.Join(personalKeys(r), ","); p != "XMP:x:xmptk,PNG:Author,IFD0:Make,IFD0:Model" {
		t.Fatalf("personal %s", p)
	}
}

func TestTIFFFile(t *testing.T) {
	w := tiffWriter{binary.BigEndian}
	tiff := w.block([]ent{w.long(0x0100, 640), w.long(0x0101, 480), w.short(0x0106, 2), w.ascii(0x0131, "scanner 1.0"),
		{0x02bc, tByte, uint32(len(xmpPacket(""))), []byte(xmpPacket(`<dc:format>image/tiff</dc:format>`))},
		{0x83bb, tLong, 1, []byte{0, 0, 0, 0}}}, nil, nil, nil, nil)
	r := list(t, tiff)
	want(t, r, "IFD0", "", "ImageWidth", "640", "", "")
	want(t, r, "IFD0", "", "PhotometricInterpretation", "RGB", "2", "exif.PhotometricInterpretation.2")
	want(t, r, "XMP", "", "dc:format", "image/tiff", "", "")
	if len(r.Notes) != 0 || len(r.NotEnumerated) != 1 || r.NotEnumerated[0].Name != "IPTC" {
		t.Fatalf("notes %+v notEnumerated %+v", r.Notes, r.NotEnumerated)
	}
	// GIF is recognised, not walked: the listing says so.
	r = list(t, []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"))
	if !hasNote(r, "image-structure-anomalies.container-not-walked") || r.MediaType != report.MediaImage {
		t.Fatalf("gif %+v", r)
	}
}

func TestPDFListing(t *testing.T) {
	b := pdftest.OnePage("hello")
	info := b.Add("<< /Author (Ann Author) /Producer " + pdftest.UTF16("Écrivain 1.0") + " /CreationDate (D:20240102030405+01'00') /Trapped /False /Company (Acme Corp) /Pages 3 /Weird [1 /Two (three)] >>")
	meta := b.AddStream("<< /Type /Metadata /Subtype /XML >>", pdftest.XMP(`<xmp:CreatorTool>Writer</xmp:CreatorTool><dc:creator><rdf:Seq><rdf:li>Ann Author</rdf:li></rdf:Seq></dc:creator>`))
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict("/Metadata "+itoa(meta)+" 0 R"))
	b.Trailer("/Root " + itoa(pdftest.CatalogObj) + " 0 R /Info " + itoa(info) + " 0 R")
	r := list(t, b.Bytes())
	if r.MediaType != report.MediaPDF || strings.Join(containerNames(r), ",") != "File,Info,XMP,Fonts" {
		t.Fatalf("%s %s", r.MediaType, containerNames(r))
	}
	want(t, r, "File", "", "PDFVersion", "1.7", "", "")
	want(t, r, "File", "", "Pages", "1", "", "")
	want(t, r, "File", "", "Revisions", "1", "", "")
	want(t, r, "File", "", "Encrypted", "No", "", "")
	want(t, r, "File", "", "Signatures", "0", "", "")
	want(t, r, "File", "", "Fonts", "1", "", "")
	want(t, r, "Info", "", "Author", "Ann Author", "", "")
	want(t, r, "Info", "", "Producer", "Écrivain 1.0", "", "")
	want(t, r, "Info", "", "CreationDate", "2024-01-02T03:04:05+01:00", "D:20240102030405+01'00'", "")
	want(t, r, "Info", "", "Trapped", "/False", "", "")
	want(t, r, "Info", "", "Company", "Acme Corp", "", "")
	want(t, r, "Info", "", "Pages", "3", "", "")
	want(t, r, "Info", "", "Weird", "[1 /Two three]", "", "")
	want(t, r, "XMP", "", "xmp:CreatorTool", "Writer", "", "")
	want(t, r, "XMP", "", "dc:creator", "Ann Author", "", "")
	want(t, r, "Fonts", "", "Helvetica", "Type1, not embedded", "", "")
	p := strings.Join(personalKeys(r), ",")
	if p != "Info:Author,Info:Producer,Info:Company,XMP:xmp:CreatorTool,XMP:dc:creator" {
		t.Fatalf("personal %s", p)
	}

	// An encrypted file: keys are listed, strings are not readable.
	e := pdftest.OnePage("x")
	info = e.Add("<< /Author (encrypted bytes) /Custom 7 >>")
	enc := e.Add("<< /Filter /Standard /V 2 /R 3 /Length 128 /O <00> /U <00> /P -4 >>")
	e.Trailer("/Root 1 0 R /Info " + itoa(info) + " 0 R /Encrypt " + itoa(enc) + " 0 R /ID [<01><01>]")
	r = list(t, e.Bytes())
	want(t, r, "File", "", "Encrypted", "Yes", "", "")
	want(t, r, "File", "", "Encryption", "Standard, V 2, R 3, 128-bit, not opened (malformed)", "", "")
	want(t, r, "Info", "", "Author", "(encrypted)", "", "")
	want(t, r, "Info", "", "Custom", "7", "", "")
	if hasNote(r, "structure-warnings.encrypted-content-not-analysed") {
		t.Fatal("an inspection's skipped-families note in a listing")
	}

	// A damaged file is listed as far as it reads, with the notes.
	r = list(t, []byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n"))
	if r.MediaType != report.MediaPDF || len(r.Notes) == 0 {
		t.Fatalf("damaged: %+v", r)
	}
}

func TestOfficeListing(t *testing.T) {
	photo := jpeg(app1EXIF(cameraEXIF(le)))
	data := docx(t,
		`<dc:title>Quarterly</dc:title><dc:creator>Ann Author</dc:creator><cp:lastModifiedBy>Bob Editor</cp:lastModifiedBy>`+
			`<cp:revision>4</cp:revision><dcterms:created xsi:type="dcterms:W3CDTF">2024-01-01T10:00:00Z</dcterms:created>`,
		`<Application>Microsoft Office Word</Application><AppVersion>16.0000</AppVersion><Company>Acme Corp</Company>`+
			`<TitlesOfParts><vt:vector size="2" baseType="lpstr"><vt:lpstr>Quarterly</vt:lpstr><vt:lpstr>Annex</vt:lpstr></vt:vector></TitlesOfParts>`,
		`<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="ClientOwner"><vt:lpwstr>Carol</vt:lpwstr></property>`+
			`<property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="3" name="Reviewed"><vt:bool>true</vt:bool></property>`,
		zipEntry{"word/media/image1.jpeg", string(photo)},
		zipEntry{"word/media/image2.png", "not a png at all"},
	)
	r := list(t, data)
	if r.MediaType != report.MediaOffice || r.Format != "docx" {
		t.Fatalf("%s %s", r.MediaType, r.Format)
	}
	names := strings.Join(containerNames(r), ",")
	if !strings.HasPrefix(names, "File,Core,App,Custom,File@word/media/image1.jpeg,IFD0@word/media/image1.jpeg,ExifIFD@word/media/image1.jpeg,InteropIFD@") {
		t.Fatalf("containers %s", names)
	}
	want(t, r, "File", "", "FileType", "DOCX", "", "")
	want(t, r, "File", "", "ImageParts", "1", "", "")
	want(t, r, "Core", "", "dc:creator", "Ann Author", "", "")
	want(t, r, "Core", "", "cp:lastModifiedBy", "Bob Editor", "", "")
	want(t, r, "Core", "", "dcterms:created", "2024-01-01T10:00:00Z", "", "")
	want(t, r, "App", "", "Company", "Acme Corp", "", "")
	want(t, r, "App", "", "TitlesOfParts", "Quarterly, Annex", "", "")
	want(t, r, "Custom", "", "ClientOwner", "Carol", "", "")
	want(t, r, "Custom", "", "Reviewed", "true", "", "")
	want(t, r, "IFD0", "word/media/image1.jpeg", "Make", "Canon", "", "")
	want(t, r, "ExifIFD", "word/media/image1.jpeg", "Flash", "Off, Did not fire", "16", "exif.Flash.16")
	if r.GPS == nil || r.GPS.Part != "word/media/image1.jpeg" {
		t.Fatalf("gps %+v", r.GPS)
	}
	p := strings.Join(personalKeys(r), ",")
	for _, k := range []string{"Core:dc:creator", "Core:cp:lastModifiedBy", "App:Application", "App:Company", "Custom:ClientOwner", "IFD0:Make"} {
		if !strings.Contains(p, k) {
			t.Errorf("personal lacks %s: %s", k, p)
		}
	}
	for _, pe := range r.Personal {
		if pe.Key == "Make" && pe.Part != "word/media/image1.jpeg" {
			t.Errorf("personal copy lost its part: %+v", pe)
		}
	}

	// A property part that is not well-formed keeps what was read before
	// the fault, and the listing says the part was read only in part.
	r = list(t, docx(t, `<dc:creator>Ann Author</dc:creator><dc:title>unclosed`, "", ""))
	want(t, r, "Core", "", "dc:creator", "Ann Author", "", "")
	if !hasNote(r, "office-structure-anomalies.malformed-xml") {
		t.Fatalf("malformed part without a note: %+v", r.Notes)
	}
}

func TestEncryptedOffice(t *testing.T) {
	data, err := os.ReadFile("../../../shared/corpus/office/oletools/encrypted/encrypted.docx")
	if err != nil {
		t.Skip("corpus not present")
	}
	r := list(t, data)
	if r.MediaType != report.MediaOffice || r.Format != "ooxml-encrypted" || !hasNote(r, "office-structure-anomalies.encrypted-package") {
		t.Fatalf("%+v", r)
	}
	want(t, r, "File", "", "Encrypted", "Yes", "", "")
}

// TestHostileEXIF: a block the bounds-checking pre-pass refuses is not
// decoded; the listing names it, keeps everything else and notes why.
func TestHostileEXIF(t *testing.T) {
	// IFD0 whose next-IFD offset points back at itself: a loop.
	loop := []byte("II*\x00\x08\x00\x00\x00\x01\x00\x0f\x01\x02\x00\x04\x00\x00\x00abc\x00\x08\x00\x00\x00")
	// An entry claiming 2^32-1 rationals.
	huge := le.block([]ent{{0x011a, tRational, 0xFFFFFFFF, []byte{8, 0, 0, 0}}}, nil, nil, nil, nil)
	for name, block := range map[string][]byte{"loop": loop, "huge count": huge} {
		r := list(t, jpeg(app1EXIF(block), app1XMP(xmpPacket(`<xmp:Rating>1</xmp:Rating>`))))
		if _, ok := entry(r, "IFD0", "", "Make"); ok {
			t.Errorf("%s: refused block listed", name)
		}
		want(t, r, "XMP", "", "xmp:Rating", "1", "", "")
		if !hasNote(r, "image-structure-anomalies.exif-refused") {
			t.Errorf("%s: notes %+v", name, r.Notes)
		}
		if len(r.NotEnumerated) == 0 || r.NotEnumerated[0].Name != "EXIF" {
			t.Errorf("%s: notEnumerated %+v", name, r.NotEnumerated)
		}
	}
	// Truncated JPEG: what was read, plus a note.
	full := jpeg(app1EXIF(cameraEXIF(le)))
	r := list(t, full[:len(full)-3])
	want(t, r, "IFD0", "", "Make", "Canon", "", "")
	if !hasNote(r, "image-structure-anomalies.truncated") {
		t.Errorf("truncated: notes %+v", r.Notes)
	}
}

func TestCaps(t *testing.T) {
	var chunks [][]byte
	for i := 0; i < 40; i++ {
		chunks = append(chunks, pngChunk("tEXt", []byte("k"+itoa(i)+"\x00"+strings.Repeat("v", 3000))))
	}
	r := list(t, png(chunks...))
	e, _ := entry(r, "PNG", "", "k0")
	if n := len([]rune(e.Value)); n != maxValueRunes+1 || !strings.HasSuffix(e.Value, "…") {
		t.Fatalf("value of %d runes", n)
	}
	// Bidi and control characters never reach a value.
	r = list(t, png(pngChunk("tEXt", []byte("Author\x00A\u202eB\x07C"))))
	want(t, r, "PNG", "", "Author", "ABC", "", "")

	// Too many entries for one container.
	b := newBuilder(report.MediaImage, "png", 0)
	c := b.container("PNG")
	for i := 0; i < maxEntriesPerContainer+5; i++ {
		c.add("k", "v", "", "")
	}
	got := b.finish().Containers[0]
	if len(got.Entries) != maxEntriesPerContainer || got.EntriesTotal != maxEntriesPerContainer+5 || !got.EntriesTruncated {
		t.Fatalf("%d entries, total %d", len(got.Entries), got.EntriesTotal)
	}
}

func TestErrors(t *testing.T) {
	if _, err := List(context.Background(), []byte("plain text, no format"), Options{}); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("unreadable: %v", err)
	}
	if _, err := List(context.Background(), nil, Options{}); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("empty: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := List(ctx, jpeg(), Options{}); !errors.Is(err, ErrDeadline) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestGPSNeedsCoordinates: the listing's gps block is a place only when
// the GPS directory holds coordinates (scripts/fixtures/gps/make.sh).
func TestGPSNeedsCoordinates(t *testing.T) {
	for name, want := range map[string]bool{"gps-refs-only.jpg": false, "gps-zero.jpg": false, "gps-located.jpg": true} {
		data, err := os.ReadFile(filepath.Join("..", "image", "testdata", "gps", name))
		if err != nil {
			t.Fatal(err)
		}
		r, err := List(context.Background(), data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.GPS != nil; got != want {
			t.Errorf("%s: gps %+v, want present=%v", name, r.GPS, want)
		}
	}
	data, _ := os.ReadFile(filepath.Join("..", "image", "testdata", "gps", "gps-located.jpg"))
	if r, _ := List(context.Background(), data, Options{}); r == nil || r.GPS == nil || r.GPS.Latitude != 51.5 || r.GPS.Longitude != -0.1167 {
		t.Errorf("located: %+v", r.GPS)
	}
}
