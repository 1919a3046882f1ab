package cos

import (
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"
)

// pdfDocHigh maps PDFDocEncoding bytes 0x80-0x9F; 0x18-0x1F are in pdfDocLow.
var pdfDocHigh = [32]rune{
	0x2022, 0x2020, 0x2021, 0x2026, 0x2014, 0x2013, 0x0192, 0x2044,
	0x2039, 0x203A, 0x2212, 0x2030, 0x201E, 0x201C, 0x201D, 0x2018,
	0x2019, 0x201A, 0x2122, 0xFB01, 0xFB02, 0x0141, 0x0152, 0x0160,
	0x0178, 0x017D, 0x0131, 0x0142, 0x0153, 0x0161, 0x017E, 0xFFFD,
}

var pdfDocLow = [8]rune{0x02D8, 0x02C7, 0x02C6, 0x02D9, 0x02DD, 0x02DB, 0x02DA, 0x02DC}

// DecodeText decodes a PDF text string: UTF-16BE (or, leniently, LE) with a
// byte-order mark, UTF-8 with a mark (PDF 2.0), or PDFDocEncoding.
func DecodeText(b []byte) string {
	switch {
	case len(b) >= 2 && b[0] == 0xFE && b[1] == 0xFF:
		return DecodeUTF16(b[2:], true)
	case len(b) >= 2 && b[0] == 0xFF && b[1] == 0xFE:
		return DecodeUTF16(b[2:], false)
	case len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF:
		return strings.ToValidUTF8(string(b[3:]), "\uFFFD")
	}
	ascii := true
	for _, c := range b {
		if c >= 0x80 || (c >= 0x18 && c <= 0x1F) {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for _, c := range b {
		switch {
		case c >= 0x18 && c <= 0x1F:
			sb.WriteRune(pdfDocLow[c-0x18])
		case c >= 0x80 && c <= 0x9F:
			sb.WriteRune(pdfDocHigh[c-0x80])
		case c == 0xAD:
			sb.WriteRune(0xFFFD)
		default:
			sb.WriteRune(rune(c))
		}
	}
	return sb.String()
}

// DecodeUTF16 decodes UTF-16 without a byte-order mark; unpaired
// surrogates become U+FFFD.
func DecodeUTF16(b []byte, bigEndian bool) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		if bigEndian {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		} else {
			u = append(u, uint16(b[i+1])<<8|uint16(b[i]))
		}
	}
	rs := utf16.Decode(u)
	var sb strings.Builder
	sb.Grow(len(rs))
	for _, r := range rs {
		if r == utf8.RuneError {
			sb.WriteRune(0xFFFD)
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// Text returns the decoded text of a String object, or "" for other types.
func Text(o Object) string {
	if s, ok := o.(String); ok {
		return DecodeText(s.Bytes)
	}
	return ""
}

// Date is a parsed PDF or XMP date.
type Date struct {
	Time time.Time
	// HasZone is false when the file gave no offset; Time is then read as UTC
	// for comparisons and printed without an offset.
	HasZone bool
}

// ISO renders the date in ISO 8601: with its offset when the file gave one.
func (d Date) ISO() string {
	if d.HasZone {
		return d.Time.Format(time.RFC3339)
	}
	return d.Time.Format("2006-01-02T15:04:05")
}

// ParseDate reads a PDF date "D:YYYYMMDDHHmmSSOHH'mm'" leniently: the prefix,
// trailing fields, apostrophes and the offset are all optional, as viewers
// accept them. Impossible values fail.
func ParseDate(s string) (Date, bool) {
	s = strings.TrimSpace(s)
	s = strings.TrimPrefix(s, "D:")
	digits := 0
	for digits < len(s) && digits < 14 && s[digits] >= '0' && s[digits] <= '9' {
		digits++
	}
	if digits < 4 {
		return Date{}, false
	}
	num := func(from, n, def int) int {
		if from+n > digits {
			return def
		}
		v := 0
		for i := from; i < from+n; i++ {
			v = v*10 + int(s[i]-'0')
		}
		return v
	}
	year, month, day := num(0, 4, 0), num(4, 2, 1), num(6, 2, 1)
	hour, minute, sec := num(8, 2, 0), num(10, 2, 0), num(12, 2, 0)
	if month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || sec > 60 {
		return Date{}, false
	}
	if sec == 60 {
		sec = 59
	}
	rest := strings.TrimSpace(s[digits:])
	loc := time.UTC
	hasZone := false
	if rest != "" {
		switch rest[0] {
		case 'Z', 'z':
			hasZone = true
		case '+', '-':
			sign := 1
			if rest[0] == '-' {
				sign = -1
			}
			z := dropZoneMarks(rest[1:])
			zh, zm := 0, 0
			if len(z) >= 2 && isDigits(z[:2]) {
				zh = int(z[0]-'0')*10 + int(z[1]-'0')
				if len(z) >= 4 && isDigits(z[2:4]) {
					zm = int(z[2]-'0')*10 + int(z[3]-'0')
				}
				if zh <= 23 && zm <= 59 {
					loc = time.FixedZone("", sign*(zh*3600+zm*60))
					hasZone = true
				}
			}
		}
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, 0, loc)
	if t.Day() != day {
		return Date{}, false // 31 February and the like
	}
	return Date{Time: t, HasZone: hasZone}, true
}

// dropZoneMarks removes the apostrophes and colons a zone is written with
// (+01'00', +01:00). One pass over the bytes: a strings.Replacer built per
// date cost more than the rest of the parse.
func dropZoneMarks(s string) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\'' && s[i] != ':' {
			b = append(b, s[i])
		}
	}
	return string(b)
}

// ParseXMPDate reads an XMP (ISO 8601 subset) date: YYYY[-MM[-DD[Thh:mm[:ss[.s]][TZD]]]].
func ParseXMPDate(s string) (Date, bool) {
	s = strings.TrimSpace(s)
	layouts := []struct {
		layout string
		zone   bool
	}{
		{time.RFC3339Nano, true}, {"2006-01-02T15:04Z07:00", true},
		{"2006-01-02T15:04:05.999999999", false}, {"2006-01-02T15:04:05", false},
		{"2006-01-02T15:04", false}, {"2006-01-02", false}, {"2006-01", false}, {"2006", false},
	}
	for _, l := range layouts {
		if t, err := time.Parse(l.layout, s); err == nil {
			return Date{Time: t, HasZone: l.zone}, true
		}
	}
	return Date{}, false
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
