package sniff

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/corpustest"
)

// ---------------------------------------------------------------- fixtures

type zipEntry struct{ name, body string }

// buildZip writes entries, in order, into a deflated ZIP.
func buildZip(tb testing.TB, entries ...zipEntry) []byte {
	tb.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.Create(e.name)
		if err != nil {
			tb.Fatalf("zip create %q: %v", e.name, err)
		}
		if _, err := w.Write([]byte(e.body)); err != nil {
			tb.Fatalf("zip write %q: %v", e.name, err)
		}
	}
	if err := zw.Close(); err != nil {
		tb.Fatalf("zip close: %v", err)
	}
	return buf.Bytes()
}

const (
	relTypeOfficeDoc       = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument"
	relTypeOfficeDocStrict = "http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
	relTypeCore            = "http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties"

	ctDocx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
	ctDotx = "application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml"
	ctDocm = "application/vnd.ms-word.document.macroEnabled.main+xml"
	ctDotm = "application/vnd.ms-word.template.macroEnabledTemplate.main+xml"
	ctXlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
	ctXltx = "application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml"
	ctXlsm = "application/vnd.ms-excel.sheet.macroEnabled.main+xml"
	ctXltm = "application/vnd.ms-excel.template.macroEnabled.main+xml"
	ctXlam = "application/vnd.ms-excel.addin.macroEnabled.main+xml"
	ctXlsb = "application/vnd.ms-excel.sheet.binary.macroEnabled.main"
	ctPptx = "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"
	ctPpsx = "application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml"
	ctPotx = "application/vnd.openxmlformats-officedocument.presentationml.template.main+xml"
	ctPptm = "application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml"
	ctPpsm = "application/vnd.ms-powerpoint.slideshow.macroEnabled.main+xml"
	ctPotm = "application/vnd.ms-powerpoint.template.macroEnabled.main+xml"
)

