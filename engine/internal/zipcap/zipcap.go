// Package zipcap opens a ZIP archive reading at most a given number of its
// central-directory entries. archive/zip materialises every header it
// finds (and reads past the declared count), so a package of 100,000
// empty entries costs memory and time before anyone looks at it; cutting
// the directory lets a format still be recognised and analysed from its
// first entries, with the cut reported rather than the file refused.
package zipcap

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
)

const (
	eocdSig   = "PK\x05\x06"
	eocdLen   = 22
	dirSig    = "PK\x01\x02"
	dirHeader = 46
)

// Open returns a reader over data's first max central-directory entries
// and whether the archive holds more (capped). Archives within the limit
// are opened by archive/zip unchanged. An archive whose directory cannot
// be walked (ZIP64, damaged) is refused with capped set when it shows more
// than max directory signatures.
func Open(data []byte, max int) (r *zip.Reader, capped bool, err error) {
	if bytes.Count(data, []byte(dirSig)) <= max {
		r, err = zip.NewReader(bytes.NewReader(data), int64(len(data)))
		return r, false, err
	}
	cdStart, cdLen, ok := firstEntries(data, max)
	if !ok {
		return nil, true, zip.ErrFormat
	}
	// The archive as archive/zip will see it: the original bytes up to the
	// end of the kept entries, then an end record declaring only those.
	var eocd [eocdLen]byte
	copy(eocd[:], eocdSig)
	binary.LittleEndian.PutUint16(eocd[8:], uint16(max))
	binary.LittleEndian.PutUint16(eocd[10:], uint16(max))
	binary.LittleEndian.PutUint32(eocd[12:], uint32(cdLen))
	binary.LittleEndian.PutUint32(eocd[16:], uint32(cdStart))
	head := data[:cdStart+cdLen]
	ra := &stitched{head: head, tail: eocd[:]}
	r, err = zip.NewReader(ra, int64(len(head)+eocdLen))
	return r, true, err
}

// firstEntries finds the central directory through the end record and
// measures its first max entries.
func firstEntries(data []byte, max int) (start, length int, ok bool) {
	if max <= 0 || max > 0xFFFF {
		return 0, 0, false
	}
	tail := len(data) - (eocdLen + 0xFFFF)
	if tail < 0 {
		tail = 0
	}
	i := bytes.LastIndex(data[tail:], []byte(eocdSig))
	if i < 0 {
		return 0, 0, false
	}
	at := tail + i
	if at+eocdLen > len(data) {
		return 0, 0, false
	}
	off := int64(binary.LittleEndian.Uint32(data[at+16:]))
	if off == 0xFFFFFFFF {
		// A ZIP64 archive (any writer switches to it past 65,535 entries):
		// the locator just before the end record names the ZIP64 end
		// record, which holds the directory's offset.
		if off, ok = zip64DirOffset(data, at); !ok {
			return 0, 0, false
		}
	}
	if off < 0 || off >= int64(at) {
		return 0, 0, false
	}
	start = int(off)
	pos := start
	for n := 0; n < max; n++ {
		if pos+dirHeader > at || string(data[pos:pos+4]) != dirSig {
			return 0, 0, false
		}
		h := data[pos:]
		next := pos + dirHeader + int(binary.LittleEndian.Uint16(h[28:])) +
			int(binary.LittleEndian.Uint16(h[30:])) + int(binary.LittleEndian.Uint16(h[32:]))
		if next > at {
			return 0, 0, false
		}
		pos = next
	}
	return start, pos - start, true
}

// zip64DirOffset reads the central directory's offset from the ZIP64 end
// record that the locator before the end record at eocd points to.
func zip64DirOffset(data []byte, eocd int) (int64, bool) {
	loc := eocd - 20
	if loc < 0 || string(data[loc:loc+4]) != "PK\x06\x07" {
		return 0, false
	}
	rec := binary.LittleEndian.Uint64(data[loc+8:])
	if rec > uint64(loc) || int(rec)+56 > loc || string(data[rec:rec+4]) != "PK\x06\x06" {
		return 0, false
	}
	off := binary.LittleEndian.Uint64(data[rec+48:])
	if off > uint64(rec) {
		return 0, false
	}
	return int64(off), true
}

// stitched reads head followed by tail as one io.ReaderAt.
type stitched struct{ head, tail []byte }

func (s *stitched) ReadAt(p []byte, off int64) (int, error) {
	size := int64(len(s.head) + len(s.tail))
	if off < 0 {
		return 0, errors.New("zipcap: negative offset")
	}
	if off >= size {
		return 0, io.EOF
	}
	n := 0
	for n < len(p) && off+int64(n) < size {
		at := off + int64(n)
		var src []byte
		if at < int64(len(s.head)) {
			src = s.head[at:]
		} else {
			src = s.tail[at-int64(len(s.head)):]
		}
		n += copy(p[n:], src)
	}
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}
