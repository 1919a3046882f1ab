package paycoord

import (
	"regexp"
	"strings"
)

// text is the searched text with its lower-case twin for labels. Go's
// regexp runs in linear time, so hostile text cannot make a search blow up.
type text struct {
	s     string
	lower string
}

func newText(s string) *text {
	// ToLower may change byte lengths for some runes; keep offsets aligned
	// by lowering ASCII only.
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return &text{s: s, lower: string(b)}
}

// labelWindow is how far before a value its label may stand.
const labelWindow = 48

// labelled reports one of labels in the window before pos.
func (t *text) labelled(pos int, labels ...string) bool {
	from := max(pos-labelWindow, 0)
	w := t.lower[from:pos]
	for _, l := range labels {
		if strings.Contains(w, l) {
			return true
		}
	}
	return false
}

// matches returns each match of re with its offset, the submatches
// included.
func (t *text) matches(re *regexp.Regexp) [][]int {
	return re.FindAllStringSubmatchIndex(t.s, 4*maxCoord)
}

// digits keeps the ASCII digits of s.
func digits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if '0' <= s[i] && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// alnum keeps the ASCII letters (upper-cased) and digits of s.
func alnum(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case '0' <= c && c <= '9', 'A' <= c && c <= 'Z':
			b.WriteByte(c)
		case 'a' <= c && c <= 'z':
			b.WriteByte(c - 32)
		}
	}
	return b.String()
}

// sub returns submatch k of m in s, or "".
func sub(s string, m []int, k int) string {
	if 2*k+1 >= len(m) || m[2*k] < 0 {
		return ""
	}
	return s[m[2*k]:m[2*k+1]]
}
