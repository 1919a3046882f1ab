package image

import (
	"bytes"
	"context"
)

// JPEG APPn identifiers.
var (
	idJFIF      = []byte("JFIF\x00")
	idEXIF      = []byte("Exif\x00")
	idXMP       = []byte("http://ns.adobe.com/xap/1.0/\x00")
	idXMPExt    = []byte("http://ns.adobe.com/xmp/extension/\x00")
	idICC       = []byte("ICC_PROFILE\x00")
	idMPF       = []byte("MPF\x00")
	idPhotoshop = []byte("Photoshop 3.0\x00")
	idAdobe     = []byte("Adobe")
	idJUMBF     = []byte("JP")
)

// walkJPEG walks the marker segments from SOI to EOI. Entropy-coded data
// after each SOS is skipped by scanning for the next real marker; pixels
// are never decoded.
func walkJPEG(ctx context.Context, b []byte, f *facts) error {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		f.anomaly("broken-marker", 0)
		return nil
	}
	p := 2
	for seg := 0; ; seg++ {
		if seg%ctxCheckStride == 0 && ctx.Err() != nil {
			return ErrDeadline
		}
		if seg >= maxSegments {
			f.anomaly("too-many-segments", p)
			return nil
		}
		if p >= len(b) {
			f.anomaly("truncated", p)
			return nil
		}
		if b[p] != 0xFF {
			f.anomaly("broken-marker", p)
			// Resynchronise on the next marker rather than giving up: a
			// broken segment should not hide what follows.
			q := nextMarker(b, p)
			if q < 0 {
				f.anomaly("truncated", len(b))
				return nil
			}
			p = q
			continue
		}
		for p < len(b) && b[p] == 0xFF {
			p++ // fill bytes
		}
		if p >= len(b) {
			f.anomaly("truncated", p)
			return nil
		}
		m := b[p]
		p++
		switch {
		case m == 0xD9: // EOI
			if p < len(b) {
				f.trailingOffset = int64(p)
				f.trailing = b[p:]
			}
			return nil
		case m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7):
			continue
		case m == 0x00:
			f.anomaly("broken-marker", p-1)
			continue
		}
		if p+2 > len(b) {
			f.anomaly("truncated", p)
			return nil
		}
		n := be16(b[p:])
		if n < 2 {
			f.anomaly("broken-marker", p)
			return nil
		}
		if p+n > len(b) {
			f.anomaly("truncated", p)
			jpegSegment(m, b[p+2:], p+2, f)
			return nil
		}
		jpegSegment(m, b[p+2:p+n], p+2, f)
		p += n
		if m == 0xDA { // SOS: skip the entropy-coded data
			q := nextMarker(b, p)
			if q < 0 {
				f.anomaly("truncated", len(b))
				return nil
			}
			p = q
		}
	}
}

// nextMarker returns the offset of the next 0xFF that starts a marker other
// than a stuffed zero or a restart marker, or -1.
func nextMarker(b []byte, p int) int {
	for p < len(b) {
		i := bytes.IndexByte(b[p:], 0xFF)
		if i < 0 {
			return -1
		}
		p += i
		if p+1 >= len(b) {
			return -1
		}
		c := b[p+1]
		if c == 0x00 || c == 0xFF || (c >= 0xD0 && c <= 0xD7) {
			p++
			continue
		}
		return p
	}
	return -1
}

func jpegSegment(m byte, s []byte, off int, f *facts) {
	switch {
	case m == 0xE0 && bytes.HasPrefix(s, idJFIF):
		f.add(cJFIF)
	case m == 0xE1 && bytes.HasPrefix(s, idEXIF) && len(s) >= 6:
		f.setEXIF(s[6:], off+6)
	case m == 0xE1 && bytes.HasPrefix(s, idXMP):
		f.addXMP(s[len(idXMP):])
	case m == 0xE1 && bytes.HasPrefix(s, idXMPExt):
		f.addXMP(s[len(idXMPExt):])
	case m == 0xE2 && bytes.HasPrefix(s, idICC):
		f.add(cICC)
	case m == 0xE2 && bytes.HasPrefix(s, idMPF):
		f.add(cMPF)
		f.mpf = true
	case m == 0xEB && bytes.HasPrefix(s, idJUMBF):
		f.addAPP11(s, off)
	case m == 0xED && bytes.HasPrefix(s, idPhotoshop):
		f.add(cPhotoshop)
		iptc, ps := photoshopResources(s[len(idPhotoshop):])
		if iptc {
			f.add(cIPTC)
		}
		f.photoshopWritten = f.photoshopWritten || ps
	case m == 0xFE:
		if len(f.comments) < maxXMPPackets {
			f.comments = append(f.comments, string(s))
		}
	case m == 0xEE && bytes.HasPrefix(s, idAdobe):
		f.add(cAdobe)
	case m == 0xDB:
		parseDQT(s, off, f)
	case isSOF(m):
		if len(s) < 5 {
			f.anomaly("broken-marker", off)
			return
		}
		if !f.sofSeen {
			f.sofSeen = true
			f.height, f.width = be16(s[1:]), be16(s[3:])
			f.progress = m == 0xC2 || m == 0xC6 || m == 0xCA || m == 0xCE
		}
	}
}

func isSOF(m byte) bool {
	return m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC
}

// photoshopResources walks the Image Resource Blocks. iptc reports
// resource 0x0404; photoshop reports ResolutionInfo (0x03ED), which
// Photoshop writes on every save while IPTC-only tools leave it out.
func photoshopResources(b []byte) (iptc, photoshop bool) {
	p := 0
	for i := 0; i < maxSegments && p+12 <= len(b); i++ {
		if string(b[p:p+4]) != "8BIM" {
			return
		}
		id := be16(b[p+4:])
		nl := int(b[p+6])
		q := p + 6 + 1 + nl
		if (1+nl)%2 == 1 {
			q++
		}
		if q+4 > len(b) {
			return
		}
		size := int64(be32(b[q:]))
		q += 4
		if int64(q)+size > int64(len(b)) {
			return
		}
		iptc = iptc || (id == 0x0404 && size > 0)
		photoshop = photoshop || id == 0x03ED
		p = q + int(size) + int(size&1)
	}
	return
}

// zigzag maps the file order of DQT entries to natural (row-major) order.
var zigzag = [64]int{
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
}

func parseDQT(s []byte, off int, f *facts) {
	for p := 0; p < len(s); {
		pq, tq := s[p]>>4, int(s[p]&0x0F)
		p++
		size := 64
		if pq == 1 {
			size = 128
		}
		if pq > 1 || tq > 3 || p+size > len(s) {
			f.anomaly("broken-marker", off+p)
			return
		}
		t := make([]uint16, 64)
		for i := 0; i < 64; i++ {
			v := uint16(s[p+i])
			if pq == 1 {
				v = uint16(s[p+2*i])<<8 | uint16(s[p+2*i+1])
			}
			t[zigzag[i]] = v
		}
		if f.dqt[tq] == nil {
			f.dqt[tq] = t
		}
		p += size
	}
}
