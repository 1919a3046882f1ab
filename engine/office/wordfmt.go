package office

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// Character formatting of a Word binary document ([MS-DOC] 2.4.1 and
// 2.9.38): the piece table (CLX) maps text positions to the bytes of the
// WordDocument stream, and the CHPX FKP pages give each run of bytes its
// property modifiers. Three of them are read: hidden (sprmCFVanish), and
// the revision marks for deleted and inserted text (sprmCFRMarkDel,
// sprmCFRMarkIns). Styles are not resolved: hidden text by a character
// style is not seen.

// Limits of the formatting walk.
const (
	maxWordPieces = 1 << 16
	maxWordFKPs   = 1 << 14
)

// wordPiece is one piece of text: a byte range of the WordDocument stream,
// 8-bit (cp1252) when compressed, else UTF-16.
type wordPiece struct {
	start, end int // byte offsets in the WordDocument stream
	cpA, cpB   int // the character positions it holds
	compressed bool
}

// wordFIB holds the FIB's FibRgLw and FibRgFcLcb arrays and the table
// stream name.
type wordFIB struct {
	lw, rg []byte
	table  string
}

// ccp returns FibRgLw97 count i (3 ccpText, 4 ccpFtn, 5 ccpHdd, 6 the
// obsolete ccpMcr, 7 ccpAtn), 0 when absent.
func (f wordFIB) ccp(i int) int {
	if 4*i+4 > len(f.lw) {
		return 0
	}
	return int(binary.LittleEndian.Uint32(f.lw[4*i:]) & 0x0FFFFFFF)
}

func parseFIB(fib []byte) (wordFIB, bool) {
	if len(fib) < 34 {
		return wordFIB{}, false
	}
	pos := 32
	pos += 2 + 2*int(binary.LittleEndian.Uint16(fib[pos:]))
	if pos+2 > len(fib) {
		return wordFIB{}, false
	}
	cslw := int(binary.LittleEndian.Uint16(fib[pos:]))
	lw := fib[min(len(fib), pos+2):min(len(fib), pos+2+4*cslw)]
	pos += 2 + 4*cslw
	if pos+2 > len(fib) {
		return wordFIB{}, false
	}
	cb := int(binary.LittleEndian.Uint16(fib[pos:]))
	pos += 2
	end := min(len(fib), pos+8*cb)
	f := wordFIB{lw: lw, rg: fib[pos:end], table: "0Table"}
	if binary.LittleEndian.Uint16(fib[0x0A:])&0x0200 != 0 {
		f.table = "1Table"
	}
	return f, true
}

// span returns the table-stream bytes of FibRgFcLcb entry i, nil when
// absent or out of range.
func (f wordFIB) span(i int, table []byte) []byte {
	if 8*i+8 > len(f.rg) {
		return nil
	}
	fc := binary.LittleEndian.Uint32(f.rg[8*i:])
	lcb := binary.LittleEndian.Uint32(f.rg[8*i+4:])
	if lcb == 0 || uint64(fc)+uint64(lcb) > uint64(len(table)) {
		return nil
	}
	return table[fc : fc+lcb]
}

// wordPieces reads the CLX's piece table (entry 33).
func wordPieces(clx []byte) (out []wordPiece, ok bool) {
	p := 0
	for p < len(clx) && clx[p] == 0x01 { // Prc: property modifiers, skipped
		if p+3 > len(clx) {
			return nil, false
		}
		p += 3 + int(int16(binary.LittleEndian.Uint16(clx[p+1:])))
	}
	if p+5 > len(clx) || clx[p] != 0x02 {
		return nil, false
	}
	lcb := int(binary.LittleEndian.Uint32(clx[p+1:]))
	plc := clx[p+5:]
	if lcb < 4 || lcb > len(plc) || (lcb-4)%12 != 0 {
		return nil, false
	}
	n := (lcb - 4) / 12
	if n > maxWordPieces {
		return nil, false
	}
	for i := 0; i < n; i++ {
		cpA := int(binary.LittleEndian.Uint32(plc[4*i:]))
		cpB := int(binary.LittleEndian.Uint32(plc[4*i+4:]))
		pcd := plc[4*(n+1)+8*i:]
		fc := binary.LittleEndian.Uint32(pcd[2:])
		if cpB < cpA || cpB-cpA > 1<<28 {
			return out, false
		}
		wp := wordPiece{compressed: fc&0x40000000 != 0, cpA: cpA, cpB: cpB}
		off := int(fc & 0x3FFFFFFF)
		if wp.compressed {
			wp.start = off / 2
			wp.end = wp.start + (cpB - cpA)
		} else {
			wp.start = off
			wp.end = off + 2*(cpB-cpA)
		}
		out = append(out, wp)
	}
	return out, true
}

// wordText returns the text of the byte range [a, b) of the WordDocument
// stream, through the pieces that cover it.
func wordText(wd []byte, pieces []wordPiece, a, b int) string {
	var sb strings.Builder
	for _, p := range pieces {
		lo, hi := max(a, p.start), min(b, p.end, len(wd))
		if lo >= hi {
			continue
		}
		if p.compressed {
			sb.WriteString(cp1252(wd[lo:hi]))
			continue
		}
		lo += (lo - p.start) % 2
		u := make([]uint16, (hi-lo)/2)
		for i := range u {
			u[i] = binary.LittleEndian.Uint16(wd[lo+2*i:])
		}
		sb.WriteString(string(utf16.Decode(u)))
		if sb.Len() > maxPropBytes {
			break
		}
	}
	// Field marks, cell marks and object anchors are not text.
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' {
			return ' '
		}
		return r
	}, sb.String())
}

