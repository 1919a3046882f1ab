package image

import (
	"bytes"
	"compress/zlib"
	"context"
	"hash/crc32"
	"io"
)

var pngSig = []byte("\x89PNG\r\n\x1a\n")

// walkPNG walks the chunk list, checking every CRC, up to IEND.
func walkPNG(ctx context.Context, b []byte, f *facts) error {
	if !bytes.HasPrefix(b, pngSig) {
		f.anomaly("broken-marker", 0)
		return nil
	}
	p := len(pngSig)
	for i := 0; ; i++ {
		if i%ctxCheckStride == 0 && ctx.Err() != nil {
			return ErrDeadline
		}
		if i >= maxSegments {
			f.anomaly("too-many-segments", p)
			return nil
		}
		if p == len(b) {
			f.anomaly("truncated", p) // no IEND
			return nil
		}
		if p+8 > len(b) {
			f.anomaly("truncated", p)
			return nil
		}
		n := int64(be32(b[p:]))
		typ := string(b[p+4 : p+8])
		if n > 1<<31-1 {
			f.anomaly("bad-chunk-length", p)
			return nil
		}
		end := int64(p) + 8 + n + 4
		if end > int64(len(b)) {
			f.anomaly("truncated", p)
			return nil
		}
		data := b[p+8 : p+8+int(n)]
		if crc32.ChecksumIEEE(b[p+4:p+8+int(n)]) != be32(b[p+8+int(n):]) {
			f.anomaly("bad-crc", p)
		}
		if i == 0 && typ != "IHDR" {
			f.anomaly("broken-marker", p)
		}
		if err := pngChunk(typ, data, p+8, f); err != nil {
			return err
		}
		p = int(end)
		if typ == "IEND" {
			if p < len(b) {
				f.trailingOffset = int64(p)
				f.trailing = b[p:]
			}
			return nil
		}
	}
}

func pngChunk(typ string, d []byte, off int, f *facts) error {
	switch typ {
	case "IHDR":
		if len(d) >= 8 && f.width == 0 {
			f.width, f.height = int(be32(d)&0x7FFFFFFF), int(be32(d[4:])&0x7FFFFFFF)
		}
	case "acTL":
		f.animated = true
	case "eXIf":
		f.setEXIF(exifBody(d), off)
	case "iCCP":
		f.add(cICC)
	case "caBX":
		f.addC2PA(d)
	case "tEXt":
		k, v, ok := bytes.Cut(d, []byte{0})
		if ok {
			f.addText(string(k), string(v))
		}
	case "zTXt":
		k, rest, ok := bytes.Cut(d, []byte{0})
		if ok && len(rest) >= 1 && rest[0] == 0 {
			v, ok := f.inflate(rest[1:])
			if !ok {
				f.anomaly("bad-compressed-text", off)
			}
			f.addText(string(k), string(v))
		}
	case "iTXt":
		k, rest, ok := bytes.Cut(d, []byte{0})
		if !ok || len(rest) < 2 {
			f.anomaly("broken-marker", off)
			return nil
		}
		compressed := rest[0] == 1
		rest = rest[2:]
		_, rest, ok1 := bytes.Cut(rest, []byte{0}) // language tag
		_, rest, ok2 := bytes.Cut(rest, []byte{0}) // translated keyword
		if !ok1 || !ok2 {
			f.anomaly("broken-marker", off)
			return nil
		}
		v := rest
		if compressed {
			var ok bool
			if v, ok = f.inflate(rest); !ok {
				f.anomaly("bad-compressed-text", off)
			}
		}
		if string(k) == "XML:com.adobe.xmp" {
			f.addXMP(v)
			return nil
		}
		f.addText(string(k), string(v))
	}
	return nil
}

func (f *facts) addText(k, v string) {
	f.add(cPNGText)
	f.textCount++
	if len(f.texts) < 4*maxXMPPackets {
		f.texts = append(f.texts, textChunk{keyword: k, text: v})
	}
}

// inflate decompresses at most maxTextBytes per chunk and maxInflate per
// file: a bomb, or many small ones, costs only that much.
func (f *facts) inflate(b []byte) ([]byte, bool) {
	limit := min(maxTextBytes, maxInflate-f.inflated)
	if limit <= 0 {
		return nil, false
	}
	out, ok := inflateN(b, limit)
	f.inflated += int64(len(out))
	return out, ok
}

func inflateN(b []byte, limit int64) ([]byte, bool) {
	zr, err := zlib.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, false
	}
	defer zr.Close()
	out, err := io.ReadAll(io.LimitReader(zr, limit))
	return out, err == nil
}
