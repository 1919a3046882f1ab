package sigs

import (
	"bytes"
	"encoding/hex"
	"math"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
)

// Byte-range anomalies, as evidence names them.
const (
	rangeMalformed      = "malformed"         // not four non-negative integers
	rangeNotFromStart   = "not-from-start"    // the first range does not start at byte 0
	rangeOverlap        = "overlap"           // the ranges overlap, or cover part of /Contents
	rangeGap            = "gap"               // bytes besides the /Contents string are left out
	rangeContentsElse   = "contents-mismatch" // the hole is not this signature's /Contents string
	rangeBeyondEOF      = "beyond-eof"        // the range reaches past the end of the file
	rangeShort          = "short"             // the range ends before its own revision's %%EOF
	rangeNotRevisionEnd = "not-revision-end"  // the range ends inside a later revision
)

// Coverage levels, as evidence names them (pyHanko's SignatureCoverageLevel).
const (
	coverageFile     = "entire-file"
	coverageRevision = "entire-revision"
	coverageUnclear  = "unclear"
)

// rangeCoverage is what one signature's /ByteRange covers.
type rangeCoverage struct {
	byteRange []int64 // as read; nil when unreadable
	anomalies []string
	// at is the offset of the object holding the value, for file order.
	at int
	// written is the revision holding the signature dictionary; signed is
	// the last revision the range covers whole (0: none). Both 1-based.
	written, signed int
	end             int64 // where the covered bytes end
	// appendedRevisions and appendedBytes follow the covered bytes.
	appendedRevisions int
	appendedBytes     int64
	wholeFile         bool
}

// base is the revision the signature vouches for: the last one its range
// covers, or the one holding it when the range stops short.
func (c rangeCoverage) base() int { return max(c.signed, c.written, 1) }

func (c rangeCoverage) level() string {
	switch {
	case len(c.anomalies) > 0:
		return coverageUnclear
	case c.wholeFile:
		return coverageFile
	}
	return coverageRevision
}

// span is one revision's bytes: eof is just after its "%%EOF" marker, end
// after the marker's end of line, solid the first byte at or after end
// that is not white space (len(data) when none is).
type span struct{ start, eof, end, solid int }

// revisionBytes are the revisions' spans in file order, and where the
// file's last byte that is not white space is.
type revisionBytes struct {
	spans     []span
	lastSolid int
}

// revisionSpans lists the revisions' byte spans in file order. A file whose
// cross-reference data was rebuilt has one revision with no span; its
// saves are then told apart by their "%%EOF" markers. White space is
// measured once here, so checks per signature cost nothing.
func (a *analysis) revisionSpans() []span {
	if a.revBytes != nil {
		return a.revBytes.spans
	}
	data := a.f.Data
	rb := &revisionBytes{lastSolid: len(data) - 1}
	a.revBytes = rb
	for rb.lastSolid >= 0 && cos.IsWhite(data[rb.lastSolid]) {
		rb.lastSolid--
	}
	if !a.f.Warn.XrefRepaired {
		for _, r := range a.f.Revisions {
			eof := r.End
			for r.EOFFound && eof > r.Start && (data[eof-1] == '\n' || data[eof-1] == '\r') {
				eof--
			}
			rb.spans = append(rb.spans, span{start: r.Start, eof: eof, end: r.End})
		}
	} else {
		start := 0
		for pos := 0; len(rb.spans) < maxSigSpans; {
			i := bytes.Index(data[pos:], []byte("%%EOF"))
			if i < 0 {
				break
			}
			eof := pos + i + len("%%EOF")
			end := eof
			if end < len(data) && data[end] == '\r' {
				end++
			}
			if end < len(data) && data[end] == '\n' {
				end++
			}
			rb.spans = append(rb.spans, span{start: start, eof: eof, end: end})
			start, pos = end, end
		}
	}
	if len(rb.spans) == 0 {
		rb.spans = []span{{0, len(data), len(data), len(data)}}
	}
	// Ends only grow, so one cursor measures every run of white space once.
	cursor := 0
	for i := range rb.spans {
		cursor = max(cursor, rb.spans[i].end)
		for cursor < len(data) && cos.IsWhite(data[cursor]) {
			cursor++
		}
		rb.spans[i].solid = cursor
	}
	return rb.spans
}

// maxSigSpans bounds the %%EOF markers read from a rebuilt file.
const maxSigSpans = 1024

