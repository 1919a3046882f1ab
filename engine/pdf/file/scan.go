package file

import (
	"bytes"
	"sort"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// scanIndex lists every "num gen obj" header in the file, in file order.
type scanIndex struct {
	defs []def
	// byNum maps an object number to its definitions' positions in defs.
	byNum map[int][]int
}

type def struct {
	num, gen, off int
}

// scan builds the index once, on first need.
func (f *File) scan() *scanIndex {
	if f.scanned != nil {
		return f.scanned
	}
	idx := &scanIndex{byNum: map[int][]int{}}
	d := f.Data
	pos := 0
	for {
		i := bytes.Index(d[pos:], []byte("obj"))
		if i < 0 {
			break
		}
		at := pos + i
		pos = at + 3
		if at > 0 && d[at-1] != ' ' && !cos.IsWhite(d[at-1]) {
			continue // "endobj" or part of a word
		}
		if at+3 < len(d) && !cos.IsWhite(d[at+3]) && !cos.IsDelim(d[at+3]) {
			continue
		}
		num, gen, start, ok := headerBefore(d, at)
		if !ok {
			continue
		}
		idx.byNum[num] = append(idx.byNum[num], len(idx.defs))
		idx.defs = append(idx.defs, def{num: num, gen: gen, off: start})
	}
	f.scanned = idx
	return idx
}

// headerBefore reads "num gen " backwards from the "obj" keyword at at.
func headerBefore(d []byte, at int) (num, gen, start int, ok bool) {
	j := at - 1
	for j >= 0 && cos.IsWhite(d[j]) {
		j--
	}
	genEnd := j + 1
	for j >= 0 && d[j] >= '0' && d[j] <= '9' {
		j--
	}
	genStart := j + 1
	if genStart == genEnd || genEnd-genStart > 5 {
		return 0, 0, 0, false
	}
	for j >= 0 && cos.IsWhite(d[j]) {
		j--
	}
	numEnd := j + 1
	if numEnd == genStart {
		return 0, 0, 0, false
	}
	for j >= 0 && d[j] >= '0' && d[j] <= '9' {
		j--
	}
	numStart := j + 1
	if numStart == numEnd || numEnd-numStart > 10 {
		return 0, 0, 0, false
	}
	if j >= 0 && !cos.IsWhite(d[j]) && !cos.IsDelim(d[j]) {
		return 0, 0, 0, false
	}
	num = atoi(d[numStart:numEnd])
	gen = atoi(d[genStart:genEnd])
	if num < 0 || gen > 65535 {
		return 0, 0, 0, false
	}
	return num, gen, numStart, true
}

func atoi(b []byte) int {
	v := 0
	for _, c := range b {
		v = v*10 + int(c-'0')
		if v > 1<<31 {
			return -1
		}
	}
	return v
}

// latest returns the offset of num's last definition starting before limit.
func (s *scanIndex) latest(num, limit int) int {
	best := -1
	for _, i := range s.byNum[num] {
		if s.defs[i].off < limit {
			best = s.defs[i].off
		}
	}
	return best
}

// rebuild reconstructs a single-revision cross-reference by scanning every
// object header, taking the last definition of each number, as qpdf and
// viewers do. Objects inside object streams are added from those streams.
func (f *File) rebuild() {
	f.Warn.XrefRepaired = true
	idx := f.scan()
	m := map[int32]Entry{}
	for _, d := range idx.defs {
		if d.num > 1<<31-1 {
			continue
		}
		m[int32(d.num)] = Entry{Num: int32(d.num), Kind: InUse, Gen: uint16(d.gen), Off: int64(d.off)}
	}
	rev := &Revision{Number: 1, Start: 0}
	rev.Entries = sortedEntries(m)
	f.Revisions = []*Revision{rev}
	f.final = rev.Entries

	// Add objects that live in object streams, without overriding plain
	// definitions, and collect a trailer.
	var trailer *cos.Dict
	var streams []Entry
	for _, e := range rev.Entries {
		if f.Err() != nil {
			return
		}
		st, ok := f.Load(e, 0).(*cos.Stream)
		if !ok {
			continue
		}
		switch st.Dict.Name("Type") {
		case "ObjStm":
			streams = append(streams, e)
		case "XRef":
			if st.Dict.Has("Root") {
				trailer = st.Dict
			}
		}
	}
	// The last "trailer" dictionary that names a catalogue wins.
	for pos := len(f.Data); ; {
		i := bytes.LastIndex(f.Data[:pos], []byte("trailer"))
		if i < 0 {
			break
		}
		pos = i
		p := f.parser(f.Data, i+len("trailer"))
		if o, _ := p.Object(); o != nil {
			if d, ok := o.(*cos.Dict); ok && d.Has("Root") {
				trailer = d
				break
			}
		}
	}
	// An encrypted file's object streams are read once its key is known.
	rev.Trailer = trailer
	if trailer.Has("Encrypt") {
		f.openSecurity()
	}
	for _, host := range streams {
		os := f.objStm(host, 0)
		if os == nil {
			continue
		}
		for i, n := range os.nums {
			if _, ok := m[int32(n)]; !ok && n >= 0 && n <= 1<<31-1 {
				m[int32(n)] = Entry{Num: int32(n), Kind: Compressed, Off: int64(host.Num), Index: int32(i)}
			}
		}
	}
	rev.Entries = sortedEntries(m)
	f.final = rev.Entries

	if trailer == nil || !f.isCatalog(trailer.Get("Root")) {
		trailer = f.findCatalogTrailer(trailer)
	}
	rev.Trailer = trailer
	rev.End, rev.EOFFound = len(f.Data), bytes.Contains(f.Data[max(0, len(f.Data)-1024):], []byte("%%EOF"))
	if !rev.EOFFound {
		f.Warn.Truncated = true
	}
}

func (f *File) isCatalog(o cos.Object) bool {
	d, _ := f.Resolve(o).(*cos.Dict)
	return d != nil && (d.Name("Type") == "Catalog" || d.Has("Pages"))
}

// findCatalogTrailer synthesises a trailer around the last object typed
// /Catalog, keeping /Info and /ID from a partial trailer when there is one.
func (f *File) findCatalogTrailer(partial *cos.Dict) *cos.Dict {
	t := &cos.Dict{}
	if partial != nil {
		for i, k := range partial.Keys {
			if k != "Root" {
				t.Keys = append(t.Keys, k)
				t.Vals = append(t.Vals, partial.Vals[i])
			}
		}
	}
	var nums []int
	for _, e := range f.final {
		nums = append(nums, int(e.Num))
	}
	sort.Ints(nums)
	for i := len(nums) - 1; i >= 0; i-- {
		d, _ := f.Object(nums[i], 0).(*cos.Dict)
		if d != nil && d.Name("Type") == "Catalog" {
			t.Keys = append(t.Keys, "Root")
			t.Vals = append(t.Vals, cos.Ref{Num: nums[i]})
			break
		}
	}
	return t
}
