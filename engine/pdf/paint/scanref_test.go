package paint

import (
	"bytes"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// refScan is the tokenizer Scan replaced, kept as the reference its
// operands are checked against (FuzzScan): it boxes every operand through
// cos.Parser.Object.
func refScan(data []byte, limit int, fn func(op []byte, args []cos.Object) bool) {
	p := cos.NewParser(data, 0)
	var args []cos.Object
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
				refSkipInlineImage(p, data)
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

func refSkipInlineImage(p *cos.Parser, data []byte) {
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
