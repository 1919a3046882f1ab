package office

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"
)

// Cells in hidden rows and columns of a .xls: the sheet substreams after
// the workbook globals hold COLINFO (hidden columns), ROW (hidden rows,
// fDyZero) and then the cell records of each row block, so one pass sees
// a row's or column's state before its cells. Values are recovered from
// NUMBER and RK records and from the shared string table (strings that a
// CONTINUE record splits are skipped).

// biffCells is what the sheet walk found.
type biffCells struct {
	rowCells, colCells int
	recovered          []string
	// notes are the texts of cell comments and text boxes (TXO records
	// and the CONTINUE record after each), attacker-authored.
	notes []string
	// figures are the worksheets' cells for figure-arithmetic, and sst
	// the shared strings their labels index.
	figures biffFigures
	sst     []string
}

// Limits of the sheet walk.
const (
	maxHiddenRows = 1 << 16
	maxSST        = 1 << 16
)

// scanBIFFCells walks every sheet substream of a (decrypted) workbook
// stream.
func scanBIFFCells(b []byte) biffCells {
	var c biffCells
	var sst []string
	hiddenRows := map[uint16]bool{}
	var hiddenCols [][2]uint16
	sheet := 0 // BOF records seen; the first opens the globals
	colHidden := func(col uint16) bool {
		for _, r := range hiddenCols {
			if col >= r[0] && col <= r[1] {
				return true
			}
		}
		return false
	}
	cell := func(rw, col uint16, value string) {
		inRow, inCol := hiddenRows[rw], colHidden(col)
		switch {
		case inRow:
			c.rowCells++
		case inCol:
			c.colCells++
		default:
			return
		}
		if value != "" && len(c.recovered) < maxSnippets {
			c.recovered = append(c.recovered, value)
		}
	}
	txoChars := 0 // characters the last TXO announced for its CONTINUE
	for pos, n := 0, 0; pos+4 <= len(b) && n < maxBIFFRecords; n++ {
		typ := binary.LittleEndian.Uint16(b[pos:])
		size := int(binary.LittleEndian.Uint16(b[pos+2:]))
		if pos+4+size > len(b) {
			break
		}
		d := b[pos+4 : pos+4+size]
		pos += 4 + size
		switch typ {
		case 0x01B6: // TXO: a comment's or text box's text follows
			txoChars = 0
			if len(d) >= 12 {
				txoChars = int(binary.LittleEndian.Uint16(d[10:]))
			}
			continue
		case 0x003C: // CONTINUE
			if txoChars > 0 && len(d) >= 1 && len(c.notes) < maxSnippets {
				var t string
				if d[0]&1 != 0 {
					t = utf16le(d[1:min(len(d), 1+2*txoChars)])
				} else {
					t = latin1(d[1:min(len(d), 1+txoChars)])
				}
				if t = strings.TrimSpace(t); t != "" {
					c.notes = append(c.notes, t)
				}
			}
			txoChars = 0
			continue
		case 0x0809: // BOF: a new substream
			sheet++
			clear(hiddenRows)
			hiddenCols = hiddenCols[:0]
			c.figures.bof(d)
		case 0x000A: // EOF
			c.figures.eof()
		case 0x00FC: // SST, in the globals
			if sheet == 1 && sst == nil {
				// The table goes on in the CONTINUE records after it.
				segs := [][]byte{d}
				for p := pos; p+4 <= len(b) && binary.LittleEndian.Uint16(b[p:]) == 0x003C && len(segs) < maxSSTSegments; {
					n := int(binary.LittleEndian.Uint16(b[p+2:]))
					if p+4+n > len(b) {
						break
					}
					segs = append(segs, b[p+4:p+4+n])
					p += 4 + n
				}
				sst = readSST(segs)
			}
		case 0x041E: // FORMAT
			if sheet == 1 {
				c.figures.format(d)
			}
		case 0x00E0: // XF
			if sheet == 1 {
				c.figures.xf(d)
			}
		case 0x007D: // COLINFO
			if len(d) >= 10 && binary.LittleEndian.Uint16(d[8:])&1 != 0 && len(hiddenCols) < 1024 {
				hiddenCols = append(hiddenCols, [2]uint16{binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:])})
			}
		case 0x0208: // ROW
			if len(d) >= 14 && binary.LittleEndian.Uint16(d[12:])&0x0020 != 0 && len(hiddenRows) < maxHiddenRows {
				hiddenRows[binary.LittleEndian.Uint16(d)] = true
			}
		case 0x00FD: // LABELSST
			if len(d) >= 10 {
				v := ""
				i := int(binary.LittleEndian.Uint32(d[6:]))
				if i < len(sst) {
					v = sst[i]
				}
				rw, col := binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:])
				cell(rw, col, v)
				if i < maxSST {
					c.figures.label(rw, col, binary.LittleEndian.Uint16(d[4:]), i, "")
				}
			}
		case 0x0203: // NUMBER
			if len(d) >= 14 {
				f := math.Float64frombits(binary.LittleEndian.Uint64(d[6:]))
				rw, col := binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:])
				cell(rw, col, strconv.FormatFloat(f, 'g', -1, 64))
				c.figures.number(rw, col, binary.LittleEndian.Uint16(d[4:]), f)
			}
		case 0x027E: // RK
			if len(d) >= 10 {
				rw, col := binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:])
				cell(rw, col, rkValue(binary.LittleEndian.Uint32(d[6:])))
				c.figures.number(rw, col, binary.LittleEndian.Uint16(d[4:]), rkFloat(binary.LittleEndian.Uint32(d[6:])))
			}
		case 0x00BD: // MULRK: a run of RK cells in one row
			if len(d) >= 6 {
				rw, col := binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:])
				for p := 4; p+6 <= len(d)-2; p += 6 {
					rk := binary.LittleEndian.Uint32(d[p+2:])
					cell(rw, col, rkValue(rk))
					c.figures.number(rw, col, binary.LittleEndian.Uint16(d[p:]), rkFloat(rk))
					col++
				}
			}
		case 0x0204: // LABEL: an XLUnicodeString in the record
			if len(d) >= 4 {
				rw, col := binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:])
				cell(rw, col, "")
				if len(d) >= 9 {
					cch := min(int(binary.LittleEndian.Uint16(d[6:])), maxLabelChars)
					c.figures.label(rw, col, binary.LittleEndian.Uint16(d[4:]), -1, strings.TrimSpace(biffStringNoCch(d[8:], cch)))
				}
			}
		case 0x0006: // FORMULA
			if len(d) >= 4 {
				cell(binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:]), "")
				c.figures.formula(d)
			}
		case 0x04BC: // SHRFMLA
			c.figures.sharedFormula(d)
		case 0x0205: // BOOLERR
			if len(d) >= 4 {
				cell(binary.LittleEndian.Uint16(d), binary.LittleEndian.Uint16(d[2:]), "")
			}
		}
	}
	c.sst = sst
	return c
}

