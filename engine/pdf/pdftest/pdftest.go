// Package pdftest writes small, real PDF files for tests: objects given as
// raw PDF syntax, streams with a correct /Length, a classic cross-reference
// table or a PDF 1.5 cross-reference stream with an object stream, and
// incremental updates appended to an existing file.
//
//	b := pdftest.New("1.7")
//	cat := b.Add("<< /Type /Catalog /Pages 2 0 R >>")
//	b.Set(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>")
//	b.Stream(4, "<< >>", []byte("BT /F1 12 Tf (Hi) Tj ET"))
//	b.Trailer(fmt.Sprintf("/Root %d 0 R", cat))
//	pdf := b.Bytes()
//
//	u := pdftest.Update(pdf) // a second revision; /Prev is filled in
//	u.Stream(4, "<< >>", []byte("BT /F1 12 Tf (Bye) Tj ET"))
//	u.Trailer("/Root 1 0 R")
//	pdf2 := u.Bytes()
//
// Builders are for tests only: misuse (a stream dictionary that is not a
// dictionary, an update of bytes without startxref) panics.
package pdftest

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"
)

// Object numbers of the documents OnePage and ImagePage build.
const (
	CatalogObj = 1 // the catalogue
	PagesObj   = 2 // the page tree root
	PageObj    = 3 // the only page
	ContentObj = 4 // the page's content stream
	FontObj    = 5 // OnePage: the Helvetica font
	ImageObj   = 5 // ImagePage: the image XObject named /Im1
)

// object is one body entry: raw syntax, or a stream (dictionary with its
// final /Length and /Filter, and the encoded data), or a free entry.
type object struct {
	body   string
	stream bool
	data   []byte
	free   bool
}

// Builder assembles one revision: the whole file for New, or one
// incremental update for Update.
type Builder struct {
	version    string
	base       []byte // the file being updated; nil for a new file
	prevXref   int    // startxref of base
	prevSize   int    // /Size of base's newest trailer
	objs       map[int]object
	trailer    string
	xrefStream bool
	packed     map[int]bool // objects to put in the object stream
}

// New starts a file with a "%PDF-<version>" header and a binary comment line.
func New(version string) *Builder {
	return &Builder{version: version, objs: map[int]object{}}
}

// Update starts an incremental update of pdf: Bytes returns pdf followed by
// the new objects, a cross-reference section for them alone and a trailer
// whose /Prev is pdf's startxref and whose /Size covers both revisions.
// The new trailer holds only /Size, /Prev and what Trailer gives (a reader
// inherits nothing else from the previous trailer, so pass /Root and /ID
// again when the update should keep them).
func Update(pdf []byte) *Builder {
	off, ok := StartXref(pdf)
	if !ok {
		panic("pdftest.Update: no startxref in the file")
	}
	return &Builder{
		base:     pdf,
		prevXref: off,
		prevSize: lastSize(pdf),
		objs:     map[int]object{},
	}
}

// StartXref returns the offset named by the file's last startxref.
func StartXref(pdf []byte) (int, bool) {
	i := bytes.LastIndex(pdf, []byte("startxref"))
	if i < 0 {
		return 0, false
	}
	m := regexp.MustCompile(`^startxref\s+(\d+)`).FindSubmatch(pdf[i:])
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(string(m[1]))
	return n, err == nil
}

var sizeRE = regexp.MustCompile(`/Size\s+(\d+)`)

// lastSize reads the /Size of the newest trailer (or xref stream) of pdf,
// falling back to one more than the largest "n g obj" number.
func lastSize(pdf []byte) int {
	all := sizeRE.FindAllSubmatch(pdf, -1)
	size := 0
	if len(all) > 0 {
		size, _ = strconv.Atoi(string(all[len(all)-1][1]))
	}
	for _, m := range regexp.MustCompile(`(?m)(?:^|\s)(\d+)\s+\d+\s+obj\b`).FindAllSubmatch(pdf, -1) {
		if n, err := strconv.Atoi(string(m[1])); err == nil && n+1 > size {
			size = n + 1
		}
	}
	return size
}

// next is the smallest number above every number used so far.
func (b *Builder) next() int {
	n := max(b.prevSize, 1)
	for k := range b.objs {
		n = max(n, k+1)
	}
	return n
}

// Add defines a new object with the next unused number and returns it.
// body is raw PDF syntax: "<< /Type /Catalog /Pages 2 0 R >>", "[1 2 3]".
func (b *Builder) Add(body string) int {
	n := b.next()
	b.Set(n, body)
	return n
}

// Set defines (or, in an update, overwrites) object num.
func (b *Builder) Set(num int, body string) {
	checkNum(num)
	b.objs[num] = object{body: body}
}