// contentTypesXML declares rels and xml defaults plus one Override per
// (part, content type) pair.
func contentTypesXML(overrides ...string) string {
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n")
	sb.WriteString(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">`)
	sb.WriteString(`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>`)
	sb.WriteString(`<Default Extension="xml" ContentType="application/xml"/>`)
	for i := 0; i+1 < len(overrides); i += 2 {
		sb.WriteString(`<Override PartName="` + overrides[i] + `" ContentType="` + overrides[i+1] + `"/>`)
	}
	sb.WriteString(`</Types>`)
	return sb.String()
}

// relsXML builds _rels/.rels from (type, target) pairs.
func relsXML(pairs ...string) string {
	var sb strings.Builder
	sb.WriteString(`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n")
	sb.WriteString(`<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">`)
	for i := 0; i+1 < len(pairs); i += 2 {
		sb.WriteString(`<Relationship Id="rId` + string(rune('1'+i/2)) + `" Type="` + pairs[i] + `" Target="` + pairs[i+1] + `"/>`)
	}
	sb.WriteString(`</Relationships>`)
	return sb.String()
}

const mainXML = `<?xml version="1.0" encoding="UTF-8"?><root/>`

// ooxml builds a package whose main part is mainPart with content type ct,
// reached from _rels/.rels, plus any extra entries.
func ooxml(tb testing.TB, mainPart, ct string, extra ...zipEntry) []byte {
	entries := []zipEntry{
		{"[Content_Types].xml", contentTypesXML("/"+mainPart, ct, "/docProps/core.xml", "application/vnd.openxmlformats-package.core-properties+xml")},
		{"_rels/.rels", relsXML(relTypeOfficeDoc, mainPart, relTypeCore, "docProps/core.xml")},
		{mainPart, mainXML},
		{"docProps/core.xml", `<cp:coreProperties xmlns:cp="x"/>`},
	}
	return buildZip(tb, append(entries, extra...)...)
}

var vbaProject = zipEntry{"word/vbaProject.bin", "\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1 not really"}

// ftyp builds an ftyp box (plus a trailing mdat header) with the given
// major brand and compatible brands.
func ftyp(major string, compat ...string) []byte {
	size := 16 + 4*len(compat)
	b := make([]byte, 0, size+8)
	b = binary.BigEndian.AppendUint32(b, uint32(size))
	b = append(b, "ftyp"+major+"\x00\x00\x00\x00"...)
	for _, c := range compat {
		b = append(b, c...)
	}
	return append(b, "\x00\x00\x00\x08mdat"...)
}

// bmpHeader builds a BITMAPFILEHEADER plus the DIB header size field.
func bmpHeader(fileSize, dibSize uint32) []byte {
	b := []byte("BM")
	b = binary.LittleEndian.AppendUint32(b, fileSize)
	b = append(b, 0, 0, 0, 0)
	b = binary.LittleEndian.AppendUint32(b, 14+dibSize)
	b = binary.LittleEndian.AppendUint32(b, dibSize)
	return append(b, make([]byte, int(dibSize)-4+16)...)
}

const minimalPDFBody = "1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n" +
	"2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n" +
	"xref\n0 3\n0000000000 65535 f \n0000000009 00000 n \n0000000058 00000 n \n" +
	"trailer\n<< /Size 3 /Root 1 0 R >>\nstartxref\n110\n%%EOF\n"

type sniffCase struct {
	name string
	in   []byte
	want Result
}

func pdfAt(off int, version string) Result {
	return Result{Format: PDF, HeaderOffset: off, Version: version}
}

func only(f Format) Result { return Result{Format: f} }

// sniffCases is the fixture table, shared with the fuzz seeds.
func sniffCases(tb testing.TB) []sniffCase {
	tb.Helper()
	docx := ooxml(tb, "word/document.xml", ctDocx)
	spaces1024 := strings.Repeat(" ", 1024)
	junk1023 := strings.Repeat("j", 1023)
	rng := rand.New(rand.NewPCG(1, 2))
	random := make([]byte, 4096)
	for i := range random {
		random[i] = byte(rng.UintN(256))
	}
	// Padding the content types past the 1 MiB read limit hides a later
	// Override: the decision then falls back to the part name.
	hugeCT := `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><!--` +
		strings.Repeat("x", maxPartBytes) + `--><Override PartName="/word/document.xml" ContentType="` + ctDocm + `"/></Types>`
	// A package with more central-directory entries than the cap: still
	// recognised from its first entries (the office analysis reports the
	// cut), not refused.
	many := []zipEntry{
		{"[Content_Types].xml", contentTypesXML("/word/document.xml", ctDocx)},
		{"word/document.xml", mainXML},
	}
	for i := 0; i < maxZipEntries; i++ {
		many = append(many, zipEntry{"word/media/" + strconv.Itoa(i), ""})
	}

	return []sniffCase{
		// ---- PDF
		{"minimal pdf", []byte("%PDF-1.7\n" + minimalPDFBody), pdfAt(0, "1.7")},
		{"pdf 2.0 CRLF", []byte("%PDF-2.0\r\n%\xe2\xe3\xcf\xd3\r\n" + minimalPDFBody), pdfAt(0, "2.0")},
		{"pdf header only", []byte("%PDF-1.4"), pdfAt(0, "1.4")},
		{"pdf bare marker", []byte("%PDF"), pdfAt(0, "")},
		{"pdf leading junk", []byte("garbage\r\n%PDF-1.4\n" + minimalPDFBody), pdfAt(9, "1.4")},
		{"pdf after BOM", []byte("\xef\xbb\xbf%PDF-1.5\n" + minimalPDFBody), pdfAt(3, "1.5")},
		{"pdf header at 1023", []byte(junk1023 + "%PDF-1.6\n" + minimalPDFBody), pdfAt(1023, "1.6")},
		{"pdf header at 1024 is too late", []byte(junk1023 + "j%PDF-1.6\n1 0 obj\n<<>>\nendobj\n"), only(Unknown)},
		{"pdf header past the window opening a body", []byte(junk1023 + "j%PDF-1.6\n" + minimalPDFBody), pdfAt(1024, "1.6")},
		{"pdf wrapped in a mail body", []byte(junk1023 + "j%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" + minimalPDFBody + junk1023 + junk1023), pdfAt(1024, "1.7")},
		{"pdf late header without object", []byte(junk1023 + "j%PDF-1.7\nhello\ntrailer\n" + junk1023), only(Unknown)},
		{"pdf late header, object far after it", []byte(junk1023 + "j%PDF-1.7\n" + junk1023 + "\n1 0 obj\n<<>>\nendobj\ntrailer\n" + junk1023), only(Unknown)},
		{"junk lines then a pdf body", []byte("Statement attached\r\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer << /Root 1 0 R >>\n" + junk1023), pdfAt(-1, "")},
		{"text quoting pdf syntax", []byte("A PDF object looks like\n1 0 obj\n<< /Type /Catalog >>\nendobj\nand ends with trailer\n"), only(Unknown)},
		{"pdf version no minor", []byte("%PDF-14\n" + minimalPDFBody), pdfAt(0, "")},
		{"pdf version no dash", []byte("%PDF1.4\n" + minimalPDFBody), pdfAt(0, "")},
		{"pdf version dot for dash", []byte("%PDF.1.4\n" + minimalPDFBody), pdfAt(0, "")},
		{"pdf version too many digits", []byte("%PDF-1.45\n" + minimalPDFBody), pdfAt(0, "")},
		{"pdf version letters", []byte("%PDF-a.b\n" + minimalPDFBody), pdfAt(0, "")},
		{"pdf polyglot behind jpeg bytes", append([]byte("\xff\xd8\xff\xfe\x00\x10comment%PDF-1.3\n"), minimalPDFBody...), pdfAt(13, "1.3")},
		{"headerless pdf", []byte("%1.4\n%\xe2\xe3\xcf\xd3\n" + minimalPDFBody), pdfAt(-1, "")},
		{"headerless pdf no comments", []byte(minimalPDFBody), pdfAt(-1, "")},
		{"headerless pdf only %%EOF", []byte("\n\n 12 0 obj\n<<>>\nendobj\n%%EOF"), pdfAt(-1, "")},
		{"headerless pdf only trailer", []byte("7 0 obj<<>>endobj trailer<<>>"), pdfAt(-1, "")},
		{"headerless pdf digit junk before header", []byte("0000000000000\n1 0 obj\n<<>>\nendobj\nstartxref\n0\n"), pdfAt(-1, "")},
		{"headerless pdf object at end of window", []byte(spaces1024[:1017] + "1 0 obj" + "\ntrailer"), pdfAt(-1, "")},
		{"headerless pdf object past window", []byte(spaces1024 + "1 0 obj\n<<>>\nendobj\ntrailer\n%%EOF"), only(Unknown)},
		{"headerless pdf without trailer keyword", []byte("1 0 obj\n<< /Type /Catalog >>\nendobj\n"), only(Unknown)},
		{"headerless pdf objx is not obj", []byte("1 0 objx\ntrailer\n%%EOF"), only(Unknown)},
		{"headerless pdf one integer", []byte("1 obj\ntrailer\n%%EOF"), only(Unknown)},
		{"headerless pdf generation too long", []byte("1 000000 obj\ntrailer\n%%EOF"), only(Unknown)},
		{"pdf tail only", []byte("\xc9startxref 6 2147483647"), pdfAt(-1, "")},
		{"pdf tail after junk", []byte(spaces1024 + spaces1024 + "startxref\r\n116\r\n%%EOF"), pdfAt(-1, "")},
		{"pdf tail too early", []byte("startxref 6" + spaces1024), only(Unknown)},
		{"pdf tail without offset", []byte("startxref\n%%EOF"), only(Unknown)},
		{"pdf tail word inside text", []byte("xstartxrefs 12"), only(Unknown)},
		{"text mentioning pdf syntax", []byte("Note: 1 0 obj starts an object; trailer and %%EOF end the file."), only(Unknown)},

		// ---- OOXML
		{"docx", docx, only(DOCX)},
		{"docm", ooxml(tb, "word/document.xml", ctDocm, vbaProject), only(DOCM)},
		{"dotx", ooxml(tb, "word/document.xml", ctDotx), only(DOCX)},
		{"dotm", ooxml(tb, "word/document.xml", ctDotm), only(DOCM)},
		{"xlsx", ooxml(tb, "xl/workbook.xml", ctXlsx), only(XLSX)},
		{"xlsm", ooxml(tb, "xl/workbook.xml", ctXlsm, zipEntry{"xl/vbaProject.bin", "vba"}), only(XLSM)},
		{"xltx", ooxml(tb, "xl/workbook.xml", ctXltx), only(XLSX)},
		{"xltm", ooxml(tb, "xl/workbook.xml", ctXltm), only(XLSM)},
		{"xlam", ooxml(tb, "xl/workbook.xml", ctXlam), only(XLSM)},
		{"pptx", ooxml(tb, "ppt/presentation.xml", ctPptx), only(PPTX)},
		{"pptm", ooxml(tb, "ppt/presentation.xml", ctPptm, zipEntry{"ppt/vbaProject.bin", "vba"}), only(PPTM)},
		{"ppsx", ooxml(tb, "ppt/presentation.xml", ctPpsx), only(PPTX)},
		{"potx", ooxml(tb, "ppt/presentation.xml", ctPotx), only(PPTX)},
		{"ppsm", ooxml(tb, "ppt/presentation.xml", ctPpsm), only(PPTM)},
		{"potm", ooxml(tb, "ppt/presentation.xml", ctPotm), only(PPTM)},
		{"content type wins over vbaProject.bin", ooxml(tb, "word/document.xml", ctDocx, vbaProject), only(DOCX)},
		{"content type with parameter and odd case", ooxml(tb, "xl/workbook.xml", strings.ToUpper(ctXlsm)+"; charset=utf-8"), only(XLSM)},
		{"main part named by rels only", ooxml(tb, "word/document2.xml", ctDocx), only(DOCX)},
		{"rels target with leading slash", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML("/word/main.xml", ctDocm)},
			zipEntry{"_rels/.rels", relsXML(relTypeOfficeDoc, "/word/main.xml")},
			zipEntry{"word/main.xml", mainXML},
		), only(DOCM)},
		{"rels preferred over well-known names", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML("/word/document.xml", ctDocx, "/xl/workbook.xml", ctXlsx)},
			zipEntry{"_rels/.rels", relsXML(relTypeOfficeDoc, "xl/workbook.xml")},
			zipEntry{"word/document.xml", mainXML},
			zipEntry{"xl/workbook.xml", mainXML},
		), only(XLSX)},
		{"strict ooxml relationship", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML("/xl/workbook.xml", ctXlsx)},
			zipEntry{"_rels/.rels", relsXML(relTypeOfficeDocStrict, "xl/workbook.xml")},
			zipEntry{"xl/workbook.xml", mainXML},
		), only(XLSX)},
		{"external officeDocument relationship ignored", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML("/ppt/presentation.xml", ctPptm)},
			zipEntry{"_rels/.rels", `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
				`<Relationship Id="rId1" Type="` + relTypeOfficeDoc + `" Target="word/document.xml" TargetMode="External"/></Relationships>`},
			zipEntry{"word/document.xml", mainXML},
			zipEntry{"ppt/presentation.xml", mainXML},
		), only(PPTM)}, // the external target is skipped; ppt/presentation.xml is then the first well-known part with a known type
		{"no rels falls back to well-known name", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML("/ppt/presentation.xml", ctPptx)},
			zipEntry{"ppt/presentation.xml", mainXML},
		), only(PPTX)},
		{"rels target missing from zip falls back", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML("/xl/workbook.xml", ctXlsm)},
			zipEntry{"_rels/.rels", relsXML(relTypeOfficeDoc, "word/document.xml")},
			zipEntry{"xl/workbook.xml", mainXML},
		), only(XLSM)},
		{"no override decides by name", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML()},
			zipEntry{"_rels/.rels", relsXML(relTypeOfficeDoc, "word/document.xml")},
			zipEntry{"word/document.xml", mainXML},
		), only(DOCX)},
		{"no override with vbaProject.bin decides macro form", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML()},
			zipEntry{"xl/workbook.xml", mainXML},
			zipEntry{"xl/vbaProject.bin", "vba"},
		), only(XLSM)},
		{"unreadable content types decides by name", buildZip(tb,
			zipEntry{"[Content_Types].xml", "<<<not xml"},
			zipEntry{"ppt/presentation.xml", mainXML},
		), only(PPTX)},
		{"content types read limit", buildZip(tb,
			zipEntry{"[Content_Types].xml", hugeCT},
			zipEntry{"word/document.xml", mainXML},
		), only(DOCX)},
		{"names are case-insensitive", buildZip(tb,
			zipEntry{"[content_types].XML", contentTypesXML("/Word/Document.xml", ctDocm)},
			zipEntry{"word/document.xml", mainXML},
		), only(DOCM)},
		{"docx behind a prefix (EOCD only)", append([]byte("MZ self-extractor stub\x00\x00"), docx...), only(DOCX)},
		{"xlsb binary workbook", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML("/xl/workbook.bin", ctXlsb)},
			zipEntry{"_rels/.rels", relsXML(relTypeOfficeDoc, "xl/workbook.bin")},
			zipEntry{"xl/workbook.bin", "\x83\x01\x00"},
		), only(XLSB)},
		{"zip without content types", buildZip(tb,
			zipEntry{"_rels/.rels", relsXML(relTypeOfficeDoc, "word/document.xml")},
			zipEntry{"word/document.xml", mainXML},
		), only(Unknown)},
		{"content types without main part", buildZip(tb,
			zipEntry{"[Content_Types].xml", contentTypesXML("/Documents/1/FixedDocument.fdoc", "application/vnd.ms-package.xps-fixeddocument+xml")},
			zipEntry{"_rels/.rels", relsXML("http://schemas.microsoft.com/xps/2005/06/fixedrepresentation", "FixedDocumentSequence.fdseq")},
			zipEntry{"FixedDocumentSequence.fdseq", mainXML},
		), only(Unknown)},
		{"odf", buildZip(tb,
			zipEntry{"mimetype", "application/vnd.oasis.opendocument.text"},
			zipEntry{"content.xml", `<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0"/>`},
			zipEntry{"META-INF/manifest.xml", `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"/>`},
		), only(ODT)},
		{"odf spreadsheet template by manifest", buildZip(tb,
			zipEntry{"content.xml", `<office:document-content/>`},
			zipEntry{"META-INF/manifest.xml", `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet-template"/></manifest:manifest>`},
		), only(ODS)},
		{"odf drawing", buildZip(tb,
			zipEntry{"mimetype", "application/vnd.oasis.opendocument.graphics"},
		), only(Unknown)},
		{"jar", buildZip(tb,
			zipEntry{"META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n"},
			zipEntry{"Main.class", "\xca\xfe\xba\xbe"},
		), only(Unknown)},
		{"plain zip", buildZip(tb, zipEntry{"readme.txt", "hello"}), only(Unknown)},
		{"empty zip", buildZip(tb), only(Unknown)},
		{"truncated docx", docx[:len(docx)/2], only(Unknown)},
		{"too many zip entries", buildZip(tb, many...), only(DOCX)},

		// ---- images
		{"jpeg", []byte("\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"), only(JPEG)},
		{"jpeg 3 bytes", []byte("\xff\xd8\xff"), only(JPEG)},
		{"jpeg 2 bytes", []byte("\xff\xd8"), only(Unknown)},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"), only(PNG)},
		{"png mangled line ending", []byte("\x89PNG\n\x1a\n\x00\x00\x00\x0dIHDR"), only(Unknown)},
		{"gif87a", []byte("GIF87a\x01\x00\x01\x00\x00\x00\x00;"), only(GIF)},
		{"gif89a", []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00;"), only(GIF)},
		{"gif bad version", []byte("GIF88a\x01\x00\x01\x00"), only(Unknown)},
		{"bmp info header", bmpHeader(14+40+16, 40), only(BMP)},
		{"bmp core header", bmpHeader(14+12+16, 12), only(BMP)},
		{"bmp v5 header, size unset", bmpHeader(0, 124), only(BMP)},
		{"bmp truncated", bmpHeader(1<<20, 108)[:40], only(BMP)},
		{"bmp bad dib size", bmpHeader(200, 41), only(Unknown)},
		{"bmp file size too small", bmpHeader(20, 40), only(Unknown)},
		{"text starting with BM", []byte("BMW owners manual, chapter one: the engine"), only(Unknown)},
		{"tiff little endian", []byte("II*\x00\x08\x00\x00\x00"), only(TIFF)},
		{"tiff big endian", []byte("MM\x00*\x00\x00\x00\x08"), only(TIFF)},
		{"bigtiff little endian", []byte("II+\x00\x08\x00\x00\x00\x10\x00\x00\x00\x00\x00\x00\x00"), only(TIFF)},
		{"bigtiff big endian", []byte("MM\x00+\x00\x08\x00\x00\x00\x00\x00\x00\x00\x00\x00\x10"), only(TIFF)},
		{"webp", []byte("RIFF\x24\x00\x00\x00WEBPVP8 \x18\x00\x00\x00"), only(WebP)},
		{"riff wave", []byte("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00"), only(Unknown)},
		{"riff short", []byte("RIFF\x24\x00\x00\x00WEB"), only(Unknown)},

		// ---- ISOBMFF
		{"heic", ftyp("heic", "mif1", "heic"), only(HEIC)},
		{"heic via compatible", ftyp("mif1", "mif1", "heic", "miaf"), only(HEIC)},
		{"heic sequence", ftyp("msf1", "msf1", "hevc"), only(HEIC)},
		{"heix", ftyp("heix", "mif1"), only(HEIC)},
		{"heif", ftyp("mif1", "mif1", "miaf"), only(HEIF)},
		{"heif sequence", ftyp("msf1", "iso8", "msf1"), only(HEIF)},
		{"heif by compatible only", ftyp("j2ki", "mif1", "j2ki"), only(HEIF)},
		{"heif major only", ftyp("mif1"), only(HEIF)},
		{"avif", ftyp("avif", "avif", "mif1", "miaf", "MA1A"), only(AVIF)},
		{"avis", ftyp("avis", "avif", "avis", "msf1"), only(AVIF)},
		{"avif via compatible", ftyp("mif1", "mif1", "avif", "miaf"), only(AVIF)},
		{"avif major wins over heic compatible", ftyp("avif", "heic", "mif1"), only(AVIF)},
		{"heic major wins over avif compatible", ftyp("heic", "avif", "mif1"), only(HEIC)},
		{"mif3 minor version avif", append([]byte("\x00\x00\x00\x10ftypmif3avif"), "\x00\x00\x00\x08mini"...), only(AVIF)},
		{"mif3 minor version heic", append([]byte("\x00\x00\x00\x10ftypmif3heic"), "\x00\x00\x00\x08mini"...), only(HEIC)},
		{"mp4", ftyp("isom", "isom", "iso2", "avc1", "mp41"), only(Unknown)},
		{"quicktime", ftyp("qt  ", "qt  "), only(Unknown)},
		{"3gp", ftyp("3gp5", "3gp5", "isom"), only(Unknown)},
		{"ftyp box too small", append([]byte("\x00\x00\x00\x08ftypheic"), "\x00\x00\x00\x00mif1"...), only(Unknown)},
		{"ftyp box larger than input", append([]byte("\x00\x00\x10\x00ftypheic"), "\x00\x00\x00\x00mif1"...), only(Unknown)},
		{"ftyp largesize not supported", append([]byte("\x00\x00\x00\x01ftypheic"), "\x00\x00\x00\x00mif1"...), only(Unknown)},
		{"ftyp brands past the box ignored", append(ftyp("isom", "isom")[:20], "heic"...), only(Unknown)},

		// ---- nothing
		{"empty", []byte{}, only(Unknown)},
		{"nil", nil, only(Unknown)},
		{"one byte %", []byte("%"), only(Unknown)},
		{"one byte P", []byte("P"), only(Unknown)},
		{"one byte 0xff", []byte{0xff}, only(Unknown)},
		{"PK only", []byte("PK\x03\x04"), only(Unknown)},
		{"plain text", []byte("Dear Sir or Madam,\nplease find attached my invoice.\n"), only(Unknown)},
		// Any "%PDF" in the first KB makes a PDF with leading junk, whatever precedes it.
		{"html quoting a pdf header", []byte("<!DOCTYPE html><html><body>%PDF-1.7 is a header</body></html>"), pdfAt(27, "1.7")},
		{"random bytes", random, only(Unknown)},
	}
}

