// Package file reads a PDF's physical structure: every cross-reference
// section (classic tables, xref streams, hybrid files), the chain of /Prev
// links into revisions, and objects as each revision saw them. It repairs
// what it can (wrong offsets, a missing or broken xref) and records each
// repair as a warning instead of failing.
//
// pdfcpu keeps only the merged cross-reference of the newest revision; the
// per-revision views that incremental-update and signature analysis need
// come from this walk.
package file

import (
	"bytes"
	"context"
	"sort"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/filters"
)

// Limits that bound work on hostile files.
const (
	maxSections      = 1024    // xref sections followed through /Prev
	maxEntries       = 2000000 // cross-reference entries over all sections
	maxResolveDepth  = 32      // reference-to-reference hops
	maxObjStmObjects = 100000  // objects one object stream may declare
	ctxCheckEvery    = 64      // object loads between deadline checks
)

// EntryKind is a cross-reference entry type.
type EntryKind uint8

const (
	Free EntryKind = iota
	InUse
	Compressed
)

// Entry is one cross-reference entry.
type Entry struct {
	Num   int32
	Kind  EntryKind
	Gen   uint16
	Off   int64 // InUse: byte offset; Compressed: number of the object stream
	Index int32 // Compressed: index inside the object stream
}

// XrefKind says how a section is stored.
type XrefKind string

const (
	XrefTable  XrefKind = "table"
	XrefStream XrefKind = "stream"
	XrefHybrid XrefKind = "hybrid"
)

// Section is one cross-reference section with its trailer.
type Section struct {
	Offset  int // where "xref" or the xref stream object starts
	Kind    XrefKind
	Entries []Entry // sorted by Num, one per number
	Trailer *cos.Dict
	End     int // offset just after the trailer or the xref stream object
}

// Revision is one save of the file: the original, or an incremental update.
// A linearized file's first-page section belongs to revision 1.
type Revision struct {
	Number     int // 1-based; 1 is the original save
	Sections   []*Section
	XrefOffset int // offset named by startxref for this revision
	Start, End int // byte range of the revision; End is after its %%EOF
	EOFFound   bool
	Entries    []Entry // this revision's entries, sorted, newest section winning
	Trailer    *cos.Dict
}

// Find returns this revision's own entry for num.
func (r *Revision) Find(num int) (Entry, bool) {
	i := sort.Search(len(r.Entries), func(i int) bool { return int(r.Entries[i].Num) >= num })
	if i < len(r.Entries) && int(r.Entries[i].Num) == num {
		return r.Entries[i], true
	}
	return Entry{}, false
}

// Warnings are the structural problems met and tolerated.
type Warnings struct {
	XrefLoop        bool
	XrefRepaired    bool // rebuilt by scanning the whole file
	EntriesRepaired int  // entries or startxref offsets that pointed to the wrong place
	Truncated       bool
	ObjectErrors    int
	StreamErrors    int
	Anomalies       int // lenient parses (duplicate keys, stray tokens, bad numbers)
	LeadingJunk     int
	TrailingData    int
	HeaderMissing   bool
	Sections        int
	// EntriesCapped: cross-reference sections cut short because the file
	// listed more entries than its size can hold (entryAllowance).
	EntriesCapped int
}

// File is an opened PDF.
type File struct {
	Data       []byte
	Header     int // offset of "%PDF", 0 when absent
	Revisions  []*Revision
	Linearized bool
	Encrypted  bool
	// Security describes the /Encrypt dictionary of an encrypted file and
	// whether the empty password opened it; nil when not encrypted.
	Security *Security
	Warn     Warnings
	Budget   *filters.Budget

	ctx       context.Context
	crypt     *decrypter  // set when an encrypted file was opened
	scratch   cos.Scratch // shared by the file's parsers (parser)
	loads     int
	final     []Entry
	objects   map[int]cos.Object // parsed objects by offset
	badOffset map[int]bool
	objstms   map[int64]*objStm // by offset of the object stream
	loading   map[int64]bool
	scanned   *scanIndex
	endstream []int // offsets of every "endstream", built on first need
	entries   int   // cross-reference entries read, all sections together
}