// Stream defines object num as a stream of data, unfiltered. dict is a
// dictionary ("<< /Type /XObject /Subtype /Image ... >>"; "" or "<< >>"
// for none) to which /Length is added.
func (b *Builder) Stream(num int, dict string, data []byte) {
	checkNum(num)
	b.objs[num] = object{body: withKeys(dict, fmt.Sprintf("/Length %d", len(data))), stream: true, data: bytes.Clone(data)}
}

// FlateStream defines object num as a stream of data compressed with zlib;
// /Filter /FlateDecode and /Length are added to dict.
func (b *Builder) FlateStream(num int, dict string, data []byte) {
	checkNum(num)
	z := Deflate(data)
	b.objs[num] = object{body: withKeys(dict, fmt.Sprintf("/Filter /FlateDecode /Length %d", len(z))), stream: true, data: z}
}

// AddStream is Stream with the next unused number, which it returns.
func (b *Builder) AddStream(dict string, data []byte) int {
	n := b.next()
	b.Stream(n, dict, data)
	return n
}

// AddFlateStream is FlateStream with the next unused number, which it returns.
func (b *Builder) AddFlateStream(dict string, data []byte) int {
	n := b.next()
	b.FlateStream(n, dict, data)
	return n
}

// Free writes a free cross-reference entry for num (generation 1), which
// deletes the object in an update.
func (b *Builder) Free(num int) {
	checkNum(num)
	b.objs[num] = object{free: true}
}

// Trailer sets the trailer keys besides /Size and /Prev, which the builder
// writes itself: "/Root 1 0 R /Info 6 0 R /ID [<aa><bb>]". Each call
// replaces the previous one.
func (b *Builder) Trailer(keys string) {
	b.trailer = keys
}

// XrefStream switches the builder to a PDF 1.5 cross-reference stream
// (compressed, /W [1 4 2]) instead of a classic table, and puts the listed
// objects in one compressed object stream (/Type /ObjStm); streams and free
// entries cannot be packed and are written as usual. The object stream and
// the cross-reference stream take the two numbers after every object
// defined. It returns b.
func (b *Builder) XrefStream(packed ...int) *Builder {
	b.xrefStream = true
	b.packed = map[int]bool{}
	for _, n := range packed {
		b.packed[n] = true
	}
	return b
}

// Bytes renders the file. It can be called more than once.
func (b *Builder) Bytes() []byte {
	var out bytes.Buffer
	if b.base == nil {
		fmt.Fprintf(&out, "%%PDF-%s\n%%\xE2\xE3\xCF\xD3\n", b.version)
	} else {
		out.Write(b.base)
		if n := len(b.base); n > 0 && b.base[n-1] != '\n' && b.base[n-1] != '\r' {
			out.WriteByte('\n')
		}
	}
	nums := slices.Sorted(maps.Keys(b.objs))
	offsets := map[int]int{}
	var inStm []int
	for _, n := range nums {
		o := b.objs[n]
		switch {
		case o.free:
		case b.xrefStream && b.packed[n] && !o.stream:
			inStm = append(inStm, n)
		default:
			offsets[n] = out.Len()
			writeObject(&out, n, o)
		}
	}
	size := max(b.prevSize, 1)
	if len(nums) > 0 {
		size = max(size, nums[len(nums)-1]+1)
	}
	if !b.xrefStream {
		b.writeTable(&out, nums, offsets, size)
		return out.Bytes()
	}
	b.writeXrefStream(&out, nums, offsets, inStm, size)
	return out.Bytes()
}

func writeObject(out *bytes.Buffer, n int, o object) {
	fmt.Fprintf(out, "%d 0 obj\n%s\n", n, o.body)
	if o.stream {
		out.WriteString("stream\n")
		out.Write(o.data)
		out.WriteString("\nendstream\n")
	}
	out.WriteString("endobj\n")
}

// writeTable writes a classic xref table: one subsection 0..size-1 for a
// new file (numbers never defined are free), and subsections of the
// numbers this update defines or frees for an update.
func (b *Builder) writeTable(out *bytes.Buffer, nums []int, offsets map[int]int, size int) {
	xref := out.Len()
	out.WriteString("xref\n")
	entry := func(n int) string {
		if off, ok := offsets[n]; ok {
			return fmt.Sprintf("%010d 00000 n\r\n", off)
		}
		if n == 0 {
			return "0000000000 65535 f\r\n"
		}
		if o, ok := b.objs[n]; ok && o.free {
			return "0000000000 00001 f\r\n"
		}
		return "0000000000 00000 f\r\n"
	}
	if b.base == nil {
		fmt.Fprintf(out, "0 %d\n", size)
		for n := 0; n < size; n++ {
			out.WriteString(entry(n))
		}
	} else {
		for _, run := range runs(nums) {
			fmt.Fprintf(out, "%d %d\n", run[0], run[1])
			for n := run[0]; n < run[0]+run[1]; n++ {
				out.WriteString(entry(n))
			}
		}
	}
	fmt.Fprintf(out, "trailer\n<< /Size %d%s %s >>\nstartxref\n%d\n%%%%EOF\n", size, b.prevKey(), b.trailer, xref)
}

