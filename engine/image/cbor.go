package image

import "math"

// A bounded CBOR (RFC 8949) reader for C2PA assertions. It yields maps with
// text keys, arrays, text, integers, floats, booleans and nil; byte strings
// become their length (the families never read them), tags are unwrapped,
// and indefinite lengths are accepted. Every length is checked against the
// bytes present before anything is allocated, so a hostile count cannot
// make it allocate.

const (
	maxCBORDepth = 32
	maxCBORItems = 1 << 16
)

type cborReader struct {
	b     []byte
	p     int
	items int
	bad   bool
}

// decodeCBOR decodes the first item of b.
func decodeCBOR(b []byte) (any, bool) {
	r := &cborReader{b: b}
	v := r.item(0)
	return v, !r.bad
}

const cborBreak = 0xFF

// head reads an item's initial byte and argument. indefinite is set for
// additional information 31.
func (r *cborReader) head() (major byte, arg uint64, indefinite bool) {
	if r.p >= len(r.b) {
		r.bad = true
		return 0, 0, false
	}
	ib := r.b[r.p]
	r.p++
	major, info := ib>>5, ib&0x1F
	switch {
	case info < 24:
		return major, uint64(info), false
	case info <= 27:
		n := 1 << (info - 24)
		if len(r.b)-r.p < n {
			r.bad = true
			return 0, 0, false
		}
		var v uint64
		for _, c := range r.b[r.p : r.p+n] {
			v = v<<8 | uint64(c)
		}
		r.p += n
		return major, v, false
	case info == 31:
		return major, 0, true
	}
	r.bad = true
	return 0, 0, false
}

// item decodes one data item.
func (r *cborReader) item(depth int) any {
	r.items++
	if depth > maxCBORDepth || r.items > maxCBORItems {
		r.bad = true
	}
	if r.bad {
		return nil
	}
	start := r.p
	major, arg, indef := r.head()
	if r.bad {
		return nil
	}
	switch major {
	case 0:
		return int64(min(arg, math.MaxInt64))
	case 1:
		return -1 - int64(min(arg, math.MaxInt64))
	case 2, 3:
		b := r.bytes(major, arg, indef, depth)
		if major == 2 {
			return len(b)
		}
		return string(b)
	case 4:
		var out []any
		for i := uint64(0); indef || i < arg; i++ {
			if r.stop(indef) {
				break
			}
			// Each element takes at least a byte, so arg cannot exceed
			// what remains; bad stops the loop on a lying count.
			out = append(out, r.item(depth+1))
			if r.bad {
				return nil
			}
		}
		return out
	case 5:
		out := map[string]any{}
		for i := uint64(0); indef || i < arg; i++ {
			if r.stop(indef) {
				break
			}
			k := r.item(depth + 1)
			v := r.item(depth + 1)
			if r.bad {
				return nil
			}
			if ks, ok := k.(string); ok {
				out[ks] = v
			}
		}
		return out
	case 6:
		return r.item(depth + 1)
	}
	// Major type 7: simple values and floats.
	switch r.b[start] & 0x1F {
	case 20:
		return false
	case 21:
		return true
	case 25:
		return halfFloat(uint16(arg))
	case 26:
		return float64(math.Float32frombits(uint32(arg)))
	case 27:
		return math.Float64frombits(arg)
	}
	if indef {
		r.bad = true // a break outside an indefinite-length item
	}
	return nil
}

// stop consumes the break of an indefinite-length item, and reports the end
// of input as a fault.
func (r *cborReader) stop(indef bool) bool {
	if r.p >= len(r.b) {
		r.bad = true
		return true
	}
	if indef && r.b[r.p] == cborBreak {
		r.p++
		return true
	}
	return false
}

// bytes reads a byte or text string of the given major type, concatenating
// the chunks of an indefinite-length one.
func (r *cborReader) bytes(major byte, n uint64, indef bool, depth int) []byte {
	if !indef {
		if n > uint64(len(r.b)-r.p) {
			r.bad = true
			return nil
		}
		b := r.b[r.p : r.p+int(n)]
		r.p += int(n)
		return b
	}
	var out []byte
	for !r.stop(true) {
		m, cn, ci := r.head()
		if r.bad || m != major || ci || depth > maxCBORDepth {
			r.bad = true
			return nil
		}
		out = append(out, r.bytes(major, cn, false, depth)...)
		if r.bad {
			return nil
		}
	}
	return out
}

// halfFloat converts an IEEE 754 half-precision value.
func halfFloat(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10)&0x1F, float64(h&0x3FF)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 31:
		if frac == 0 {
			return math.Inf(int(sign))
		}
		return math.NaN()
	}
	return sign * math.Ldexp(1+frac/1024, exp-15)
}
