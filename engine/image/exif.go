package image

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strings"

	"github.com/rwcarlsen/goexif/exif"
	"github.com/rwcarlsen/goexif/tiff"
)

// EXIF is read in two passes. prepass walks every IFD goexif would visit
// (the IFD0 chain and the Exif, GPS and Interoperability sub-IFDs) and
// refuses the block unless each one is sound: goexif multiplies counts in
// 32 bits, allocates from the count, and only notices a chain that loops
// straight back on itself, so a 220-byte crafted block can exhaust memory
// (DESIGN.md). Only accepted blocks reach goexif, which then supplies the
// tag values. goexif does not expose IFD1 as a thumbnail directory, so the
// pre-pass records the thumbnail's offset and length itself.

// exifFacts is what the report uses from one EXIF block.
type exifFacts struct {
	make, model, software      string
	dateTimeOriginal, dateTime string
	pixelX, pixelY             int
	gps                        bool // both coordinates present, not both zero
	makerNote                  bool
	thumbOffset, thumbLength   int // IFD1 JPEG thumbnail, 0 when absent
	decodeFailed               bool
	raw                        []byte
}

// maxNumericElems is far above real EXIF (numeric arrays are a few hundred
// elements; the large MakerNote is UNDEFINED).
const maxNumericElems = 1 << 16

var errEXIF = errors.New("image: exif block refused by the pre-pass")

// typeSizes are the TIFF field type sizes, index by type; 0 is unknown.
var typeSizes = [13]uint64{0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8}

// Tags the pre-pass follows or records.
const (
	tagExifIFD      = 0x8769
	tagGPSIFD       = 0x8825
	tagInteropIFD   = 0xA005
	tagMakerNote    = 0x927C
	tagThumbOffset  = 0x0201
	tagThumbLength  = 0x0202
	tagGPSLatitude  = 0x0002
	tagGPSLongitude = 0x0004
)

type prepass struct {
	b       []byte
	order   binary.ByteOrder
	visited []uint32
	facts   *exifFacts
	// numericElems counts the numeric elements of every entry visited.
	numericElems uint64
	// valueBytes sums the out-of-line values of every entry visited.
	valueBytes uint64
	// entries, when not nil, receives where every entry the pass accepts
	// sits, for the metadata listing (ListEXIF), which has goexif decode it.
	entries *[]entryAt
	// lat and lon are the GPS coordinates as read (coordinate).
	lat, lon coord
}

// coord is one GPS coordinate tag: whether it holds a readable value, and
// whether that value is zero.
type coord struct{ ok, zero bool }

// coordinate reads a GPSLatitude or GPSLongitude entry: three rationals
// (degrees, minutes, seconds) with non-zero denominators. A GPS block with
// only its version and reference tags, or with coordinates a device wrote
// without a fix (all zero, or 0/0), carries no location.
func (p *prepass) coordinate(typ uint16, cnt uint64, e []byte) coord {
	if typ != 5 || cnt != 3 { // RATIONAL x 3, 24 bytes, always out of line
		return coord{}
	}
	off := uint64(p.order.Uint32(e[8:]))
	if off+24 > uint64(len(p.b)) {
		return coord{}
	}
	zero := true
	for i := range uint64(3) {
		num := p.order.Uint32(p.b[off+8*i:])
		den := p.order.Uint32(p.b[off+8*i+4:])
		if den == 0 {
			return coord{}
		}
		zero = zero && num == 0
	}
	return coord{ok: true, zero: zero}
}

// prepassEXIF validates a TIFF-structured block. It returns nil only when
// goexif may safely decode b.
func prepassEXIF(b []byte, x *exifFacts) error {
	return (&prepass{b: b, facts: x}).run()
}

func (p *prepass) run() error {
	b := p.b
	if len(b) < 8 {
		return errEXIF
	}
	switch string(b[:4]) {
	case "II*\x00":
		p.order = binary.LittleEndian
	case "MM\x00*":
		p.order = binary.BigEndian
	default:
		return errEXIF
	}
	// goexif reads offsets as int32; anything past that is out of range too.
	if uint64(len(b)) > 1<<31-1 {
		return errEXIF
	}
	off := p.order.Uint32(b[4:8])
	for ifd := 0; off != 0; ifd++ {
		next, err := p.ifd(off, ifd, 0)
		if err != nil {
			return err
		}
		off = next
	}
	p.facts.gps = p.lat.ok && p.lon.ok && !(p.lat.zero && p.lon.zero)
	return nil
}

