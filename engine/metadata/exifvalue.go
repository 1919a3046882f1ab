package metadata

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

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

// value is one entry's stored value: its TIFF type, element count and
// bytes in the block's byte order.
type value struct {
	typ   uint16
	count int
	b     []byte
	order binary.ByteOrder
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

// nums decodes up to limit numeric elements.
func (v value) nums(limit int) []num {
	if !v.numeric() {
		return nil
	}
	size := typeSize[v.typ]
	n := min(v.count, len(v.b)/size, limit)
	out := make([]num, 0, n)
	o := v.order
	for i := 0; i < n; i++ {
		b := v.b[i*size:]
		var x num
		switch v.typ {
		case tByte:
			x = integer(int64(b[0]))
		case tSByte:
			x = integer(int64(int8(b[0])))
		case tShort:
			x = integer(int64(o.Uint16(b)))
		case tSShort:
			x = integer(int64(int16(o.Uint16(b))))
		case tLong:
			x = integer(int64(o.Uint32(b)))
		case tSLong:
			x = integer(int64(int32(o.Uint32(b))))
		case tRational:
			x = num{n: int64(o.Uint32(b)), d: int64(o.Uint32(b[4:])), kind: 'r'}
		case tSRational:
			x = num{n: int64(int32(o.Uint32(b))), d: int64(int32(o.Uint32(b[4:]))), kind: 'r'}
		case tFloat:
			x = num{f: float64(math.Float32frombits(o.Uint32(b))), kind: 'f'}
		case tDouble:
			x = num{f: math.Float64frombits(o.Uint64(b)), kind: 'f'}
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

// printConv renders a value for display; ok false falls back to the
// generic rendering.
type printConv func(v value) (string, bool)

// first returns the first element's float value.
func first(v value) (float64, bool) {
	xs := v.nums(1)
	if len(xs) == 0 {
		return 0, false
	}
	return xs[0].float()
}

// exposureTime is exiftool's PrintExposureTime: 1/N below a quarter second.
func exposureTime(s float64) string {
	if s > 0 && s < 0.25001 {
		return "1/" + strconv.Itoa(int(0.5+1/s))
	}
	return strings.TrimSuffix(strconv.FormatFloat(s, 'f', 1, 64), ".0")
}

func printExposureTime(v value) (string, bool) {
	s, ok := first(v)
	if !ok {
		return "", false
	}
	return exposureTime(s), true
}

// printShutterSpeed converts the APEX value: seconds = 2^-Tv.
func printShutterSpeed(v value) (string, bool) {
	tv, ok := first(v)
	if !ok {
		return "", false
	}
	s := 0.0
	if math.Abs(tv) < 100 {
		s = math.Pow(2, -tv)
	}
	return exposureTime(s), true
}

// printAperture converts the APEX value: f-number = 2^(Av/2).
func printAperture(v value) (string, bool) {
	av, ok := first(v)
	if !ok {
		return "", false
	}
	return strconv.FormatFloat(math.Pow(2, av/2), 'f', 1, 64), true
}

func printFNumber(v value) (string, bool) {
	f, ok := first(v)
	if !ok || f <= 0 {
		return "", false
	}
	if f < 1 {
		return strconv.FormatFloat(f, 'f', 2, 64), true
	}
	return strconv.FormatFloat(f, 'f', 1, 64), true
}

func printFocalLength(v value) (string, bool) {
	f, ok := first(v)
	if !ok {
		return "", false
	}
	return strconv.FormatFloat(f, 'f', 1, 64) + " mm", true
}

// printFraction is exiftool's PrintFraction: whole, half and third steps
// as signed fractions (+1/3, -2/3, 0).
func printFraction(v value) (string, bool) {
	f, ok := first(v)
	if !ok {
		return "", false
	}
	f *= 1.00001
	sign := func(n int) string {
		if n >= 0 {
			return "+" + strconv.Itoa(n)
		}
		return strconv.Itoa(n)
	}
	switch {
	case f == 0:
		return "0", true
	case float64(int(f))/f > 0.999:
		return sign(int(f)), true
	case float64(int(f*2))/(f*2) > 0.999:
		return sign(int(f*2)) + "/2", true
	case float64(int(f*3))/(f*3) > 0.999:
		return sign(int(f*3)) + "/3", true
	}
	s := strconv.FormatFloat(f, 'g', 3, 64)
	if f > 0 {
		s = "+" + s
	}
	return s, true
}

// printUnit appends a unit to the generic rendering of a single value.
func printUnit(unit string) printConv {
	return func(v value) (string, bool) {
		xs := v.nums(1)
		if len(xs) == 0 {
			return "", false
		}
		s := xs[0].String()
		if s == "inf" || s == "undef" {
			return s, true
		}
		return s + unit, true
	}
}

// printList joins the elements with sep (ISO "100, 200"; versions "2.2.0.0").
func printList(sep string) printConv {
	return func(v value) (string, bool) {
		if !v.numeric() {
			return "", false
		}
		return joinNums(v, (num).String, sep), true
	}
}

// printText shows UNDEFINED bytes that hold text (ExifVersion "0230").
func printText(v value) (string, bool) { return text(v.b) }

// printUCS2 decodes the Windows XP tags: UCS-2 little-endian in BYTE arrays.
func printUCS2(v value) (string, bool) {
	return strings.TrimSpace(utf16Text(v.b, binary.LittleEndian)), true
}

// printCharsetText decodes EXIF's text with an 8-byte charset header
// (UserComment, GPSProcessingMethod).
func printCharsetText(v value) (string, bool) {
	b := v.b
	if len(b) < 8 {
		s, ok := text(b)
		return strings.TrimSpace(s), ok
	}
	id, rest := string(b[:8]), b[8:]
	switch {
	case strings.HasPrefix(id, "UNICODE"):
		o := v.order
		if len(rest) >= 2 && (rest[0] == 0xFF && rest[1] == 0xFE) {
			o, rest = binary.LittleEndian, rest[2:]
		} else if len(rest) >= 2 && rest[0] == 0xFE && rest[1] == 0xFF {
			o, rest = binary.BigEndian, rest[2:]
		}
		return strings.TrimSpace(utf16Text(rest, o)), true
	case strings.HasPrefix(id, "ASCII"), strings.Trim(id, "\x00 ") == "", strings.HasPrefix(id, "JIS"):
		if i := bytes.IndexByte(rest, 0); i >= 0 {
			rest = rest[:i]
		}
		return strings.TrimSpace(latin1(rest)), true
	}
	s, ok := text(b)
	return strings.TrimSpace(s), ok
}

var components = []string{"-", "Y", "Cb", "Cr", "R", "G", "B"}

// printComponents names each component of ComponentsConfiguration.
func printComponents(v value) (string, bool) {
	parts := make([]string, 0, len(v.b))
	for _, c := range v.b {
		if int(c) >= len(components) {
			return "", false
		}
		parts = append(parts, components[c])
	}
	return strings.Join(parts, ", "), len(parts) > 0
}

// printLensInfo is exiftool's PrintLensInfo: "24-70mm f/2.8".
func printLensInfo(v value) (string, bool) {
	xs := v.nums(4)
	if len(xs) != 4 {
		return "", false
	}
	s := make([]string, 4)
	for i, x := range xs {
		s[i] = x.String()
		if s[i] == "inf" || s[i] == "undef" {
			s[i] = "?"
		}
	}
	out := s[0]
	if s[1] != "0" && s[1] != s[0] {
		out += "-" + s[1]
	}
	out += "mm f/" + s[2]
	if s[3] != "0" && s[3] != s[2] {
		out += "-" + s[3]
	}
	return out, true
}

// degrees reads a GPS coordinate: degrees, minutes and seconds rationals
// (fewer elements allowed).
func degrees(v value) (float64, bool) {
	xs := v.nums(3)
	if len(xs) == 0 {
		return 0, false
	}
	deg := 0.0
	for i, x := range xs {
		f, ok := x.float()
		if !ok {
			return 0, false
		}
		deg += f / math.Pow(60, float64(i))
	}
	return deg, true
}

// dms renders decimal degrees as exiftool does: 54 deg 59' 22.80".
func dms(deg float64) string {
	deg = math.Abs(deg)
	d := math.Floor(deg)
	m := math.Floor((deg - d) * 60)
	s := (deg - d - m/60) * 3600
	if strconv.FormatFloat(s, 'f', 2, 64) == "60.00" {
		s, m = 0, m+1
		if m >= 60 {
			m, d = 0, d+1
		}
	}
	return strconv.FormatFloat(d, 'f', 0, 64) + " deg " + strconv.FormatFloat(m, 'f', 0, 64) + "' " +
		strconv.FormatFloat(s, 'f', 2, 64) + `"`
}

func printDMS(v value) (string, bool) {
	deg, ok := degrees(v)
	if !ok {
		return "", false
	}
	return dms(deg), true
}

// printTimeStamp renders the GPS time of day hh:mm:ss(.ssssss).
func printTimeStamp(v value) (string, bool) {
	xs := v.nums(3)
	if len(xs) != 3 {
		return "", false
	}
	total := 0.0
	for i, x := range xs {
		f, ok := x.float()
		if !ok {
			return "", false
		}
		total += f * math.Pow(60, float64(2-i))
	}
	if total < 0 || total > 1e7 {
		return "", false
	}
	h := math.Floor(total / 3600)
	m := math.Floor((total - h*3600) / 60)
	s := total - h*3600 - m*60
	sec := strings.TrimRight(strings.TrimRight(strconv.FormatFloat(s, 'f', 6, 64), "0"), ".")
	if s < 10 {
		sec = "0" + sec
	}
	return two(h) + ":" + two(m) + ":" + sec, true
}

func two(f float64) string {
	s := strconv.FormatFloat(f, 'f', 0, 64)
	if len(s) < 2 {
		s = "0" + s
	}
	return s
}