// measureCoverage checks the signature's /ByteRange against the file: two
// ranges from byte 0 whose hole is exactly the signature's /Contents hex
// string, ending at the end of a revision at or after the one holding the
// signature (pyHanko's coverage rules, without the digest).
func (a *analysis) measureCoverage(s *signature) rangeCoverage {
	data := a.f.Data
	spans := a.revisionSpans()
	c := rangeCoverage{at: math.MaxInt}
	hostStart, located := a.hostBytes(s.host)
	if located {
		c.at = hostStart
		for i, sp := range spans {
			if hostStart >= sp.start && hostStart < sp.end {
				c.written = i + 1
				break
			}
		}
	}
	if c.written == 0 {
		c.written = a.revisionWriting(s.host)
	}
	arr, _ := a.resolve(s.dict.Get("ByteRange")).(cos.Array)
	for i, o := range arr {
		if i >= 8 {
			break
		}
		n, ok := cos.AsInt(a.resolve(o))
		if !ok || n < 0 || n > math.MaxInt32 {
			c.byteRange = nil
			break
		}
		c.byteRange = append(c.byteRange, n)
	}
	if len(c.byteRange) != 4 || len(arr) != 4 {
		c.anomalies = append(c.anomalies, rangeMalformed)
		if len(c.byteRange) >= 2 {
			c.end = c.byteRange[0] + c.byteRange[1]
		}
		a.placeEnd(&c, spans)
		return c
	}
	s1, l1, s2, l2 := c.byteRange[0], c.byteRange[1], c.byteRange[2], c.byteRange[3]
	c.end = s2 + l2
	if s1 != 0 {
		c.anomalies = append(c.anomalies, rangeNotFromStart)
	}
	holeStart, holeEnd := s1+l1, s2
	switch {
	case holeEnd < holeStart:
		c.anomalies = append(c.anomalies, rangeOverlap)
	case holeStart >= int64(len(data)):
		c.anomalies = append(c.anomalies, rangeContentsElse)
	default:
		contents, _ := a.resolve(s.dict.Get("Contents")).(cos.String)
		// Some signing tools let the ranges cover the string's < and >
		// and leave out only its digits: what matters is that every byte
		// left out belongs to the signature's own string.
		strStart := int(holeStart)
		if strStart > 0 && data[strStart] != '<' && data[strStart-1] == '<' {
			strStart--
		}
		strEnd, same := hexStringAt(data, strStart, contents.Bytes)
		inHost := located && a.inObject(hostStart, strStart)
		switch {
		case !same || !inHost:
			c.anomalies = append(c.anomalies, rangeContentsElse)
		case int64(strEnd) < holeEnd:
			c.anomalies = append(c.anomalies, rangeGap)
		case int64(strEnd) > holeEnd && (int64(strEnd)-1 != holeEnd || data[holeEnd] != '>'):
			c.anomalies = append(c.anomalies, rangeOverlap)
		}
	}
	a.placeEnd(&c, spans)
	return c
}

// placeEnd relates the end of the covered bytes to the revisions.
func (a *analysis) placeEnd(c *rangeCoverage, spans []span) {
	data := a.f.Data
	if c.end > int64(len(data)) {
		c.anomalies = append(c.anomalies, rangeBeyondEOF)
		c.signed = len(spans)
		return
	}
	for i, sp := range spans {
		if int64(sp.eof) <= c.end {
			c.signed = i + 1
		}
	}
	switch {
	case c.signed < max(c.written, 1):
		c.anomalies = append(c.anomalies, rangeShort)
	case c.signed < len(spans) && c.end > int64(spans[c.signed-1].solid):
		// bytes of the next revision beyond the white space after this one
		c.anomalies = append(c.anomalies, rangeNotRevisionEnd)
	}
	c.appendedRevisions = len(spans) - c.signed
	c.appendedBytes = max(int64(len(data))-c.end, 0)
	c.wholeFile = c.end > int64(a.revBytes.lastSolid)
}

// maxSigObjectBytes is how far into its object a signature's /Contents may
// start: a signature dictionary is a few hundred bytes before it.
const maxSigObjectBytes = 1 << 20

// hostBytes returns where object num starts in the newest view; located is
// false for objects in object streams, which no byte range can point into.
func (a *analysis) hostBytes(num int) (start int, located bool) {
	e, ok := a.f.Lookup(num, 0)
	if !ok || e.Kind != file.InUse || e.Off < 0 || e.Off >= int64(len(a.f.Data)) {
		return 0, false
	}
	return int(e.Off), true
}

// inObject reports whether offset at lies inside the object starting at
// start: after it, not past its "endobj", and not absurdly far.
func (a *analysis) inObject(start, at int) bool {
	return at > start && at-start <= maxSigObjectBytes && !bytes.Contains(a.f.Data[start:at], []byte("endobj"))
}

// revisionWriting is the newest revision whose own cross-reference section
// defines num.
func (a *analysis) revisionWriting(num int) int {
	for k := len(a.f.Revisions); k >= 1; k-- {
		if _, ok := a.f.Revisions[k-1].Find(num); ok {
			return k
		}
	}
	return 0
}

// hexStringAt reads the hexadecimal string starting at data[at] and reports
// where it ends and whether it decodes to want (a final odd digit counts as
// followed by 0, as in PDF).
func hexStringAt(data []byte, at int, want []byte) (end int, same bool) {
	if at < 0 || at >= len(data) || data[at] != '<' {
		return at, false
	}
	// Signing tools write the string without white space: decode it in
	// blocks, falling back to the digit-by-digit reading below otherwise.
	if end := at + 1 + 2*len(want); end < len(data) && data[end] == '>' {
		var buf [512]byte
		ok := true
		for i := 0; ok && i < len(want); i += len(buf) {
			n := min(len(buf), len(want)-i)
			src := data[at+1+2*i : at+1+2*(i+n)]
			_, err := hex.Decode(buf[:n], src)
			ok = err == nil && bytes.Equal(buf[:n], want[i:i+n])
		}
		if ok {
			return end + 1, true
		}
	}
	n, hi, half := 0, byte(0), false
	same = true
	// White space may pad the digits, but not without bound.
	limit := min(len(data), at+1+4*len(want)+1024)
	for i := at + 1; i < limit; i++ {
		c := data[i]
		if c == '>' {
			if half {
				same = same && n < len(want) && want[n] == hi<<4
				n++
			}
			return i + 1, same && n == len(want)
		}
		if cos.IsWhite(c) {
			continue
		}
		v, ok := cos.HexVal(c)
		if !ok {
			return i, false
		}
		if !half {
			hi, half = v, true
			continue
		}
		same = same && n < len(want) && want[n] == hi<<4|v
		n++
		half = false
	}
	return limit, false
}
