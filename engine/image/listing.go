package image

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"strconv"

	"github.com/rwcarlsen/goexif/tiff"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Listing is what the metadata listing (engine/metadata) reads from one
// image: the metadata the container walk found, uninterpreted, and the
// structure finding an inspection would raise.
type Listing struct {
	Format        sniff.Format
	Walked        bool
	Width, Height int // 0 when unknown
	// Containers names the metadata containers present, in the order of
	// the inspection's image block.
	Containers []string
	// EXIF is the block the inspection uses (the first one the pre-pass
	// accepted), else the first one found; nil when there is none.
	EXIF       []byte
	EXIFBlocks int
	XMP        [][]byte
	Text       []Text
	TextTotal  int // text chunks in the file; Text keeps the first ones
	Comments   []string
	// Structure is the image-structure-anomalies finding, nil when the
	// container walked cleanly.
	Structure *report.Finding
}

// Text is one PNG text chunk (tEXt, zTXt or iTXt). Both strings are
// attacker-authored; tEXt and zTXt are Latin-1 by the PNG specification.
type Text struct {
	Keyword, Text string
}

// Names of the metadata containers engine/metadata lists itself; the others
// it names as present but not enumerated.
const (
	ContainerEXIF    = cEXIF
	ContainerXMP     = cXMP
	ContainerPNGText = cPNGText
)

// List walks one image for its metadata. Formats Walks refuses come back
// unwalked, with the container-not-walked finding. The only error is
// ErrDeadline.
func List(ctx context.Context, data []byte, format sniff.Format) (*Listing, error) {
	if !Walks(format) {
		r := notWalked(data, format)
		l := &Listing{Format: format}
		l.Width, l.Height = headerSize(data, format)
		if len(r.Signals) > 0 {
			s := r.Signals[0]
			l.Structure = &report.Finding{Family: report.FamilyID(s.ID), Severity: s.Severity, Message: s.Message, Notes: s.Notes, Evidence: s.Evidence}
		}
		return l, nil
	}
	f, err := walk(ctx, data, format)
	if err != nil {
		return nil, err
	}
	l := &Listing{
		Format: format, Walked: true, Width: f.width, Height: f.height,
		Containers: f.list(), EXIF: f.firstEXIF, EXIFBlocks: f.exifCount,
		XMP: f.xmp, Comments: f.comments, TextTotal: f.textCount,
		Structure: newAnalysis(f).structure(),
	}
	if f.exif != nil {
		l.EXIF = f.exif.raw
	}
	for _, t := range f.texts {
		l.Text = append(l.Text, Text{Keyword: t.keyword, Text: t.text})
	}
	return l, nil
}

// EXIFEntry is one directory entry of an EXIF block: the directory it sits
// in (IFD0, IFD1 ..., ExifIFD, GPS, InteropIFD) and the entry as goexif
// decoded it (tag, TIFF field type, count, value bytes and values).
type EXIFEntry struct {
	Dir string
	Tag *tiff.Tag
}

// entryAt is where the pre-pass found an entry it accepted.
type entryAt struct {
	dir string
	off int64
}

// ListEXIF lists the entries of a TIFF-structured block (an EXIF block, or
// a whole TIFF file) in directory order: each IFD of the main chain
// followed by the sub-IFDs it points to. The bounds-checking pre-pass the
// inspection runs walks the block first; a block it refuses yields no
// entries and the error. goexif then decodes each entry the pre-pass
// accepted, one at a time (its directory decoder gives up on a whole
// directory at the first entry it cannot read; the pre-pass has already
// left out the zero-length ones). Entries goexif cannot decode are left
// out.
func ListEXIF(b []byte) ([]EXIFEntry, binary.ByteOrder, error) {
	var at []entryAt
	p := &prepass{b: b, facts: &exifFacts{}, entries: &at}
	if err := p.run(); err != nil {
		return nil, nil, err
	}
	out := make([]EXIFEntry, 0, len(at))
	r := bytes.NewReader(b)
	for _, e := range at {
		if t := decodeEntry(r, e.off, p.order); t != nil {
			out = append(out, EXIFEntry{Dir: e.dir, Tag: t})
		}
	}
	return out, p.order, nil
}

// decodeEntry has goexif decode the 12-byte entry at off; nil when it
// fails or faults (third-party code on hostile bytes, though the pre-pass
// has bounded every count and offset).
func decodeEntry(r *bytes.Reader, off int64, order binary.ByteOrder) (t *tiff.Tag) {
	defer func() {
		if recover() != nil {
			t = nil
		}
	}()
	if _, err := r.Seek(off, io.SeekStart); err != nil {
		return nil
	}
	t, err := tiff.DecodeTag(r, order)
	if err != nil {
		return nil
	}
	return t
}

// dirName names a directory as exiftool's family-1 groups do.
func dirName(chain int, kind uint16) string {
	switch kind {
	case tagExifIFD:
		return "ExifIFD"
	case tagGPSIFD:
		return "GPS"
	case tagInteropIFD:
		return "InteropIFD"
	}
	return "IFD" + strconv.Itoa(chain)
}

// headerSize reads the dimensions a GIF or BMP states in its fixed header;
// their containers are not walked. TIFF keeps its size in IFD0.
func headerSize(b []byte, format sniff.Format) (w, h int) {
	switch {
	case format == sniff.GIF && len(b) >= 10:
		return int(binary.LittleEndian.Uint16(b[6:])), int(binary.LittleEndian.Uint16(b[8:]))
	case format == sniff.BMP && len(b) >= 26 && binary.LittleEndian.Uint32(b[14:]) >= 40:
		w, h := int32(binary.LittleEndian.Uint32(b[18:])), int32(binary.LittleEndian.Uint32(b[22:]))
		if h < 0 {
			h = -h // a top-down bitmap
		}
		if w > 0 && h > 0 {
			return int(w), int(h)
		}
	}
	return 0, 0
}