// ifd checks one directory at off and the sub-IFDs it points to. chain is
// the IFD's index in the IFD0 chain (1 is the thumbnail directory), -1 for
// a sub-IFD; kind says which sub-IFD (0 none, or the pointer tag).
func (p *prepass) ifd(off uint32, chain int, kind uint16) (next uint32, err error) {
	for _, v := range p.visited {
		if v == off {
			return 0, errEXIF // a loop of any length
		}
	}
	if len(p.visited) >= maxIFDs {
		return 0, errEXIF
	}
	p.visited = append(p.visited, off)
	n64 := uint64(len(p.b))
	if uint64(off)+2 > n64 {
		return 0, errEXIF
	}
	count := uint64(p.order.Uint16(p.b[off:]))
	// goexif reads the entry count as a signed int16 and walks none when it
	// is negative, but then reads the next-IFD offset from the wrong place.
	if count > maxIFDEntries || count >= 1<<15 {
		return 0, errEXIF
	}
	end := uint64(off) + 2 + 12*count + 4
	if end > n64 {
		return 0, errEXIF
	}
	var thumbOff, thumbLen uint32
	var subs [][2]uint32 // {tag, offset}
	for i := uint64(0); i < count; i++ {
		e := p.b[uint64(off)+2+12*i:]
		tag := p.order.Uint16(e[0:])
		typ := p.order.Uint16(e[2:])
		cnt := uint64(p.order.Uint32(e[4:]))
		if typ == 0 || int(typ) >= len(typeSizes) {
			return 0, errEXIF
		}
		size := typeSizes[typ] * cnt // at most 8 * 2^32: no 64-bit overflow
		if size == 0 {
			// goexif gives up on the directory at this entry before
			// allocating anything; the remaining entries are still checked.
			continue
		}
		// goexif converts every numeric element to an int64 (rationals to
		// pairs) with one binary.Read each; ASCII and UNDEFINED stay as
		// bytes. Capping the elements keeps its time and memory small
		// whatever the block's size.
		if typ != 2 && typ != 7 {
			p.numericElems += cnt
			if p.numericElems > maxNumericElems {
				return 0, errEXIF
			}
		}
		if size > 4 {
			voff := uint64(p.order.Uint32(e[8:]))
			if voff+size > n64 {
				return 0, errEXIF
			}
			// goexif expands each value into int64s or rationals, so
			// values that overlap (every entry pointing at the same
			// bytes) would multiply a small block into gigabytes. Values
			// laid out without overlap add up to less than the block.
			p.valueBytes += size
			if p.valueBytes > n64 {
				return 0, errEXIF
			}
		}
		if p.entries != nil {
			*p.entries = append(*p.entries, entryAt{dir: dirName(chain, kind), off: int64(off) + 2 + 12*int64(i)})
		}
		val := p.order.Uint32(e[8:])
		if typ == 3 && cnt == 1 {
			val = uint32(p.order.Uint16(e[8:]))
		}
		switch {
		case chain == 0 && (tag == tagExifIFD || tag == tagGPSIFD):
			subs = append(subs, [2]uint32{uint32(tag), val})
		case kind == tagExifIFD && tag == tagInteropIFD:
			subs = append(subs, [2]uint32{uint32(tag), val})
		case kind == tagExifIFD && tag == tagMakerNote:
			p.facts.makerNote = true
		case kind == tagGPSIFD && tag == tagGPSLatitude:
			p.lat = p.coordinate(typ, cnt, e)
		case kind == tagGPSIFD && tag == tagGPSLongitude:
			p.lon = p.coordinate(typ, cnt, e)
		case chain == 1 && tag == tagThumbOffset:
			thumbOff = val
		case chain == 1 && tag == tagThumbLength:
			thumbLen = val
		}
	}
	next = p.order.Uint32(p.b[end-4:])
	if chain < 0 {
		next = 0 // goexif never follows a sub-IFD's chain
	}
	if next != 0 && uint64(next) >= n64 {
		return 0, errEXIF
	}
	if thumbLen > 0 && uint64(thumbOff)+uint64(thumbLen) <= n64 {
		p.facts.thumbOffset, p.facts.thumbLength = int(thumbOff), int(thumbLen)
	}
	for _, s := range subs {
		if _, err := p.ifd(s[1], -1, uint16(s[0])); err != nil {
			return 0, err
		}
	}
	return next, nil
}

// parseEXIF runs the pre-pass and, on success, goexif. A goexif failure
// after an accepted pre-pass is recorded, not fatal: the pre-pass facts
// (thumbnail, GPS, MakerNote) still hold.
func parseEXIF(b []byte) (x *exifFacts, err error) {
	x = &exifFacts{raw: b}
	if err := prepassEXIF(b, x); err != nil {
		return nil, err
	}
	decodeGoexif(b, x)
	return x, nil
}

func decodeGoexif(b []byte, x *exifFacts) {
	defer func() {
		// goexif is third-party code on hostile bytes; a fault in it must
		// cost only the tag values, never the rest of the report.
		if recover() != nil {
			x.decodeFailed = true
		}
	}()
	ex, err := exif.Decode(bytes.NewReader(b))
	if ex == nil {
		x.decodeFailed = true
		return
	}
	if err != nil && exif.IsCriticalError(err) {
		x.decodeFailed = true
	}
	x.make = exifString(ex, exif.Make)
	x.model = exifString(ex, exif.Model)
	x.software = exifString(ex, exif.Software)
	x.dateTimeOriginal = exifString(ex, exif.DateTimeOriginal)
	x.dateTime = exifString(ex, exif.DateTime)
	x.pixelX = exifInt(ex, exif.PixelXDimension)
	x.pixelY = exifInt(ex, exif.PixelYDimension)
}

func exifString(ex *exif.Exif, name exif.FieldName) string {
	t, err := ex.Get(name)
	if err != nil || t.Format() != tiff.StringVal {
		return ""
	}
	s, err := t.StringVal()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(strings.TrimRight(s, "\x00"))
}

func exifInt(ex *exif.Exif, name exif.FieldName) int {
	t, err := ex.Get(name)
	if err != nil || t.Format() != tiff.IntVal || t.Count < 1 {
		return 0
	}
	v, err := t.Int64(0)
	if err != nil || v < 0 || v > 1<<30 {
		return 0
	}
	return int(v)
}

// exifBody strips an optional "Exif\0\0" prefix, which some writers put
// before the TIFF header in WebP, PNG and HEIF blocks.
func exifBody(b []byte) []byte {
	if bytes.HasPrefix(b, []byte("Exif\x00\x00")) {
		return b[6:]
	}
	return b
}
