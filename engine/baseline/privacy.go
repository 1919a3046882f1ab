package baseline

import (
	"errors"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"
)

// ErrRejected is the privacy check's refusal (the API's 422
// profile_rejected). Its text names the rule, never the value.
var ErrRejected = errors.New("baseline: profile holds a value that could carry personal data")

// ErrUnusable: a PDF that cannot train a profile (encrypted, damaged or
// without pages).
var ErrUnusable = errors.New("baseline: the PDF is encrypted, damaged or has no page")

// Privacy rule: a profile keeps writer names and structural facts only. A
// text value is refused when it
//   - holds an e-mail address,
//   - holds a run of maxDigits or more digits (separated at most by single
//     spaces or hyphens), the shape of account, card, phone and reference
//     numbers; version numbers are dotted, so "16.0.17928.20114" passes,
//   - is long free text: more than maxValueRunes runes or maxWords words.
//
// Font sets and Info key sets are checked item by item.
const (
	maxDigits = 9
	maxWords  = 12
)

// emailAddress finds an e-mail address, compiled on first use.
var emailAddress = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[^\s@<>()]+@[^\s@<>()]+\.[A-Za-z]{2,}`)
})

// Check applies the privacy rule to every text value of the profile.
func (p *Profile) Check() error {
	for _, d := range dimensions {
		if d.kind != text {
			continue
		}
		for v := range p.Counts[d.name] {
			if !acceptable(d.name, v) {
				return ErrRejected
			}
		}
	}
	return nil
}

func acceptable(dim, v string) bool {
	if dim == FontSets || dim == InfoKeys {
		for item := range strings.SplitSeq(v, ",") {
			if !acceptableText(item) {
				return false
			}
		}
		return true
	}
	return acceptableText(v)
}

func acceptableText(s string) bool {
	if utf8.RuneCountInString(s) > maxValueRunes || len(strings.Fields(s)) > maxWords {
		return false
	}
	if emailAddress().MatchString(s) {
		return false
	}
	return longestDigitRun(s) < maxDigits
}

// longestDigitRun counts digits in the longest stretch where digits are
// separated by at most one space or hyphen.
func longestDigitRun(s string) int {
	best, run, gap := 0, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			run++
			gap = 0
			best = max(best, run)
		case (c == ' ' || c == '-') && run > 0 && gap == 0:
			gap = 1
		default:
			run, gap = 0, 0
		}
	}
	return best
}
