package office

import (
	"encoding/binary"
	"strings"
)

// The Word binary FIB ([MS-DOC] 2.5.1) locates the table-stream
// structures. Only the attached template's path is read from it: a
// template fetched from a server when the document opens is the binary
// form of OOXML's external attachedTemplate relationship.

// wordTemplate returns the attached template path of a Word binary
// document (SttbfAssoc entry 1), "" when absent or unreadable. table is
// the 0Table or 1Table stream, as the FIB's fWhichTblStm names it.
func wordTemplate(fib []byte, table func(name string) []byte) string {
	if len(fib) < 34 {
		return ""
	}
	pos := 32
	csw := int(binary.LittleEndian.Uint16(fib[pos:]))
	pos += 2 + 2*csw
	if pos+2 > len(fib) {
		return ""
	}
	cslw := int(binary.LittleEndian.Uint16(fib[pos:]))
	pos += 2 + 4*cslw
	if pos+2 > len(fib) {
		return ""
	}
	cb := int(binary.LittleEndian.Uint16(fib[pos:]))
	pos += 2
	const sttbfAssoc = 32 // index of fcSttbfAssoc in FibRgFcLcb97
	if cb <= sttbfAssoc || pos+8*(sttbfAssoc+1) > len(fib) {
		return ""
	}
	fc := binary.LittleEndian.Uint32(fib[pos+8*sttbfAssoc:])
	lcb := binary.LittleEndian.Uint32(fib[pos+8*sttbfAssoc+4:])
	name := "0Table"
	if binary.LittleEndian.Uint16(fib[0x0A:])&0x0200 != 0 {
		name = "1Table"
	}
	t := table(name)
	if lcb < 6 || uint64(fc)+uint64(lcb) > uint64(len(t)) {
		return ""
	}
	s := t[fc : fc+lcb]
	if binary.LittleEndian.Uint16(s) != 0xFFFF {
		return "" // only the extended (UTF-16) form is written since Word 97
	}
	count := int(binary.LittleEndian.Uint16(s[2:]))
	extra := int(binary.LittleEndian.Uint16(s[4:]))
	p := 6
	for i := 0; i < count && i <= 1 && p+2 <= len(s); i++ {
		n := int(binary.LittleEndian.Uint16(s[p:]))
		p += 2
		if p+2*n > len(s) {
			return ""
		}
		if i == 1 {
			return utf16le(s[p : p+2*n])
		}
		p += 2*n + extra
	}
	return ""
}

// remoteTemplate reports a template path that Word would fetch from
// elsewhere: a URL or a UNC share.
func remoteTemplate(p string) bool {
	p = strings.TrimSpace(p)
	return strings.Contains(p, "://") || strings.HasPrefix(p, `\\`) || strings.HasPrefix(p, "//")
}
