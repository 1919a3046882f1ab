package file

import (
	"bytes"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/filters"
)

// entryAllowance bounds the cross-reference entries read from a file of n
// bytes, all sections together, while they are read (maxEntries is the
// ceiling for any size). A compressed xref stream can list a
// million objects in a few kilobytes, and each entry costs memory and time
// whether or not an object stands behind it; real files hold far fewer
// objects than one per 16 bytes, with room for every small file.
func entryAllowance(n int) int { return min(maxEntries, 1<<16+n/16) }

// EntryAllowance is how many cross-reference entries this file may list
// before its sections are cut.
func (f *File) EntryAllowance() int { return entryAllowance(len(f.Data)) }

// takeEntry counts one entry against entryAllowance; false means the file's
// allowance is spent and the section is cut (EntriesCapped).
func (f *File) takeEntry() bool {
	if f.entries >= entryAllowance(len(f.Data)) {
		f.Warn.EntriesCapped++
		return false
	}
	f.entries++
	return true
}

// readTable reads a classic "xref ... trailer <<>>" section at off.
func (f *File) readTable(off int) *Section {
	p := f.parser(f.Data, off)
	p.Keyword() // "xref"
	m := map[int32]Entry{}
	for {
		p.SkipSpace()
		if p.Pos() >= len(f.Data) {
			return nil
		}
		if bytes.HasPrefix(f.Data[p.Pos():], []byte("trailer")) {
			break
		}
		first, ok1 := p.ReadInt()
		count, ok2 := p.ReadInt()
		if !ok1 || !ok2 {
			// Garbage where a subsection header belongs: try to find the
			// trailer and keep the entries read so far.
			i := bytes.Index(f.Data[p.Pos():], []byte("trailer"))
			if i < 0 || len(m) == 0 {
				return nil
			}
			f.Warn.Anomalies++
			p.Seek(p.Pos() + i)
			break
		}
		// Each entry needs at least 6 bytes ("0 0 n "): bound the loop by
		// what the file can hold, not by what the header claims.
		if count > int64(len(f.Data)-p.Pos())/6+1 || first > 1<<31 {
			return nil
		}
		rowStart := p.Pos()
		shift := 0
		for k := int64(0); k < count; k++ {
			o, okO := p.ReadInt()
			g, okG := p.ReadInt()
			kw := p.Keyword()
			if !okO || !okG || len(kw) != 1 || (kw[0] != 'n' && kw[0] != 'f') {
				f.Warn.Anomalies++
				p.Seek(rowStart)
				break
			}
			rowStart = p.Pos()
			if !f.takeEntry() {
				break
			}
			// A common writer bug numbers the first subsection from 1 while
			// its first row is object 0's free-list head.
			if k == 0 && first == 1 && kw[0] == 'f' && g == 65535 {
				shift = -1
				f.Warn.Anomalies++
			}
			num := first + k + int64(shift)
			if num < 0 || num > 1<<31-1 {
				continue
			}
			e := Entry{Num: int32(num), Gen: uint16(min(g, 65535))}
			if kw[0] == 'n' {
				e.Kind, e.Off = InUse, o
			}
			if _, dup := m[e.Num]; !dup {
				m[e.Num] = e
			}
		}
	}
	p.Keyword() // "trailer"
	obj, err := p.Object()
	t, _ := obj.(*cos.Dict)
	if t == nil || (err != nil && err != cos.ErrSyntax) {
		return nil
	}
	f.Warn.Anomalies += p.Anomalies
	s := &Section{Offset: off, Kind: XrefTable, Trailer: t, End: p.Pos()}
	// A hybrid file adds an xref stream for readers of PDF 1.5 and later;
	// its entries fill numbers the table leaves free or unlisted.
	if xo, ok := cos.AsInt(t.Get("XRefStm")); ok && xo > 0 && xo < int64(len(f.Data)) {
		if xs := f.readXrefStream(int(xo)); xs != nil {
			s.Kind = XrefHybrid
			for _, e := range xs.Entries {
				if old, ok := m[e.Num]; !ok || old.Kind == Free {
					m[e.Num] = e
				}
			}
		} else {
			f.Warn.EntriesRepaired++
		}
	}
	s.Entries = sortedEntries(m)
	return s
}

