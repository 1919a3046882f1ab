package inject

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// tech is a set of obfuscation techniques, one bit each, in the order of
// techNames.
type tech uint16

const (
	tZeroWidth tech = 1 << iota
	tBidi
	tHomoglyph
	tBase64
	tHex
	tSpaced
	tLeet
	tComment
	tFullwidth
	tStyled
	tTags
)

var techNames = [...]string{
	TechZeroWidth, TechBidi, TechHomoglyph, TechBase64, TechHex, TechSpaced,
	TechLeet, TechComment, TechFullwidth, TechStyled, TechTags,
}

// names lists the techniques of t in a fixed order.
func (t tech) names() []string {
	var out []string
	for i, n := range techNames {
		if t&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

// token is one normalised word and what separated it from the word before.
type token struct {
	w string
	// start: a clause boundary (punctuation, a quote, a line break, the
	// start of the text) precedes the word.
	start bool
	// sentence: a sentence boundary (full stop, ! ? or a line break)
	// precedes the word; matches never reach across one.
	sentence bool
	colon    bool // the separator before holds a colon
	quote    bool // the separator before holds a quotation mark
	// sepLen and sep describe the separator before, for spaced letters:
	// its length in runes and its rune when it is one repeated rune.
	sepLen int
	sep    rune
	tech   tech
}

// tokenize lexes text into words and undoes spaced letters, words run
// together, homoglyph mixing and leetspeak, which need the cue vocabulary.
func (lx *lexer) tokenize(text string, segTech tech) []token {
	toks := splitLong(joinSpaced(lx.lex(text, segTech)))
	for i := range toks[:len(toks)-1] {
		fixWord(&toks[i])
	}
	return toks
}

// lexer keeps the buffers of lex between texts.
type lexer struct {
	toks []token
	buf  []byte
	ends []int
}

// lex lower-cases and folds text into words. Letters are mapped to plain
// lower-case Latin where an obfuscation or an accent hides them; invisible
// characters are dropped; words carry the techniques that touched them. The
// result ends with a sentinel token (empty word) holding the separator after
// the last word, so boundary tests need no special case at the end.
func (lx *lexer) lex(text string, segTech tech) []token {
	// Words are written one after another into buf and sliced out of one
	// string at the end: one allocation for all of them.
	if n := len(text)/4 + 2; cap(lx.toks) < n {
		lx.toks, lx.ends = make([]token, 0, n), make([]int, 0, n)
	}
	if cap(lx.buf) < len(text) {
		lx.buf = make([]byte, 0, len(text))
	}
	toks, buf, ends := lx.toks[:0], lx.buf[:0], lx.ends[:0]
	var (
		wStart  int
		wTech   tech
		sep     token // separator facts gathered since the last word
		prevLen int   // runes of the previous word
	)
	sep.start, sep.sentence = true, true
	flush := func() {
		if len(buf) == wStart {
			return
		}
		t := sep
		t.tech = wTech | segTech
		toks = append(toks, t)
		ends = append(ends, len(buf))
		prevLen = utf8.RuneCount(buf[wStart:])
		wStart, wTech = len(buf), 0
		sep = token{}
	}
	addSep := func(r rune) {
		flush()
		sep.sepLen++
		switch {
		case sep.sepLen == 1:
			sep.sep = r
		case sep.sep != r:
			sep.sep = -1
		}
		switch r {
		case '.':
			// A dot after a single letter is an abbreviation or a spaced
			// word ("e.g.", "i.g.n.o.r.e"), not the end of a sentence.
			if prevLen > 1 {
				sep.start, sep.sentence = true, true
			}
		case '!', '?', '\n', '\r', '\u2029', '\u2028', '\u3002', '\u00A1', '\u00BF':
			sep.start, sep.sentence = true, true
		case ':':
			sep.start, sep.colon = true, true
		case '"', '\'', '`', '\u2018', '\u2019', '\u201A', '\u201C', '\u201D', '\u201E', '\u00AB', '\u00BB', '\u2039', '\u203A':
			sep.start, sep.quote = true, true
		case ';', ',', '(', ')', '[', ']', '{', '}', '<', '>', '|', '\u2022', '\u00B7', '*', '#', '=', '\u2013', '\u2014', '\t':
			sep.start = true
		case '-':
			if sep.sepLen > 1 { // " - " is a dash, "e-mail" a hyphen
				sep.start = true
			}
		}
	}
	for _, r := range text {
		switch {
		case r < utf8.RuneSelf:
			if 'A' <= r && r <= 'Z' {
				r += 'a' - 'A'
			}
			if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
				buf = append(buf, byte(r))
			} else {
				addSep(r)
			}
			continue
		case r == 0x00AD || r == 0x034F:
			continue // soft hyphen, grapheme joiner: legitimately invisible
		case isZeroWidth(r):
			if len(buf) > wStart {
				wTech |= tZeroWidth
			}
			continue
		case isBidi(r):
			if len(buf) > wStart {
				wTech |= tBidi
			}
			continue
		}
		m, t := mapRune(r)
		wTech |= t
		if m == "" {
			if unicode.Is(unicode.Mn, r) {
				continue // a combining accent
			}
			addSep(r)
			continue
		}
		buf = append(buf, m...)
	}
	flush()
	sep.start, sep.sentence = true, true
	words := string(buf)
	a := 0
	for i, b := range ends {
		toks[i].w, a = words[a:b], b
	}
	toks = append(toks, sep)
	lx.toks, lx.buf, lx.ends = toks, buf, ends
	return toks
}

// isZeroWidth: characters that render as nothing and are used to split
// words so a filter misses them.
func isZeroWidth(r rune) bool {
	switch {
	case r >= 0x200B && r <= 0x200D, r >= 0x2060 && r <= 0x2064, r == 0xFEFF, r == 0x180E,
		r >= 0xFE00 && r <= 0xFE0F, r >= 0xE0100 && r <= 0xE01EF:
		return true
	}
	return false
}

// isBidi: bidirectional formatting characters.
func isBidi(r rune) bool {
	switch {
	case r == 0x061C, r == 0x200E, r == 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// mapRune returns the lower-case plain form of a letter or digit (possibly
// several letters, as for "ß") and the technique that hid it, or "" for a
// rune that is not part of a word.
func mapRune(r rune) (string, tech) {
	switch {
	case r >= 0xFF01 && r <= 0xFF5E: // fullwidth ASCII
		return asciiWord(r-0xFEE0, tFullwidth)
	case r >= 0x1D400 && r <= 0x1D6A3: // mathematical alphanumerics: 26+26 per style
		i := (r - 0x1D400) % 52
		if i >= 26 {
			return string('a' + i - 26), tStyled
		}
		return string('a' + i), tStyled
	case r >= 0x1D7CE && r <= 0x1D7FF: // mathematical digits: 10 per style
		return string('0' + (r-0x1D7CE)%10), tStyled
	case r >= 0x24B6 && r <= 0x24CF: // circled capitals
		return string('a' + r - 0x24B6), tStyled
	case r >= 0x24D0 && r <= 0x24E9: // circled small letters
		return string('a' + r - 0x24D0), tStyled
	case r >= 0x1F130 && r <= 0x1F189: // squared and negative circled/squared capitals
		return string('a' + (r-0x1F130)%26), tStyled
	}
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return "", 0
	}
	r = unicode.ToLower(r)
	if f, ok := folds()[r]; ok {
		return f, 0
	}
	return string(r), 0
}

func asciiWord(r rune, t tech) (string, tech) {
	if 'A' <= r && r <= 'Z' {
		r += 'a' - 'A'
	}
	if 'a' <= r && r <= 'z' || '0' <= r && r <= '9' {
		return string(r), t
	}
	return "", 0
}

// folds strips the accents of the Latin letters the cue languages use, so
// "instruções" and "instrucoes" match alike. Built on first use, apart from
// the lexicon, whose words are normalised through it.
var folds = sync.OnceValue(func() map[rune]string {
	m := map[rune]string{}
	for _, spec := range strings.Fields(`àáâãäåāăą:a æ:ae çćĉċč:c ďđð:d èéêëēĕėęě:e ĝğġģ:g ĥħ:h ìíîïĩīĭįı:i ĵ:j ķ:k ĺļľŀł:l
		ñńņň:n òóôõöøōŏő:o œ:oe ŕŗř:r śŝşšș:s ßẞ:ss ţťŧț:t ùúûüũūŭůűų:u ŵ:w ýÿŷ:y źżž:z`) {
		from, to, _ := strings.Cut(spec, ":")
		for _, r := range from {
			m[r] = to
		}
	}
	return m
})

// confusable maps Cyrillic and Greek letters that look like Latin ones
// (after lower-casing) to those Latin letters. It is applied only to words
// that mix scripts, so Russian or Greek text is left alone. A switch, not a
// map, so that no table is built at process start.
func confusable(r rune) rune {
	switch r {
	case 'а', 'α':
		return 'a'
	case 'в', 'β':
		return 'b'
	case 'е', 'ё', 'ε':
		return 'e'
	case 'к', 'κ':
		return 'k'
	case 'м':
		return 'm'
	case 'н', 'һ':
		return 'h'
	case 'о', 'ο':
		return 'o'
	case 'р', 'ρ':
		return 'p'
	case 'с':
		return 'c'
	case 'т', 'τ':
		return 't'
	case 'у', 'γ':
		return 'y'
	case 'х', 'χ':
		return 'x'
	case 'і', 'ї', 'ι':
		return 'i'
	case 'ј':
		return 'j'
	case 'ѕ':
		return 's'
	case 'ԁ':
		return 'd'
	case 'ԛ':
		return 'q'
	case 'ԝ', 'ω':
		return 'w'
	case 'ζ':
		return 'z'
	case 'η':
		return 'n'
	case 'μ', 'υ':
		return 'u'
	case 'ν':
		return 'v'
	}
	return r
}

// unleetByte maps a digit written for a letter to that letter ("1" is
// handled by the caller, which tries both "i" and "l").
func unleetByte(c byte) byte {
	switch c {
	case '0':
		return 'o'
	case '3':
		return 'e'
	case '4':
		return 'a'
	case '5':
		return 's'
	case '7':
		return 't'
	}
	return c
}

// fixWord undoes homoglyph mixing and leetspeak in one word.
func fixWord(t *token) {
	w := t.w
	latin, other, digits, letters := false, false, false, false
	for _, r := range w {
		switch {
		case r >= 'a' && r <= 'z':
			latin, letters = true, true
		case r >= '0' && r <= '9':
			digits = true
		case r >= 0x370 && r <= 0x52F:
			other, letters = true, true
		default:
			letters = true
		}
	}
	if latin && other {
		var b strings.Builder
		for _, r := range w {
			b.WriteRune(confusable(r))
		}
		w = b.String()
		t.w, t.tech = w, t.tech|tHomoglyph
	}
	if digits && letters {
		if fixed, ok := unleet(w); ok {
			t.w, t.tech = fixed, t.tech|tLeet
		}
	}
}

// unleet reads digits in a word as letters; the result counts only when it
// is a word of the cue vocabulary, so part numbers stay as they are. A "1"
// is tried as "i", then as "l".
func unleet(w string) (string, bool) {
	if len(w) > lex().maxVocab || strings.ContainsAny(w, "2689") {
		return "", false // identifiers and hashes, not words
	}
	for _, one := range []byte{'i', 'l'} {
		b := []byte(w)
		for i, c := range b {
			if c == '1' {
				b[i] = one
			} else {
				b[i] = unleetByte(c)
			}
		}
		if s := string(b); vocabulary()[s] {
			return s, true
		}
	}
	return "", false
}
