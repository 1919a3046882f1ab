// Package figures checks the arithmetic a document prints: running
// balances, column totals, invoice lines and totals, gross-to-net pay. It
// reads lines of positioned words, whatever medium they came from (a PDF
// page's glyphs, a spreadsheet's cells, a word-processing table), finds the
// figures and the relations the document's own rows establish, and
// reports where a relation that holds elsewhere breaks.
//
// Amounts are integers in minor units: no float reaches a comparison.
// Work is bounded by the caps in Limits, so a hostile file cannot make a
// check quadratic.
package figures

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Amount is a printed figure: Units × 10^-Scale.
type Amount struct {
	Units int64
	Scale int // decimals printed
}

// maxDigits keeps Units and every sum of them far from overflow.
const maxDigits = 15

// at returns the amount's units at scale s (s >= a.Scale).
func (a Amount) at(s int) int64 {
	u := a.Units
	for i := a.Scale; i < s; i++ {
		u *= 10
	}
	return u
}

// String prints the amount in the plain form of the evidence (1234.56,
// -0.50), never in the document's own locale: evidence is data.
func (a Amount) String() string {
	u := a.Units
	neg := u < 0
	if neg {
		u = -u
	}
	digits := []byte{}
	for u > 0 || len(digits) <= a.Scale {
		digits = append(digits, byte('0'+u%10))
		u /= 10
	}
	var b strings.Builder
	if neg {
		b.WriteByte('-')
	}
	for i := len(digits) - 1; i >= 0; i-- {
		b.WriteByte(digits[i])
		if i == a.Scale && a.Scale > 0 {
			b.WriteByte('.')
		}
	}
	return b.String()
}

// currencySymbols are the signs written before or after an amount.
const currencySymbols = "$€£¥₹₽₩₺₪₫₦₱฿"

// ParseAmount reads a money figure in the forms statements, invoices and
// payslips print: 1,234.56, 1.234,56, 1 234,56, 1'234.56, 12,34,567.89;
// a currency symbol or ISO code before or after; negatives as a leading
// or trailing minus, parentheses, or DR (CR is a credit, positive). The
// decimal part must be two digits: a figure without one is a count, a
// date part or a reference, which ParseNumber reads where a count is
// wanted.
func ParseAmount(s string) (Amount, bool) {
	body, neg, ok := stripDecorations(s)
	if !ok {
		return Amount{}, false
	}
	units, scale, ok := parseMoney(body)
	if !ok || scale != 2 {
		return Amount{}, false
	}
	if neg {
		units = -units
	}
	return Amount{Units: units, Scale: scale}, true
}

// ParseNumber reads a plain count or rate: digits, with an optional
// decimal part of one to three digits after dec ('.' or ','), no grouping.
// A quantity column (3, 1.5, 0,25) reads through it.
func ParseNumber(s string, dec byte) (Amount, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > maxDigits+1 {
		return Amount{}, false
	}
	var units int64
	scale, seenDec, n := 0, false, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			units = units*10 + int64(c-'0')
			n++
			if seenDec {
				scale++
			}
		case c == dec && !seenDec && i > 0 && i < len(s)-1:
			seenDec = true
		default:
			return Amount{}, false
		}
	}
	if n == 0 || scale > 3 {
		return Amount{}, false
	}
	return Amount{Units: units, Scale: scale}, true
}

// stripDecorations removes currency, sign and credit/debit marks around the
// number and reports the sign they gave.
func stripDecorations(s string) (body string, neg, ok bool) {
	s = strings.TrimSpace(s)
	if len(s) == 0 || len(s) > 48 {
		return "", false, false
	}
	if strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s, neg = strings.TrimSpace(s[1:len(s)-1]), true
	}
	marks := 0
	for changed := true; changed && s != ""; {
		changed = false
		upper := strings.ToUpper(s)
		switch {
		case strings.HasSuffix(upper, "CR") && len(s) > 2 && !isLetter(s, len(s)-3):
			s, changed = strings.TrimSpace(s[:len(s)-2]), true
		case strings.HasSuffix(upper, "DR") && len(s) > 2 && !isLetter(s, len(s)-3):
			s, changed, neg = strings.TrimSpace(s[:len(s)-2]), true, !neg
		case strings.HasSuffix(s, "-") || strings.HasSuffix(s, "−"):
			_, w := utf8.DecodeLastRuneInString(s)
			s, changed, neg = strings.TrimSpace(s[:len(s)-w]), true, !neg
		case strings.HasPrefix(s, "-") || strings.HasPrefix(s, "−"):
			_, w := utf8.DecodeRuneInString(s)
			s, changed, neg = strings.TrimSpace(s[w:]), true, !neg
		case strings.HasPrefix(s, "+"):
			s, changed = strings.TrimSpace(s[1:]), true
		default:
			if rest, ok := trimCurrency(s); ok {
				s, changed = rest, true
			}
		}
		if changed {
			marks++
			if marks > 4 {
				return "", false, false
			}
		}
	}
	return s, neg, s != ""
}

