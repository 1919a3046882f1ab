package office

import (
	"encoding/binary"
	"strconv"
	"strings"
	"time"
)

// The \x05SummaryInformation and \x05DocumentSummaryInformation streams of
// a compound file are property sets ([MS-OLEPS]). Their values are mapped
// onto the names core.xml and app.xml use, so that the office block, the
// document block, the metadata family and /metadata read one vocabulary
// for every Office format. Every value is attacker-authored.

// Limits of the property-set reader.
const (
	maxPropsPerSet = 256
	maxPropSets    = 2
)

// summaryNames maps SummaryInformation property ids to core.xml (core) or
// app.xml (app) names.
var summaryNames = map[uint32]struct {
	name string
	app  bool
}{
	2: {"title", false}, 3: {"subject", false}, 4: {"creator", false}, 5: {"keywords", false},
	6: {"description", false}, 7: {"Template", true}, 8: {"lastModifiedBy", false},
	9: {"revision", false}, 10: {"TotalTime", true}, 11: {"lastPrinted", false},
	12: {"created", false}, 13: {"modified", false}, 14: {"Pages", true}, 15: {"Words", true},
	16: {"Characters", true}, 18: {"Application", true}, 19: {"DocSecurity", true},
}

// docSummaryNames maps DocumentSummaryInformation property ids to app.xml
// names (category goes to core.xml as OOXML keeps it there).
var docSummaryNames = map[uint32]string{
	2: "category", 3: "PresentationFormat", 4: "Bytes", 5: "Lines", 6: "Paragraphs", 7: "Slides",
	8: "Notes", 9: "HiddenSlides", 10: "MMClips", 14: "Manager", 15: "Company",
	16: "LinksUpToDate", 17: "CharactersWithSpaces", 23: "AppVersion",
}

// psValue is one decoded property value.
type psValue struct {
	text  string
	isInt bool
	n     int64
	time  time.Time
	isDur bool
}

// readPropertySet decodes a property-set stream into its sections: for
// each, the property id to value map in id order, and the dictionary
// (custom property names) when present. ok is false when the stream is
// malformed; what was read is kept.
func readPropertySet(b []byte) (sections [][]psEntry, ok bool) {
	if len(b) < 28 || binary.LittleEndian.Uint16(b) != 0xFFFE {
		return nil, false
	}
	n := int(binary.LittleEndian.Uint32(b[24:]))
	ok = true
	for i := 0; i < n && i < maxPropSets; i++ {
		h := 28 + 20*i
		if h+20 > len(b) {
			return sections, false
		}
		off := int(binary.LittleEndian.Uint32(b[h+16:]))
		sec, good := readSection(b, off)
		ok = ok && good
		sections = append(sections, sec)
	}
	return sections, ok
}

// psEntry is one property of a section. Name is set for custom properties
// (from the section's dictionary).
type psEntry struct {
	id   uint32
	name string
	val  psValue
}

func readSection(b []byte, off int) ([]psEntry, bool) {
	if off < 0 || off+8 > len(b) {
		return nil, false
	}
	s := b[off:]
	size := int(binary.LittleEndian.Uint32(s))
	if size > len(s) || size < 8 {
		size = len(s)
	}
	s = s[:size]
	count := int(binary.LittleEndian.Uint32(s[4:]))
	ok := true
	codePage := 1252
	var out []psEntry
	var dict map[uint32]string
	type idOff struct{ id, off uint32 }
	var ids []idOff
	for i := 0; i < count && i < maxPropsPerSet; i++ {
		p := 8 + 8*i
		if p+8 > len(s) {
			ok = false
			break
		}
		ids = append(ids, idOff{binary.LittleEndian.Uint32(s[p:]), binary.LittleEndian.Uint32(s[p+4:])})
	}
	// The code page comes first in meaning, wherever it sits.
	for _, x := range ids {
		if x.id == 1 && int(x.off)+6 <= len(s) && binary.LittleEndian.Uint16(s[x.off:]) == 2 {
			codePage = int(binary.LittleEndian.Uint16(s[x.off+4:]))
		}
	}
	for _, x := range ids {
		if int64(x.off)+4 > int64(len(s)) {
			ok = false
			continue
		}
		if x.id == 0 {
			dict = readDictionary(s[x.off:], codePage)
			continue
		}
		if x.id == 1 || x.id >= 0x80000000 {
			continue
		}
		v, good := readValue(s[x.off:], codePage)
		if !good {
			ok = false
			continue
		}
		out = append(out, psEntry{id: x.id, val: v})
	}
	for i := range out {
		out[i].name = dict[out[i].id]
	}
	return out, ok
}

