package office

import (
	"bytes"
	"encoding/xml"
	"unicode/utf8"
)

// lexer is a fast path for encoding/xml's RawToken in Strict mode, which
// costs more than everything else an Office inspection does. It reads only
// a subset of XML: ASCII names, the five predefined entities and character
// references, the XML declaration and other processing instructions. On
// that subset it yields exactly the tokens RawToken yields. Anything else
// (comments, CDATA, DOCTYPE, non-ASCII names, any syntax error) makes it
// give up before producing a token, and the walker goes on with
// encoding/xml (walker.raw), so what a report says never depends on which
// reader ran.
//
// Names are interned per part, character data without references or
// carriage returns is a slice of the part, and attribute values become
// strings only when asked for: a token is only valid until the next call.
type lexer struct {
	data      []byte
	pos       int
	out       *token // where tokens go
	closing   bool   // an EndElement for closeName is pending (self-closing tag)
	closeName xml.Name
	attrs     []lexAttr
	scratch   []byte
	names     *[nameSlots]string // interned names, allocated on large parts
}

// Besides the token kinds, the lexer ends a call with one of these.
const (
	lexEOF    tokKind = iota + 100
	lexGiveUp         // outside the subset, or an error encoding/xml would report
)

// nameSlots is the size of the direct-mapped name table: OOXML parts use a
// few dozen element and attribute names, so collisions are rare, and a
// collision costs only an allocation.
const nameSlots = 256

// nameTableMin is the part size from which the table pays for itself;
// smaller parts allocate their few names.
const nameTableMin = 8 << 10

func (l *lexer) next() tokKind {
	l.scratch = l.scratch[:0] // the previous token's values expire now
	if l.closing {
		l.closing = false
		l.out.end = xml.EndElement{Name: l.closeName}
		return tokEnd
	}
	if l.pos >= len(l.data) {
		return lexEOF
	}
	if l.data[l.pos] != '<' {
		return l.text()
	}
	l.pos++
	if l.pos >= len(l.data) {
		return lexGiveUp
	}
	switch l.data[l.pos] {
	case '/':
		l.pos++
		name, ok := l.nsname()
		if !ok {
			return lexGiveUp
		}
		l.space()
		if l.pos >= len(l.data) || l.data[l.pos] != '>' {
			return lexGiveUp
		}
		l.pos++
		l.out.end = xml.EndElement{Name: name}
		return tokEnd
	case '?':
		l.pos++
		return l.procInst()
	case '!':
		return lexGiveUp
	}
	return l.start()
}

// start reads an element start tag; l.pos is just past '<'.
func (l *lexer) start() tokKind {
	name, ok := l.nsname()
	if !ok {
		return lexGiveUp
	}
	l.attrs = l.attrs[:0]
	for {
		l.space()
		if l.pos >= len(l.data) {
			return lexGiveUp
		}
		switch l.data[l.pos] {
		case '/':
			if l.pos+1 >= len(l.data) || l.data[l.pos+1] != '>' {
				return lexGiveUp
			}
			l.pos += 2
			l.closing, l.closeName = true, name
			return l.startElement(name)
		case '>':
			l.pos++
			return l.startElement(name)
		}
		an, ok := l.nsname()
		if !ok {
			return lexGiveUp
		}
		l.space()
		if l.pos >= len(l.data) || l.data[l.pos] != '=' {
			return lexGiveUp
		}
		l.pos++
		l.space()
		if l.pos >= len(l.data) {
			return lexGiveUp
		}
		q := l.data[l.pos]
		if q != '"' && q != '\'' {
			return lexGiveUp
		}
		l.pos++
		v, ok := l.chars(q)
		if !ok {
			return lexGiveUp
		}
		l.attrs = append(l.attrs, lexAttr{name: an, value: v})
	}
}

// lexAttr is an attribute of the current start tag; its value is turned
// into a string only when a walker asks for it.
type lexAttr struct {
	name  xml.Name
	value span
}

// attr returns the value of the current start tag's first attribute with
// the local name, as the walker's attr does.
func (l *lexer) attr(local string) (string, bool) {
	for _, a := range l.attrs {
		if a.name.Local == local {
			return string(l.bytes(a.value)), true
		}
	}
	return "", false
}

func (l *lexer) startElement(name xml.Name) tokKind {
	l.out.start = xml.StartElement{Name: name}
	return tokStart
}

