package paint

import "encoding/binary"

// Enough of a TrueType font program (FontFile2) to tell which glyphs have
// no outline: the table directory, head's loca format, maxp's glyph count,
// loca, and the cmap subtables a PDF simple font is looked up through
// (formats 0, 4 and 6). A glyph whose loca entry is as long as nothing draws
// nothing; a letter drawn with it shows a blank while extracting. Every
// offset is checked against the data: a hostile program yields nil.

// maxGlyphIDs bounds the glyphs a program may declare (the format's own
// limit).
const maxGlyphIDs = 1 << 16

// ttProgram is what was read of one program.
type ttProgram struct {
	data      []byte
	numGlyphs int
	empty     []uint64          // bit per glyph: an empty outline
	cmaps     map[[2]uint16]int // (platform, encoding) -> subtable offset
}

func u16(b []byte, at int) (int, bool) {
	if at < 0 || at+2 > len(b) {
		return 0, false
	}
	return int(binary.BigEndian.Uint16(b[at:])), true
}

func u32(b []byte, at int) (int, bool) {
	if at < 0 || at+4 > len(b) {
		return 0, false
	}
	v := binary.BigEndian.Uint32(b[at:])
	if v > 1<<30 {
		return 0, false
	}
	return int(v), true
}

// parseTrueType reads a program's directory, glyph count, empty glyphs
// and cmap subtables; nil when any of them is missing or out of bounds.
func parseTrueType(data []byte) *ttProgram {
	n, ok := u16(data, 4)
	if !ok || n > 256 {
		return nil
	}
	tables := map[string][2]int{}
	for i := range n {
		rec := 12 + 16*i
		off, ok1 := u32(data, rec+8)
		ln, ok2 := u32(data, rec+12)
		if !ok1 || !ok2 || off+ln > len(data) {
			return nil
		}
		tables[string(data[rec:rec+4])] = [2]int{off, ln}
	}
	head, maxp, loca, cmap := tables["head"], tables["maxp"], tables["loca"], tables["cmap"]
	if head[1] < 54 || maxp[1] < 6 || loca[1] == 0 {
		return nil
	}
	long, _ := u16(data, head[0]+50)
	glyphs, _ := u16(data, maxp[0]+4)
	if glyphs == 0 || glyphs > maxGlyphIDs {
		return nil
	}
	p := &ttProgram{data: data, numGlyphs: glyphs, empty: make([]uint64, (glyphs+63)/64), cmaps: map[[2]uint16]int{}}
	entry := func(i int) (int, bool) {
		if long == 1 {
			if 4*i+4 > loca[1] {
				return 0, false
			}
			return u32(data, loca[0]+4*i)
		}
		if 2*i+2 > loca[1] {
			return 0, false
		}
		v, ok := u16(data, loca[0]+2*i)
		return 2 * v, ok
	}
	prev, ok := entry(0)
	if !ok {
		return nil
	}
	for g := range glyphs {
		next, ok := entry(g + 1)
		if !ok {
			return nil
		}
		if next == prev {
			p.empty[g/64] |= 1 << (g % 64)
		}
		prev = next
	}
	if cmap[1] >= 4 {
		count, _ := u16(data, cmap[0]+2)
		for i := range min(count, 64) {
			rec := cmap[0] + 4 + 8*i
			pl, ok1 := u16(data, rec)
			enc, ok2 := u16(data, rec+2)
			off, ok3 := u32(data, rec+4)
			if ok1 && ok2 && ok3 && off < cmap[1] {
				p.cmaps[[2]uint16{uint16(pl), uint16(enc)}] = cmap[0] + off
			}
		}
	}
	return p
}

// emptyGlyph reports a glyph with no outline (gid 0, .notdef, aside: a
// missing glyph says nothing of intent).
func (p *ttProgram) emptyGlyph(gid int) bool {
	return p != nil && gid > 0 && gid < p.numGlyphs && p.empty[gid/64]&(1<<(gid%64)) != 0
}

// lookup maps a character code through the (platform, encoding) subtable,
// formats 0, 4 and 6; 0 when not mapped.
func (p *ttProgram) lookup(platform, encoding uint16, c int) int {
	at, ok := p.cmaps[[2]uint16{platform, encoding}]
	if !ok {
		return 0
	}
	d := p.data
	format, _ := u16(d, at)
	switch format {
	case 0:
		if c < 0 || c > 255 || at+6+c >= len(d) {
			return 0
		}
		return int(d[at+6+c])
	case 6:
		first, ok1 := u16(d, at+6)
		count, ok2 := u16(d, at+8)
		if !ok1 || !ok2 || c < first || c >= first+count {
			return 0
		}
		g, _ := u16(d, at+10+2*(c-first))
		return g
	case 4:
		segX2, ok := u16(d, at+6)
		if !ok || segX2 == 0 {
			return 0
		}
		ends := at + 14
		starts := ends + segX2 + 2
		deltas := starts + segX2
		ranges := deltas + segX2
		for i := 0; i < segX2; i += 2 {
			end, ok := u16(d, ends+i)
			if !ok {
				return 0
			}
			if end < c {
				continue
			}
			start, ok1 := u16(d, starts+i)
			delta, ok2 := u16(d, deltas+i)
			rng, ok3 := u16(d, ranges+i)
			if !ok1 || !ok2 || !ok3 || start > c {
				return 0
			}
			if rng == 0 {
				return (c + delta) & 0xFFFF
			}
			g, ok := u16(d, ranges+i+rng+2*(c-start))
			if !ok || g == 0 {
				return 0
			}
			return (g + delta) & 0xFFFF
		}
	}
	return 0
}
