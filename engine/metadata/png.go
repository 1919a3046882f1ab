package metadata

import (
	"bytes"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/image"
)

// pngText lists PNG text chunks as the PNG container, keyword as key. The
// metadata blocks ImageMagick stores as hex in text chunks ("Raw profile
// type exif" ...) are decoded and listed as what they are; pngText reports
// whether one was an EXIF block that was listed.
func (b *builder) pngText(texts []image.Text, total int) (exifListed bool) {
	if len(texts) == 0 {
		return false
	}
	var profiles []profile
	c := b.container("PNG")
	for _, t := range texts {
		if p, ok := rawProfile(t.Keyword, t.Text); ok {
			profiles = append(profiles, p)
			c.add(t.Keyword, binaryData(len(p.data)), "", "")
			continue
		}
		c.add(t.Keyword, latin1([]byte(t.Text)), "", "")
	}
	c.truncated(total)
	for _, p := range profiles {
		switch p.kind {
		case "exif", "app1":
			exifListed = b.exif(bytes.TrimPrefix(p.data, []byte("Exif\x00\x00"))) || exifListed
		case "xmp":
			b.xmp([][]byte{p.data})
		case "iptc":
			b.notEnumerated("IPTC")
		case "icc", "icm":
			b.notEnumerated("ICC")
		case "8bim":
			b.notEnumerated("Photoshop IRB")
		}
	}
	return exifListed
}

// profile is a metadata block that ImageMagick stored in a PNG text chunk.
type profile struct {
	kind string // exif, xmp, iptc, icc, 8bim ...
	data []byte
}

// rawProfile decodes a "Raw profile type <kind>" text chunk: a newline, the
// kind, the byte length, then the bytes in hex over several lines.
func rawProfile(keyword, text string) (profile, bool) {
	kind, ok := strings.CutPrefix(keyword, "Raw profile type ")
	if !ok {
		return profile{}, false
	}
	lines := strings.SplitN(strings.TrimLeft(text, "\n"), "\n", 3)
	if len(lines) < 3 {
		return profile{}, false
	}
	n, err := strconv.Atoi(strings.TrimSpace(lines[1]))
	if err != nil || n <= 0 || n > len(lines[2])/2 {
		return profile{}, false
	}
	digits := strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == ' ' {
			return -1
		}
		return r
	}, lines[2])
	if len(digits) < 2*n {
		return profile{}, false
	}
	data, err := hex.DecodeString(digits[:2*n])
	if err != nil {
		return profile{}, false
	}
	return profile{kind: strings.ToLower(kind), data: data}, true
}
