package pdf

import (
	"regexp"
	"testing"
)

// The character lists that let onlyMatches skip its expression must hold
// every ASCII character a match can contain: every printable character
// alone and inside texts the expressions match in full must get the
// expression's own answer.
func TestOnlyMatchesChars(t *testing.T) {
	cases := []struct {
		re    *regexp.Regexp
		chars string
		texts []string
	}{
		{xrayOKWords(), xrayOKWordsChars, []string{"", "REDACTED", "Redacted and publicly filed", "NAME  REDACTED", "Privilege", "privileged confidential", "redacted 1", "Re", "rEdAcTe"}},
		{xrayDate(), xrayDateChars, []string{"", "01/02/2023", "1-2-99", "31/12/2024 01/01/2025", "01/02/2023x"}},
	}
	for _, c := range cases {
		texts := c.texts
		for b := 0x20; b < 0x7f; b++ {
			texts = append(texts, string(rune(b)), texts[1]+string(rune(b)), string(rune(b))+texts[1])
		}
		for _, s := range texts {
			want := c.re.ReplaceAllString(s, "") == ""
			if got := onlyMatches(c.re, c.chars, s); got != want {
				t.Errorf("onlyMatches(%s, %q) = %v, the expression says %v", c.re, s, got, want)
			}
		}
	}
}
