package metadata

import (
	"bytes"
	"context"
	"encoding/hex"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/image"
	"github.com/doctrust/doctrust/engine/sniff"
)

// image lists one image (the file itself, or a part of an Office package
// when b.part is set): the facts of its container, its EXIF directories,
// XMP, PNG text and JPEG comments, the containers it carries without
// enumerating them, and its structure notes.
func (b *builder) image(ctx context.Context, data []byte, format sniff.Format) error {
	l, err := image.List(ctx, data, format)
	if err != nil {
		return ErrDeadline
	}
	f := b.container("File")
	f.add("FileType", fileType(format), "", "")
	if l.Width > 0 && l.Height > 0 {
		f.add("ImageWidth", itoa(l.Width), "", "")
		f.add("ImageHeight", itoa(l.Height), "", "")
	}
	exifListed := false
	switch {
	case format == sniff.TIFF:
		// A TIFF file is itself an EXIF-structured block; its first
		// directory holds the size of its first image.
		exifListed = b.exif(data)
		if w, h := b.tiffSize(); w != "" && h != "" {
			f.add("ImageWidth", w, "", "")
			f.add("ImageHeight", h, "", "")
		}
	case l.EXIF != nil:
		exifListed = b.exif(l.EXIF)
		if l.EXIFBlocks > 1 {
			f.add("EXIFBlocks", itoa(l.EXIFBlocks), "", "")
		}
	}
	b.xmp(l.XMP)
	var profiles []profile
	if len(l.Text) > 0 {
		c := b.container("PNG")
		for _, t := range l.Text {
			if p, ok := rawProfile(t.Keyword, t.Text); ok {
				profiles = append(profiles, p)
				c.add(t.Keyword, binaryData(len(p.data)), "", "")
				continue
			}
			c.add(t.Keyword, latin1([]byte(t.Text)), "", "")
		}
	}
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
	if len(l.Comments) > 0 {
		c := b.container("Comment")
		for _, s := range l.Comments {
			c.add("Comment", latin1([]byte(s)), "", "")
		}
	}
	for _, name := range l.Containers {
		switch name {
		case image.ContainerXMP, image.ContainerPNGText:
			continue
		case image.ContainerEXIF:
			if exifListed {
				continue
			}
		}
		b.notEnumerated(name)
	}
	if format == sniff.TIFF && exifListed {
		return nil // its directories were listed: the container was walked here
	}
	b.structure(l.Structure)
	return nil
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

// tiffSize reads ImageWidth and ImageHeight from the IFD0 just listed.
func (b *builder) tiffSize() (w, h string) {
	for _, c := range b.r.Containers {
		if c.Name != "IFD0" || c.Part != b.part {
			continue
		}
		for _, e := range c.Entries {
			switch e.Key {
			case "ImageWidth":
				w = e.Value
			case "ImageHeight":
				h = e.Value
			}
		}
		return w, h
	}
	return "", ""
}
