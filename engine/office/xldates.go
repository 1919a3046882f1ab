package office

import (
	"math"
	"strconv"
	"strings"
	"time"
)

// A workbook stores a date as a serial number of days and shows it through
// the cell's number format, so a recovered hidden cell read from the XML
// says 45781 where Excel shows 04/05/2025. The cell's style (its `s`
// attribute) indexes styles.xml's cellXfs; an xf whose number format is a
// date or time format turns the serial back into the date a reader saw.

// styledCell is a recovered number: its place in xlScan.recovered and its
// cell style.
type styledCell struct{ at, style int }

// maxStyles bounds the cellXfs read (Excel's own limit is 64000).
const maxStyles = 65536

// cellStyles is what styles.xml says of number formats: each cellXfs
// entry's numFmtId, and the custom format codes by id. Both readers of a
// cell's style (recovered dates here, figure-arithmetic's date cells) ask
// it, so the part is read once.
type cellStyles struct {
	xfs    []int // numFmtId per cellXfs index
	custom map[int]string
}

// kind says whether cell style shows a date, a time or both.
func (s *cellStyles) kind(style int) dateKind {
	if style < 0 || style >= len(s.xfs) {
		return notDate
	}
	return formatKind(s.xfs[style], s.custom)
}

// styles reads xl/styles.xml on first use.
func (a *analysis) styles() *cellStyles {
	if a.xl.styles != nil {
		return a.xl.styles
	}
	st := &cellStyles{custom: map[int]string{}}
	a.xl.styles = st
	part := a.pkg.Lookup("xl/styles.xml")
	if part == nil {
		return st
	}
	inCellXfs := false
	w := newWalker(a.ctx, a.pkg.Read(part))
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "numFmt":
				id, _ := w.attr("numFmtId")
				code, _ := w.attr("formatCode")
				if n, err := strconv.Atoi(id); err == nil && len(st.custom) < maxStyles {
					st.custom[n] = code
				}
			case "cellXfs":
				inCellXfs = true
			case "xf":
				if inCellXfs && len(st.xfs) < maxStyles {
					id, _ := w.attr("numFmtId")
					n, _ := strconv.Atoi(id)
					st.xfs = append(st.xfs, n)
				}
			}
		case tokEnd:
			if w.end.Name.Local == "cellXfs" {
				inCellXfs = false
			}
		}
	}
	return st
}

// resolveDates rewrites the recovered serial numbers whose cell style has a
// date or time format.
func (a *analysis) resolveDates() {
	st := a.styles()
	for _, c := range a.xl.dated {
		if c.at >= len(a.xl.recovered) {
			continue
		}
		kind := st.kind(c.style)
		if kind == notDate {
			continue
		}
		if s, ok := serialText(a.xl.recovered[c.at], kind, a.xl.date1904); ok {
			a.xl.recovered[c.at] = s
		}
	}
}

type dateKind int

const (
	notDate dateKind = iota
	dateOnly
	timeOnly
	dateTime
)

// formatKind says whether a number format shows a date, a time or both:
// the built-in ids Excel reserves for them (14-22, 45-47, and 27-36 and
// 50-58, the East Asian date formats), or a custom code with date or time
// letters outside quoted text, escapes and [colour] brackets.
func formatKind(id int, custom map[int]string) dateKind {
	switch {
	case id >= 14 && id <= 17, id >= 27 && id <= 31, id >= 34 && id <= 36, id >= 50 && id <= 58:
		return dateOnly
	case id == 22:
		return dateTime
	case id >= 18 && id <= 21, id >= 32 && id <= 33, id >= 45 && id <= 47:
		return timeOnly
	}
	code, ok := custom[id]
	if !ok {
		return notDate
	}
	var date, clock bool
	var last byte // the last date or time letter, for m: month, or minute after h
	for i := 0; i < len(code); i++ {
		switch c := code[i] | 0x20; {
		case code[i] == '"':
			if j := strings.IndexByte(code[i+1:], '"'); j >= 0 {
				i += j + 1
			} else {
				i = len(code)
			}
		case code[i] == '\\' || code[i] == '_' || code[i] == '*':
			i++ // the next character is literal (or padding)
		case code[i] == '[':
			// [h], [mm], [ss] are elapsed time; [Red], [$-409] are not dates.
			j := strings.IndexByte(code[i:], ']')
			if j < 0 {
				return notDate
			}
			if inner := strings.ToLower(code[i+1 : i+j]); inner != "" && strings.Trim(inner, "hms") == "" {
				clock, last = true, inner[0]
			}
			i += j
		case c == 'y' || c == 'd':
			date, last = true, c
		case c == 'h' || c == 's':
			clock, last = true, c
		case c == 'm':
			// Minutes after hours or before seconds, else the month; a
			// run of m (mm, mmm) is one field. 'M' marks a minute.
			switch {
			case last == 'M' || last == 'h' || last != 'm' && strings.ContainsAny(strings.ToLower(code[i:]), "s") && !strings.ContainsAny(strings.ToLower(code[i:]), "yd"):
				clock, last = true, 'M'
			default:
				date, last = true, 'm'
			}
		}
	}
	switch {
	case date && clock:
		return dateTime
	case date:
		return dateOnly
	case clock:
		return timeOnly
	}
	return notDate
}

// serialText renders a serial day number as an ISO 8601 date, time or
// both. The 1900 system counts 1900-02-29, a day that never was (Lotus
// 1-2-3's leap-year error, kept by Excel), so serials from 61 on are a day
// ahead of a plain count from 1899-12-31.
func serialText(v string, kind dateKind, date1904 bool) (string, bool) {
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f >= 2958466 || math.IsNaN(f) {
		return "", false
	}
	days := math.Floor(f)
	secs := int(math.Round((f - days) * 86400))
	if secs == 86400 {
		days, secs = days+1, 0
	}
	var base time.Time
	switch {
	case date1904:
		base = time.Date(1904, 1, 1, 0, 0, 0, 0, time.UTC)
	case days == 60:
		if kind == timeOnly {
			break
		}
		return "1900-02-29", true
	case days > 60:
		base = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	default:
		base = time.Date(1899, 12, 31, 0, 0, 0, 0, time.UTC)
	}
	t := base.AddDate(0, 0, int(days)).Add(time.Duration(secs) * time.Second)
	switch {
	case kind == timeOnly:
		return t.Format("15:04:05"), true
	case kind == dateTime || secs != 0:
		return t.Format("2006-01-02 15:04:05"), true
	}
	return t.Format("2006-01-02"), true
}