func TestSniff(t *testing.T) {
	for _, tc := range sniffCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			in := slices.Clone(tc.in)
			got := Sniff(tc.in)
			if got != tc.want {
				t.Errorf("Sniff = %+v, want %+v", got, tc.want)
			}
			if !bytes.Equal(in, tc.in) {
				t.Errorf("Sniff modified its input")
			}
		})
	}
}

// wantKind is the test's own statement of Kind, kept independent of the
// implementation's switch.
var wantKind = map[Format]Kind{
	Unknown: KindNone,
	PDF:     KindPDF,
	DOCX:    KindOffice, DOCM: KindOffice, XLSX: KindOffice, XLSM: KindOffice, PPTX: KindOffice, PPTM: KindOffice,
	JPEG: KindImage, PNG: KindImage, WebP: KindImage, HEIC: KindImage, HEIF: KindImage, AVIF: KindImage,
	TIFF: KindImage, GIF: KindImage, BMP: KindImage,
	DOC: KindOffice, XLS: KindOffice, PPT: KindOffice, XLSB: KindOffice, ODT: KindOffice, ODS: KindOffice, ODP: KindOffice,
}

var wantWalked = map[Format]bool{
	PDF: true, DOCX: true, DOCM: true, XLSX: true, XLSM: true, PPTX: true, PPTM: true,
	JPEG: true, PNG: true, WebP: true, HEIC: true, HEIF: true, AVIF: true,
	DOC: true, XLS: true, PPT: true, XLSB: true, ODT: true, ODS: true, ODP: true,
}