// readXrefStream reads an xref stream object at off.
func (f *File) readXrefStream(off int) *Section {
	p := f.parser(f.Data, off)
	p.EndstreamAt = f.endstreamAt
	ind, err := p.IndirectAt(off)
	if err != nil && ind.Value == nil {
		return nil
	}
	st, ok := ind.Value.(*cos.Stream)
	if !ok || st.Dict.Name("Type") != "XRef" {
		return nil
	}
	// Xref streams are never encrypted and their filters take only direct
	// parameters, so they decode without the object resolver.
	data, derr := filters.Decode(st.Raw(f.Data), st.Dict, nil, f.Budget)
	if derr != nil && len(data) == 0 {
		f.Warn.StreamErrors++
		return nil
	}
	w, ok := st.Dict.Get("W").(cos.Array)
	if !ok || len(w) < 3 {
		return nil
	}
	var widths [3]int
	row := 0
	for i := 0; i < 3; i++ {
		v, ok := cos.AsInt(w[i])
		if !ok || v < 0 || v > 8 {
			return nil
		}
		widths[i] = int(v)
		row += int(v)
	}
	if row == 0 {
		return nil
	}
	size, _ := cos.AsInt(st.Dict.Get("Size"))
	var index []int64
	if ia, ok := st.Dict.Get("Index").(cos.Array); ok {
		for _, o := range ia {
			v, _ := cos.AsInt(o)
			index = append(index, v)
		}
	} else {
		index = []int64{0, size}
	}
	m := map[int32]Entry{}
	pos := 0
sections:
	for i := 0; i+1 < len(index); i += 2 {
		first, count := index[i], index[i+1]
		if first < 0 || count < 0 {
			break
		}
		for k := int64(0); k < count && pos+row <= len(data); k++ {
			if !f.takeEntry() {
				break sections
			}
			fields := readFields(data[pos:pos+row], widths)
			pos += row
			num := first + k
			if num > 1<<31-1 {
				break
			}
			typ := fields[0]
			if widths[0] == 0 {
				typ = 1
			}
			e := Entry{Num: int32(num)}
			switch typ {
			case 0:
				e.Kind = Free
			case 1:
				e.Kind, e.Off, e.Gen = InUse, int64(fields[1]), uint16(min(fields[2], 65535))
			case 2:
				if fields[2] > 1<<31 {
					continue
				}
				e.Kind, e.Off, e.Index = Compressed, int64(fields[1]), int32(fields[2])
			default:
				continue // reserved types are ignored, as the spec says
			}
			if _, dup := m[e.Num]; !dup {
				m[e.Num] = e
			}
		}
	}
	f.Warn.Anomalies += p.Anomalies
	return &Section{Offset: off, Kind: XrefStream, Entries: sortedEntries(m), Trailer: st.Dict, End: p.Pos()}
}

func readFields(row []byte, w [3]int) [3]uint64 {
	var out [3]uint64
	pos := 0
	for i := 0; i < 3; i++ {
		var v uint64
		for j := 0; j < w[i]; j++ {
			v = v<<8 | uint64(row[pos])
			pos++
		}
		out[i] = v
	}
	return out
}

// endstreamAt returns the first "endstream" at or after from, using an index
// of every occurrence built once, so files full of wrong /Length values cost
// one scan instead of one per stream.
func (f *File) endstreamAt(from int) int {
	if f.endstream == nil {
		f.endstream = []int{}
		pos := 0
		for {
			i := bytes.Index(f.Data[pos:], []byte("endstream"))
			if i < 0 {
				break
			}
			f.endstream = append(f.endstream, pos+i)
			pos += i + len("endstream")
		}
	}
	lo, hi := 0, len(f.endstream)
	for lo < hi {
		mid := (lo + hi) / 2
		if f.endstream[mid] < from {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(f.endstream) {
		return f.endstream[lo]
	}
	return -1
}