func (b *Builder) prevKey() string {
	if b.base == nil {
		return ""
	}
	return fmt.Sprintf(" /Prev %d", b.prevXref)
}

// writeXrefStream writes the object stream (when objects are packed) and
// the cross-reference stream that indexes everything.
func (b *Builder) writeXrefStream(out *bytes.Buffer, nums []int, offsets map[int]int, inStm []int, size int) {
	stmNum := -1
	index := map[int]int{} // packed object -> index in the object stream
	if len(inStm) > 0 {
		stmNum = size
		size++
		var head, body bytes.Buffer
		for i, n := range inStm {
			index[n] = i
			fmt.Fprintf(&head, "%d %d ", n, body.Len())
			body.WriteString(b.objs[n].body)
			body.WriteString("\n")
		}
		data := append(head.Bytes(), body.Bytes()...)
		z := Deflate(data)
		offsets[stmNum] = out.Len()
		writeObject(out, stmNum, object{
			body:   fmt.Sprintf("<< /Type /ObjStm /N %d /First %d /Filter /FlateDecode /Length %d >>", len(inStm), head.Len(), len(z)),
			stream: true, data: z,
		})
	}
	xrefNum := size
	size++
	xref := out.Len()
	offsets[xrefNum] = xref

	listed := append([]int(nil), nums...)
	if stmNum >= 0 {
		listed = append(listed, stmNum)
	}
	listed = append(listed, xrefNum)
	var rows bytes.Buffer
	row := func(typ byte, f2 uint32, f3 uint16) {
		rows.WriteByte(typ)
		rows.Write(binary.BigEndian.AppendUint32(nil, f2))
		rows.Write(binary.BigEndian.AppendUint16(nil, f3))
	}
	entry := func(n int) {
		if off, ok := offsets[n]; ok {
			row(1, uint32(off), 0)
			return
		}
		if i, ok := index[n]; ok {
			row(2, uint32(stmNum), uint16(i))
			return
		}
		switch o, ok := b.objs[n]; {
		case n == 0:
			row(0, 0, 65535)
		case ok && o.free:
			row(0, 0, 1)
		default:
			row(0, 0, 0)
		}
	}
	var idx []string
	if b.base == nil {
		for n := 0; n < size; n++ {
			entry(n)
		}
		idx = []string{"0", strconv.Itoa(size)}
	} else {
		for _, run := range runs(listed) {
			idx = append(idx, strconv.Itoa(run[0]), strconv.Itoa(run[1]))
			for n := run[0]; n < run[0]+run[1]; n++ {
				entry(n)
			}
		}
	}
	z := Deflate(rows.Bytes())
	dict := fmt.Sprintf("<< /Type /XRef /Size %d /W [1 4 2] /Index [%s]%s /Filter /FlateDecode /Length %d %s >>",
		size, strings.Join(idx, " "), b.prevKey(), len(z), b.trailer)
	writeObject(out, xrefNum, object{body: dict, stream: true, data: z})
	fmt.Fprintf(out, "startxref\n%d\n%%%%EOF\n", xref)
}

// runs groups sorted, distinct numbers into [first, count] runs.
func runs(nums []int) [][2]int {
	var out [][2]int
	for _, n := range nums {
		if k := len(out); k > 0 && out[k-1][0]+out[k-1][1] == n {
			out[k-1][1]++
			continue
		}
		out = append(out, [2]int{n, 1})
	}
	return out
}

func checkNum(num int) {
	if num <= 0 {
		panic(fmt.Sprintf("pdftest: object number %d must be positive", num))
	}
}

// withKeys adds keys to a dictionary given as raw syntax.
func withKeys(dict, keys string) string {
	d := strings.TrimSpace(dict)
	if d == "" {
		return "<< " + keys + " >>"
	}
	if !strings.HasPrefix(d, "<<") || !strings.HasSuffix(d, ">>") {
		panic(fmt.Sprintf("pdftest: stream dictionary %q is not a dictionary", dict))
	}
	return strings.TrimSpace(d[:len(d)-2]) + " " + keys + " >>"
}

// Deflate compresses data with zlib, as /FlateDecode expects.
func Deflate(data []byte) []byte {
	var buf bytes.Buffer
	w := zlib.NewWriter(&buf)
	w.Write(data)
	w.Close()
	return buf.Bytes()
}

