package producers

import (
	"strings"
)

// maxInput bounds the bytes of one value that are inspected, so a hostile
// multi-megabyte /Producer costs no more than a long genuine one (chains of
// "; modified using ..." stay well under this).
const maxInput = 4096

// symbols are stripped after lower-casing so that "Microsoft® Word",
// "MicrosoftÂ® Word" (UTF-8 read as Latin-1) and "iTextSharp™" match the
// plain spellings. Longer forms come first: the replacer tries arguments in
// order at each position.
var symbols = strings.NewReplacer("â®", "", "®", "", "â„¢", "", "™", "")

// normalise lower-cases s once and strips trademark symbols. Callers pass
// decoded text (cos.DecodeText handles PDF text strings); NUL bytes left by
// a byte-wise decode of UTF-16 elsewhere are dropped so such values match.
func normalise(s string) string {
	if len(s) > maxInput {
		s = s[:maxInput]
	}
	if strings.IndexByte(s, 0) >= 0 {
		s = strings.ReplaceAll(s, "\x00", "")
	}
	s = strings.ToLower(s)
	if strings.ContainsAny(s, "®™") {
		s = symbols.Replace(s)
	}
	return s
}

// Match returns the tools recognised in one producer/creator string, most
// specific first, no duplicates. Empty or unrecognised input returns nil.
// Matching is case-insensitive and ignores versions.
//
// "Most specific first" is catalogue order: editors, then capture and OCR,
// statement systems, report generators, office suites, print drivers, and
// generic engines (Skia, Qt, cairo, ...) last, so "Skia/PDF m137 Google Docs
// Renderer" gives Google Docs before Skia/PDF. Every tool named in the string
// is returned: "LibreOffice 6.3; modified using iText 7.2.2" gives both.
func Match(s string) []Tool {
	s = normalise(s)
	if strings.TrimSpace(s) == "" {
		return nil
	}
	var out []Tool
	for i := range catalogue {
		r := &catalogue[i]
		if r.matches(s) {
			out = append(out, Tool{Name: r.name, Class: r.class})
		}
	}
	return out
}

// Identify merges several strings (Info Producer, Info Creator, XMP Producer,
// XMP CreatorTool, XMP history agents) into a deterministic, de-duplicated
// list of tools in the order first seen. It returns nil when nothing is
// recognised.
func Identify(values ...string) []Tool {
	var out []Tool
	var seen map[string]bool
	for _, v := range values {
		for _, t := range Match(v) {
			if seen == nil {
				seen = make(map[string]bool, 4)
			}
			if seen[t.Name] {
				continue
			}
			seen[t.Name] = true
			out = append(out, t)
		}
	}
	return out
}

// Count returns the number of catalogue entries.
func Count() int { return len(catalogue) }

// Entries returns a copy of the catalogue for documentation. See Entry for
// the pattern notation.
func Entries() []Entry {
	out := make([]Entry, 0, len(catalogue))
	for _, r := range catalogue {
		var p []string
		p = append(p, r.subs...)
		for _, w := range r.words {
			p = append(p, `\b`+w+`\b`)
		}
		for _, w := range r.whole {
			p = append(p, "^"+w+"$")
		}
		for _, w := range r.not {
			p = append(p, "!"+w)
		}
		for _, w := range r.mask {
			p = append(p, "~"+w)
		}
		out = append(out, Entry{Name: r.name, Class: r.class, Patterns: p})
	}
	return out
}

// matches reports whether the normalised value s names this entry.
func (r *rule) matches(s string) bool {
	hit := false
	for _, p := range r.subs {
		if r.find(s, p, false) {
			hit = true
			break
		}
	}
	if !hit {
		for _, p := range r.words {
			if r.find(s, p, true) {
				hit = true
				break
			}
		}
	}
	if !hit {
		for _, p := range r.whole {
			if wholeValue(s, p) {
				hit = true
				break
			}
		}
	}
	if !hit {
		return false
	}
	for _, p := range r.not {
		if strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// find reports whether tok occurs in s at a position that counts: outside
// every mask phrase and, when word is set, with no ASCII letter or digit
// touching either end of it (ends of tok that are punctuation need no
// boundary).
func (r *rule) find(s, tok string, word bool) bool {
	for from := 0; from <= len(s)-len(tok); {
		i := strings.Index(s[from:], tok)
		if i < 0 {
			return false
		}
		i += from
		from = i + 1
		if word && !boundaryAt(s, i, tok) {
			continue
		}
		if r.masked(s, i, tok) {
			continue
		}
		return true
	}
	return false
}

// boundaryAt reports whether tok, found at s[i:], stands as a whole word.
func boundaryAt(s string, i int, tok string) bool {
	if isAlnum(tok[0]) && i > 0 && isAlnum(s[i-1]) {
		return false
	}
	end := i + len(tok)
	if isAlnum(tok[len(tok)-1]) && end < len(s) && isAlnum(s[end]) {
		return false
	}
	return true
}

// masked reports whether the hit of tok at s[i:] lies inside one of the
// entry's mask phrases.
func (r *rule) masked(s string, i int, tok string) bool {
	for _, m := range r.mask {
		k := strings.Index(m, tok)
		if k < 0 || i < k {
			continue
		}
		if strings.HasPrefix(s[i-k:], m) {
			return true
		}
	}
	return false
}

// wholeValue reports whether s, trimmed, is tok optionally followed by a
// version: the rest must start with a non-alphanumeric byte and hold no
// ASCII letter ("Writer", "Pages 5.5", "Word (16.0)" but not "Drawing" or
// "Pages report").
func wholeValue(s, tok string) bool {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, tok) {
		return false
	}
	rest := s[len(tok):]
	if rest == "" {
		return true
	}
	if isAlnum(rest[0]) {
		return false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if c >= 'a' && c <= 'z' {
			return false
		}
	}
	return true
}

// isAlnum reports whether b is an ASCII letter or digit. Input is lower-cased,
// but upper case is accepted too so the helper stays correct on its own.
func isAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b >= 'A' && b <= 'Z'
}
