package office

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// The binary workbook (.xlsb) is an OPC package like .xlsx whose parts are
// BIFF12 record streams ([MS-XLSB] 2.1.4): a record type and a size, each
// a little-endian base-128 number, then the payload. Only the workbook
// part (sheet states, defined names) and the external-link parts (DDE) are
// read; cell records are not.

// Limits of the BIFF12 walker.
const maxXLSBRecords = 1 << 20

// biff12Records calls fn for each record until fn returns false or the
// stream ends; damaged is true when a record runs past the stream.
func biff12Records(b []byte, fn func(typ int, d []byte) bool) (damaged bool) {
	pos := 0
	for n := 0; pos < len(b); n++ {
		if n >= maxXLSBRecords {
			return true
		}
		typ, ok := b12Number(b, &pos, 2)
		if !ok {
			return true
		}
		size, ok := b12Number(b, &pos, 4)
		if !ok || size > len(b)-pos {
			return true
		}
		d := b[pos : pos+size]
		pos += size
		if !fn(typ, d) {
			return false
		}
	}
	return false
}

// b12Number reads a base-128 number of at most maxBytes bytes.
func b12Number(b []byte, pos *int, maxBytes int) (int, bool) {
	v := 0
	for i := 0; i < maxBytes; i++ {
		if *pos >= len(b) {
			return 0, false
		}
		c := b[*pos]
		*pos++
		v |= int(c&0x7F) << (7 * i)
		if c&0x80 == 0 {
			return v, true
		}
	}
	return v, true
}

// b12String reads an XLWideString (a character count, then UTF-16) at
// d[off:]; it returns the string and the offset after it.
func b12String(d []byte, off int) (string, int, bool) {
	if off+4 > len(d) {
		return "", off, false
	}
	n := binary.LittleEndian.Uint32(d[off:])
	off += 4
	if n == 0xFFFFFFFF {
		return "", off, true
	}
	if int64(n)*2 > int64(len(d)-off) {
		return "", off, false
	}
	u := make([]uint16, n)
	for i := range u {
		u[i] = binary.LittleEndian.Uint16(d[off+2*i:])
	}
	return string(utf16.Decode(u)), off + 2*int(n), true
}

// scanXLSBWorkbook reads sheet states (BrtBundleSh) and auto-run defined
// names (BrtName) from xl/workbook.bin.
func (a *analysis) scanXLSBWorkbook(data []byte) (damaged bool) {
	return biff12Records(data, func(typ int, d []byte) bool {
		switch typ {
		case 0x9C: // BrtBundleSh
			if len(d) < 8 {
				return true
			}
			switch binary.LittleEndian.Uint32(d) {
			case 1:
				a.xl.hiddenSheets++
			case 2:
				a.xl.veryHiddenSheets++
			}
		case 0x27: // BrtName
			if len(d) < 9 {
				return true
			}
			name, _, ok := b12String(d, 9)
			low := strings.ToLower(strings.TrimPrefix(strings.ToLower(name), "_xlnm."))
			if ok && (strings.HasPrefix(low, "auto_open") || strings.HasPrefix(low, "auto_close")) {
				a.xl.autoOpenNames++
			}
		}
		return a.ctx.Err() == nil
	})
}

// scanXLSBExternalLink counts DDE links in an external-link part: the
// supporting-link record's type (0 workbook, 1 DDE, 2 OLE).
func (a *analysis) scanXLSBExternalLink(data []byte) (damaged bool) {
	return biff12Records(data, func(typ int, d []byte) bool {
		if typ == 0x168 && len(d) >= 2 { // BrtBeginSupBook
			switch binary.LittleEndian.Uint16(d) {
			case 0:
				a.xl.externalBooks++
			case 1:
				a.xl.ddeLinks++
			}
		}
		return true
	})
}
