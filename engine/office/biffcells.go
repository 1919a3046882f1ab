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
				sst = readSST(d)
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

// readSST reads the shared strings held in the SST record itself.
func readSST(d []byte) []string {
	if len(d) < 8 {
		return nil
	}
	n := int(binary.LittleEndian.Uint32(d[4:]))
	var out []string
	p := 8
	for i := 0; i < n && i < maxSST && p+3 <= len(d); i++ {
		cch := int(binary.LittleEndian.Uint16(d[p:]))
		flags := d[p+2]
		p += 3
		runs, ext := 0, 0
		if flags&0x08 != 0 {
			if p+2 > len(d) {
				break
			}
			runs = int(binary.LittleEndian.Uint16(d[p:]))
			p += 2
		}
		if flags&0x04 != 0 {
			if p+4 > len(d) {
				break
			}
			ext = int(binary.LittleEndian.Uint32(d[p:]))
			p += 4
		}
		width := 1
		if flags&1 != 0 {
			width = 2
		}
		if p+cch*width > len(d) {
			break // continued in a CONTINUE record
		}
		if width == 1 {
			out = append(out, latin1(d[p:p+cch]))
		} else {
			out = append(out, utf16le(d[p:p+2*cch]))
		}
		p += cch*width + 4*runs + ext
	}
	return out
}
