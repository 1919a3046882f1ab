// Package sniff decides a document's container format from its bytes alone.
//
// The file name and any client-supplied content type are never consulted:
// an upload is whatever its bytes say it is. Sniff is pure (no I/O, no
// mutable globals, no goroutines) and is written for hostile input: the work
// it does is bounded by the input length and a few fixed caps, it never
// trusts sizes or counts declared inside the file, and it does not panic.
//
// Precedence, highest first:
//
//  1. A "%PDF" marker starting in the first 1024 bytes makes the file a PDF
//     (HeaderOffset > 0 reports leading junk, which includes polyglots whose
//     first bytes belong to another format: a PDF reader would open them).
//  2. Fixed signatures at offset 0: JPEG, PNG, GIF, TIFF/BigTIFF, WebP, BMP
//     and ISOBMFF "ftyp" brands (AVIF, HEIC, HEIF).
//     A compound file (CFB) is decided by its root streams: WordDocument
//     makes a .doc, Workbook or Book a .xls, "PowerPoint Document" a .ppt;
//     any other compound file is Unknown.
//  3. ZIP packages that are Office Open XML documents (docx, docm, xlsx,
//     xlsm, pptx, pptm, and the binary workbook xlsb), then OpenDocument
//     packages (odt, ods, odp, by the mimetype entry or the manifest's
//     root media type). Any other ZIP is Unknown.
//  4. A header-less PDF body: an indirect object header "N G obj" at the
//     start (after comments and white space) plus a PDF trailer keyword
//     (startxref, trailer or %%EOF) anywhere in the file.
//  5. A header-less PDF tail: "startxref" and an offset in the last 1024
//     bytes, where a PDF reader starts reading a file. What is left of a
//     damaged PDF is reported on (structure-warnings), not refused.
//  6. A "%PDF-" header past the first 1024 bytes (a PDF inside a mail or
//     web wrapper, or behind a long preamble) with an object header at a
//     line start within 1024 bytes after it and a trailer keyword after
//     that: qpdf and pdfinfo open such files, warning about the header.
//     Tested before 4 and 5, so the report counts the leading bytes.
//  7. Junk lines then a PDF body: an object header at a line start in the
//     first 1024 bytes, a trailer keyword and a /Root key in the file. Files
//     with neither header nor trailer stay unknown, as qpdf and pdfinfo
//     refuse them too.
//
// ISOBMFF brands: 'avif'/'avis' mean AVIF; 'heic', 'heix', 'heim', 'heis',
// 'hevc', 'hevx' mean HEIC; the structural brands 'mif1', 'msf1', 'mif2' and
// 'mif3' alone mean HEIF. A major brand of avif or heic decides at once;
// otherwise the compatible brands decide, AVIF before HEIC before HEIF. For
// 'mif3' (the low-overhead 'mini' form) the minor_version field is read as a
// brand, since that is where such files name their codec. Other ftyp files
// (MP4, QuickTime, 3GP) are Unknown.
package sniff

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/doctrust/doctrust/engine/internal/cfb"
	"github.com/doctrust/doctrust/engine/internal/zipcap"
)

// Format is the detected container format.
type Format string

// Formats Sniff can report. Unknown is the zero value.
const (
	Unknown Format = ""
	PDF     Format = "pdf"
	DOCX    Format = "docx"
	DOCM    Format = "docm"
	XLSX    Format = "xlsx"
	XLSM    Format = "xlsm"
	PPTX    Format = "pptx"
	PPTM    Format = "pptm"
	JPEG    Format = "jpeg"
	PNG     Format = "png"
	WebP    Format = "webp"
	HEIC    Format = "heic"
	HEIF    Format = "heif"
	AVIF    Format = "avif"
	TIFF    Format = "tiff"
	GIF     Format = "gif"
	BMP     Format = "bmp"
	// Binary Office 97-2003 (compound files) and the binary workbook.
	DOC  Format = "doc"
	XLS  Format = "xls"
	PPT  Format = "ppt"
	XLSB Format = "xlsb"
	// OpenDocument.
	ODT Format = "odt"
	ODS Format = "ods"
	ODP Format = "odp"
)

