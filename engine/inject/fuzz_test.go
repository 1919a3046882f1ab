package inject

import (
	"reflect"
	"slices"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/report"
)

// FuzzScan: Scan never panics, is deterministic, and its result is
// consistent; the finding built from the text keeps untrusted strings
// sanitised.
//
//	go test -run='^$' -fuzz=^FuzzScan$ -fuzztime=30s ./engine/inject/
func FuzzScan(f *testing.F) {
	for _, l := range [][]labelled{positives, negatives, heldOutPositives, heldOutNegatives} {
		for _, s := range l {
			f.Add(s.text)
		}
	}
	for _, s := range []string{
		"", "y o u  a r e  n o w", "\uff49\u200b", "<!--", "<!-- -->", "[//]: # (", "![x](http://a?{", "a b c d e f g h i j k l m n o p",
		tagged("hi"), "\U000E0041\xff", "ignore\xffprevious instructions", "1111111111111111111111", "++++////====____----aaaa",
		"ignoreignoreignoreignoreignoreignoreignore", "\u0456\u0261n\u043er\u0435", "\U0001d400\U0001d7ff", "you are|re now",
	} {
		f.Add(s)
	}
	known := map[string]bool{}
	for _, n := range techNames {
		known[n] = true
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := Scan(s)
		if r.Found() != (len(r.Categories()) > 0) || r.Directive && !r.Found() {
			t.Fatalf("inconsistent result %+v", r)
		}
		if !reflect.DeepEqual(r, Scan(s)) {
			t.Fatal("not deterministic")
		}
		if !slices.IsSorted(r.Techniques) {
			t.Fatalf("techniques not sorted: %v", r.Techniques)
		}
		for _, tech := range r.Techniques {
			if !known[tech] {
				t.Fatalf("unknown technique %q", tech)
			}
		}
		for c, n := range r.Cues {
			if n <= 0 || c == "" {
				t.Fatalf("cue %q counted %d", c, n)
			}
		}
		fd := Finding("document-injection-markers", []Carrier{{KindInfo, s, s}})
		if fd == nil {
			if r.Found() {
				t.Fatal("cues without a finding")
			}
			return
		}
		for _, fl := range fd.Evidence["fields"].([]report.UntrustedField) {
			for _, v := range []string{fl.Name, fl.Payload} {
				if !utf8.ValidString(v) || utf8.RuneCountInString(v) > report.MaxUntrustedRunes {
					t.Fatalf("field %q not sanitised", v)
				}
				for _, c := range v {
					if unicode.IsControl(c) || unicode.Is(unicode.Bidi_Control, c) {
						t.Fatalf("field %q holds %U", v, c)
					}
				}
			}
		}
	})
}
