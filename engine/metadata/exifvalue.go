package metadata

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/rwcarlsen/goexif/tiff"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// TIFF field types.
const (
	tByte      = 1
	tASCII     = 2
	tShort     = 3
	tLong      = 4
	tRational  = 5
	tSByte     = 6
	tUndefined = 7
	tSShort    = 8
	tSLong     = 9
	tSRational = 10
	tFloat     = 11
	tDouble    = 12
)

// maxElems is how many elements of one numeric value are rendered; longer
// arrays (strip offsets, tone curves) end in an ellipsis.
const maxElems = 64

// value is one entry's stored value: its TIFF type, element count, bytes
// in the block's byte order, and the entry as goexif decoded it, which
// supplies the numbers (goexif is the one reader of EXIF values; this
// package names and prints them).
type value struct {
	typ   uint16
	count int
	b     []byte
	order binary.ByteOrder
	t     *tiff.Tag
}

// tagValue is the value of an entry goexif decoded.
func tagValue(t *tiff.Tag, order binary.ByteOrder) value {
	return value{typ: uint16(t.Type), count: int(t.Count), b: t.Val, order: order, t: t}
}

// numberValue is one number XMP carries as text (exif:FNumber "28/10"),
// of TIFF type typ with its bytes in big-endian order, decoded by goexif as
// an entry of an EXIF block would be, so the print conversions apply.
func numberValue(typ uint16, b []byte) (value, bool) {
	be := binary.BigEndian
	entry := be.AppendUint16(nil, 0)
	entry = be.AppendUint16(entry, typ)
	entry = be.AppendUint32(entry, 1)
	if len(b) > 4 {
		entry = be.AppendUint32(entry, 12)
	}
	entry = append(entry, b...)
	for len(entry) < 12 {
		entry = append(entry, 0)
	}
	t, err := tiff.DecodeTag(bytes.NewReader(entry), be)
	if err != nil {
		return value{}, false
	}
	return tagValue(t, be), true
}

// num is one numeric element: an integer, a rational n/d, or a float.
type num struct {
	n, d int64
	f    float64
	kind byte // 'i', 'r' or 'f'
}

func integer(n int64) num { return num{n: n, d: 1, kind: 'i'} }

// float is the element's value; ok is false for a rational over zero.
func (x num) float() (float64, bool) {
	switch {
	case x.kind == 'f':
		return x.f, !math.IsNaN(x.f) && !math.IsInf(x.f, 0)
	case x.d == 0:
		return 0, false
	}
	return float64(x.n) / float64(x.d), true
}

// stored is the element as the file has it: "28/10" for a rational.
func (x num) stored() string {
	switch x.kind {
	case 'f':
		return strconv.FormatFloat(x.f, 'g', -1, 64)
	case 'r':
		return strconv.FormatInt(x.n, 10) + "/" + strconv.FormatInt(x.d, 10)
	}
	return strconv.FormatInt(x.n, 10)
}

// String is the element for display, as exiftool rounds it: rationals to
// 10 significant digits, "inf" and "undef" for a zero denominator.
func (x num) String() string {
	if x.kind == 'i' {
		return strconv.FormatInt(x.n, 10)
	}
	if v, ok := x.float(); ok {
		if x.kind == 'f' {
			return strconv.FormatFloat(v, 'g', 15, 64)
		}
		return strconv.FormatFloat(v, 'g', 10, 64)
	}
	if x.n != 0 {
		return "inf"
	}
	return "undef"
}

var typeSize = [13]int{0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8}

func (v value) numeric() bool {
	return v.typ != tASCII && v.typ != tUndefined && int(v.typ) < len(typeSize) && v.typ != 0
}

// nums returns up to limit numeric elements, as goexif decoded them.
func (v value) nums(limit int) []num {
	if !v.numeric() || v.t == nil {
		return nil
	}
	n := min(v.count, limit)
	out := make([]num, 0, n)
	for i := 0; i < n; i++ {
		var x num
		switch v.t.Format() {
		case tiff.IntVal:
			k, err := v.t.Int64(i)
			if err != nil {
				return out
			}
			x = integer(k)
		case tiff.RatVal:
			a, d, err := v.t.Rat2(i)
			if err != nil {
				return out
			}
			x = num{n: a, d: d, kind: 'r'}
		case tiff.FloatVal:
			f, err := v.t.Float(i)
			if err != nil {
				return out
			}
			x = num{f: f, kind: 'f'}
		default:
			return out
		}
		out = append(out, x)
	}
	return out
}

// ascii is an ASCII value up to its first NUL, trimmed.
func (v value) ascii() string {
	b := v.b
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	return strings.TrimSpace(latin1(b))
}

// stored renders the value as the file holds it: the text of an ASCII
// value, the elements of a numeric one, the bytes of an UNDEFINED one of
// at most four (the enumerations and component lists); "" for longer
// binary data.
func (v value) stored() string {
	switch {
	case v.typ == tASCII:
		return v.ascii()
	case v.numeric():
		return joinNums(v, (num).stored, " ")
	}
	if s, ok := text(v.b); ok {
		return s
	}
	if len(v.b) <= 4 {
		parts := make([]string, len(v.b))
		for i, c := range v.b {
			parts[i] = strconv.Itoa(int(c))
		}
		return strings.Join(parts, " ")
	}
	return ""
}

// display renders a value that has no print conversion of its own.
func (v value) display() string {
	switch {
	case v.typ == tASCII:
		return v.ascii()
	case v.numeric() && (v.typ != tByte && v.typ != tSByte || v.count <= maxByteElems):
		return joinNums(v, (num).String, " ")
	}
	if s, ok := text(v.b); ok {
		return s
	}
	return binaryData(len(v.b))
}

// maxByteElems: longer BYTE arrays are binary blocks (Photoshop settings,
// embedded profiles), not lists of numbers.
const maxByteElems = 16

func binaryData(n int) string { return "(binary data, " + strconv.Itoa(n) + " bytes)" }

func joinNums(v value, f func(num) string, sep string) string {
	xs := v.nums(maxElems)
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = f(x)
	}
	s := strings.Join(parts, sep)
	if v.count > len(xs) && len(xs) == maxElems {
		s += sep + "…"
	}
	return s
}

// text reads bytes as text when they look like text: NULs at the end
// dropped, no other control bytes, and either valid UTF-8 or Latin-1.
func text(b []byte) (string, bool) {
	b = bytes.TrimRight(b, "\x00 ")
	for _, c := range b {
		if c < 0x20 && c != '\n' && c != '\r' && c != '\t' {
			return "", false
		}
	}
	return latin1(b), true
}

// latin1 returns b as a string: UTF-8 when it is valid UTF-8, else read as
// Latin-1, the charset the TIFF and PNG specifications give text.
func latin1(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	r := make([]rune, len(b))
	for i, c := range b {
		r[i] = rune(c)
	}
	return string(r)
}

// utf16Text decodes UTF-16 in the given order, stopping at a NUL.
func utf16Text(b []byte, o binary.ByteOrder) string {
	for i := 0; i+1 < len(b); i += 2 {
		if b[i] == 0 && b[i+1] == 0 {
			b = b[:i]
			break
		}
	}
	return cos.DecodeUTF16(b, o == binary.BigEndian)
}