// procInst reads a processing instruction; l.pos is just past "<?". Like
// RawToken it refuses only an XML declaration naming a version other than
// 1.0; an encoding declaration is accepted, because the walker reads every
// declared encoding as UTF-8.
func (l *lexer) procInst() tokKind {
	target, ok := l.name()
	if !ok {
		return lexGiveUp
	}
	isXML := string(target) == "xml"
	l.space()
	end := bytes.Index(l.data[l.pos:], []byte("?>"))
	if end < 0 {
		return lexGiveUp
	}
	body := l.data[l.pos : l.pos+end]
	l.pos += end + 2
	if isXML {
		// RawToken's scan for version= is approximate; accept only the
		// unambiguous shapes: no version, or exactly one and it is 1.0.
		switch bytes.Count(body, []byte("version=")) {
		case 0:
		case 1:
			k := bytes.Index(body, []byte("version=")) + len("version=")
			v := body[k:]
			if !bytes.HasPrefix(v, []byte(`"1.0"`)) && !bytes.HasPrefix(v, []byte(`'1.0'`)) {
				return lexGiveUp
			}
		default:
			return lexGiveUp
		}
	}
	return tokOther
}

// text reads character data up to the next '<' or the end.
func (l *lexer) text() tokKind {
	v, ok := l.chars(0)
	if !ok {
		return lexGiveUp
	}
	l.out.text = l.bytes(v)
	return tokText
}

// span is where a value read by chars lies: in the part, or in l.scratch
// when a reference or a carriage return was replaced.
type span struct {
	lo, hi int
	copied bool
}

func (l *lexer) bytes(v span) []byte {
	if v.copied {
		return l.scratch[v.lo:v.hi]
	}
	return l.data[v.lo:v.hi]
}

// plain are the bytes chars passes over without a decision: printable
// ASCII other than markup, references, quotes and the "]]>" sequence.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = true
	}
	for _, c := range []byte("<>&]\"'") {
		t[c] = false
	}
	return t
}()

// chars reads character data (quote 0) or a quoted attribute value (quote
// '"' or the apostrophe; l.pos is past the opening quote, and the closing one is
// consumed) as RawToken's text does: references replaced, "\r\n" and "\r"
// read as "\n", every character valid UTF-8 in the XML Char range, and in
// character data no "]]>". A value with a replacement is appended to
// l.scratch.
func (l *lexer) chars(quote byte) (span, bool) {
	start := l.pos
	v := span{lo: start}
	copyFrom := func() {
		if !v.copied {
			v = span{lo: len(l.scratch), copied: true}
			l.scratch = append(l.scratch, l.data[start:l.pos]...)
		}
	}
	var b0, b1 byte // the two previous input bytes, as RawToken tracks them
	for l.pos < len(l.data) {
		b := l.data[l.pos]
		if plain[b] {
			run := l.pos
			for l.pos++; l.pos < len(l.data) && plain[l.data[l.pos]]; l.pos++ {
			}
			if v.copied {
				l.scratch = append(l.scratch, l.data[run:l.pos]...)
			}
			// No plain byte is ']' or '\r', so what the two previous
			// bytes decide next is as if there were none.
			b0, b1 = 0, 0
			continue
		}
		switch {
		case quote == 0 && b == '<':
			return l.end(v), true
		case quote != 0 && b == quote:
			v = l.end(v)
			l.pos++
			return v, true
		case b == '<':
			return v, false // unescaped < inside a quoted value
		case quote == 0 && b == '>' && b0 == ']' && b1 == ']':
			return v, false // ]]> outside CDATA
		case b == '&':
			copyFrom()
			if !l.reference() {
				return v, false
			}
			b0, b1 = 0, 0
			continue
		case b == '\r':
			copyFrom()
			if v.copied {
				l.scratch = append(l.scratch, '\n')
			}
			l.pos++
		case b == '\n' && b1 == '\r':
			l.pos++ // the '\r' already stood for the pair
		case b < utf8.RuneSelf:
			if b < 0x20 && b != '\t' && b != '\n' {
				return v, false
			}
			if v.copied {
				l.scratch = append(l.scratch, b)
			}
			l.pos++
		default:
			r, n := utf8.DecodeRune(l.data[l.pos:])
			if r == utf8.RuneError && n == 1 || !inCharRange(r) {
				return v, false
			}
			if v.copied {
				l.scratch = append(l.scratch, l.data[l.pos:l.pos+n]...)
			}
			l.pos += n
		}
		b0, b1 = b1, b
	}
	if quote != 0 {
		return v, false // unterminated value
	}
	return l.end(v), true
}

