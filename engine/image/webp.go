package image

import (
	"context"
)

// walkWebP walks the RIFF chunk list of a WebP file.
func walkWebP(ctx context.Context, b []byte, f *facts) error {
	if len(b) < 12 || string(b[:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		f.anomaly("broken-marker", 0)
		return nil
	}
	end := int64(le32(b[4:])) + 8
	if end > int64(len(b)) {
		f.anomaly("truncated", len(b))
		end = int64(len(b))
	} else if end < int64(len(b)) {
		f.trailingOffset = end
		f.trailing = b[end:]
	}
	p := int64(12)
	for i := 0; p < end; i++ {
		if i%ctxCheckStride == 0 && ctx.Err() != nil {
			return ErrDeadline
		}
		if i >= maxSegments {
			f.anomaly("too-many-segments", int(p))
			return nil
		}
		if p+8 > end {
			f.anomaly("truncated", int(p))
			return nil
		}
		fourcc := string(b[p : p+4])
		n := int64(le32(b[p+4:]))
		if p+8+n > end {
			f.anomaly("truncated", int(p))
			webpChunk(fourcc, b[p+8:end], f)
			return nil
		}
		webpChunk(fourcc, b[p+8:p+8+n], f)
		p += 8 + n + n&1
	}
	return nil
}

func webpChunk(fourcc string, d []byte, f *facts) {
	switch fourcc {
	case "VP8X":
		if len(d) >= 10 {
			f.width = int(uint32(d[4])|uint32(d[5])<<8|uint32(d[6])<<16) + 1
			f.height = int(uint32(d[7])|uint32(d[8])<<8|uint32(d[9])<<16) + 1
			f.animated = d[0]&0x02 != 0
		}
	case "VP8 ":
		// A key frame: 3-byte tag, start code 9d 01 2a, then 14-bit sizes.
		if f.width == 0 && len(d) >= 10 && d[3] == 0x9d && d[4] == 0x01 && d[5] == 0x2a {
			f.width = int(uint16(d[6])|uint16(d[7])<<8) & 0x3FFF
			f.height = int(uint16(d[8])|uint16(d[9])<<8) & 0x3FFF
		}
	case "VP8L":
		if f.width == 0 && len(d) >= 5 && d[0] == 0x2f {
			v := le32(d[1:])
			f.width = int(v&0x3FFF) + 1
			f.height = int((v>>14)&0x3FFF) + 1
		}
	case "EXIF":
		f.setEXIF(exifBody(d), 0)
	case "XMP ":
		f.addXMP(d)
	case "ICCP":
		f.add(cICC)
	case "C2PA":
		f.addC2PA(d)
	case "ANIM":
		f.animated = true
	}
}
