package image

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// Fixture builders: small, valid containers assembled in code so each test
// says exactly which bytes trigger a family.

type ent struct {
	tag, typ uint16
	count    uint32
	val      []byte
}

func ascii(tag uint16, s string) ent {
	v := append([]byte(s), 0)
	return ent{tag, 2, uint32(len(v)), v}
}

func long(tag uint16, v uint32) ent {
	return ent{tag, 4, 1, binary.LittleEndian.AppendUint32(nil, v)}
}

func rational3(tag uint16) ent {
	var v []byte
	for _, n := range []uint32{51, 1, 30, 1, 0, 1} {
		v = binary.LittleEndian.AppendUint32(v, n)
	}
	return ent{tag, 5, 3, v}
}

func ifdSize(es []ent) int {
	n := 2 + 12*len(es) + 4
	for _, e := range es {
		if len(e.val) > 4 {
			n += len(e.val) + len(e.val)&1
		}
	}
	return n
}

func putIFD(out []byte, off int, es []ent, next uint32) []byte {
	le := binary.LittleEndian
	data := off + 2 + 12*len(es) + 4
	out = le.AppendUint16(out, uint16(len(es)))
	var tail []byte
	for _, e := range es {
		out = le.AppendUint16(out, e.tag)
		out = le.AppendUint16(out, e.typ)
		out = le.AppendUint32(out, e.count)
		if len(e.val) <= 4 {
			v := make([]byte, 4)
			copy(v, e.val)
			out = append(out, v...)
			continue
		}
		out = le.AppendUint32(out, uint32(data+len(tail)))
		tail = append(tail, e.val...)
		if len(e.val)&1 == 1 {
			tail = append(tail, 0)
		}
	}
	out = le.AppendUint32(out, next)
	return append(out, tail...)
}

// tiffEXIF builds a little-endian TIFF EXIF block: IFD0 (with pointers to
// the Exif and GPS IFDs when those are non-nil), an optional IFD1 carrying
// a JPEG thumbnail, the Exif IFD and the GPS IFD.
func tiffEXIF(ifd0, exifIFD, gps []ent, thumb []byte) []byte {
	ifd0 = append([]ent(nil), ifd0...)
	if exifIFD != nil {
		ifd0 = append(ifd0, long(tagExifIFD, 0))
	}
	if gps != nil {
		ifd0 = append(ifd0, long(tagGPSIFD, 0))
	}
	var ifd1 []ent
	if thumb != nil {
		ifd1 = []ent{long(tagThumbOffset, 0), long(tagThumbLength, uint32(len(thumb)))}
	}
	off0 := 8
	off1 := off0 + ifdSize(ifd0)
	offE := off1 + ifdSize(ifd1)
	if thumb == nil {
		offE = off1
	}
	offG := offE + ifdSize(exifIFD)
	if exifIFD == nil {
		offG = offE
	}
	offT := offG + ifdSize(gps)
	if gps == nil {
		offT = offG
	}
	for i := range ifd0 {
		switch ifd0[i].tag {
		case tagExifIFD:
			ifd0[i] = long(tagExifIFD, uint32(offE))
		case tagGPSIFD:
			ifd0[i] = long(tagGPSIFD, uint32(offG))
		}
	}
	if thumb != nil {
		ifd1[0] = long(tagThumbOffset, uint32(offT))
	}
	out := []byte("II*\x00\x08\x00\x00\x00")
	next := uint32(0)
	if thumb != nil {
		next = uint32(off1)
	}
	out = putIFD(out, off0, ifd0, next)
	if thumb != nil {
		out = putIFD(out, off1, ifd1, 0)
	}
	if exifIFD != nil {
		out = putIFD(out, offE, exifIFD, 0)
	}
	if gps != nil {
		out = putIFD(out, offG, gps, 0)
	}
	return append(out, thumb...)
}

func segment(marker byte, payload []byte) []byte {
	out := []byte{0xFF, marker, byte((len(payload) + 2) >> 8), byte(len(payload) + 2)}
	return append(out, payload...)
}

// dqtSegment writes tables 0 and 1 in zigzag order from natural-order
// tables.
func dqtSegment(luma, chroma [64]uint16) []byte {
	var p []byte
	for i, t := range [][64]uint16{luma, chroma} {
		p = append(p, byte(i))
		var z [64]byte
		for k := 0; k < 64; k++ {
			z[k] = byte(t[zigzag[k]])
		}
		p = append(p, z[:]...)
	}
	return segment(0xDB, p)
}

func sof(w, h int) []byte {
	return segment(0xC0, []byte{8, byte(h >> 8), byte(h), byte(w >> 8), byte(w), 1, 1, 0x11, 0})
}

type jpegOpts struct {
	w, h     int
	exif     []byte
	xmp      string
	app0     bool
	luma     [64]uint16
	chroma   [64]uint16
	trailing []byte
	noEOI    bool
}

func buildJPEG(o jpegOpts) []byte {
	if o.w == 0 {
		o.w, o.h = 640, 480
	}
	if o.luma == ([64]uint16{}) {
		o.luma, o.chroma = scaled(&stdLuma, 90), scaled(&stdChroma, 90)
	}
	b := []byte{0xFF, 0xD8}
	if o.app0 {
		b = append(b, segment(0xE0, []byte("JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"))...)
	}
	if o.exif != nil {
		b = append(b, segment(0xE1, append([]byte("Exif\x00\x00"), o.exif...))...)
	}
	if o.xmp != "" {
		b = append(b, segment(0xE1, append(append([]byte(nil), idXMP...), o.xmp...))...)
	}
	b = append(b, dqtSegment(o.luma, o.chroma)...)
	b = append(b, sof(o.w, o.h)...)
	b = append(b, segment(0xDA, []byte{1, 1, 0, 0, 63, 0})...)
	b = append(b, 0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD0, 0x78)
	if o.noEOI {
		return b
	}
	b = append(b, 0xFF, 0xD9)
	return append(b, o.trailing...)
}

