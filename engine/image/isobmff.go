package image

import (
	"bytes"
	"context"
)

// ISOBMFF (HEIC, HEIF, AVIF): the walker reads the top-level boxes and the
// meta box's item tables: iinf (item types), iloc (where each item's bytes
// are), iprp/ipco/ipma (ispe sizes and which item they belong to) and pitm
// (the primary item). Exif and XMP items are located through iloc and
// handed to the EXIF and XMP readers; C2PA is a uuid or jumb box.

type box struct {
	typ        string
	start, end int // payload bounds in the file
}

type bmffItem struct {
	id          uint32
	typ         string
	contentType string
	method      int
	extents     [][2]uint64 // offset, length
}

const maxItemWork = 1 << 24

type bmff struct {
	b       []byte
	f       *facts
	items   []bmffItem
	primary uint32
	ispes   [][2]int // ipco property index (1-based) -> size; {0,0} for other properties
	assoc   [][2]uint32
	thumbOf [][2]uint32 // iref thmb: thumbnail item -> the item it depicts
	idat    box
	steps   int
	work    int
	ctx     context.Context
}

// children lists the boxes in b[start:end].
func (m *bmff) children(start, end int) ([]box, bool) {
	var out []box
	p := start
	for p < end {
		m.steps++
		if m.steps > maxSegments {
			m.f.anomaly("too-many-segments", p)
			return out, false
		}
		if m.steps%ctxCheckStride == 0 && m.ctx.Err() != nil {
			return out, false
		}
		if p+8 > end {
			m.f.anomaly("truncated", p)
			return out, true
		}
		size := uint64(be32(m.b[p:]))
		typ := string(m.b[p+4 : p+8])
		hdr := 8
		switch size {
		case 1:
			if p+16 > end {
				m.f.anomaly("truncated", p)
				return out, true
			}
			size = uint64(be32(m.b[p+8:]))<<32 | uint64(be32(m.b[p+12:]))
			hdr = 16
		case 0:
			size = uint64(end - p)
		}
		if size < uint64(hdr) || size > uint64(end-p) {
			m.f.anomaly("truncated", p)
			return out, true
		}
		out = append(out, box{typ: typ, start: p + hdr, end: p + int(size)})
		p += int(size)
	}
	return out, true
}

func walkISOBMFF(ctx context.Context, b []byte, f *facts) error {
	m := &bmff{b: b, f: f, ctx: ctx}
	top, _ := m.children(0, len(b))
	for _, bx := range top {
		switch bx.typ {
		case "meta":
			m.meta(bx, 0)
		case "moov":
			f.animated = true
		case "uuid", "jumb":
			if bytes.Contains(b[bx.start:bx.end], []byte("c2pa")) {
				f.addC2PA(b[bx.start:bx.end])
			}
		}
	}
	if ctx.Err() != nil {
		return ErrDeadline
	}
	m.resolve()
	return nil
}

func (m *bmff) meta(bx box, depth int) {
	if depth > maxBoxDepth || bx.end-bx.start < 4 {
		return
	}
	kids, _ := m.children(bx.start+4, bx.end) // full box: version and flags
	for _, k := range kids {
		d := m.b[k.start:k.end]
		switch k.typ {
		case "pitm":
			if len(d) >= 6 {
				if d[0] == 0 {
					m.primary = uint32(be16(d[4:]))
				} else if len(d) >= 8 {
					m.primary = be32(d[4:])
				}
			}
		case "iinf":
			m.iinf(k)
		case "iloc":
			m.iloc(d, k.start)
		case "iprp":
			m.iprp(k)
		case "iref":
			m.iref(k)
		case "idat":
			m.idat = k
		}
	}
}

func (m *bmff) item(id uint32) *bmffItem {
	// The lookup is linear; counting its cost bounds a file that declares
	// thousands of items in many item tables.
	m.work += len(m.items)
	if m.work > maxItemWork {
		return nil
	}
	for i := range m.items {
		if m.items[i].id == id {
			return &m.items[i]
		}
	}
	if len(m.items) >= maxItems {
		return nil
	}
	m.items = append(m.items, bmffItem{id: id})
	return &m.items[len(m.items)-1]
}