func TestKindAndWalked(t *testing.T) {
	for f, k := range wantKind {
		if got := f.Kind(); got != k {
			t.Errorf("%q.Kind() = %q, want %q", f, got, k)
		}
		if got := f.Walked(); got != wantWalked[f] {
			t.Errorf("%q.Walked() = %v, want %v", f, got, wantWalked[f])
		}
	}
	for _, f := range []Format{"PDF", "DOC", "wpd", "mp4", " pdf", "odg"} {
		if f.Kind() != KindNone || f.Walked() {
			t.Errorf("%q: Kind %q Walked %v, want none/false", f, f.Kind(), f.Walked())
		}
	}
}

// ---------------------------------------------------------------- corpus

// corpusPath resolves ../../../shared/corpus relative to this file and
// reports whether it is a directory.
func corpusPath() (string, bool) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", false
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared", "corpus")
	st, err := os.Stat(dir)
	return dir, err == nil && st.IsDir()
}

// corpusDir returns the corpus directory or skips the test.
func corpusDir(tb testing.TB) string {
	tb.Helper()
	dir, ok := corpusPath()
	if !ok {
		tb.Skipf("corpus not present at %s", dir)
	}
	return dir
}

// readManifest maps a corpus-relative path to its "expected" column.
func readManifest(t *testing.T, dir string) map[string]string {
	m := map[string]string{}
	for _, r := range corpustest.Manifest(t, dir) {
		m[r.File] = r.Expected
	}
	return m
}