func chunk(typ string, data []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[4:]))
}

func buildPNG(extra ...[]byte) []byte {
	b := append([]byte(nil), pngSig...)
	ihdr := binary.BigEndian.AppendUint32(nil, 300)
	ihdr = binary.BigEndian.AppendUint32(ihdr, 200)
	ihdr = append(ihdr, 8, 2, 0, 0, 0)
	b = append(b, chunk("IHDR", ihdr)...)
	for _, e := range extra {
		b = append(b, e...)
	}
	b = append(b, chunk("IDAT", []byte{0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01})...)
	return append(b, chunk("IEND", nil)...)
}

func riffChunk(fourcc string, d []byte) []byte {
	out := append([]byte(fourcc), binary.LittleEndian.AppendUint32(nil, uint32(len(d)))...)
	out = append(out, d...)
	if len(d)&1 == 1 {
		out = append(out, 0)
	}
	return out
}

func buildWebP(w, h int, exif []byte) []byte {
	vp8x := make([]byte, 10)
	vp8x[0] = 0x08
	vp8x[4], vp8x[5], vp8x[6] = byte(w-1), byte((w-1)>>8), byte((w-1)>>16)
	vp8x[7], vp8x[8], vp8x[9] = byte(h-1), byte((h-1)>>8), byte((h-1)>>16)
	body := append([]byte("WEBP"), riffChunk("VP8X", vp8x)...)
	body = append(body, riffChunk("VP8L", []byte{0x2f, 0, 0, 0, 0})...)
	if exif != nil {
		body = append(body, riffChunk("EXIF", exif)...)
	}
	out := append([]byte("RIFF"), binary.LittleEndian.AppendUint32(nil, uint32(len(body)))...)
	return append(out, body...)
}

func bmffBox(typ string, payload ...[]byte) []byte {
	p := bytes.Join(payload, nil)
	out := binary.BigEndian.AppendUint32(nil, uint32(8+len(p)))
	return append(append(out, typ...), p...)
}

// buildHEIC builds ftyp + meta (pitm, iinf with an hvc1 and an Exif item,
// iloc, iprp with ispe) + mdat holding the EXIF item; when thumb holds a
// width and height, a thumbnail item referenced by iref thmb too.
func buildHEIC(w, h int, exif []byte, thumb ...int) []byte {
	be := binary.BigEndian
	ftyp := bmffBox("ftyp", []byte("heic\x00\x00\x00\x00mif1heic"))
	infe := func(id uint16, typ string) []byte {
		p := []byte{2, 0, 0, 0}
		p = be.AppendUint16(p, id)
		p = append(p, 0, 0)
		p = append(p, typ...)
		return bmffBox("infe", append(p, 0))
	}
	ispe := func(w, h int) []byte {
		return bmffBox("ispe", []byte{0, 0, 0, 0}, be.AppendUint32(be.AppendUint32(nil, uint32(w)), uint32(h)))
	}
	iinf := bmffBox("iinf", []byte{0, 0, 0, 0, 0, 2}, infe(1, "hvc1"), infe(2, "Exif"))
	pitm := bmffBox("pitm", []byte{0, 0, 0, 0, 0, 1})
	ipco := bmffBox("ipco", ispe(w, h))
	ipma := bmffBox("ipma", []byte{0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0x81})
	var iref []byte
	if len(thumb) == 2 {
		iinf = bmffBox("iinf", []byte{0, 0, 0, 0, 0, 3}, infe(1, "hvc1"), infe(2, "Exif"), infe(3, "hvc1"))
		ipco = bmffBox("ipco", ispe(w, h), ispe(thumb[0], thumb[1]))
		ipma = bmffBox("ipma", []byte{0, 0, 0, 0, 0, 0, 0, 2, 0, 1, 1, 0x81, 0, 3, 1, 0x82})
		iref = bmffBox("iref", []byte{0, 0, 0, 0}, bmffBox("thmb", []byte{0, 3, 0, 1, 0, 1}))
	}
	iprp := bmffBox("iprp", ipco, ipma)
	item := append([]byte{0, 0, 0, 0}, exif...)
	mkMeta := func(mdatOff uint32) []byte {
		iloc := []byte{0, 0, 0, 0, 0x44, 0x00, 0, 1}
		iloc = be.AppendUint16(iloc, 2)
		iloc = be.AppendUint16(iloc, 0)
		iloc = be.AppendUint16(iloc, 1)
		iloc = be.AppendUint32(iloc, mdatOff)
		iloc = be.AppendUint32(iloc, uint32(len(item)))
		hdlr := bmffBox("hdlr", []byte{0, 0, 0, 0, 0, 0, 0, 0}, []byte("pict"), make([]byte, 13))
		return bmffBox("meta", []byte{0, 0, 0, 0}, hdlr, pitm, iinf, iref, bmffBox("iloc", iloc), iprp)
	}
	meta := mkMeta(0)
	off := uint32(len(ftyp) + len(meta) + 8)
	meta = mkMeta(off)
	return bytes.Join([][]byte{ftyp, meta, bmffBox("mdat", item)}, nil)
}
