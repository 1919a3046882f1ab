package paint

import "unicode/utf16"

// CMap limits: a ToUnicode map larger than this is read in part.
const (
	maxCMapEntries = 1 << 16
	maxCMapArgs    = 1024 // operands of one begin...end block (the spec allows 100 entries)
)

// cmap is the part of a CMap the interpreter uses: code space ranges (how
// many bytes a code takes) and the code-to-Unicode mappings of ToUnicode.
type cmap struct {
	space  []codeRange
	single map[uint32]string
	ranges []bfRange
}

type codeRange struct {
	lo, hi uint32
	n      int // bytes
}

type bfRange struct {
	lo, hi uint32
	start  []rune   // destination of lo; later codes add to its last rune
	list   []string // or one destination per code
}

// parseCMap reads codespace, bfchar and bfrange blocks; everything else in
// the PostScript-like program is ignored.
func parseCMap(data []byte) *cmap {
	c := &cmap{single: map[uint32]string{}}
	entries := 0
	var sc Scanner
	sc.Scan(data, maxCMapArgs, func(op []byte, args []Operand) bool {
		switch string(op) {
		case "endcodespacerange":
			for i := 0; i+1 < len(args) && len(c.space) < 256; i += 2 {
				lo, n1 := codeOf(args[i])
				hi, n2 := codeOf(args[i+1])
				if n1 > 0 && n1 == n2 {
					c.space = append(c.space, codeRange{lo, hi, n1})
				}
			}
		case "endbfchar":
			for i := 0; i+1 < len(args) && entries < maxCMapEntries; i += 2 {
				code, n := codeOf(args[i])
				if n == 0 {
					continue
				}
				switch dst := args[i+1]; dst.Kind {
				case String:
					c.single[code] = utf16Text(dst.Bytes)
				case Name:
					if r := glyphRune(string(dst.Bytes)); r != 0 {
						c.single[code] = string(r)
					}
				}
				entries++
			}
		case "endbfrange":
			for i := 0; i+2 < len(args) && entries < maxCMapEntries; i += 3 {
				lo, n1 := codeOf(args[i])
				hi, n2 := codeOf(args[i+1])
				if n1 == 0 || n2 == 0 || hi < lo {
					continue
				}
				r := bfRange{lo: lo, hi: hi}
				switch d := args[i+2]; d.Kind {
				case String:
					r.start = []rune(utf16Text(d.Bytes))
					if len(r.start) == 0 {
						continue
					}
				case Array:
					for _, o := range d.Elems {
						var s []byte
						if o.Kind == String {
							s = o.Bytes
						}
						r.list = append(r.list, utf16Text(s))
					}
				default:
					continue
				}
				c.ranges = append(c.ranges, r)
				entries++
			}
		}
		return true
	})
	return c
}

// codeOf reads a source code given as a hex string.
func codeOf(o Operand) (uint32, int) {
	if o.Kind != String || len(o.Bytes) == 0 || len(o.Bytes) > 4 {
		return 0, 0
	}
	var v uint32
	for _, b := range o.Bytes {
		v = v<<8 | uint32(b)
	}
	return v, len(o.Bytes)
}

// utf16Text decodes a UTF-16BE destination string.
func utf16Text(b []byte) string {
	u := make([]uint16, 0, len(b)/2)
	for i := 0; i+1 < len(b); i += 2 {
		u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
	}
	if len(b) == 1 {
		u = append(u, uint16(b[0]))
	}
	return string(utf16.Decode(u))
}

// lookup maps one code to Unicode.
func (c *cmap) lookup(code uint32) (string, bool) {
	if c == nil {
		return "", false
	}
	if s, ok := c.single[code]; ok {
		return s, true
	}
	for _, r := range c.ranges {
		if code < r.lo || code > r.hi {
			continue
		}
		off := code - r.lo
		if r.list != nil {
			if int(off) < len(r.list) {
				return r.list[off], true
			}
			return "", false
		}
		out := append([]rune(nil), r.start...)
		out[len(out)-1] += rune(off)
		return string(out), true
	}
	return "", false
}

// codeLen is the byte length of the code starting b under the code space
// ranges, or 0 when the map declares none.
func (c *cmap) codeLen(b []byte) int {
	if c == nil || len(c.space) == 0 {
		return 0
	}
	for n := 1; n <= 4 && n <= len(b); n++ {
		var v uint32
		for _, x := range b[:n] {
			v = v<<8 | uint32(x)
		}
		for _, r := range c.space {
			if r.n == n && v >= r.lo && v <= r.hi {
				return n
			}
		}
	}
	return 0
}
