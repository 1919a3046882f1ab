package metadata

import (
	"context"

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
	exifListed = b.pngText(l.Text, l.TextTotal) || exifListed
	if len(l.Comments) > 0 {
		c := b.container("Comment")
		for _, s := range l.Comments {
			c.add("Comment", latin1([]byte(s)), "", "")
		}
	}
	for _, name := range l.Containers {
		switch {
		case name == image.ContainerXMP, name == image.ContainerPNGText, name == image.ContainerEXIF && exifListed:
			continue
		}
		b.notEnumerated(name)
	}
	if format == sniff.TIFF && exifListed {
		return nil // its directories were listed: the container was walked here
	}
	b.structure(l.Structure)
	return nil
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
