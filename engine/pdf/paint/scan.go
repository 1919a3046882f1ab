package paint

import (
	"bytes"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// MaxOperands bounds the operands kept for one content-stream operator;
// no operator takes more than a handful, so extra ones are dropped.
const MaxOperands = 64

// opBI is reported for an inline image, after its data was skipped.
const opBI = "BI"

// Scan tokenises a content stream (or a CMap, which uses the same syntax),
// calling fn for each operator with its operands. An inline image
// (BI ... ID data EI) is reported as one "BI" operator with no operands.
// fn returns false to stop. At most limit operands are kept per operator.
// The operands slice is reused between calls.
func Scan(data []byte, limit int, fn func(op []byte, args []cos.Object) bool, operands *[]cos.Object) {
	p := cos.NewParser(data, 0)
	args := (*operands)[:0]
	defer func() { *operands = args[:0] }()
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
				args = args[:0]
				continue
			}
			switch string(op) {
			case "true", "false", "null":
				if len(args) < limit {
					args = append(args, nil)
				}
				continue
			case opBI:
				skipInlineImage(p, data)
				args = args[:0]
			}
			if !fn(op, args) {
				return
			}
			args = args[:0]
			continue
		}
		o, err := p.Object()
		if err != nil {
			if p.Pos() == pos {
				p.Seek(pos + 1)
			}
			args = args[:0]
			continue
		}
		if len(args) < limit {
			args = append(args, o)
		}
	}
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