func (m *bmff) iinf(bx box) {
	d := m.b[bx.start:bx.end]
	if len(d) < 6 {
		return
	}
	p := 6
	if d[0] != 0 {
		p = 8
	}
	kids, _ := m.children(bx.start+p, bx.end)
	for _, k := range kids {
		if k.typ != "infe" {
			continue
		}
		e := m.b[k.start:k.end]
		if len(e) < 4 || e[0] < 2 {
			continue
		}
		q := 4
		var id uint32
		if e[0] == 2 {
			if len(e) < q+2 {
				continue
			}
			id = uint32(be16(e[q:]))
			q += 2
		} else {
			if len(e) < q+4 {
				continue
			}
			id = be32(e[q:])
			q += 4
		}
		if len(e) < q+6 {
			continue
		}
		typ := string(e[q+2 : q+6])
		it := m.item(id)
		if it == nil {
			return
		}
		it.typ = typ
		if typ == "mime" {
			_, rest, ok := bytes.Cut(e[q+6:], []byte{0}) // item name
			if ok {
				ct, _, _ := bytes.Cut(rest, []byte{0})
				it.contentType = string(ct)
			}
		}
	}
}

// readN reads an n-byte big-endian field (n is 0, 4 or 8).
func readN(d []byte, p *int, n int) (uint64, bool) {
	if *p+n > len(d) {
		return 0, false
	}
	var v uint64
	for i := 0; i < n; i++ {
		v = v<<8 | uint64(d[*p+i])
	}
	*p += n
	return v, true
}

func (m *bmff) iloc(d []byte, off int) {
	if len(d) < 8 {
		return
	}
	ver := d[0]
	offSize, lenSize := int(d[4]>>4), int(d[4]&0x0F)
	baseSize, idxSize := int(d[5]>>4), 0
	if ver == 1 || ver == 2 {
		idxSize = int(d[5] & 0x0F)
	}
	for _, s := range []int{offSize, lenSize, baseSize, idxSize} {
		if s != 0 && s != 4 && s != 8 {
			m.f.anomaly("broken-box", off)
			return
		}
	}
	p := 6
	var count uint64
	var ok bool
	if ver < 2 {
		count, ok = readN(d, &p, 2)
	} else {
		count, ok = readN(d, &p, 4)
	}
	if !ok {
		return
	}
	for i := uint64(0); i < count && i < maxItems; i++ {
		var id uint64
		if ver < 2 {
			id, ok = readN(d, &p, 2)
		} else {
			id, ok = readN(d, &p, 4)
		}
		method := uint64(0)
		if ok && (ver == 1 || ver == 2) {
			method, ok = readN(d, &p, 2)
			method &= 0x0F
		}
		var base, nExt uint64
		if ok {
			_, ok = readN(d, &p, 2) // data reference index
		}
		if ok {
			base, ok = readN(d, &p, baseSize)
		}
		if ok {
			nExt, ok = readN(d, &p, 2)
		}
		if !ok {
			m.f.anomaly("truncated", off+p)
			return
		}
		it := m.item(uint32(id))
		for j := uint64(0); j < nExt; j++ {
			var eo, el uint64
			_, ok = readN(d, &p, idxSize)
			if ok {
				eo, ok = readN(d, &p, offSize)
			}
			if ok {
				el, ok = readN(d, &p, lenSize)
			}
			if !ok {
				m.f.anomaly("truncated", off+p)
				return
			}
			if it != nil && len(it.extents) < 64 {
				it.method = int(method)
				it.extents = append(it.extents, [2]uint64{base + eo, el})
			}
		}
	}
}

// iref reads the item references; only thmb (thumbnail of) is kept.
func (m *bmff) iref(bx box) {
	if bx.end-bx.start < 4 {
		return
	}
	idSize := 2
	if m.b[bx.start] != 0 {
		idSize = 4
	}
	refs, _ := m.children(bx.start+4, bx.end)
	for _, r := range refs {
		if r.typ != "thmb" {
			continue
		}
		d, p := m.b[r.start:r.end], 0
		from, ok1 := readN(d, &p, idSize)
		n, ok2 := readN(d, &p, 2)
		for i := uint64(0); ok1 && ok2 && i < n && len(m.thumbOf) < maxItems; i++ {
			to, ok := readN(d, &p, idSize)
			if !ok {
				break
			}
			m.thumbOf = append(m.thumbOf, [2]uint32{uint32(from), uint32(to)})
		}
	}
}

