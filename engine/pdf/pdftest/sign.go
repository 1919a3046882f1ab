package pdftest

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Signing: a signature dictionary whose /ByteRange is a placeholder of
// fixed width and whose /Contents is a hexadecimal string of zero bytes,
// then Seal, once the revision is laid out, writes the byte range that
// covers the whole file but that string, and a signature over it into the
// string (cms.go). The numbers keep their width, so sealing moves no
// offset.
//
//	b := pdftest.OnePage("x")
//	b.Set(7, pdftest.SigDict("Sig", "adbe.pkcs7.detached", 64, "/M (D:20250101000000Z)"))
//	... a signature field naming 7 0 R ...
//	signed := pdftest.Seal(b.Bytes())
//	u := pdftest.Update(signed) // later revisions leave the range alone

// byteRangeHole is the placeholder Seal looks for: four zero numbers of
// the width every sealed number keeps.
const byteRangeHole = "/ByteRange [0000000000 0000000000 0000000000 0000000000]"

// byteRangeRE matches a sealed or placeholder byte range.
var byteRangeRE = regexp.MustCompile(`/ByteRange \[(\d{10}) (\d{10}) (\d{10}) (\d{10})\]`)

// SigDict returns a signature value dictionary: /Type typ (Sig or
// DocTimeStamp), /SubFilter subFilter, the /ByteRange placeholder and a
// /Contents of n bytes (at least minContents, the room Seal's signature
// needs): the start of a DER sequence of
// indefinite length, padded with zeros as signing tools pad, so the value
// is not an empty placeholder. extra adds keys ("/Reason (ok) /M (D:...)").
func SigDict(typ, subFilter string, n int, extra string) string {
	return fmt.Sprintf("<< /Type /%s /Filter /Adobe.PPKLite /SubFilter /%s %s /Contents <3080%s> %s >>",
		typ, subFilter, byteRangeHole, strings.Repeat("0", 2*(max(n, minContents)-2)), extra)
}

// Seal fills every byte-range placeholder of pdf with the range covering
// the whole file except the /Contents string that follows the placeholder.
func Seal(pdf []byte) []byte { return SealWith(pdf, nil) }

// SealWith is Seal with tamper, when not nil, changing each range before
// it is written: the tests of broken ranges use it. Every number must stay
// between 0 and 9999999999.
func SealWith(pdf []byte, tamper func([4]int) [4]int) []byte {
	out := bytes.Clone(pdf)
	for from := 0; ; {
		i := bytes.Index(out[from:], []byte(byteRangeHole))
		if i < 0 {
			return out
		}
		at := from + i
		from = at + len(byteRangeHole)
		c := bytes.Index(out[from:], []byte("/Contents <"))
		if c < 0 {
			panic("pdftest.Seal: no /Contents after the byte range")
		}
		start := from + c + len("/Contents ")
		end := bytes.IndexByte(out[start:], '>')
		if end < 0 {
			panic("pdftest.Seal: unterminated /Contents")
		}
		end += start + 1
		br := [4]int{0, start, end, len(out) - end}
		if tamper != nil {
			br = tamper(br)
		}
		writeByteRange(out, at, br)
		writeValue(out, at, start, end, br)
	}
}

// SetByteRange rewrites, in place, the i-th (0-based, in file order)
// byte range written by SigDict, sealed or not.
func SetByteRange(pdf []byte, i int, br [4]int) []byte {
	out := bytes.Clone(pdf)
	all := byteRangeRE.FindAllIndex(out, -1)
	if i >= len(all) {
		panic(fmt.Sprintf("pdftest.SetByteRange: no byte range %d", i))
	}
	writeByteRange(out, all[i][0], br)
	return out
}

// ByteRanges reads the byte ranges written by SigDict, in file order.
func ByteRanges(pdf []byte) [][4]int {
	var out [][4]int
	for _, m := range byteRangeRE.FindAllSubmatch(pdf, -1) {
		var br [4]int
		for j := range br {
			br[j], _ = strconv.Atoi(string(m[j+1]))
		}
		out = append(out, br)
	}
	return out
}

func writeByteRange(out []byte, at int, br [4]int) {
	s := fmt.Sprintf("/ByteRange [%010d %010d %010d %010d]", br[0], br[1], br[2], br[3])
	if len(s) != len(byteRangeHole) {
		panic(fmt.Sprintf("pdftest: byte range %v does not fit the placeholder", br))
	}
	copy(out[at:], s)
}

// Resign signs the i-th (0-based, in file order) sealed signature again
// over the byte range it now states, as the tool that wrote such a range
// would have; a range that reaches into the value's own digits or past the
// file leaves the old value (which then no longer matches).
func Resign(pdf []byte, i int) []byte {
	out := bytes.Clone(pdf)
	all := byteRangeRE.FindAllSubmatchIndex(out, -1)
	if i >= len(all) {
		panic(fmt.Sprintf("pdftest.Resign: no byte range %d", i))
	}
	at := all[i][0]
	br := ByteRanges(out[at:])[0]
	c := bytes.Index(out[at:], []byte("/Contents <"))
	if c < 0 {
		panic("pdftest.Resign: no /Contents after the byte range")
	}
	start := at + c + len("/Contents ")
	end := start + bytes.IndexByte(out[start:], '>') + 1
	writeValue(out, at, start, end, br)
	return out
}
