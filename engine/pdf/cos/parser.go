package cos

import (
	"bytes"
	"errors"
	"strconv"
)

// MaxDepth bounds nesting of arrays and dictionaries. Go cannot recover from
// a stack overflow, so hostile nesting is refused long before it matters.
const MaxDepth = 100

// maxStringBytes bounds one string or name token.
const maxStringBytes = 4 << 20

// Parse errors. They are values; nothing here panics on input.
var (
	ErrEOF       = errors.New("cos: unexpected end of data")
	ErrSyntax    = errors.New("cos: syntax error")
	ErrDepth     = errors.New("cos: nesting too deep")
	ErrNotObject = errors.New("cos: no indirect object header")
	ErrBadStream = errors.New("cos: stream data not delimited")
	ErrTooLong   = errors.New("cos: token too long")
)

// Parser reads objects from a byte slice that it never modifies. The zero
// value is not usable; use NewParser.
type Parser struct {
	b   []byte
	pos int
	// Anomalies counts tolerated deviations (duplicate keys, stray tokens)
	// so the caller can report that the file needed leniency.
	Anomalies int
	// Length resolves an indirect /Length of a stream. Optional.
	Length func(Ref) (int64, bool)
	// EndstreamAt finds the first "endstream" at or after an offset, for
	// streams whose /Length is wrong. Optional; a bounded local search is
	// used without it.
	EndstreamAt func(from int) int
	// Scratch is working storage, shared by the parsers of one file so
	// that they reuse it. Optional; a parser makes its own without it.
	Scratch *Scratch
}

// NewParser returns a parser positioned at off.
func NewParser(b []byte, off int) *Parser {
	if off < 0 {
		off = 0
	}
	if off > len(b) {
		off = len(b)
	}
	return &Parser{b: b, pos: off}
}

// Pos is the current offset.
func (p *Parser) Pos() int { return p.pos }

// Seek moves to off.
func (p *Parser) Seek(off int) {
	p.pos = max(0, min(off, len(p.b)))
}

// Character classes, looked up rather than compared: the tokenizers ask
// for every byte of every content stream.
const (
	classWhite = 1 << iota
	classDelim
	classNumeric // digits, '.', '+', '-'
)

var charClass = func() (t [256]uint8) {
	for _, c := range []byte(" \n\r\t\f\x00") {
		t[c] |= classWhite
	}
	for _, c := range []byte("()<>[]{}/%") {
		t[c] |= classDelim
	}
	for _, c := range []byte("0123456789.+-") {
		t[c] |= classNumeric
	}
	return t
}()

// IsWhite reports PDF white-space characters.
func IsWhite(c byte) bool { return charClass[c]&classWhite != 0 }

// IsDelim reports PDF delimiter characters.
func IsDelim(c byte) bool { return charClass[c]&classDelim != 0 }

func isRegular(c byte) bool { return charClass[c]&(classWhite|classDelim) == 0 }

// SkipSpace skips white space and comments.
func (p *Parser) SkipSpace() {
	b := p.b
	for p.pos < len(b) {
		c := b[p.pos]
		if IsWhite(c) {
			p.pos++
			continue
		}
		if c == '%' {
			for p.pos < len(b) && b[p.pos] != '\n' && b[p.pos] != '\r' {
				p.pos++
			}
			continue
		}
		return
	}
}

// Keyword reads a bare regular-character token (obj, R, xref, trailer ...)
// without consuming anything when the next token is not one.
func (p *Parser) Keyword() []byte {
	p.SkipSpace()
	start := p.pos
	for p.pos < len(p.b) && isRegular(p.b[p.pos]) {
		p.pos++
	}
	return p.b[start:p.pos]
}

// PeekKeyword reports whether the next token is kw, without consuming it.
func (p *Parser) PeekKeyword(kw string) bool {
	save := p.pos
	k := p.Keyword()
	p.pos = save
	return string(k) == kw
}

// Object parses one direct object (a reference "n g R" included).
func (p *Parser) Object() (Object, error) {
	return p.object(0)
}

func (p *Parser) object(depth int) (Object, error) {
	if depth > MaxDepth {
		return nil, ErrDepth
	}
	p.SkipSpace()
	if p.pos >= len(p.b) {
		return nil, ErrEOF
	}
	c := p.b[p.pos]
	switch {
	case c == '/':
		return p.name()
	case c == '(':
		return p.literal()
	case c == '<':
		if p.pos+1 < len(p.b) && p.b[p.pos+1] == '<' {
			return p.dict(depth)
		}
		return p.hex()
	case c == '[':
		return p.array(depth)
	case c >= '0' && c <= '9', c == '+', c == '-', c == '.':
		return p.numberOrRef()
	}
	kw := p.Keyword()
	switch string(kw) {
	case "true":
		return Bool(true), nil
	case "false":
		return Bool(false), nil
	case "null":
		return nil, nil
	case "":
		// A stray delimiter such as ')' '>' '{' '}' ']': step over it.
		p.pos++
	}
	return nil, ErrSyntax
}

