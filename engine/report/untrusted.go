package report

import (
	"strings"
	"unicode"
)

// MaxUntrustedRunes is the length attacker-authored strings are cut to.
const MaxUntrustedRunes = 200

// MaxArray is the cap on every list in a report's evidence.
const MaxArray = 50

// Redacted is what ?redact=payload puts in place of untrusted values.
const Redacted = "[redacted]"

// Untrusted sanitises an attacker-authored string for evidence: invalid UTF-8
// is replaced, control and bidirectional-formatting characters are removed
// (so the string cannot reorder or hide what a reviewer sees), characters
// that render as nothing (zero-width space, joiners, word joiner, soft
// hyphen, byte order mark, tag characters) are made visible as an escape
// such as \u200b (text a reviewer cannot see is text a language model
// reads), and the result is cut to MaxUntrustedRunes runes. Such strings go
// only into evidence keys documented as untrusted, never into title, detail
// or params. Detectors (engine/inject) read the original, not this.
func Untrusted(s string) string { return UntrustedN(s, MaxUntrustedRunes) }

// UntrustedN is Untrusted with its own length cap, for the metadata listing,
// which shows whole values rather than evidence snippets.
func UntrustedN(s string, maxRunes int) string {
	var b strings.Builder
	b.Grow(min(len(s), maxRunes*2))
	n := 0
	for _, r := range strings.ToValidUTF8(s, "\uFFFD") {
		if n >= maxRunes {
			break
		}
		if dropRune(r) {
			continue
		}
		if invisibleRune(r) {
			esc := escapeRune(r)
			if n+len(esc) > maxRunes {
				break // an escape is never cut in half
			}
			b.WriteString(esc)
			n += len(esc)
			continue
		}
		b.WriteRune(r)
		n++
	}
	return b.String()
}

func dropRune(r rune) bool {
	if unicode.IsControl(r) {
		return true
	}
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F,
		r >= 0x202A && r <= 0x202E,
		r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// invisibleRune: a character that renders as nothing and carries no
// formatting a reader needs: soft hyphen, combining grapheme joiner,
// Mongolian vowel separator, zero-width space, non-joiner and joiner, word
// joiner and the invisible operators, the byte order mark, and the tag
// characters (which spell ASCII text no one sees).
func invisibleRune(r rune) bool {
	switch {
	case r == 0x00AD, r == 0x034F, r == 0x180E,
		r >= 0x200B && r <= 0x200D,
		r >= 0x2060 && r <= 0x2064,
		r == 0xFEFF,
		r >= 0xE0000 && r <= 0xE007F:
		return true
	}
	return false
}

// escapeRune writes r as \uXXXX, or \UXXXXXXXX past the Basic
// Multilingual Plane.
func escapeRune(r rune) string {
	const hex = "0123456789abcdef"
	if r <= 0xFFFF {
		return "\\u" + string([]byte{hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15]})
	}
	return "\\U" + string([]byte{hex[r>>28&15], hex[r>>24&15], hex[r>>20&15], hex[r>>16&15], hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15]})
}

// UntrustedField is one attacker-authored carrier in injection-style evidence.
// Redaction replaces both keys.
type UntrustedField struct {
	Name    string `json:"name"`
	Payload string `json:"payload"`
}

// Capped puts list into ev under name, cut to MaxArray items, with the
// companion <name>Total and <name>Truncated keys every capped list carries.
func Capped[T any](ev map[string]any, name string, list []T) {
	if list == nil {
		list = []T{}
	}
	total := len(list)
	if total > MaxArray {
		list = list[:MaxArray]
	}
	ev[name] = list
	ev[name+"Total"] = total
	ev[name+"Truncated"] = total > MaxArray
}