// corpusFiles lists corpus-relative paths of regular files, sorted.
func corpusFiles(tb testing.TB, dir string) []string {
	tb.Helper()
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type().IsRegular() {
			rel, _ := filepath.Rel(dir, p)
			files = append(files, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		tb.Fatalf("walk corpus: %v", err)
	}
	sort.Strings(files)
	return files
}

// exception is a corpus file whose result differs from what its category
// or extension suggests. marker must occur in the manifest's expected
// column, so every exception rests on the manifest, and want is still
// asserted.
type exception struct {
	want   Format
	marker string
	reason string
}

var corpusExceptions = map[string]exception{
	// image
	"image/libheif/corpus/github_20.heic": {Unknown, "hostile=yes",
		"fuzzer reproducer: first box is 'meta', there is no ftyp box"},
	"image/libheif/corpus/github_47.heic": {Unknown, "hostile=yes",
		"fuzzer reproducer: bytes 4..8 are not 'ftyp'"},

	// office: encrypted OOXML is an OLE compound file (EncryptedPackage), not a ZIP
	"office/oletools/basic/encrypted.docx":                                                       {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/oletools/encrypted/encrypted.docx":                                                   {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/oletools/encrypted/encrypted.docm":                                                   {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/oletools/encrypted/encrypted.xlsm":                                                   {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/oletools/encrypted/encrypted.pptm":                                                   {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/oletools/encrypted/autostart-encrypt-standardpassword.xlsm":                          {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/oletools/encrypted/dde-test-encrypt-standardpassword.xlsx":                           {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/poi/document/bug53475-password-is-pass.docx":                                         {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/poi/document/bug53475-password-is-solrcell.docx":                                     {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/poi/poifs/protected_agile.docx":                                                      {Unknown, "encrypted=yes", "encrypted (agile): OLE compound file, not a ZIP"},
	"office/poi/spreadsheet/protected_passtika.xlsx":                                             {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/poi/spreadsheet/protected_passtika.xlsb":                                             {Unknown, "-", "encrypted binary workbook (EncryptedPackage): OLE compound file, not a ZIP"},
	"office/oletools/encrypted/dde-test-encrypt-standardpassword.xlsb":                           {Unknown, "encrypted=yes", "encrypted: OLE compound file, not a ZIP"},
	"office/poi/document/clusterfuzz-testcase-minimized-POIXWPFFuzzer-4791943399604224.docx":     {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/document/clusterfuzz-testcase-minimized-POIXWPFFuzzer-5166796835258368.docx":     {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/document/clusterfuzz-testcase-minimized-POIXWPFFuzzer-5313273089884160.docx":     {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/document/clusterfuzz-testcase-minimized-POIXWPFFuzzer-5569740188549120.docx":     {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/document/clusterfuzz-testcase-minimized-POIXWPFFuzzer-6442791109263360.docx":     {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/slideshow/clusterfuzz-testcase-minimized-POIXSLFFuzzer-5463285576892416.pptx":    {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/spreadsheet/clusterfuzz-testcase-minimized-POIXSSFFuzzer-4828727001088000.xlsx":  {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/spreadsheet/clusterfuzz-testcase-minimized-POIXSSFFuzzer-6123461607817216.xlsx":  {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/spreadsheet/clusterfuzz-testcase-minimized-POIXSSFFuzzer-6448258963341312.xlsx":  {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/spreadsheet/clusterfuzz-testcase-minimized-XLSX2CSVFuzzer-5542865479270400.xlsx": {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/spreadsheet/clusterfuzz-testcase-minimized-XLSX2CSVFuzzer-5636439151607808.xlsx": {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/spreadsheet/clusterfuzz-testcase-minimized-XLSX2CSVFuzzer-6504225896792064.xlsx": {Unknown, "hostile=yes", "fuzzer reproducer: archive/zip rejects the central directory"},
	"office/poi/spreadsheet/clusterfuzz-testcase-minimized-POIFuzzer-5040805309710336.xlsx":      {DOCX, "hostile=yes", "fuzzer reproducer whose package is a Word document (word/document.xml) under an .xlsx name"},
}

var imageExt = map[string][]Format{
	".jpg": {JPEG}, ".jpeg": {JPEG}, ".png": {PNG}, ".webp": {WebP},
	".heic": {HEIC, HEIF}, ".heif": {HEIF, HEIC}, ".avif": {AVIF},
	".tif": {TIFF}, ".tiff": {TIFF}, ".gif": {GIF}, ".bmp": {BMP},
}

var officeExt = map[string]Format{
	".docx": DOCX, ".docm": DOCM, ".xlsx": XLSX, ".xlsm": XLSM, ".pptx": PPTX, ".pptm": PPTM,
	// template, show and add-in forms map onto their family
	".dotx": DOCX, ".dotm": DOCM, ".xltx": XLSX, ".xltm": XLSM, ".xlam": XLSM,
	".potx": PPTX, ".ppsx": PPTX, ".potm": PPTM, ".ppsm": PPTM, ".ppam": PPTM,
	// binary Office (compound files): templates and add-ins map onto their family
	".doc": DOC, ".xls": XLS, ".ppt": PPT, ".pot": PPT, ".xla": XLS, ".xlt": XLS,
	".xlsb": XLSB, ".odp": ODP, ".ods": ODS, ".odt": ODT,
	// XPS is not an Office document
	".xps": Unknown,
}

var pdfCategories = []string{"pdf-general", "pdf-incremental", "pdf-signed", "pdf-redaction"}

func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	manifest := readManifest(t, dir)
	files := corpusFiles(t, dir)

	for p, ex := range corpusExceptions {
		exp, ok := manifest[p]
		if !ok {
			t.Errorf("exception %s: not in MANIFEST.tsv", p)
			continue
		}
		if ex.marker != "-" && !strings.Contains(exp, ex.marker) || ex.marker == "-" && exp != "-" {
			t.Errorf("exception %s: manifest expected %q lacks %q", p, exp, ex.marker)
		}
	}

	counts := map[string]map[Format]int{}
	var skipped []string
	checked := 0
	for _, rel := range files {
		category, _, _ := strings.Cut(rel, "/")
		if _, ok := manifest[rel]; !ok {
			continue // README.md, MANIFEST.tsv
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		got := Sniff(b)
		if counts[category] == nil {
			counts[category] = map[Format]int{}
		}
		counts[category][got.Format]++
		if got.Format.Kind() != wantKind[got.Format] {
			t.Errorf("%s: Kind %q for %q", rel, got.Format.Kind(), got.Format)
		}

		if ex, ok := corpusExceptions[rel]; ok {
			t.Logf("exception %s -> %q (%s; manifest: %s)", rel, ex.want, ex.reason, manifest[rel])
			if got.Format != ex.want {
				t.Errorf("%s: got %q, exception expects %q", rel, got.Format, ex.want)
			}
			checked++
			continue
		}
		ext := strings.ToLower(filepath.Ext(rel))
		switch {
		case slices.Contains(pdfCategories, category):
			if got.Format != PDF {
				t.Errorf("%s: got %+v, want pdf", rel, got)
			}
			checked++
		case category == "image":
			want, ok := imageExt[ext]
			if !ok {
				skipped = append(skipped, rel+" (image extension "+ext+")")
				continue
			}
			if !slices.Contains(want, got.Format) {
				t.Errorf("%s: got %q, want one of %q", rel, got.Format, want)
			}
			checked++
		case category == "office":
			want, ok := officeExt[ext]
			if !ok {
				skipped = append(skipped, rel+" (office extension "+ext+")")
				continue
			}
			if got.Format != want {
				t.Errorf("%s: got %q, want %q (manifest: %s)", rel, got.Format, want, manifest[rel])
			}
			checked++
		}
	}

	// pdf-hostile has no single truth; the named cases are handled.
	hostile := map[string]Result{
		"pdf-hostile/format-corpus/pdf-handbuilt-test-corpus/T01_003_header-no-minor-version.pdf":            pdfAt(0, ""),
		"pdf-hostile/format-corpus/pdf-handbuilt-test-corpus/T01_004_header_invalid-syntax-no-dash.pdf":      pdfAt(0, ""),
		"pdf-hostile/format-corpus/pdf-handbuilt-test-corpus/T01_005_header-invalid-syntax-replace-char.pdf": pdfAt(0, ""),
		"pdf-hostile/format-corpus/pdf-handbuilt-test-corpus/T01_006_header-invalid-syntax-no-pdf.pdf":       pdfAt(-1, ""),
		"pdf-hostile/format-corpus/pdf-handbuilt-test-corpus/T01_007_header-no-version-info.pdf":             pdfAt(-1, ""),
		"pdf-hostile/qpdf/leading-junk.pdf": pdfAt(14, "1.4"),
	}
	for rel, want := range hostile {
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		if got := Sniff(b); got != want {
			t.Errorf("%s: got %+v, want %+v", rel, got, want)
		}
	}

	for _, s := range skipped {
		t.Logf("skipped %s", s)
	}
	cats := make([]string, 0, len(counts))
	for c := range counts {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		var parts []string
		for f, n := range counts[c] {
			name := string(f)
			if f == Unknown {
				name = "unknown"
			}
			parts = append(parts, name+"="+strconv.Itoa(n))
		}
		sort.Strings(parts)
		t.Logf("%-16s %s", c, strings.Join(parts, " "))
	}
	t.Logf("checked %d files, %d exceptions, %d skipped", checked, len(corpusExceptions), len(skipped))
	if checked == 0 {
		t.Fatal("corpus present but nothing checked")
	}
}

// ---------------------------------------------------------------- benchmark

func BenchmarkSniff(b *testing.B) {
	dir := corpusDir(b)
	var data [][]byte
	var total int64
	for _, rel := range corpusFiles(b, dir) {
		d, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d)
		total += int64(len(d))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range data {
			Sniff(d)
		}
	}
	if sec := b.Elapsed().Seconds(); sec > 0 {
		b.ReportMetric(float64(b.N*len(data))/sec, "files/s")
	}
}