// Kind groups formats the way the report's mediaType does.
type Kind string

// Kinds of format. KindNone goes with Unknown (and any value that is not one
// of the Format constants).
const (
	KindNone   Kind = ""
	KindPDF    Kind = "pdf"
	KindOffice Kind = "office"
	KindImage  Kind = "image"
)

// Kind returns the media kind of f.
func (f Format) Kind() Kind {
	switch f {
	case PDF:
		return KindPDF
	case DOCX, DOCM, XLSX, XLSM, PPTX, PPTM, DOC, XLS, PPT, XLSB, ODT, ODS, ODP:
		return KindOffice
	case JPEG, PNG, WebP, HEIC, HEIF, AVIF, TIFF, GIF, BMP:
		return KindImage
	}
	return KindNone
}

// Walked reports whether a later analyser walks this container (false for
// TIFF, GIF, BMP: recognised, reported, not walked; false for Unknown).
func (f Format) Walked() bool {
	switch f {
	case PDF, DOCX, DOCM, XLSX, XLSM, PPTX, PPTM, JPEG, PNG, WebP, HEIC, HEIF, AVIF,
		DOC, XLS, PPT, XLSB, ODT, ODS, ODP:
		return true
	}
	return false
}

// Result carries what sniffing learned.
type Result struct {
	Format Format
	// PDF only: byte offset of "%PDF" (0 normally; >0 means leading junk,
	// past 1024 when the header opens a PDF body behind a long preamble);
	// -1 when no header was found but the body is PDF syntax.
	HeaderOffset int
	// PDF only: version string from the header ("1.7"), "" when missing or
	// malformed.
	Version string
}

// Limits. They bound the work done on hostile input; none of them is read
// from the input.
const (
	// pdfHeaderWindow is how far into the file "%PDF" may start (Acrobat's
	// tolerance), and how far the header-less object header is looked for.
	pdfHeaderWindow = 1024
	// maxZipEntries caps the central-directory entries of a ZIP. A package
	// that may hold more is not treated as OOXML.
	maxZipEntries = 10000
	// maxPartBytes caps the decompressed bytes read from one package part.
	maxPartBytes = 1 << 20
	// maxBrandBytes caps the compatible-brand bytes read from an ftyp box.
	maxBrandBytes = 4096
	// zipEOCDSearch is the tail length in which an end-of-central-directory
	// record can start: its fixed 22 bytes plus a maximal comment.
	zipEOCDSearch = 22 + 65535
)

// Sniff decides the format of b. It never modifies b.
func Sniff(b []byte) Result {
	if len(b) == 0 {
		return Result{}
	}
	if off := pdfHeaderIndex(b); off >= 0 {
		return Result{Format: PDF, HeaderOffset: off, Version: pdfVersion(b[off:])}
	}
	if f, ok := signature(b); ok {
		return Result{Format: f}
	}
	if looksZip(b) {
		if f := sniffOOXML(b); f != Unknown {
			return Result{Format: f}
		}
		if f := sniffODF(b); f != Unknown {
			return Result{Format: f}
		}
		// Not OOXML. A ZIP that starts with a local header cannot pass
		// the header-less PDF test below; one found only by its end
		// record (data prepended) still may.
	}
	if off := lateHeader(b); off >= 0 {
		return Result{Format: PDF, HeaderOffset: off, Version: pdfVersion(b[off:])}
	}
	if headerlessPDF(b) || pdfTail(b) || junkThenObjects(b) {
		return Result{Format: PDF, HeaderOffset: -1}
	}
	return Result{}
}

// ---------------------------------------------------------------- PDF

var pdfMarker = []byte("%PDF")

// pdfHeaderIndex returns the offset of the first "%PDF" starting within the
// first pdfHeaderWindow bytes, or -1.
func pdfHeaderIndex(b []byte) int {
	end := min(len(b), pdfHeaderWindow+len(pdfMarker)-1)
	return bytes.Index(b[:end], pdfMarker)
}

