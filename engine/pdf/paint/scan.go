package paint

import (
	"bytes"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// MaxOperands bounds the operands kept for one content-stream operator;
// no operator takes more than a handful, so extra ones are dropped.
const MaxOperands = 64

// maxArrayElems bounds the elements kept of one array operand (TJ, d, a
// CMap's bfrange destinations); later ones are read and dropped, so a
// hostile array costs time, not memory.
const maxArrayElems = 1 << 17

// opBI is reported for an inline image, after its data was skipped.
const opBI = "BI"

// Kind is what an operand is, as far as operators read it.
type Kind uint8

// Operand kinds.
const (
	Other  Kind = iota // null, boolean, dictionary, reference, nested array
	Number             // integer or real
	Name               // name, #xx escapes decoded
	String             // literal or hex string, escapes decoded
	Array              // array at operand level
)

// Operand is one content-stream operand, read without boxing it. Bytes
// and Elems point into the stream or the Scanner's buffers: they are valid
// only until the callback of Scan returns.
type Operand struct {
	Kind  Kind
	Num   float64   // Number
	Bytes []byte    // Name, String
	Elems []Operand // Array; a nested array is Other
}

// number returns a Number operand's value.
func (o Operand) number() (float64, bool) { return o.Num, o.Kind == Number }

// name returns a Name operand as a cos.Name, or "".
func (o Operand) name() cos.Name {
	if o.Kind != Name {
		return ""
	}
	return cos.Name(o.Bytes)
}

// Scanner tokenises content streams, reusing its buffers from one Scan to
// the next. A Scanner runs one Scan at a time: a nested walk (a form run
// from inside a callback) needs its own.
type Scanner struct {
	args    []Operand
	elems   []Operand
	bytes   []byte
	scratch cos.Scratch // for the dictionaries cos.Parser reads
	spare   [2]Operand  // where operands and elements past the limits are read
}

func (sc *Scanner) reset() {
	sc.args, sc.elems, sc.bytes = sc.args[:0], sc.elems[:0], sc.bytes[:0]
}

// Scan tokenises a content stream (or a CMap, which uses the same syntax),
// calling fn for each operator with its operands. An inline image
// (BI ... ID data EI) is reported as one "BI" operator with no operands.
// fn returns false to stop. At most limit operands are kept per operator.
// Tokens are read as cos.Parser.Object reads them (leniency, errors and
// nesting cap included); an operand it fails on is dropped with the ones
// before it.
func (sc *Scanner) Scan(data []byte, limit int, fn func(op []byte, args []Operand) bool) {
	p := cos.NewParser(data, 0)
	p.Scratch = &sc.scratch
	sc.reset()
	defer sc.reset()
	for {
		p.SkipSpace()
		pos := p.Pos()
		if pos >= len(data) {
			return
		}
		if isOperatorStart(data[pos]) {
			op := p.Keyword()
			if len(op) == 0 {
				p.Seek(pos + 1)
				sc.reset()
				continue
			}
			switch string(op) {
			case "true", "false", "null":
				if len(sc.args) < limit {
					sc.args = append(sc.args, Operand{})
				}
				continue
			case opBI:
				skipInlineImage(p, data)
				sc.reset()
			}
			if !fn(op, sc.args) {
				return
			}
			sc.reset()
			continue
		}
		// The operand is read in place: an Operand is large to copy.
		o := &sc.spare[0]
		*o = Operand{}
		if len(sc.args) < limit {
			sc.args = append(sc.args, Operand{})
			o = &sc.args[len(sc.args)-1]
		}
		if err := sc.operand(p, data, false, o); err != nil {
			if p.Pos() == pos {
				p.Seek(pos + 1)
			}
			sc.reset()
		}
	}
}

// operand reads the token at the parser's position (white space skipped,
// data left) into o, a zero Operand, at operand level or, inArray, as an
// element of an array. Whatever is not a number, name, string or (at
// operand level) array is parsed by cos.Parser itself and kept as Other.
func (sc *Scanner) operand(p *cos.Parser, data []byte, inArray bool, o *Operand) error {
	pos := p.Pos()
	c := data[pos]
	var err error
	switch {
	case c == '/':
		o.Kind = Name
		o.Bytes, sc.bytes, err = p.NameBytes(sc.bytes)
	case c == '(' || (c == '<' && (pos+1 >= len(data) || data[pos+1] != '<')):
		o.Kind = String
		o.Bytes, sc.bytes, err = p.StringBytes(sc.bytes)
	case c == '[' && !inArray:
		return sc.array(p, data, o)
	case (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.':
		var isNum bool
		o.Num, isNum, err = p.Number()
		if isNum {
			o.Kind = Number
		}
	case inArray:
		_, err = p.Element()
	default:
		_, err = p.Object()
	}
	return err
}

// array reads an operand-level array the way cos.Parser does, keeping its
// elements typed.
func (sc *Scanner) array(p *cos.Parser, data []byte, o *Operand) error {
	p.Seek(p.Pos() + 1) // '['
	start := len(sc.elems)
	for {
		p.SkipSpace()
		pos := p.Pos()
		if pos >= len(data) {
			return cos.ErrEOF
		}
		if data[pos] == ']' {
			p.Seek(pos + 1)
			break
		}
		if p.AtObjectEnd() {
			break // "endobj" inside an unterminated array closes it, as in cos
		}
		el := &sc.spare[1]
		*el = Operand{}
		if len(sc.elems)-start < maxArrayElems {
			sc.elems = append(sc.elems, Operand{})
			el = &sc.elems[len(sc.elems)-1]
		}
		if err := sc.operand(p, data, true, el); err != nil {
			if err != cos.ErrSyntax || p.Pos() <= pos {
				return err
			}
			*el = Operand{} // a stray token reads as null
		}
	}
	end := len(sc.elems)
	*o = Operand{Kind: Array, Elems: sc.elems[start:end:end]}
	return nil
}

func isOperatorStart(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '\'' || c == '"' || c == '*'
}

// skipInlineImage moves past "ID <data> EI". The data has no length, so the
// end is the first "EI" standing alone between white space.
func skipInlineImage(p *cos.Parser, data []byte) {
	i := bytes.Index(data[p.Pos():], []byte("ID"))
	if i < 0 {
		p.Seek(len(data))
		return
	}
	from := p.Pos() + i + 2
	for {
		j := bytes.Index(data[from:], []byte("EI"))
		if j < 0 {
			p.Seek(len(data))
			return
		}
		at := from + j
		before := at == 0 || cos.IsWhite(data[at-1])
		after := at+2 >= len(data) || cos.IsWhite(data[at+2]) || cos.IsDelim(data[at+2])
		if before && after {
			p.Seek(at + 2)
			return
		}
		from = at + 2
	}
}