// wordCPText returns the text of character positions [a, b).
func wordCPText(wd []byte, pieces []wordPiece, a, b int) string {
	var sb strings.Builder
	for _, p := range pieces {
		lo, hi := max(a, p.cpA), min(b, p.cpB)
		if lo >= hi {
			continue
		}
		width := 2
		if p.compressed {
			width = 1
		}
		sb.WriteString(wordText(wd, []wordPiece{p}, p.start+width*(lo-p.cpA), p.start+width*(hi-p.cpA)))
		if sb.Len() > maxPropBytes {
			break
		}
	}
	return sb.String()
}

// wordComments returns the comment texts of a Word binary document: the
// annotation story follows the main text, footnotes and headers, cut by
// PlcfandTxt (FibRgFcLcb entry 5).
func wordComments(wd []byte, table func(string) []byte) []string {
	fib, ok := parseFIB(wd)
	if !ok || fib.ccp(7) == 0 {
		return nil
	}
	tbl := table(fib.table)
	pieces, ok := wordPieces(fib.span(33, tbl))
	plc := fib.span(5, tbl)
	if !ok || len(plc) < 8 {
		return nil
	}
	base := fib.ccp(3) + fib.ccp(4) + fib.ccp(5) + fib.ccp(6)
	var out []string
	for i := 0; i+8 <= len(plc) && len(out) < maxSnippets; i += 4 {
		a := int(binary.LittleEndian.Uint32(plc[i:]))
		b := int(binary.LittleEndian.Uint32(plc[i+4:]))
		if b <= a || b > fib.ccp(7) {
			continue
		}
		if t := strings.TrimSpace(wordCPText(wd, pieces, base+a, base+b)); t != "" {
			out = append(out, t)
		}
	}
	return out
}

// wordRunFlags reads one CHPX grpprl for the three properties.
func wordRunFlags(grpprl []byte) (hidden, deleted, inserted bool) {
	for p := 0; p+2 <= len(grpprl); {
		sprm := binary.LittleEndian.Uint16(grpprl[p:])
		p += 2
		var n int
		switch sprm >> 13 {
		case 0, 1:
			n = 1
		case 2, 4, 5:
			n = 2
		case 3:
			n = 4
		case 7:
			n = 3
		case 6:
			if p >= len(grpprl) {
				return
			}
			n = 1 + int(grpprl[p])
		}
		if p+n > len(grpprl) {
			return
		}
		op := grpprl[p]
		// Toggle operands: 1 and 0x81 set the property.
		on := op == 1 || op == 0x81
		switch sprm {
		case 0x083C, 0x0818: // sprmCFVanish, sprmCFSpecVanish
			hidden = hidden || on
		case 0x0800: // sprmCFRMarkDel
			deleted = deleted || on
		case 0x0801: // sprmCFRMarkIns
			inserted = inserted || on
		}
		p += n
	}
	return
}

// scanWordFormatting fills w with the hidden runs and revision marks of a
// Word binary document. It returns false when the structures it needs are
// damaged; what was read is kept.
func scanWordFormatting(wd []byte, table func(string) []byte, w *wordScan) bool {
	fib, ok := parseFIB(wd)
	if !ok {
		return false
	}
	tbl := table(fib.table)
	if tbl == nil {
		return true // no table stream: no text to format
	}
	pieces, ok := wordPieces(fib.span(33, tbl))
	if !ok {
		return fib.span(33, tbl) == nil
	}
	bte := fib.span(12, tbl) // PlcBteChpx
	if len(bte) < 4 || (len(bte)-4)%8 != 0 {
		return bte == nil
	}
	n := (len(bte) - 4) / 8
	for i := 0; i < n && i < maxWordFKPs; i++ {
		pn := int(binary.LittleEndian.Uint32(bte[4*(n+1)+4*i:]) & 0x3FFFFF)
		if (pn+1)*512 > len(wd) {
			return false
		}
		page := wd[pn*512 : pn*512+512]
		crun := int(page[511])
		if crun == 0 || 4*(crun+1)+crun > 511 {
			continue
		}
		for r := 0; r < crun; r++ {
			a := int(binary.LittleEndian.Uint32(page[4*r:]))
			b := int(binary.LittleEndian.Uint32(page[4*r+4:]))
			off := 2 * int(page[4*(crun+1)+r])
			if off == 0 || off >= 511 || b <= a {
				continue
			}
			cb := int(page[off])
			if off+1+cb > 511 {
				continue
			}
			hidden, del, ins := wordRunFlags(page[off+1 : off+1+cb])
			if !hidden && !del && !ins {
				continue
			}
			text := strings.TrimSpace(wordText(wd, pieces, a, b))
			if text == "" {
				continue
			}
			switch {
			case del:
				w.del++
				w.addDeleted(text)
			case ins:
				w.ins++
			}
			if hidden && !del {
				w.hiddenRuns++
				if len(w.hiddenText) < maxSnippets {
					w.hiddenText = append(w.hiddenText, text)
				}
			}
		}
	}
	return true
}