// pdfVersion reads "%PDF-d.d" at the start of h. Anything else (no dash, no
// dot, more digits) is malformed and yields "".
func pdfVersion(h []byte) string {
	if len(h) < 8 || h[4] != '-' || !isDigit(h[5]) || h[6] != '.' || !isDigit(h[7]) {
		return ""
	}
	if len(h) > 8 && isDigit(h[8]) {
		return ""
	}
	return string(h[5:8])
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isPDFSpace reports PDF white space (ISO 32000-1, 7.2.2).
func isPDFSpace(c byte) bool {
	switch c {
	case 0, '\t', '\n', '\f', '\r', ' ':
		return true
	}
	return false
}

// isPDFDelim reports PDF delimiters (ISO 32000-1, 7.2.2).
func isPDFDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// headerlessPDF reports a PDF body with no "%PDF" header: within the first
// pdfHeaderWindow bytes, after comment lines and white space, an indirect
// object header "<int> <int> obj", and somewhere in the file a trailer
// keyword (startxref, trailer or %%EOF). A run of integer tokens before the
// object header (digit junk, as in damaged files qpdf still opens) is
// tolerated: the last two integers before "obj" are the object header.
func headerlessPDF(b []byte) bool {
	w := b[:min(len(b), pdfHeaderWindow)]
	i := skipSpaceAndComments(w, 0)
	ints := 0       // integer tokens seen
	var last [2]int // digit counts of the last two integer tokens
	for i < len(w) && isDigit(w[i]) {
		j := scanDigits(w, i)
		last[0], last[1] = last[1], j-i
		ints++
		i = skipSpaceAndComments(w, j)
		if i == j {
			return false // an integer must be followed by white space
		}
	}
	// object number up to 10 digits, generation up to 5
	if ints < 2 || last[0] > 10 || last[1] > 5 || !bytes.HasPrefix(w[i:], []byte("obj")) {
		return false
	}
	if n := i + 3; n < len(w) && !isPDFSpace(w[n]) && !isPDFDelim(w[n]) {
		return false
	}
	return bytes.Contains(b, []byte("startxref")) ||
		bytes.Contains(b, []byte("trailer")) ||
		bytes.Contains(b, []byte("%%EOF"))
}

// pdfTail reports "startxref", white space and a digit within the last
// pdfHeaderWindow bytes: the cross-reference pointer a reader looks for
// first, at the end of the file.
func pdfTail(b []byte) bool {
	w := b[max(0, len(b)-pdfHeaderWindow):]
	for {
		i := bytes.Index(w, []byte("startxref"))
		if i < 0 {
			return false
		}
		w = w[i+len("startxref"):]
		j := 0
		for j < len(w) && isPDFSpace(w[j]) {
			j++
		}
		if j > 0 && j < len(w) && isDigit(w[j]) {
			return true
		}
	}
}

// maxLateHeaders caps the "%PDF-" candidates past the window that are
// examined, so a file made of them costs linear time: a wrapper holds one.
const maxLateHeaders = 16

// lateHeader returns the offset of a "%PDF-<digit>" header past the window
// that opens a PDF body (rule 6), or -1.
func lateHeader(b []byte) int {
	if len(b) <= pdfHeaderWindow {
		return -1
	}
	last := max(bytes.LastIndex(b, []byte("startxref")), bytes.LastIndex(b, []byte("trailer")),
		bytes.LastIndex(b, []byte("%%EOF")))
	from := pdfHeaderWindow
	for range maxLateHeaders {
		i := bytes.Index(b[from:], []byte("%PDF-"))
		if i < 0 {
			return -1
		}
		at := from + i
		if at >= last {
			return -1 // a trailer keyword must follow the header
		}
		from = at + 5
		if from >= len(b) || !isDigit(b[from]) {
			continue
		}
		body := b[at:]
		if objectHeaderAtLineStart(body[:min(len(body), pdfHeaderWindow)]) {
			return at
		}
	}
	return -1
}

// junkThenObjects reports a header-less PDF body behind junk lines (rule 7).
func junkThenObjects(b []byte) bool {
	w := b[:min(len(b), pdfHeaderWindow)]
	return objectHeaderAtLineStart(w) && hasTrailerKeyword(b) && bytes.Contains(b, []byte("/Root"))
}

func hasTrailerKeyword(b []byte) bool {
	return bytes.Contains(b, []byte("startxref")) ||
		bytes.Contains(b, []byte("trailer")) ||
		bytes.Contains(b, []byte("%%EOF"))
}

// objectHeaderAtLineStart reports "<int> <int> obj" at the start of a line
// of w (leading white space allowed).
func objectHeaderAtLineStart(w []byte) bool {
	for i := 0; i < len(w); i++ {
		if i > 0 && w[i-1] != '\n' && w[i-1] != '\r' {
			continue
		}
		j := i
		for j < len(w) && (w[j] == ' ' || w[j] == '\t') {
			j++
		}
		if objectHeaderAt(w, j) {
			return true
		}
	}
	return false
}

// objectHeaderAt reports "<int> <int> obj" followed by white space, a
// delimiter or the end, at i: object number up to 10 digits, generation up
// to 5.
func objectHeaderAt(w []byte, i int) bool {
	n := scanDigits(w, i)
	if n == i || n-i > 10 || n >= len(w) || !isPDFSpace(w[n]) {
		return false
	}
	g0 := n
	for g0 < len(w) && isPDFSpace(w[g0]) {
		g0++
	}
	g := scanDigits(w, g0)
	if g == g0 || g-g0 > 5 || g >= len(w) || !isPDFSpace(w[g]) {
		return false
	}
	k := g
	for k < len(w) && isPDFSpace(w[k]) {
		k++
	}
	if !bytes.HasPrefix(w[k:], []byte("obj")) {
		return false
	}
	return k+3 == len(w) || isPDFSpace(w[k+3]) || isPDFDelim(w[k+3])
}

// skipSpaceAndComments skips white space and comments (to end of line).
func skipSpaceAndComments(w []byte, i int) int {
	for i < len(w) {
		switch {
		case isPDFSpace(w[i]):
			i++
		case w[i] == '%':
			for i < len(w) && w[i] != '\n' && w[i] != '\r' {
				i++
			}
		default:
			return i
		}
	}
	return i
}

func scanDigits(w []byte, i int) int {
	for i < len(w) && isDigit(w[i]) {
		i++
	}
	return i
}

// ---------------------------------------------------------------- fixed signatures

// signature checks the formats identified by their first bytes. ok is true
// when the signature is decisive, even if the format is Unknown (an ftyp box
// of a video, for instance).
func signature(b []byte) (Format, bool) {
	switch {
	case len(b) >= 3 && b[0] == 0xFF && b[1] == 0xD8 && b[2] == 0xFF:
		return JPEG, true
	case bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")):
		return PNG, true
	case bytes.HasPrefix(b, []byte("GIF87a")), bytes.HasPrefix(b, []byte("GIF89a")):
		return GIF, true
	case bytes.HasPrefix(b, []byte("II*\x00")), bytes.HasPrefix(b, []byte("MM\x00*")),
		bytes.HasPrefix(b, []byte("II+\x00")), bytes.HasPrefix(b, []byte("MM\x00+")):
		return TIFF, true
	case len(b) >= 12 && string(b[0:4]) == "RIFF" && string(b[8:12]) == "WEBP":
		return WebP, true
	case len(b) >= 8 && string(b[4:8]) == "ftyp":
		return sniffFtyp(b), true
	case isBMP(b):
		return BMP, true
	case cfb.Is(b):
		// Decisive: a compound file that is none of the three
		// binary Office formats (an encrypted OOXML package, an
		// Outlook message, a thumbnail cache) is not another format.
		return sniffCFB(b), true
	}
	return Unknown, false
}

// isBMP checks "BM", a DIB header size of a known BITMAP*HEADER, and a file
// size field that is either unset (0) or large enough to hold both headers.
// The size field may exceed len(b): a truncated bitmap is still a bitmap.
func isBMP(b []byte) bool {
	if len(b) < 18 || b[0] != 'B' || b[1] != 'M' {
		return false
	}
	size := binary.LittleEndian.Uint32(b[2:6])
	dib := binary.LittleEndian.Uint32(b[14:18])
	switch dib {
	case 12, 40, 52, 56, 64, 108, 124:
	default:
		return false
	}
	return size == 0 || size >= 14+dib
}

// sniffFtyp classifies an ISOBMFF file whose first box is ftyp. The box
// size must be sane (16 <= size <= len(b)); at most maxBrandBytes of
// compatible brands are read.
func sniffFtyp(b []byte) Format {
	if len(b) < 16 {
		return Unknown
	}
	size := binary.BigEndian.Uint32(b[0:4])
	if size < 16 || uint64(size) > uint64(len(b)) {
		return Unknown
	}
	major := string(b[8:12])
	switch brandClass(major) {
	case AVIF:
		return AVIF
	case HEIC:
		return HEIC
	}
	brands := b[16:min(int(size), 16+maxBrandBytes)]
	var sawAVIF, sawHEIC, sawHEIF bool
	note := func(brand string) {
		switch brandClass(brand) {
		case AVIF:
			sawAVIF = true
		case HEIC:
			sawHEIC = true
		case HEIF:
			sawHEIF = true
		}
	}
	if major == "mif3" {
		// The low-overhead 'mif3' form (a 16-byte ftyp followed by a
		// 'mini' box) carries the coding brand in minor_version.
		note(string(b[12:16]))
	}
	for i := 0; i+4 <= len(brands); i += 4 {
		note(string(brands[i : i+4]))
	}
	switch {
	case sawAVIF:
		return AVIF
	case sawHEIC:
		return HEIC
	case sawHEIF || brandClass(major) == HEIF:
		return HEIF
	}
	return Unknown
}

// brandClass maps an ftyp brand to the image format it implies, if any.
func brandClass(brand string) Format {
	switch brand {
	case "avif", "avis":
		return AVIF
	case "heic", "heix", "heim", "heis", "hevc", "hevx":
		return HEIC
	case "mif1", "msf1", "mif2", "mif3":
		return HEIF
	}
	return Unknown
}

// ---------------------------------------------------------------- OOXML

// looksZip reports a local file header at offset 0 or an end-of-central-
// directory signature where one can be.
func looksZip(b []byte) bool {
	if bytes.HasPrefix(b, []byte("PK\x03\x04")) {
		return true
	}
	if len(b) < 22 {
		return false
	}
	tail := b[max(0, len(b)-zipEOCDSearch):]
	return bytes.Contains(tail, []byte("PK\x05\x06"))
}

// mainContentType maps a main part's content type (lower case, no
// parameters) to the format it declares, or Unknown.
func mainContentType(ct string) Format {
	switch ct {
	case "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
		"application/vnd.openxmlformats-officedocument.wordprocessingml.template.main+xml":
		return DOCX
	case "application/vnd.ms-word.document.macroenabled.main+xml",
		"application/vnd.ms-word.template.macroenabledtemplate.main+xml":
		return DOCM
	case "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
		"application/vnd.openxmlformats-officedocument.spreadsheetml.template.main+xml":
		return XLSX
	case "application/vnd.ms-excel.sheet.macroenabled.main+xml",
		"application/vnd.ms-excel.template.macroenabled.main+xml",
		"application/vnd.ms-excel.addin.macroenabled.main+xml":
		return XLSM
	case "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
		"application/vnd.openxmlformats-officedocument.presentationml.slideshow.main+xml",
		"application/vnd.openxmlformats-officedocument.presentationml.template.main+xml":
		return PPTX
	case "application/vnd.ms-excel.sheet.binary.macroenabled.main":
		return XLSB
	case "application/vnd.ms-powerpoint.presentation.macroenabled.main+xml",
		"application/vnd.ms-powerpoint.slideshow.macroenabled.main+xml",
		"application/vnd.ms-powerpoint.template.macroenabled.main+xml",
		"application/vnd.ms-powerpoint.addin.macroenabled.main+xml":
		return PPTM
	}
	return Unknown
}

// sniffOOXML opens b as a ZIP and decides whether it is an OOXML package and
// which one. Anything it cannot open or recognise is Unknown.
func sniffOOXML(b []byte) Format {
	// archive/zip materialises every central-directory header it finds:
	// zipcap hands it only the first maxZipEntries, so a package of a
	// hundred thousand entries is still recognised (and analysed, with
	// the cut reported) rather than refused.
	zr, _, err := zipcap.Open(b, maxZipEntries)
	if err != nil && !(errors.Is(err, zip.ErrInsecurePath) && zr != nil) {
		return Unknown
	}
	files := zr.File
	if len(files) > maxZipEntries {
		files = files[:maxZipEntries]
	}

	var contentTypes, rels *zip.File
	hasVBA := false
	for _, f := range files {
		name := partName(f.Name)
		switch {
		case contentTypes == nil && strings.EqualFold(name, "[Content_Types].xml"):
			contentTypes = f
		case rels == nil && strings.EqualFold(name, "_rels/.rels"):
			rels = f
		case strings.EqualFold(path.Base(name), "vbaProject.bin"):
			hasVBA = true
		}
	}
	if contentTypes == nil {
		return Unknown
	}

	// Candidate main parts, best first: the officeDocument relationship's
	// target, then the well-known names, each only if the package holds it.
	var candidates []string
	if rels != nil {
		if target := officeDocumentTarget(rels); target != "" && findPart(files, target) != nil {
			candidates = append(candidates, target)
		}
	}
	// Well-known main parts, used when _rels/.rels does not lead to one.
	for _, name := range [...]string{"word/document.xml", "xl/workbook.xml", "ppt/presentation.xml", "xl/workbook.bin"} {
		if findPart(files, name) != nil && !containsFold(candidates, name) {
			candidates = append(candidates, name)
		}
	}
	if len(candidates) == 0 {
		return Unknown
	}

	types := partContentTypes(contentTypes, candidates)
	for _, ct := range types {
		if f := mainContentType(ct); f != Unknown {
			return f
		}
	}
	// No recognised content type: decide by the main part's name.
	for _, name := range candidates {
		if f := formatByPartName(name, hasVBA); f != Unknown {
			return f
		}
	}
	return Unknown
}

// partName turns a ZIP entry name into an OPC part name without the leading
// slash.
func partName(name string) string { return strings.TrimPrefix(name, "/") }

func findPart(files []*zip.File, name string) *zip.File {
	for _, f := range files {
		if strings.EqualFold(partName(f.Name), name) {
			return f
		}
	}
	return nil
}

func containsFold(list []string, s string) bool {
	for _, v := range list {
		if strings.EqualFold(v, s) {
			return true
		}
	}
	return false
}

// formatByPartName maps a main XML part's folder to its family, choosing
// the macro-enabled form when the package holds a VBA project. The one
// non-XML main part recognised is the binary workbook of .xlsb.
func formatByPartName(name string, hasVBA bool) Format {
	dir, _, ok := strings.Cut(name, "/")
	if ok && strings.EqualFold(name, "xl/workbook.bin") {
		return XLSB
	}
	if !ok || !hasSuffixFold(name, ".xml") {
		return Unknown
	}
	switch strings.ToLower(dir) {
	case "word":
		return pick(hasVBA, DOCM, DOCX)
	case "xl":
		return pick(hasVBA, XLSM, XLSX)
	case "ppt":
		return pick(hasVBA, PPTM, PPTX)
	}
	return Unknown
}

func pick(cond bool, a, b Format) Format {
	if cond {
		return a
	}
	return b
}

// openPart returns an XML decoder over at most maxPartBytes of the
// decompressed part. The declared sizes are not trusted.
func openPart(f *zip.File) (*xml.Decoder, io.Closer, error) {
	rc, err := f.Open()
	if err != nil {
		return nil, nil, err
	}
	d := xml.NewDecoder(io.LimitReader(rc, maxPartBytes))
	d.Strict = true
	// Parts declaring another encoding are read as if they were UTF-8:
	// only ASCII names and attribute values matter here.
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return d, rc, nil
}

// officeDocumentTarget reads _rels/.rels and returns the internal target of
// the first officeDocument relationship, as a part name without the leading
// slash, or "".
func officeDocumentTarget(f *zip.File) string {
	d, c, err := openPart(f)
	if err != nil {
		return ""
	}
	defer c.Close()
	for {
		tok, err := d.RawToken()
		if err != nil {
			return ""
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Relationship" {
			continue
		}
		var typ, target, mode string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "Type":
				typ = a.Value
			case "Target":
				target = a.Value
			case "TargetMode":
				mode = a.Value
			}
		}
		if !hasSuffixFold(strings.TrimSpace(typ), "/relationships/officeDocument") ||
			strings.EqualFold(strings.TrimSpace(mode), "External") {
			continue
		}
		if t := resolveRootTarget(target); t != "" {
			return t
		}
	}
}