// Open walks the file's cross-reference chain. header is the offset of the
// "%PDF" marker (-1 when there is none). The only error is the context's.
func Open(ctx context.Context, data []byte, header int, budget *filters.Budget) (*File, error) {
	f := &File{
		Data:      data,
		Budget:    budget,
		ctx:       ctx,
		objects:   map[int]cos.Object{},
		badOffset: map[int]bool{},
		objstms:   map[int64]*objStm{},
		loading:   map[int64]bool{},
	}
	if header < 0 {
		f.Warn.HeaderMissing = true
	} else {
		f.Header = header
		f.Warn.LeadingJunk = header
	}
	f.Linearized = f.detectLinearized()
	sections := f.walkChain()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(sections) > 0 {
		f.buildRevisions(sections)
		f.final = f.merge(len(f.Revisions))
		f.Encrypted = f.Trailer().Get("Encrypt") != nil
		f.openSecurity()
	}
	if len(sections) == 0 || !f.isCatalog(f.Trailer().Get("Root")) && !f.rootEncryptedInStream() {
		f.Revisions, f.final = nil, nil
		f.objects, f.badOffset, f.objstms = map[int]cos.Object{}, map[int]bool{}, map[int64]*objStm{}
		f.crypt, f.Security = nil, nil
		f.rebuild()
		f.Encrypted = f.Trailer().Get("Encrypt") != nil
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	f.measureTail()
	return f, nil
}

// Opened reports an encrypted file the empty password opened: its objects
// are read deciphered.
func (f *File) Opened() bool { return f.crypt != nil }

// Sealed reports an encrypted file the empty password did not open: its
// strings and streams are ciphertext.
func (f *File) Sealed() bool { return f.Encrypted && f.crypt == nil }

// rootEncryptedInStream reports a catalogue stored in an object stream of an
// encrypted file that could not be opened. Such a stream is encrypted, so
// the catalogue cannot be read, but the chain naming it is intact:
// rebuilding would only throw the revision history away.
func (f *File) rootEncryptedInStream() bool {
	ref, ok := f.Trailer().Get("Root").(cos.Ref)
	if !f.Encrypted || f.crypt != nil || !ok {
		return false
	}
	e, found := f.Lookup(ref.Num, 0)
	return found && e.Kind == Compressed
}

// Trailer returns the newest trailer.
func (f *File) Trailer() *cos.Dict {
	if len(f.Revisions) == 0 {
		return nil
	}
	return f.Revisions[len(f.Revisions)-1].Trailer
}

// Deadline reports the context's error, checking it only every few calls.
func (f *File) Deadline() error {
	f.loads++
	if f.loads%ctxCheckEvery == 0 {
		return f.ctx.Err()
	}
	return nil
}

// Err returns the context's error now.
func (f *File) Err() error { return f.ctx.Err() }

func (f *File) detectLinearized() bool {
	p := f.parser(f.Data, f.Header)
	p.SkipSpace()
	for p.Pos() < len(f.Data) && f.Data[p.Pos()] == '%' {
		p.SkipSpace()
	}
	ind, err := p.IndirectAt(p.Pos())
	if err != nil {
		return false
	}
	d, _ := ind.Value.(*cos.Dict)
	return d.Has("Linearized")
}

// lastStartxref finds the offset the last "startxref" names.
func (f *File) lastStartxref() (int, bool) {
	i := bytes.LastIndex(f.Data, []byte("startxref"))
	if i < 0 {
		return 0, false
	}
	p := f.parser(f.Data, i+len("startxref"))
	v, ok := p.ReadInt()
	if !ok || v > int64(len(f.Data)) {
		return 0, false
	}
	return int(v), true
}

// walkChain follows startxref and /Prev, newest section first.
func (f *File) walkChain() []*Section {
	off, ok := f.lastStartxref()
	if !ok {
		return nil
	}
	var out []*Section
	seen := map[int]bool{}
	total := 0
	for {
		if len(out) >= maxSections || f.ctx.Err() != nil {
			f.Warn.XrefLoop = len(out) >= maxSections
			break
		}
		s := f.sectionNear(off)
		if s == nil {
			if len(out) == 0 {
				break
			}
			// A broken older link: the startxref that closes the previous
			// save usually still names its section.
			f.Warn.EntriesRepaired++
			if off, ok = f.startxrefBefore(out[len(out)-1].Offset, seen); ok {
				continue
			}
			break
		}
		if seen[s.Offset] {
			f.Warn.XrefLoop = true
			break
		}
		seen[s.Offset] = true
		total += len(s.Entries)
		if total > maxEntries {
			f.Warn.Truncated = true
			break
		}
		out = append(out, s)
		prev, ok := cos.AsInt(s.Trailer.Get("Prev"))
		if !ok && !s.Trailer.Has("Prev") {
			break // the original save
		}
		if !ok || prev < 0 || prev >= int64(len(f.Data)) {
			if ok {
				f.Warn.EntriesRepaired++
			} else {
				f.Warn.Anomalies++
			}
			if off, ok = f.startxrefBefore(s.Offset, seen); ok {
				continue
			}
			break
		}
		off = int(prev)
	}
	f.Warn.Sections = len(out)
	return out
}

// startxrefBefore finds the section named by the last "startxref" before
// offset before that names an earlier, unvisited offset: where a broken
// /Prev should have pointed. Offsets only decrease, so recovery ends.
func (f *File) startxrefBefore(before int, seen map[int]bool) (int, bool) {
	pos := min(before, len(f.Data))
	for range maxSections {
		i := bytes.LastIndex(f.Data[:pos], []byte("startxref"))
		if i < 0 {
			return 0, false
		}
		pos = i
		p := f.parser(f.Data, i+len("startxref"))
		v, ok := p.ReadInt()
		if !ok || v < 0 || v >= int64(before) || seen[int(v)] {
			continue
		}
		if s := f.sectionAt(int(v)); s != nil && !seen[s.Offset] {
			return int(v), true
		}
	}
	return 0, false
}

// sectionNear reads the section at off; when nothing is there it tries the
// offset shifted by leading junk and then a small window around it, which
// recovers the common off-by-a-few startxref values.
func (f *File) sectionNear(off int) *Section {
	if s := f.sectionAt(off); s != nil {
		return s
	}
	if f.Header > 0 {
		if s := f.sectionAt(off + f.Header); s != nil {
			f.Warn.EntriesRepaired++
			return s
		}
	}
	for d := 1; d <= 64; d++ {
		for _, o := range []int{off - d, off + d} {
			if o < 0 || o >= len(f.Data) {
				continue
			}
			c := f.Data[o]
			if c != 'x' && (c < '0' || c > '9') {
				continue
			}
			if o > 0 && !cos.IsWhite(f.Data[o-1]) && !cos.IsDelim(f.Data[o-1]) {
				continue
			}
			if s := f.sectionAt(o); s != nil {
				f.Warn.EntriesRepaired++
				return s
			}
		}
	}
	return nil
}

func (f *File) sectionAt(off int) *Section {
	if off < 0 || off >= len(f.Data) {
		return nil
	}
	p := f.parser(f.Data, off)
	p.SkipSpace()
	start := p.Pos()
	var s *Section
	if bytes.HasPrefix(f.Data[start:], []byte("xref")) {
		s = f.readTable(start)
	} else {
		s = f.readXrefStream(start)
	}
	if s != nil && start != off {
		// Readers that follow the specification strictly stop here.
		f.Warn.EntriesRepaired++
	}
	return s
}

// buildRevisions groups sections (newest first) into revisions, oldest first.
func (f *File) buildRevisions(sections []*Section) {
	chain := make([]*Section, len(sections))
	for i, s := range sections {
		chain[len(sections)-1-i] = s
	}
	var groups [][]*Section
	for i := 0; i < len(chain); i++ {
		// A linearized file's first-page section sits before the main
		// section it links to with /Prev: one save, not two.
		if f.Linearized && i == 0 && len(chain) > 1 && chain[1].Offset < chain[0].Offset {
			groups = append(groups, []*Section{chain[0], chain[1]})
			i++
			continue
		}
		groups = append(groups, []*Section{chain[i]})
	}
	f.Revisions = f.Revisions[:0]
	start := 0
	for n, g := range groups {
		newest := g[len(g)-1]
		last := 0
		for _, s := range g {
			last = max(last, s.End)
		}
		r := &Revision{Number: n + 1, Sections: g, XrefOffset: newest.Offset, Trailer: mergedTrailer(g), Start: start}
		r.End, r.EOFFound = f.eofAfter(last)
		r.Entries = mergeEntries(g)
		if n > 0 {
			r.Trailer = inherit(r.Trailer, f.Revisions[n-1].Trailer)
		}
		if r.End < start {
			f.Warn.Anomalies++
			r.End = start
		}
		start = r.End
		f.Revisions = append(f.Revisions, r)
	}
	if len(f.Revisions) > 0 && !f.Revisions[len(f.Revisions)-1].EOFFound {
		f.Warn.Truncated = true
	}
}

// mergedTrailer keeps the newest section's trailer, falling back to an older
// section's /Root, /Info, /ID or /Encrypt when the newest lacks them.
func mergedTrailer(g []*Section) *cos.Dict {
	t := g[len(g)-1].Trailer
	if len(g) == 1 {
		return t
	}
	out := &cos.Dict{Keys: append([]cos.Name(nil), t.Keys...), Vals: append([]cos.Object(nil), t.Vals...)}
	for _, k := range []cos.Name{"Root", "Info", "ID", "Encrypt"} {
		if out.Has(k) {
			continue
		}
		for _, s := range g {
			if v := s.Trailer.Get(k); v != nil {
				out.Keys = append(out.Keys, k)
				out.Vals = append(out.Vals, v)
				break
			}
		}
	}
	return out
}

// inherit copies /Root and /Encrypt from an older trailer when a newer one
// lacks them; /ID and /Info are not inherited because their absence is
// itself a fact the analysis reports.
func inherit(t, older *cos.Dict) *cos.Dict {
	if t.Has("Root") && (t.Has("Encrypt") || !older.Has("Encrypt")) {
		return t
	}
	out := &cos.Dict{Keys: append([]cos.Name(nil), t.Keys...), Vals: append([]cos.Object(nil), t.Vals...)}
	for _, k := range []cos.Name{"Root", "Encrypt"} {
		if !out.Has(k) && older.Has(k) {
			out.Keys = append(out.Keys, k)
			out.Vals = append(out.Vals, older.Get(k))
		}
	}
	return out
}

// eofAfter finds the end of the "%%EOF" line at or after off.
func (f *File) eofAfter(off int) (int, bool) {
	if off > len(f.Data) {
		off = len(f.Data)
	}
	i := bytes.Index(f.Data[off:], []byte("%%EOF"))
	if i < 0 {
		return len(f.Data), false
	}
	end := off + i + len("%%EOF")
	if end < len(f.Data) && f.Data[end] == '\r' {
		end++
	}
	if end < len(f.Data) && f.Data[end] == '\n' {
		end++
	}
	return end, true
}

func (f *File) measureTail() {
	if len(f.Revisions) == 0 {
		return
	}
	last := f.Revisions[len(f.Revisions)-1]
	if !last.EOFFound {
		return
	}
	n := 0
	for _, c := range f.Data[last.End:] {
		if !cos.IsWhite(c) {
			n++
		}
	}
	if n > 0 {
		f.Warn.TrailingData = len(f.Data) - last.End
	}
}

// mergeEntries merges sections oldest first, newer entries winning.
func mergeEntries(g []*Section) []Entry {
	if len(g) == 1 {
		return g[0].Entries
	}
	m := map[int32]Entry{}
	for _, s := range g {
		for _, e := range s.Entries {
			m[e.Num] = e
		}
	}
	return sortedEntries(m)
}

func sortedEntries(m map[int32]Entry) []Entry {
	out := make([]Entry, 0, len(m))
	for _, e := range m {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Num < out[j].Num })
	return out
}

// merge builds the view of revisions 1..upto, newest entries winning.
func (f *File) merge(upto int) []Entry {
	if upto == 1 && len(f.Revisions) >= 1 {
		return f.Revisions[0].Entries
	}
	m := map[int32]Entry{}
	for _, r := range f.Revisions[:upto] {
		for _, e := range r.Entries {
			m[e.Num] = e
		}
	}
	return sortedEntries(m)
}

// Entries returns the merged view of the newest revision.
func (f *File) Entries() []Entry { return f.final }

// Lookup finds num's entry as revision rev (1-based) saw it; rev <= 0 or
// past the end means the newest view.
func (f *File) Lookup(num int, rev int) (Entry, bool) {
	if rev <= 0 || rev >= len(f.Revisions) {
		i := sort.Search(len(f.final), func(i int) bool { return int(f.final[i].Num) >= num })
		if i < len(f.final) && int(f.final[i].Num) == num {
			return f.final[i], true
		}
		return Entry{}, false
	}
	for k := rev - 1; k >= 0; k-- {
		if e, ok := f.Revisions[k].Find(num); ok {
			return e, true
		}
	}
	return Entry{}, false
}