// Lit renders s as a literal string "(...)", escaping parentheses and
// backslashes and writing bytes outside printable ASCII as octal escapes.
func Lit(s string) string {
	var sb strings.Builder
	sb.WriteByte('(')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '(' || c == ')' || c == '\\':
			sb.WriteByte('\\')
			sb.WriteByte(c)
		case c < 0x20 || c >= 0x7F:
			fmt.Fprintf(&sb, "\\%03o", c)
		default:
			sb.WriteByte(c)
		}
	}
	sb.WriteByte(')')
	return sb.String()
}

// Hex renders b as a hexadecimal string "<...>".
func Hex(b []byte) string {
	return "<" + hex.EncodeToString(b) + ">"
}

// UTF16 renders s as a PDF text string in UTF-16BE with a byte-order mark,
// as a hexadecimal string: "<FEFF...>".
func UTF16(s string) string {
	b := []byte{0xFE, 0xFF}
	for _, u := range utf16.Encode([]rune(s)) {
		b = binary.BigEndian.AppendUint16(b, u)
	}
	return Hex(b)
}

// Date renders t as a PDF date string "(D:YYYYMMDDHHmmSS+HH'mm')" in t's
// own zone.
func Date(t time.Time) string {
	_, off := t.Zone()
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return fmt.Sprintf("(D:%s%c%02d'%02d')", t.Format("20060102150405"), sign, off/3600, off/60%60)
}

// XMP wraps RDF properties in an XMP packet: an x:xmpmeta element holding
// rdf:RDF and one rdf:Description that declares the prefixes pdf, xmp,
// xmpMM, stEvt, dc and rdf. props is the Description's content, such as
// "<pdf:Producer>Writer</pdf:Producer>".
func XMP(props string) []byte {
	return []byte(`<?xpacket begin="` + "\uFEFF" + `" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about=""
    xmlns:pdf="http://ns.adobe.com/pdf/1.3/"
    xmlns:xmp="http://ns.adobe.com/xap/1.0/"
    xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/"
    xmlns:stEvt="http://ns.adobe.com/xap/1.0/sType/ResourceEvent#"
    xmlns:dc="http://purl.org/dc/elements/1.1/">
` + props + `
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`)
}

// CatalogDict is the catalogue of OnePage and ImagePage with extra keys,
// for overwriting object CatalogObj: CatalogDict("/OpenAction 9 0 R").
func CatalogDict(extra string) string {
	return fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R %s >>", PagesObj, extra)
}

// TextPageDict is OnePage's page dictionary with extra keys, for
// overwriting object PageObj: TextPageDict("/Annots [9 0 R]").
func TextPageDict(extra string) string {
	return fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R >> >> /Contents %d 0 R %s >>",
		PagesObj, FontObj, ContentObj, extra)
}

// ImagePageDict is ImagePage's page dictionary with extra keys.
func ImagePageDict(extra string) string {
	return fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im1 %d 0 R >> >> /Contents %d 0 R %s >>",
		PagesObj, ImageObj, ContentObj, extra)
}

// ImageDict is the dictionary of ImagePage's image: 2x2 DeviceGray, 8 bits.
const ImageDict = "<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray /BitsPerComponent 8 >>"

// FullPageImageContent is ImagePage's content: Im1 scaled over the page.
const FullPageImageContent = "q 612 0 0 792 0 0 cm /Im1 Do Q"

// OnePage is a PDF 1.7 document with one US Letter page that draws text in
// Helvetica: objects CatalogObj, PagesObj, PageObj, ContentObj, FontObj and
// a trailer naming the catalogue. Add more objects and call Trailer again
// to change the trailer.
func OnePage(text string) *Builder {
	b := pages(TextPageDict(""))
	b.Stream(ContentObj, "", []byte("BT /F1 24 Tf 72 700 Td "+Lit(text)+" Tj ET"))
	b.Set(FontObj, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	return b
}

// ImagePage is a PDF 1.7 document with one US Letter page (MediaBox
// 612x792) whose content paints the 2x2 image XObject Im1 (ImageObj) over
// the whole page: FullPageImageContent.
func ImagePage() *Builder {
	b := pages(ImagePageDict(""))
	b.Stream(ContentObj, "", []byte(FullPageImageContent))
	b.Stream(ImageObj, ImageDict, []byte{0x00, 0x40, 0x80, 0xFF})
	return b
}

func pages(page string) *Builder {
	b := New("1.7")
	b.Set(CatalogObj, CatalogDict(""))
	b.Set(PagesObj, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", PageObj))
	b.Set(PageObj, page)
	b.Trailer(fmt.Sprintf("/Root %d 0 R", CatalogObj))
	return b
}