// resolveRootTarget resolves a relationship target of the package root to a
// part name without the leading slash.
func resolveRootTarget(target string) string {
	target = strings.TrimSpace(target)
	if target == "" || strings.Contains(target, ":") {
		return "" // empty, or an absolute URI
	}
	if i := strings.IndexAny(target, "?#"); i >= 0 {
		target = target[:i]
	}
	p := path.Clean("/" + strings.ReplaceAll(target, `\`, "/"))
	return strings.TrimPrefix(p, "/")
}

func hasSuffixFold(s, suffix string) bool {
	return len(s) >= len(suffix) && strings.EqualFold(s[len(s)-len(suffix):], suffix)
}

// partContentTypes reads [Content_Types].xml and returns, for each name, its
// content type in lower case without parameters: the Override for the part
// if any, else the Default for its extension, else "". A part that cannot
// be read or parsed yields what was found before the failure.
func partContentTypes(f *zip.File, names []string) []string {
	overrides := make([]string, len(names))
	defaults := make([]string, len(names))
	d, c, err := openPart(f)
	if err != nil {
		return overrides
	}
	defer c.Close()
	ext := make([]string, len(names))
	for i, n := range names {
		ext[i] = strings.TrimPrefix(path.Ext(n), ".")
	}
loop:
	for {
		tok, err := d.RawToken()
		if err != nil {
			break
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "Override":
			var part, ct string
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "PartName":
					part = a.Value
				case "ContentType":
					ct = a.Value
				}
			}
			part = partName(strings.TrimSpace(part))
			for i, n := range names {
				if overrides[i] == "" && strings.EqualFold(part, n) {
					overrides[i] = normaliseContentType(ct)
				}
			}
			if allSet(overrides) {
				break loop
			}
		case "Default":
			var e, ct string
			for _, a := range se.Attr {
				switch a.Name.Local {
				case "Extension":
					e = a.Value
				case "ContentType":
					ct = a.Value
				}
			}
			e = strings.TrimSpace(e)
			for i := range names {
				if defaults[i] == "" && ext[i] != "" && strings.EqualFold(e, ext[i]) {
					defaults[i] = normaliseContentType(ct)
				}
			}
		}
	}
	for i := range overrides {
		if overrides[i] == "" {
			overrides[i] = defaults[i]
		}
	}
	return overrides
}

func allSet(v []string) bool {
	for _, s := range v {
		if s == "" {
			return false
		}
	}
	return true
}

// normaliseContentType lower-cases a media type and drops its parameters.
func normaliseContentType(ct string) string {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}
