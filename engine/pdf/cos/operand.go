package cos

// Token readers that do not box their result, for the content-stream
// tokenizer (package paint), which meets millions of numbers and strings
// per document. Each consumes exactly what Object would at the same
// position, and keeps its errors.

// Number reads the token at a digit, sign or dot. isNumber is false when it
// was a reference "num gen R" instead (Object's Ref, or nil when out of
// range).
func (p *Parser) Number() (v float64, isNumber bool, err error) {
	n, _, kind := p.numberOrRefToken()
	switch kind {
	case tokNumber:
		if n.isInt {
			return float64(n.i), true, nil
		}
		return n.f, true, nil
	case tokBad:
		return 0, false, ErrSyntax
	}
	return 0, false, nil
}

// NameBytes reads the name at a '/'. name is a slice of the data when the
// name has no #xx escape, else its decoded form appended to dst; grown is
// dst after the call.
func (p *Parser) NameBytes(dst []byte) (name, grown []byte, err error) {
	return p.nameBytes(dst)
}

// StringBytes reads the literal string at a '(' or the hex string at a
// single '<'. s is a slice of the data for a literal without escapes, else
// the bytes appended to dst; grown is dst after the call.
func (p *Parser) StringBytes(dst []byte) (s, grown []byte, err error) {
	if p.pos < len(p.b) && p.b[p.pos] == '(' {
		return p.literalBytes(dst)
	}
	return p.hexBytes(dst)
}

// Element parses one object inside an array the caller reads itself, so
// that MaxDepth counts that array's level too.
func (p *Parser) Element() (Object, error) { return p.object(1) }

// AtObjectEnd reports whether the next token ends an object definition
// ("endobj", "stream", "endstream"), where Object closes an unterminated
// array.
func (p *Parser) AtObjectEnd() bool { return p.atObjectEnd() }