// sizeOf returns an item's ispe size, if one is associated with it.
func (m *bmff) sizeOf(id uint32) (w, h int) {
	for _, a := range m.assoc {
		if a[0] != id || a[1] == 0 || int(a[1]) > len(m.ispes) {
			continue
		}
		if sz := m.ispes[a[1]-1]; sz[0] != 0 {
			return sz[0], sz[1]
		}
	}
	return 0, 0
}

func (m *bmff) iprp(bx box) {
	kids, _ := m.children(bx.start, bx.end)
	for _, k := range kids {
		switch k.typ {
		case "ipco":
			props, _ := m.children(k.start, k.end)
			for _, pr := range props {
				var sz [2]int
				d := m.b[pr.start:pr.end]
				if pr.typ == "ispe" && len(d) >= 12 {
					sz = [2]int{int(be32(d[4:]) & 0x7FFFFFFF), int(be32(d[8:]) & 0x7FFFFFFF)}
				}
				if len(m.ispes) < maxItems {
					m.ispes = append(m.ispes, sz)
				}
			}
		case "ipma":
			m.ipma(m.b[k.start:k.end])
		}
	}
}

func (m *bmff) ipma(d []byte) {
	if len(d) < 8 {
		return
	}
	ver, flags := d[0], d[3]
	p := 4
	count, _ := readN(d, &p, 4)
	for i := uint64(0); i < count && i < maxItems; i++ {
		var id uint64
		var ok bool
		if ver < 1 {
			id, ok = readN(d, &p, 2)
		} else {
			id, ok = readN(d, &p, 4)
		}
		if !ok || p >= len(d) {
			return
		}
		n := int(d[p])
		p++
		for j := 0; j < n; j++ {
			var v uint64
			if flags&1 != 0 {
				v, ok = readN(d, &p, 2)
				v &= 0x7FFF
			} else {
				var w uint64
				w, ok = readN(d, &p, 1)
				v = w & 0x7F
			}
			if !ok {
				return
			}
			if len(m.assoc) < 4*maxItems {
				m.assoc = append(m.assoc, [2]uint32{uint32(id), uint32(v)})
			}
		}
	}
}

// itemBytes returns an item's bytes when it is one extent inside the file
// or the idat box; items split over several extents are joined up to the
// size the file itself bounds.
func (m *bmff) itemBytes(it *bmffItem) []byte {
	base, limit := 0, len(m.b)
	if it.method == 1 {
		base, limit = m.idat.start, m.idat.end
	} else if it.method != 0 {
		return nil
	}
	var out []byte
	for i, e := range it.extents {
		start := uint64(base) + e[0]
		length := e[1]
		if length == 0 && len(it.extents) == 1 {
			length = uint64(limit) - start // zero means to the end
		}
		if start > uint64(limit) || length > uint64(limit)-start {
			m.f.anomaly("item-out-of-range", int(min(start, uint64(len(m.b)))))
			return nil
		}
		seg := m.b[start : start+length]
		if i == 0 && len(it.extents) == 1 {
			return seg
		}
		if len(out)+len(seg) > len(m.b) {
			return nil
		}
		out = append(out, seg...)
	}
	return out
}

func (m *bmff) resolve() {
	if m.f.width == 0 {
		m.f.width, m.f.height = m.sizeOf(m.primary)
	}
	for _, t := range m.thumbOf {
		if t[1] != m.primary {
			continue
		}
		if w, h := m.sizeOf(t[0]); w > 0 && h > 0 {
			m.f.thumbWidth, m.f.thumbHeight = w, h
			break
		}
	}
	for i := range m.items {
		it := &m.items[i]
		switch {
		case it.typ == "Exif":
			d := m.itemBytes(it)
			// The item starts with the offset of the TIFF header.
			if len(d) >= 4 {
				skip := uint64(be32(d))
				if skip <= uint64(len(d)-4) {
					m.f.setEXIF(exifBody(d[4+skip:]), 0)
					continue
				}
			}
			m.f.anomaly("item-out-of-range", 0)
		case it.typ == "mime" && it.contentType == "application/rdf+xml":
			if d := m.itemBytes(it); d != nil {
				m.f.addXMP(d)
			}
		case it.typ == "mime" && bytes.Contains([]byte(it.contentType), []byte("c2pa")),
			it.typ == "jumb":
			if d := m.itemBytes(it); d != nil {
				m.f.addC2PA(d)
			}
		}
	}
}
