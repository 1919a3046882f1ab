package metadata

// The print conversions of the tag catalogue: how exiftool shows exposure
// times, apertures, fractions, units, coordinates and encoded texts.

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

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

var cfaColors = []string{"Red", "Green", "Blue", "Cyan", "Magenta", "Yellow", "White"}

// printCFAPattern shows the colour filter array row by row, as exiftool
// does: [Green,Blue][Red,Green]. The repeat sizes are read in the block's
// byte order, or the other one when only that fits the data.
func printCFAPattern(v value) (string, bool) {
	b := v.b
	if len(b) < 4 {
		return "", false
	}
	cols, rows := int(v.order.Uint16(b)), int(v.order.Uint16(b[2:]))
	if cols*rows != len(b)-4 {
		cols, rows = int(b[0])<<8|int(b[1]), int(b[2])<<8|int(b[3])
		if cols*rows != len(b)-4 {
			cols, rows = int(b[1])<<8|int(b[0]), int(b[3])<<8|int(b[2])
		}
	}
	if cols == 0 || rows == 0 || cols*rows != len(b)-4 || cols*rows > maxElems {
		return "", false
	}
	var out strings.Builder
	for r := 0; r < rows; r++ {
		out.WriteByte('[')
		for c := 0; c < cols; c++ {
			k := int(b[4+r*cols+c])
			if k >= len(cfaColors) {
				return "", false
			}
			if c > 0 {
				out.WriteByte(',')
			}
			out.WriteString(cfaColors[k])
		}
		out.WriteByte(']')
	}
	return out.String(), true
}
