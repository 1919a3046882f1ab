package metadata

import (
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/image"
)

// exif lists a TIFF-structured block (an EXIF block or a TIFF file) as one
// container per directory, in the order the pre-pass visits them. It
// reports false when the block is refused: nothing of it is listed then,
// as an inspection decodes nothing of it either.
func (b *builder) exif(block []byte) bool {
	entries, order, err := image.ListEXIF(block)
	if err != nil {
		return false
	}
	var (
		c   *cont
		dir string
		g   gpsParts
	)
	for _, e := range entries {
		if e.Dir != dir || c == nil {
			c, dir = b.container(e.Dir), e.Dir
		}
		v := tagValue(e.Tag, order)
		table := exifTags()
		if e.Dir == "GPS" {
			table = gpsTags()
			g.add(e.Tag.Id, v)
		}
		def, known := table[e.Tag.Id]
		name := def.name
		if !known {
			name = "Tag0x" + hex4(e.Tag.Id)
		}
		if e.Dir != "GPS" {
			switch e.Tag.Id {
			case tagExifPointer, tagGPSPointer, tagInteropPointer:
				continue // their directories are listed instead
			case tagXMPNotes, tagIPTC, tagICC, tagMakerNote:
				b.embedded(e.Tag.Id, v.b)
				c.add(name, binaryData(len(v.b)), "", "")
				continue
			}
		}
		val, raw, code := render(def, v)
		c.add(name, val, raw, code)
	}
	if lat, lon, ok := g.decode(); ok {
		b.setGPS(lat, lon, "GPS")
	}
	return true
}

// embedded handles the blocks an EXIF directory can carry: XMP is listed
// as XMP; IPTC, ICC and MakerNote blocks are named as present.
func (b *builder) embedded(tag uint16, data []byte) {
	switch tag {
	case tagXMPNotes:
		b.xmp([][]byte{data})
	case tagIPTC:
		b.notEnumerated("IPTC")
	case tagICC:
		b.notEnumerated("ICC")
	case tagMakerNote:
		b.notEnumerated("MakerNote")
	}
}

// render gives an entry's display value, its stored form when that
// differs, and the translation key of an enumerated value.
func render(def tagDef, v value) (val, raw, code string) {
	stored := v.stored()
	switch {
	case def.enum != nil:
		key := stored
		if v.typ == tUndefined && len(v.b) == 1 {
			key = strconv.Itoa(int(v.b[0]))
		}
		if label, ok := def.enum[key]; ok {
			return label, stored, "exif." + def.name + "." + strings.ReplaceAll(key, " ", "-")
		}
		if stored != "" {
			return "Unknown (" + stored + ")", stored, ""
		}
	case def.print != nil:
		if s, ok := def.print(v); ok {
			return s, stored, ""
		}
	}
	return v.display(), stored, ""
}

func hex4(t uint16) string {
	s := strconv.FormatUint(uint64(t), 16)
	return strings.Repeat("0", 4-len(s)) + s
}