// readValue decodes the typed value at v (a TypedPropertyValue).
func readValue(v []byte, codePage int) (psValue, bool) {
	if len(v) < 4 {
		return psValue{}, false
	}
	typ := binary.LittleEndian.Uint16(v)
	d := v[4:]
	switch typ {
	case 2: // VT_I2
		if len(d) < 2 {
			return psValue{}, false
		}
		n := int64(int16(binary.LittleEndian.Uint16(d)))
		return psValue{isInt: true, n: n, text: strconv.FormatInt(n, 10)}, true
	case 3, 0x13, 0x16, 0x17: // VT_I4, VT_UI4, VT_INT, VT_UINT
		if len(d) < 4 {
			return psValue{}, false
		}
		n := int64(binary.LittleEndian.Uint32(d))
		if typ == 3 || typ == 0x16 {
			n = int64(int32(uint32(n)))
		}
		return psValue{isInt: true, n: n, text: strconv.FormatInt(n, 10)}, true
	case 0x0B: // VT_BOOL
		if len(d) < 2 {
			return psValue{}, false
		}
		if binary.LittleEndian.Uint16(d) != 0 {
			return psValue{text: "true"}, true
		}
		return psValue{text: "false"}, true
	case 0x1E: // VT_LPSTR
		s, ok := psString(d, codePage)
		return psValue{text: s}, ok
	case 0x1F: // VT_LPWSTR
		if len(d) < 4 {
			return psValue{}, false
		}
		n := int(binary.LittleEndian.Uint32(d))
		if n < 0 || n > maxPropBytes || 4+2*n > len(d) {
			return psValue{}, false
		}
		return psValue{text: utf16le(d[4 : 4+2*n])}, true
	case 0x40: // VT_FILETIME
		if len(d) < 8 {
			return psValue{}, false
		}
		ft := binary.LittleEndian.Uint64(d)
		if ft < 1<<52 {
			// Small values are durations (EditTime), in 100 ns ticks.
			return psValue{isDur: true, isInt: true, n: int64(ft / 600_000_000), text: strconv.FormatUint(ft/600_000_000, 10)}, true
		}
		t := filetime(ft)
		return psValue{time: t, text: t.Format(time.RFC3339)}, true
	}
	// Vectors, blobs, clipboard thumbnails: not needed by any family.
	return psValue{}, true
}

// psString reads a CodePageString: a byte length, then bytes in the
// section's code page (UTF-16 when the code page is 1200).
func psString(d []byte, codePage int) (string, bool) {
	if len(d) < 4 {
		return "", false
	}
	n := int(binary.LittleEndian.Uint32(d))
	if n < 0 || n > maxPropBytes*2 || 4+n > len(d) {
		return "", false
	}
	raw := d[4 : 4+n]
	if codePage == 1200 {
		return utf16le(raw), true
	}
	if i := strings.IndexByte(string(raw), 0); i >= 0 {
		raw = raw[:i]
	}
	if codePage == 65001 {
		return string(raw), true
	}
	return cp1252(raw), true
}