func (p *Parser) name() (Object, error) {
	raw, _, err := p.nameBytes(nil)
	if err != nil {
		return nil, err
	}
	return p.scratch().intern(raw), nil
}

// nameBytes reads a name at its '/': a slice of the data when it has no
// #xx escape, else its decoded form appended to dst (grown is dst after).
func (p *Parser) nameBytes(dst []byte) (name, grown []byte, err error) {
	p.pos++ // '/'
	start := p.pos
	hasEscape := false
	for p.pos < len(p.b) && isRegular(p.b[p.pos]) {
		if p.b[p.pos] == '#' {
			hasEscape = true
		}
		p.pos++
	}
	raw := p.b[start:p.pos]
	if len(raw) > maxStringBytes {
		return nil, dst, ErrTooLong
	}
	if !hasEscape {
		return raw, dst, nil
	}
	n0 := len(dst)
	out := dst
	for i := 0; i < len(raw); i++ {
		if raw[i] == '#' && i+2 < len(raw) {
			if v, ok := hexByte(raw[i+1], raw[i+2]); ok {
				out = append(out, v)
				i += 2
				continue
			}
		}
		out = append(out, raw[i])
	}
	return out[n0:], out, nil
}

// HexVal is the value of one hexadecimal digit, as PDF hex strings and
// name escapes write it.
func HexVal(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func hexByte(a, b byte) (byte, bool) {
	x, ok1 := HexVal(a)
	y, ok2 := HexVal(b)
	return x<<4 | y, ok1 && ok2
}

func (p *Parser) literal() (Object, error) {
	str, _, err := p.literalBytes(nil)
	if err != nil {
		return nil, err
	}
	return String{Bytes: str}, nil
}

// literalBytes reads a literal string at its '(': a slice of the data when
// it has no escape, else its decoded form appended to dst (grown is dst
// after).
func (p *Parser) literalBytes(dst []byte) (str, grown []byte, err error) {
	p.pos++ // '('
	b := p.b
	// Fast path: no escapes and balanced parentheses.
	start := p.pos
	nest := 1
	for i := start; i < len(b); i++ {
		switch b[i] {
		case '\\':
			goto slow
		case '(':
			nest++
		case ')':
			nest--
			if nest == 0 {
				p.pos = i + 1
				if i-start > maxStringBytes {
					return nil, dst, ErrTooLong
				}
				return b[start:i:i], dst, nil
			}
		}
	}
	// Unterminated: qpdf treats end of data as the end of the string.
	p.pos = len(b)
	p.Anomalies++
	return b[start:len(b):len(b)], dst, nil
slow:
	n0 := len(dst)
	out := dst
	if out == nil {
		out = make([]byte, 0, 64)
	}
	nest = 1
	for p.pos < len(b) {
		c := b[p.pos]
		p.pos++
		switch c {
		case '(':
			nest++
		case ')':
			nest--
			if nest == 0 {
				return out[n0:], out, nil
			}
		case '\r':
			// An end of line in a string is read as \n.
			if p.pos < len(b) && b[p.pos] == '\n' {
				p.pos++
			}
			c = '\n'
		case '\\':
			if p.pos >= len(b) {
				continue
			}
			e := b[p.pos]
			p.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if p.pos < len(b) && b[p.pos] == '\n' {
					p.pos++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && p.pos < len(b) && b[p.pos] >= '0' && b[p.pos] <= '7'; k++ {
						v = v*8 + int(b[p.pos]-'0')
						p.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		if len(out)-n0 >= maxStringBytes {
			return nil, out, ErrTooLong
		}
		out = append(out, c)
	}
	p.Anomalies++
	return out[n0:], out, nil
}

func (p *Parser) hex() (Object, error) {
	str, _, err := p.hexBytes(nil)
	if err != nil {
		return nil, err
	}
	return String{Bytes: str, Hex: true}, nil
}

// hexBytes reads a hex string at its '<', appending the bytes to dst.
func (p *Parser) hexBytes(dst []byte) (str, grown []byte, err error) {
	p.pos++ // '<'
	n0 := len(dst)
	out := dst
	if out == nil {
		out = make([]byte, 0, 32)
	}
	var hi byte
	half := false
	for p.pos < len(p.b) {
		c := p.b[p.pos]
		p.pos++
		if c == '>' {
			if half {
				out = append(out, hi<<4)
			}
			return out[n0:], out, nil
		}
		v, ok := HexVal(c)
		if !ok {
			if !IsWhite(c) {
				p.Anomalies++
			}
			continue
		}
		if half {
			out = append(out, hi<<4|v)
			half = false
			if len(out)-n0 > maxStringBytes {
				return nil, out, ErrTooLong
			}
		} else {
			hi, half = v, true
		}
	}
	return nil, out, ErrEOF
}

func (p *Parser) array(depth int) (Object, error) {
	p.pos++ // '['
	s := p.scratch()
	base := len(s.elems)
	err := p.arrayElems(depth, s)
	arr := Array{}
	if n := len(s.elems) - base; n > 0 {
		arr = make(Array, n)
		copy(arr, s.elems[base:])
	}
	clear(s.elems[base:])
	s.elems = s.elems[:base]
	return arr, err
}

// arrayElems reads the elements of an array onto the scratch stack.
func (p *Parser) arrayElems(depth int, s *Scratch) error {
	for {
		p.SkipSpace()
		if p.pos >= len(p.b) {
			return ErrEOF
		}
		if p.b[p.pos] == ']' {
			p.pos++
			return nil
		}
		if p.atObjectEnd() {
			// "endobj" inside an unterminated array: close it here.
			p.Anomalies++
			return nil
		}
		before := p.pos
		o, err := p.object(depth + 1)
		if err != nil {
			if err == ErrSyntax && p.pos > before {
				p.Anomalies++
				s.elems = append(s.elems, nil)
				continue
			}
			return err
		}
		s.elems = append(s.elems, o)
	}
}

// atObjectEnd reports whether the next token ends an object definition,
// which a truncated array or dictionary must not swallow.
func (p *Parser) atObjectEnd() bool {
	rest := p.b[p.pos:]
	// Asked before every array element and dictionary entry: the first
	// byte settles almost every call.
	if len(rest) == 0 || (rest[0] != 'e' && rest[0] != 's') {
		return false
	}
	return bytes.HasPrefix(rest, []byte("endobj")) || bytes.HasPrefix(rest, []byte("stream")) ||
		bytes.HasPrefix(rest, []byte("endstream"))
}

func (p *Parser) dict(depth int) (Object, error) {
	p.pos += 2 // '<<'
	s := p.scratch()
	base := len(s.keys)
	err := p.dictEntries(depth, s, base)
	d := &Dict{}
	if n := len(s.keys) - base; n > 0 {
		d.Keys = make([]Name, n)
		d.Vals = make([]Object, n)
		copy(d.Keys, s.keys[base:])
		copy(d.Vals, s.vals[base:])
	}
	clear(s.vals[base:])
	s.keys, s.vals = s.keys[:base], s.vals[:base]
	return d, err
}

// dictEntries reads the entries of a dictionary onto the scratch stacks,
// above base.
func (p *Parser) dictEntries(depth int, s *Scratch, base int) error {
	for {
		p.SkipSpace()
		if p.pos >= len(p.b) {
			return ErrEOF
		}
		c := p.b[p.pos]
		if c == '>' {
			p.pos++
			if p.pos < len(p.b) && p.b[p.pos] == '>' {
				p.pos++
			} else {
				p.Anomalies++
			}
			return nil
		}
		if p.atObjectEnd() {
			p.Anomalies++
			return nil
		}
		if c != '/' {
			// Not a key: skip the stray token and carry on.
			before := p.pos
			if _, err := p.object(depth + 1); err != nil && err != ErrSyntax {
				return err
			}
			if p.pos == before {
				p.pos++
			}
			p.Anomalies++
			continue
		}
		k, err := p.name()
		if err != nil {
			return err
		}
		p.SkipSpace()
		if p.pos < len(p.b) && p.b[p.pos] == '>' {
			// A key directly followed by ">>" has no value: read it as null.
			p.Anomalies++
			s.set(base, k.(Name), nil)
			continue
		}
		var v Object
		v, err = p.object(depth + 1)
		if err != nil {
			if err == ErrSyntax {
				p.Anomalies++
				s.set(base, k.(Name), nil)
				continue
			}
			return err
		}
		if s.set(base, k.(Name), v) {
			p.Anomalies++
		}
	}
}

// numberOrRef parses a number and, for "int int R", a reference.
func (p *Parser) numberOrRef() (Object, error) {
	n, ref, kind := p.numberOrRefToken()
	switch kind {
	case tokNumber:
		if n.isInt {
			return Int(n.i), nil
		}
		return Real(n.f), nil
	case tokRef:
		return ref, nil
	case tokBadRef:
		return nil, nil
	}
	return nil, ErrSyntax
}

// What a token that starts like a number turned out to be.
const (
	tokBad    = iota // no number at all
	tokNumber        // a number
	tokRef           // "num gen R"
	tokBadRef        // "num gen R" with numbers out of range: read as null
)

func (p *Parser) numberOrRefToken() (numeral, Ref, int) {
	n, ok := p.number()
	if !ok {
		return n, Ref{}, tokBad
	}
	if !n.isInt {
		return n, Ref{}, tokNumber
	}
	// Look ahead for "gen R" without consuming on mismatch.
	save := p.pos
	p.SkipSpace()
	if p.pos < len(p.b) && p.b[p.pos] >= '0' && p.b[p.pos] <= '9' {
		g, gok := p.number()
		if gok && g.isInt {
			p.SkipSpace()
			if p.pos < len(p.b) && p.b[p.pos] == 'R' && (p.pos+1 == len(p.b) || !isRegular(p.b[p.pos+1])) {
				p.pos++
				if n.i >= 0 && n.i <= 1<<31 && g.i >= 0 && g.i <= 65535 {
					return n, Ref{Num: int(n.i), Gen: int(g.i)}, tokRef
				}
				p.Anomalies++
				return n, Ref{}, tokBadRef
			}
		}
	}
	p.pos = save
	return n, Ref{}, tokNumber
}

// numeral is a numeric token: an integer, or a real.
type numeral struct {
	i     int64
	f     float64
	isInt bool
}

// maxExactDigits is the most digits whose value float64 holds exactly.
const maxExactDigits = 15

// pow10 are the powers of ten float64 holds exactly.
var pow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15}

// number reads a numeric token. Malformed forms such as "--5" or "1.2.3" are
// read leniently the way viewers do.
func (p *Parser) number() (numeral, bool) {
	if n, ok := p.plainNumber(); ok {
		return n, true
	}
	start := p.pos
	b := p.b
	for p.pos < len(b) && charClass[b[p.pos]]&classNumeric != 0 {
		p.pos++
	}
	tok := b[start:p.pos]
	if len(tok) == 0 {
		return numeral{}, false
	}
	isInt := true
	for i, c := range tok {
		if c == '.' || ((c == '-' || c == '+') && i > 0) {
			isInt = false
		}
	}
	if isInt {
		if v, err := strconv.ParseInt(string(tok), 10, 64); err == nil {
			return numeral{i: v, isInt: true}, true
		}
	}
	// Normalise: keep one leading sign, digits and the first dot.
	var buf [32]byte
	s := buf[:0]
	neg := false
	i := 0
	for i < len(tok) && (tok[i] == '-' || tok[i] == '+') {
		if tok[i] == '-' {
			neg = !neg
		}
		i++
	}
	if neg {
		s = append(s, '-')
	}
	dot := false
	for ; i < len(tok); i++ {
		c := tok[i]
		if c == '.' {
			if dot {
				break
			}
			dot = true
		} else if c < '0' || c > '9' {
			break
		}
		s = append(s, c)
	}
	if len(s) == 0 || string(s) == "-" || string(s) == "." || string(s) == "-." {
		p.Anomalies++
		return numeral{isInt: true}, true
	}
	v, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		p.Anomalies++
		return numeral{isInt: true}, true
	}
	if len(s) != len(tok) {
		p.Anomalies++
	}
	return numeral{f: v, isInt: false}, true
}

// plainNumber reads the common well-formed token (an optional sign,
// digits, at most one dot, at most maxExactDigits digits) in one pass and
// without strconv, leaving anything else to the general path. Its value is
// the one the general path computes: an integer is exact, and a real is
// the quotient of two floats held exactly, which IEEE division rounds
// correctly, as strconv.ParseFloat does.
func (p *Parser) plainNumber() (numeral, bool) {
	b := p.b
	i := p.pos
	neg, plus := false, false
	if i < len(b) {
		switch b[i] {
		case '-':
			neg, i = true, i+1
		case '+':
			plus, i = true, i+1
		}
	}
	var mant int64
	digits, frac := 0, -1
	for ; i < len(b); i++ {
		c := b[i]
		if c >= '0' && c <= '9' {
			mant = mant*10 + int64(c-'0')
			digits++
			if frac >= 0 {
				frac++
			}
			continue
		}
		if c == '.' && frac < 0 {
			frac = 0
			continue
		}
		break
	}
	// A second dot or a sign would continue the token: not plain.
	if digits == 0 || digits > maxExactDigits || (i < len(b) && charClass[b[i]]&classNumeric != 0) {
		return numeral{}, false
	}
	p.pos = i
	if frac < 0 {
		if neg {
			mant = -mant
		}
		return numeral{i: mant, isInt: true}, true
	}
	if plus {
		p.Anomalies++ // the general path drops the '+' and counts that
	}
	v := float64(mant)
	if frac > 0 {
		v /= pow10[frac]
	}
	if neg {
		v = -v
	}
	return numeral{f: v}, true
}

// Indirect is one "num gen obj ... endobj" definition.
type Indirect struct {
	Num, Gen int
	Offset   int // offset of the object number
	Value    Object
}

// ReadInt reads an unsigned integer token.
func (p *Parser) ReadInt() (int64, bool) {
	p.SkipSpace()
	start := p.pos
	var v int64
	for p.pos < len(p.b) && p.b[p.pos] >= '0' && p.b[p.pos] <= '9' {
		if v > (1<<62)/10 {
			return 0, false
		}
		v = v*10 + int64(p.b[p.pos]-'0')
		p.pos++
	}
	return v, p.pos > start
}

// IndirectAt parses the object defined at off: "num gen obj value [stream
// data endstream] endobj". The stream's data bounds come from /Length when it
// is right, and from the next "endstream" otherwise.
func (p *Parser) IndirectAt(off int) (Indirect, error) {
	p.Seek(off)
	p.SkipSpace()
	start := p.pos
	num, ok1 := p.ReadInt()
	gen, ok2 := p.ReadInt()
	if !ok1 || !ok2 || string(p.Keyword()) != "obj" || num > 1<<31 || gen > 65535 {
		return Indirect{}, ErrNotObject
	}
	ind := Indirect{Num: int(num), Gen: int(gen), Offset: start}
	v, err := p.Object()
	if err != nil && err != ErrSyntax {
		ind.Value = v
		return ind, err
	}
	ind.Value = v
	if d, ok := v.(*Dict); ok && p.PeekKeyword("stream") {
		s, err := p.stream(d)
		if err != nil {
			return ind, err
		}
		ind.Value = s
	}
	return ind, nil
}

func (p *Parser) stream(d *Dict) (*Stream, error) {
	p.Keyword() // "stream"
	b := p.b
	// The keyword is followed by CRLF or LF; tolerate a lone CR or spaces.
	for p.pos < len(b) && b[p.pos] == ' ' {
		p.pos++
	}
	if p.pos < len(b) && b[p.pos] == '\r' {
		p.pos++
	}
	if p.pos < len(b) && b[p.pos] == '\n' {
		p.pos++
	}
	start := p.pos
	s := &Stream{Dict: d, Start: start}
	length, ok := int64(-1), false
	switch l := d.Get("Length").(type) {
	case Int:
		length, ok = int64(l), true
	case Ref:
		if p.Length != nil {
			length, ok = p.Length(l)
		}
	}
	if ok && length >= 0 && int64(start)+length <= int64(len(b)) {
		end := start + int(length)
		q := end
		for q < len(b) && IsWhite(b[q]) {
			q++
		}
		if bytes.HasPrefix(b[q:], []byte("endstream")) {
			s.End = end
			p.pos = q + len("endstream")
			p.skipEndobj()
			return s, nil
		}
	}
	// /Length is missing, indirect and unresolvable, or wrong.
	var at int
	if p.EndstreamAt != nil {
		at = p.EndstreamAt(start)
	} else {
		at = bytes.Index(b[start:], []byte("endstream"))
		if at >= 0 {
			at += start
		}
	}
	if at < 0 {
		s.End = len(b)
		s.LengthRepaired = true
		p.pos = len(b)
		return s, ErrBadStream
	}
	end := at
	// Data ends before the EOL that precedes "endstream".
	if end > start && b[end-1] == '\n' {
		end--
	}
	if end > start && b[end-1] == '\r' {
		end--
	}
	s.End = end
	s.LengthRepaired = true
	p.pos = at + len("endstream")
	p.skipEndobj()
	return s, nil
}

func (p *Parser) skipEndobj() {
	save := p.pos
	if string(p.Keyword()) != "endobj" {
		p.pos = save
	}
}