// isLetter reports a letter at byte i of s (so "ABCR" is no credit mark).
func isLetter(s string, i int) bool {
	if i < 0 {
		return false
	}
	r, _ := utf8.DecodeLastRuneInString(s[:i+1])
	return unicode.IsLetter(r)
}

// trimCurrency removes one currency symbol or three-letter code at either
// end, with the space that may separate it.
func trimCurrency(s string) (string, bool) {
	if r, w := utf8.DecodeRuneInString(s); strings.ContainsRune(currencySymbols, r) {
		return strings.TrimSpace(s[w:]), true
	}
	if r, w := utf8.DecodeLastRuneInString(s); strings.ContainsRune(currencySymbols, r) {
		return strings.TrimSpace(s[:len(s)-w]), true
	}
	if len(s) > 3 && isCode(s[:3]) && !isUpperASCII(s[3]) {
		return strings.TrimSpace(s[3:]), true
	}
	if len(s) > 3 && isCode(s[len(s)-3:]) && !isUpperASCII(s[len(s)-4]) {
		return strings.TrimSpace(s[:len(s)-3]), true
	}
	return s, false
}

func isCode(s string) bool {
	return len(s) == 3 && isUpperASCII(s[0]) && isUpperASCII(s[1]) && isUpperASCII(s[2])
}

func isUpperASCII(c byte) bool { return c >= 'A' && c <= 'Z' }

// groupSeparator reports the characters that group thousands.
func groupSeparator(r rune) bool {
	switch r {
	case ',', '.', ' ', '\u00a0', '\u202f', '\u2009', '\'', '’':
		return true
	}
	return false
}

// parseMoney reads digits grouped in threes (or the Indian 2-2-3) with a
// decimal part after the last '.' or ','.
func parseMoney(s string) (units int64, scale int, ok bool) {
	// Split into digit groups and the separators between them.
	var groups []string
	var seps []rune
	start := -1
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			if start < 0 {
				start = i
			}
		case groupSeparator(r):
			if start < 0 {
				return 0, 0, false
			}
			groups = append(groups, s[start:i])
			seps = append(seps, r)
			start = -1
		default:
			return 0, 0, false
		}
	}
	if start < 0 {
		return 0, 0, false
	}
	groups = append(groups, s[start:])
	if len(groups) > 8 {
		return 0, 0, false
	}
	intGroups, frac := groups, ""
	if n := len(seps); n > 0 && (seps[n-1] == '.' || seps[n-1] == ',') && len(groups[n]) != 3 {
		// The last separator is the decimal point when it is not followed by
		// a thousands group.
		intGroups, frac = groups[:n], groups[n]
		seps = seps[:n-1]
	} else if n > 0 && (seps[n-1] == '.' || seps[n-1] == ',') && len(groups[n]) == 3 && n >= 2 && seps[n-2] != seps[n-1] {
		// 1,234.567: three decimals after a different grouping mark.
		intGroups, frac = groups[:n], groups[n]
		seps = seps[:n-1]
	}
	for _, sep := range seps {
		if sep != seps[0] {
			return 0, 0, false
		}
	}
	if frac != "" && len(seps) > 0 && seps[0] == rune(s[len(s)-len(frac)-1]) {
		return 0, 0, false // 1.234.56: the decimal mark cannot also group
	}
	if len(intGroups) > 1 {
		if !validGroups(intGroups) {
			return 0, 0, false
		}
	}
	digits := strings.Join(intGroups, "") + frac
	if len(digits) > maxDigits || len(frac) > 3 {
		return 0, 0, false
	}
	if len(intGroups) == 1 && len(intGroups[0]) > 1 && intGroups[0][0] == '0' {
		return 0, 0, false // 007.50 is a code, not an amount
	}
	for i := 0; i < len(digits); i++ {
		units = units*10 + int64(digits[i]-'0')
	}
	return units, len(frac), true
}

// validGroups accepts 1,234,567 (first group 1-3 digits, then threes) and
// 12,34,567 (first 1-2, then twos, last three).
func validGroups(g []string) bool {
	last := len(g) - 1
	if len(g[last]) != 3 || len(g[0]) < 1 || len(g[0]) > 3 {
		return false
	}
	threes, twos := true, len(g[0]) <= 2
	for _, x := range g[1:last] {
		threes = threes && len(x) == 3
		twos = twos && len(x) == 2
	}
	return threes || twos
}
