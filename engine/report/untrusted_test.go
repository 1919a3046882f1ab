package report

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestUntrustedShowsInvisibleCharacters: zero-width characters, the soft
// hyphen, the word joiner, the byte order mark and tag characters no
// longer pass into evidence unseen; they show as escapes. Bidi and control
// characters are still removed, and the cap still holds.
func TestUntrustedShowsInvisibleCharacters(t *testing.T) {
	tags := ""
	for _, c := range "ignore" {
		tags += string(rune(0xE0000 + c))
	}
	for in, want := range map[string]string{
		"Acro\u200bbat":                    `Acro\u200bbat`,
		"Ig\u200cno\u200dre":               `Ig\u200cno\u200dre`,
		"soft\u00adhyphen":                 `soft\u00adhyphen`,
		"word\u2060joiner":                 `word\u2060joiner`,
		"\ufeffBOM":                        `\ufeffBOM`,
		"tagged" + tags:                    `tagged\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065`,
		"bidi\u202eand\x07control":         "bidiandcontrol",
		"caf\u00e9 \u00fcber \u4e2d\u6587": "caf\u00e9 \u00fcber \u4e2d\u6587",
	} {
		if got := Untrusted(in); got != want {
			t.Errorf("Untrusted(%q) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("a", MaxUntrustedRunes-3) + "\u200b\u200b"
	if got := Untrusted(long); utf8.RuneCountInString(got) > MaxUntrustedRunes || strings.HasSuffix(got, `\`) {
		t.Fatalf("cap with an escape at the end: %q", got[len(got)-10:])
	}
}