// rkValue is an RK number as text.
func rkValue(rk uint32) string {
	return strconv.FormatFloat(rkFloat(rk), 'g', -1, 64)
}

// rkFloat decodes an RK number: a 30-bit integer or the high bits of a
// double, optionally divided by 100.
func rkFloat(rk uint32) float64 {
	var f float64
	if rk&2 != 0 {
		f = float64(int32(rk) >> 2)
	} else {
		f = math.Float64frombits(uint64(rk&0xFFFFFFFC) << 32)
	}
	if rk&1 != 0 {
		f /= 100
	}
	return f
}

// maxSSTSegments caps the CONTINUE records read after an SST (8,224
// bytes each): enough for maxSST strings of ordinary length.
const maxSSTSegments = 1024

// readSST reads the shared string table: the SST record's data and the
// CONTINUE records after it. A string's characters may go on in the next
// record, which then starts with a byte saying their width.
func readSST(segs [][]byte) []string {
	r := sstReader{segs: segs}
	if !r.skip(4) {
		return nil
	}
	n, ok := r.uint(4)
	if !ok {
		return nil
	}
	var out []string
	for i := 0; i < n && i < maxSST; i++ {
		cch, ok1 := r.uint(2)
		flags, ok2 := r.uint(1)
		if !ok1 || !ok2 {
			break
		}
		runs, ext := 0, 0
		if flags&0x08 != 0 {
			if runs, ok = r.uint(2); !ok {
				break
			}
		}
		if flags&0x04 != 0 {
			if ext, ok = r.uint(4); !ok {
				break
			}
		}
		str, ok := r.chars(cch, flags&1 != 0)
		if !ok {
			break
		}
		out = append(out, str)
		if !r.skip(4*runs + ext) {
			break
		}
	}
	return out
}

// sstReader reads across the SST record and its CONTINUE records.
type sstReader struct {
	segs [][]byte
	i, p int // segment, offset in it
}

// next moves to the next segment when the current one is read.
func (r *sstReader) next() bool {
	for r.i < len(r.segs) && r.p >= len(r.segs[r.i]) {
		r.i++
		r.p = 0
	}
	return r.i < len(r.segs)
}

// uint reads a little-endian integer of n bytes.
func (r *sstReader) uint(n int) (int, bool) {
	v := 0
	for k := 0; k < n; k++ {
		if !r.next() {
			return 0, false
		}
		v |= int(r.segs[r.i][r.p]) << (8 * k)
		r.p++
	}
	return v, true
}

// skip passes n bytes (formatting runs, extended data).
func (r *sstReader) skip(n int) bool {
	for n > 0 {
		if !r.next() {
			return false
		}
		k := min(n, len(r.segs[r.i])-r.p)
		r.p += k
		n -= k
	}
	return true
}

// chars reads cch characters, one or two bytes each; where a record
// ends inside them, the next begins with their width. At most
// maxLabelChars are kept.
func (r *sstReader) chars(cch int, wide bool) (string, bool) {
	var b strings.Builder
	for cch > 0 {
		if r.i < len(r.segs) && r.p >= len(r.segs[r.i]) {
			if r.i+1 >= len(r.segs) || len(r.segs[r.i+1]) == 0 {
				return "", false
			}
			r.i, r.p = r.i+1, 1
			wide = r.segs[r.i][0]&1 != 0
		}
		if r.i >= len(r.segs) {
			return "", false
		}
		width := 1
		if wide {
			width = 2
		}
		seg := r.segs[r.i][r.p:]
		k := min(cch, len(seg)/width)
		if k == 0 {
			return "", false // half a character before the record's end
		}
		if keep := min(k, maxLabelChars-b.Len()); keep > 0 {
			if wide {
				b.WriteString(utf16le(seg[:2*keep]))
			} else {
				b.WriteString(latin1(seg[:keep]))
			}
		}
		r.p += k * width
		cch -= k
	}
	return b.String(), true
}
