package office

import (
	"encoding/binary"
	"strings"
)

// The Workbook stream of a .xls ([MS-XLS], BIFF8; "Book" holds BIFF5) is a
// sequence of records: a type, a length and the payload. Only the workbook
// globals are read: the sheets (state and type), the defined names and the
// supporting links (external workbooks and DDE). Cell contents are not read.

// Limits of the BIFF walker.
const maxBIFFRecords = 1 << 20

// biffScan is what the workbook globals show.
type biffScan struct {
	biff5            bool
	encrypted        bool // a FILEPASS record: the rest is encrypted
	encryption       string
	macroSheets      int      // BOUNDSHEET type 1 (Excel 4 macro sheet)
	vbaModuleSheets  int      // BOUNDSHEET type 6 (Excel 5 VB module)
	hiddenSheets     int      // state 1
	veryHiddenSheets int      // state 2
	sheetNames       []string // attacker-authored
	autoOpenNames    []string // Auto_Open / Auto_Close defined names
	externalBooks    []string // virtual paths of external workbooks, decoded
	ddeLinks         int      // DDE supporting links (server|topic)
	oleLinks         int      // OLE supporting links
	damaged          bool     // a record runs past the stream
	records          int
}

// scanBIFF walks the workbook stream's records. decrypted says the records
// after FILEPASS were decrypted (decryptXLS), so the walk goes on past it.
func scanBIFF(b []byte, decrypted bool) (s biffScan) {
	// Supporting link being read: its EXTERNNAME records say whether a
	// server|topic link is DDE or OLE.
	type supbook struct {
		dde      bool
		ole, all int
	}
	var books []supbook
	defer func() {
		for _, sb := range books {
			if !sb.dde {
				continue
			}
			if sb.all > 0 && sb.ole == sb.all {
				s.oleLinks++
			} else {
				s.ddeLinks++
			}
		}
	}()
	for pos := 0; pos+4 <= len(b); {
		if s.records >= maxBIFFRecords {
			s.damaged = true
			return s
		}
		s.records++
		typ := binary.LittleEndian.Uint16(b[pos:])
		n := int(binary.LittleEndian.Uint16(b[pos+2:]))
		pos += 4
		if pos+n > len(b) {
			s.damaged = true
			return s
		}
		d := b[pos : pos+n]
		pos += n
		switch typ {
		case 0x0809: // BOF
			if s.records == 1 && len(d) >= 2 && binary.LittleEndian.Uint16(d) == 0x0500 {
				s.biff5 = true
			}
		case 0x002F: // FILEPASS
			if decrypted {
				continue
			}
			s.encrypted = true
			s.encryption = filepassKind(d)
			return s
		case 0x0085: // BOUNDSHEET
			if len(d) < 7 {
				s.damaged = true
				continue
			}
			switch d[4] & 3 {
			case 1:
				s.hiddenSheets++
			case 2:
				s.veryHiddenSheets++
			}
			switch d[5] {
			case 1:
				s.macroSheets++
			case 6:
				s.vbaModuleSheets++
			}
			if len(s.sheetNames) < maxSnippets {
				s.sheetNames = append(s.sheetNames, biffShortString(d[6:], s.biff5))
			}
		case 0x0018: // NAME
			if name, ok := biffName(d, s.biff5); ok && len(s.autoOpenNames) < maxSnippets {
				s.autoOpenNames = append(s.autoOpenNames, name)
			}
		case 0x01AE: // SUPBOOK
			if len(d) < 4 {
				s.damaged = true
				continue
			}
			cch := binary.LittleEndian.Uint16(d[2:])
			if cch == 0x0401 || cch == 0x3A01 {
				books = append(books, supbook{}) // this workbook, or add-in functions
				continue
			}
			path := biffStringNoCch(d[4:], int(cch))
			sb := supbook{}
			switch {
			case path == "":
			case path[0] >= 0x20 && strings.ContainsRune(path, 0x03):
				sb.dde = true
			default:
				if len(s.externalBooks) < maxSnippets {
					s.externalBooks = append(s.externalBooks, decodeVirtualPath(path))
				}
			}
			books = append(books, sb)
		case 0x0023: // EXTERNNAME
			if len(books) == 0 || len(d) < 2 {
				continue
			}
			sb := &books[len(books)-1]
			sb.all++
			if f := binary.LittleEndian.Uint16(d); f&0x18 != 0 {
				sb.ole++
			}
		}
	}
	return s
}

// filepassKind names the encryption a FILEPASS record declares.
func filepassKind(d []byte) string {
	if len(d) < 2 || binary.LittleEndian.Uint16(d) == 0 {
		return "xor"
	}
	if len(d) >= 4 && binary.LittleEndian.Uint16(d[2:]) == 1 {
		return "rc4"
	}
	return "rc4-cryptoapi"
}

// biffName returns the defined name when it is one Excel runs on open or
// close: the built-in Auto_Open (code 1) and Auto_Close (2), or a name
// beginning Auto_Open / Auto_Close, which Excel also runs.
func biffName(d []byte, biff5 bool) (string, bool) {
	if len(d) < 15 {
		return "", false
	}
	flags := binary.LittleEndian.Uint16(d)
	cch := int(d[3])
	var name string
	if biff5 {
		name = latin1(d[14:min(len(d), 14+cch)])
	} else {
		name = biffStringNoCch(d[14:], cch)
	}
	if flags&0x20 != 0 && name != "" {
		switch name[0] {
		case 1:
			return "Auto_Open", true
		case 2:
			return "Auto_Close", true
		}
		return "", false
	}
	low := strings.ToLower(name)
	if strings.HasPrefix(low, "auto_open") || strings.HasPrefix(low, "auto_close") {
		return name, true
	}
	return "", false
}

// biffShortString reads a ShortXLUnicodeString (BIFF8) or a byte-counted
// string (BIFF5).
func biffShortString(d []byte, biff5 bool) string {
	if len(d) < 1 {
		return ""
	}
	cch := int(d[0])
	if biff5 {
		return latin1(d[1:min(len(d), 1+cch)])
	}
	return biffStringNoCch(d[1:], cch)
}

// biffStringNoCch reads an XLUnicodeStringNoCch of cch characters: a flag
// byte (bit 0: two bytes per character), then the characters.
func biffStringNoCch(d []byte, cch int) string {
	if len(d) < 1 || cch <= 0 {
		return ""
	}
	if d[0]&1 == 0 {
		return latin1(d[1:min(len(d), 1+cch)])
	}
	end := min(len(d), 1+2*cch)
	return utf16le(d[1:end])
}

// decodeVirtualPath turns an external workbook's encoded path ([MS-XLS]
// 2.5.277) into a readable one: 0x01 starts a volume (a drive letter, or
// '@' and a UNC server), 0x02 the same volume's root, 0x03 separates
// directories, 0x04 climbs one, 0x05 a URL follows.
func decodeVirtualPath(p string) string {
	var b strings.Builder
	r := []rune(p)
	for i := 0; i < len(r); i++ {
		switch r[i] {
		case 1:
			if i+1 < len(r) {
				i++
				switch r[i] {
				case '@':
					b.WriteString(`\\`)
				case 5: // a URL follows, with its length in the next char
					if i+1 < len(r) {
						i++
					}
				default:
					b.WriteRune(r[i])
					b.WriteString(`:\`)
				}
			}
		case 2:
			b.WriteString(`\`)
		case 3:
			b.WriteString(`\`)
		case 4:
			b.WriteString(`..\`)
		case 5, 6, 7, 8:
		default:
			b.WriteRune(r[i])
		}
	}
	return b.String()
}
