package cms

import "errors"

// Bounds on hostile input: real signatures nest a dozen levels and hold a
// few thousand elements (certificate chains, revocation data).
const (
	maxDepth = 32
	maxNodes = 200000
)

var errBER = errors.New("cms: malformed BER")

// normalizer rewrites BER as DER where it matters for reading: indefinite
// lengths become definite and constructed OCTET STRINGs become primitive.
// Some signers (BouncyCastle among them) write the outer CMS layers that
// way. Element order is kept, so DER input comes out byte for byte.
type normalizer struct{ nodes int }

// ToDER normalises the first element of b and reports how many bytes of b it
// spanned; whatever follows it (the zero padding of a PDF's /Contents) is
// left alone.
func ToDER(b []byte) (der []byte, n int, err error) {
	var z normalizer
	tag, body, n, err := z.element(b, 0)
	if err != nil {
		return nil, 0, err
	}
	return appendTLV(nil, tag, body), n, nil
}

// element reads one element: its identifier octets, its DER content and
// the bytes it spanned in b.
func (z *normalizer) element(b []byte, depth int) (tag, body []byte, n int, err error) {
	z.nodes++
	if depth > maxDepth || z.nodes > maxNodes || len(b) < 2 {
		return nil, nil, 0, errBER
	}
	i := 1
	if b[0]&0x1f == 0x1f {
		for {
			if i >= len(b) || i > 5 {
				return nil, nil, 0, errBER
			}
			c := b[i]
			i++
			if c&0x80 == 0 {
				break
			}
		}
	}
	tag = b[:i]
	constructed := b[0]&0x20 != 0
	if i >= len(b) {
		return nil, nil, 0, errBER
	}
	l := int(b[i])
	i++
	if l == 0x80 {
		if !constructed {
			return nil, nil, 0, errBER
		}
		body, m, err := z.children(b[i:], depth, b[0] == 0x24, true)
		if err != nil {
			return nil, nil, 0, err
		}
		return z.retag(tag), body, i + m, nil
	}
	if l&0x80 != 0 {
		k := l & 0x7f
		if k == 0 || k > 4 || i+k > len(b) {
			return nil, nil, 0, errBER
		}
		l = 0
		for _, c := range b[i : i+k] {
			l = l<<8 | int(c)
		}
		i += k
		if l < 0 || l > len(b)-i {
			return nil, nil, 0, errBER
		}
	}
	if l > len(b)-i {
		return nil, nil, 0, errBER
	}
	content := b[i : i+l]
	if !constructed {
		return tag, content, i + l, nil
	}
	body, _, err = z.children(content, depth, b[0] == 0x24, false)
	if err != nil {
		return nil, nil, 0, err
	}
	return z.retag(tag), body, i + l, nil
}

// retag makes a constructed OCTET STRING primitive, as its flattened
// content now is.
func (z *normalizer) retag(tag []byte) []byte {
	if len(tag) == 1 && tag[0] == 0x24 {
		return []byte{0x04}
	}
	return tag
}

// children reads the elements of a constructed value, up to the
// end-of-contents octets when indefinite, or to the end of b. A
// constructed OCTET STRING is flattened into the concatenation of its
// segments.
func (z *normalizer) children(b []byte, depth int, flatten, indefinite bool) (body []byte, n int, err error) {
	i := 0
	for {
		if indefinite {
			if i+2 > len(b) {
				return nil, 0, errBER
			}
			if b[i] == 0 && b[i+1] == 0 {
				return body, i + 2, nil
			}
		} else if i == len(b) {
			return body, i, nil
		}
		tag, c, m, err := z.element(b[i:], depth+1)
		if err != nil {
			return nil, 0, err
		}
		if flatten {
			if len(tag) != 1 || tag[0] != 0x04 {
				return nil, 0, errBER
			}
			body = append(body, c...)
		} else {
			body = appendTLV(body, tag, c)
		}
		i += m
	}
}

// appendTLV appends a DER element with a minimal definite length.
func appendTLV(out, tag, body []byte) []byte {
	out = append(out, tag...)
	l := len(body)
	switch {
	case l < 0x80:
		out = append(out, byte(l))
	case l <= 0xff:
		out = append(out, 0x81, byte(l))
	case l <= 0xffff:
		out = append(out, 0x82, byte(l>>8), byte(l))
	case l <= 0xffffff:
		out = append(out, 0x83, byte(l>>16), byte(l>>8), byte(l))
	default:
		out = append(out, 0x84, byte(l>>24), byte(l>>16), byte(l>>8), byte(l))
	}
	return append(out, body...)
}