// cp1252 decodes Windows-1252; other single-byte code pages are read as
// 1252 too (names and dates are what matter, and they are mostly ASCII).
func cp1252(b []byte) string {
	const hi = "€\uFFFD‚ƒ„…†‡ˆ‰Š‹Œ\uFFFDŽ\uFFFD\uFFFD‘’“”•–—˜™š›œ\uFFFDžŸ"
	table := []rune(hi)
	r := make([]rune, len(b))
	for i, c := range b {
		if c >= 0x80 && c < 0xA0 {
			r[i] = table[c-0x80]
		} else {
			r[i] = rune(c)
		}
	}
	return string(r)
}

// readDictionary reads a section's dictionary: custom property names by id.
func readDictionary(d []byte, codePage int) map[uint32]string {
	out := map[uint32]string{}
	if len(d) < 4 {
		return out
	}
	n := int(binary.LittleEndian.Uint32(d))
	pos := 4
	for i := 0; i < n && i < maxPropsPerSet && pos+8 <= len(d); i++ {
		id := binary.LittleEndian.Uint32(d[pos:])
		l := int(binary.LittleEndian.Uint32(d[pos+4:]))
		pos += 8
		if codePage == 1200 {
			if l < 0 || l > maxPropBytes || pos+2*l > len(d) {
				break
			}
			out[id] = utf16le(d[pos : pos+2*l])
			pos += 2 * l
			pos = (pos + 3) &^ 3
			continue
		}
		if l < 0 || l > maxPropBytes || pos+l > len(d) {
			break
		}
		out[id] = strings.TrimRight(cp1252(d[pos:pos+l]), "\x00")
		pos += l
	}
	return out
}

func filetime(ft uint64) time.Time {
	const epochDiff = 116444736000000000 // 1601 to 1970 in 100 ns ticks
	if ft < epochDiff {
		return time.Unix(0, 0).UTC().Add(-time.Duration(epochDiff-ft) * 100)
	}
	s := (ft - epochDiff) / 10_000_000
	return time.Unix(int64(s), 0).UTC()
}

// legacyProps maps the two property-set streams onto props. bad lists the
// streams that were malformed.
func legacyProps(summary, docSummary []byte) (pr props, bad []string) {
	if summary != nil {
		pr.corePresent = true
		secs, ok := readPropertySet(summary)
		if !ok {
			bad = append(bad, "\x05SummaryInformation")
		}
		if len(secs) > 0 {
			for _, e := range secs[0] {
				m, known := summaryNames[e.id]
				// EditTime is a duration; the three dates are times, and
				// a small FILETIME there (LibreOffice writes 0) is unset.
				if !known || e.val.text == "" || e.id == 10 && !e.val.isDur || (e.id >= 11 && e.id <= 13) && e.val.isDur {
					continue
				}
				p := prop{Name: m.name, Value: e.val.text}
				if m.app {
					pr.app = append(pr.app, p)
					pr.appPresent = true
				} else {
					pr.core = append(pr.core, p)
				}
			}
		}
	}
	if docSummary != nil {
		secs, ok := readPropertySet(docSummary)
		if !ok {
			bad = append(bad, "\x05DocumentSummaryInformation")
		}
		if len(secs) > 0 {
			for _, e := range secs[0] {
				name, known := docSummaryNames[e.id]
				if !known || e.val.text == "" {
					continue
				}
				v := e.val.text
				if e.id == 23 && e.val.isInt {
					v = strconv.FormatInt(e.val.n>>16, 10) + "." + strconv.FormatInt(e.val.n&0xFFFF, 10)
				}
				if name == "category" {
					pr.core = append(pr.core, prop{Name: name, Value: v})
					continue
				}
				pr.app = append(pr.app, prop{Name: name, Value: v})
				pr.appPresent = true
			}
		}
		if len(secs) > 1 {
			for _, e := range secs[1] {
				if e.name != "" {
					pr.custom = append(pr.custom, prop{Name: e.name, Value: e.val.text})
				}
			}
		}
	}
	return pr, bad
}
