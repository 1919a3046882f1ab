package pdf

import (
	"regexp"
	"strings"
	"testing"
)

// The expressions x-ray deletes matches of, as x-ray writes them; the
// matchers of family_redaction.go must leave nothing exactly when these do.
var (
	xrayOKWords = regexp.MustCompile(`(?i)redacted +and +publicly +filed|name +redacted|confidential|privileged?|redacted|redacte|redact|redac|reda|red|re`)
	xrayDate    = regexp.MustCompile(`[0-3]?\d[/\-][0-3]?\d[/\-]\d{2,4}`)
)

func checkXRayMatchers(t *testing.T, s string) {
	t.Helper()
	if got, want := tiled(s, okWordAt), xrayOKWords.ReplaceAllString(s, "") == ""; got != want {
		t.Errorf("okWords %q: tiled %v, regexp leaves nothing %v", s, got, want)
	}
	if got, want := tiled(s, dateAt), xrayDate.ReplaceAllString(s, "") == ""; got != want {
		t.Errorf("date %q: tiled %v, regexp leaves nothing %v", s, got, want)
	}
	// The match at the start of s, where the expression finds one there.
	if m := xrayOKWords.FindStringIndex(s); m != nil && m[0] == 0 && okWordAt(s) != m[1] {
		t.Errorf("okWords %q: matched %d bytes, regexp %d", s, okWordAt(s), m[1])
	}
	if m := xrayDate.FindStringIndex(s); m != nil && m[0] == 0 && dateAt(s) != m[1] {
		t.Errorf("date %q: matched %d bytes, regexp %d", s, dateAt(s), m[1])
	}
}

var xrayCases = []string{
	"", "re", "RE", "Re", "REDACTED", "redacted", "Redacted And  Publicly Filed", "name redacted",
	"NAME   REDACTED", "name", "privileged", "PRIVILEGE", "privilegedx", "confidentialconfidential",
	"redre", "reda cted", "redacted and publicly", "r", "x", " ", "re re", "rered", "ﬁled",
	"1/2/23", "01/02/2023", "31-12-99", "4/5/2023", "41/5/2023", "3/4/20231/2/23", "12/31/20", "1/2/2",
	"1/2/12345", "1/2/123456", "00-00-00", "0/0/00", "12/3/456", "1-2/33", "1/2-3333", "1/2/23 ",
	"9/9/99", "39/39/39", "40/1/22", "1//2", "11/11/1111/", "١/٢/٢٣",
}

func TestMatchersAgreeWithXRayExpressions(t *testing.T) {
	for _, s := range xrayCases {
		checkXRayMatchers(t, s)
	}
	// Every harmless word in every case pattern, and joined by spaces.
	for _, w := range okWords {
		for _, v := range []string{w, strings.ToUpper(w), strings.ReplaceAll(w, " ", "   "), w + w, w + " " + w, w[:len(w)-1]} {
			checkXRayMatchers(t, v)
		}
	}
}

func FuzzXRayMatchers(f *testing.F) {
	for _, s := range xrayCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkXRayMatchers(t, s)
	})
}