// end closes the span v at the current position.
func (l *lexer) end(v span) span {
	if v.copied {
		v.hi = len(l.scratch)
	} else {
		v.hi = l.pos
	}
	return v
}

// predefined are the entities RawToken knows without a declaration.
var predefined = [...]struct {
	name string
	r    byte
}{{"lt", '<'}, {"gt", '>'}, {"amp", '&'}, {"apos", '\''}, {"quot", '"'}}

// reference reads "&name;" or "&#n;" / "&#xh;" at l.pos and appends its
// character to l.scratch. It refuses what RawToken
// refuses in Strict mode with no Entity map, and character references
// outside the XML Char range, which RawToken refuses in its final check.
func (l *lexer) reference() bool {
	p := l.pos + 1
	if p < len(l.data) && l.data[p] == '#' {
		p++
		base := rune(10)
		if p < len(l.data) && l.data[p] == 'x' {
			base = 16
			p++
		}
		var r rune
		digits := 0
		for ; p < len(l.data); p++ {
			d := hexDigit(l.data[p])
			if d < 0 || d >= int(base) {
				break
			}
			if r = r*base + rune(d); r > utf8.MaxRune {
				return false
			}
			digits++
		}
		if digits == 0 || p >= len(l.data) || l.data[p] != ';' || !inCharRange(r) {
			return false
		}
		l.scratch = utf8.AppendRune(l.scratch, r)
		l.pos = p + 1
		return true
	}
	q := p
	for q < len(l.data) && (isNameByte(l.data[q]) || l.data[q] >= utf8.RuneSelf) {
		q++
	}
	if q >= len(l.data) || l.data[q] != ';' {
		return false
	}
	for _, e := range predefined {
		if string(l.data[p:q]) == e.name {
			l.scratch = append(l.scratch, e.r)
			l.pos = q + 1
			return true
		}
	}
	return false
}

func hexDigit(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'a' <= c && c <= 'f':
		return int(c-'a') + 10
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// inCharRange is the Char production of XML 1.0, as RawToken checks it.
func inCharRange(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D ||
		r >= 0x20 && r <= 0xD7FF ||
		r >= 0xE000 && r <= 0xFFFD ||
		r >= 0x10000 && r <= 0x10FFFF
}

// space skips what RawToken's space skips.
func (l *lexer) space() {
	for l.pos < len(l.data) {
		switch l.data[l.pos] {
		case ' ', '\r', '\n', '\t':
			l.pos++
		default:
			return
		}
	}
}

// nsname reads a name and splits it at its colon as RawToken does: a
// leading or trailing colon stays in Local, two colons are an error.
func (l *lexer) nsname() (xml.Name, bool) {
	s, ok := l.name()
	if !ok {
		return xml.Name{}, false
	}
	i := -1
	for j := 0; j < len(s); j++ {
		if s[j] == ':' {
			if i >= 0 {
				return xml.Name{}, false
			}
			i = j
		}
	}
	if i <= 0 || i == len(s)-1 {
		return xml.Name{Local: l.intern(s)}, true
	}
	return xml.Name{Space: l.intern(s[:i]), Local: l.intern(s[i+1:])}, true
}

// name reads an ASCII XML name; a non-ASCII byte gives up, since checking
// it would need encoding/xml's Unicode name tables.
func (l *lexer) name() ([]byte, bool) {
	start := l.pos
	if l.pos >= len(l.data) {
		return nil, false
	}
	switch c := l.data[l.pos]; {
	case 'A' <= c && c <= 'Z', 'a' <= c && c <= 'z', c == '_', c == ':':
	default:
		return nil, false
	}
	for l.pos++; l.pos < len(l.data); l.pos++ {
		c := l.data[l.pos]
		if c >= utf8.RuneSelf {
			return nil, false
		}
		if !isNameByte(c) {
			return l.data[start:l.pos], true
		}
	}
	return nil, false // a name running to the end is an unexpected EOF
}

func isNameByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' ||
		c == '_' || c == ':' || c == '.' || c == '-'
}

// intern returns b as a string, from the part's name table when b is there
// and otherwise entering it.
func (l *lexer) intern(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if l.names == nil {
		if len(l.data) < nameTableMin {
			return string(b)
		}
		l.names = new([nameSlots]string)
	}
	h := uint(len(b))*31 + uint(b[0])*7 + uint(b[len(b)-1])
	if len(b) > 2 {
		h = h*131 + uint(b[len(b)-2])
	}
	slot := &l.names[h%nameSlots]
	if *slot != string(b) {
		*slot = string(b)
	}
	return *slot
}
