// Package cfb reads the Compound File Binary format ([MS-CFB]): the
// container of Word 97-2003, Excel 97-2003 and PowerPoint 97-2003 files, of
// VBA projects and of password-protected OOXML packages.
//
// It is written for hostile input. Every chain (DIFAT, FAT, mini FAT,
// directory, stream) is followed with a visited set, so loops end the walk;
// the directory tree is walked with a visited set, so cycles end it; sizes
// declared in the file are never trusted beyond the bytes present; and the
// bytes a caller reads in all are capped by a budget. What the walk had to
// cut short is recorded in Anomalies, never returned as an error: a damaged
// file still shows what it holds.
//
// The existing, maintained Go readers (richardlehane/mscfb) were weighed: the
// engine needs per-chain loop detection, a read budget shared by every
// stream and anomaly codes for the report rather than errors, so this small
// reader is the engine's own.
package cfb

import (
	"bytes"
	"encoding/binary"
	"strings"
	"unicode/utf16"
)

// Magic is the compound-file signature.
var Magic = []byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}

// Is reports the compound-file signature at the start of b.
func Is(b []byte) bool { return bytes.HasPrefix(b, Magic) }

// Limits independent of what the header declares.
const (
	MaxEntries = 4096    // directory entries read
	maxFAT     = 1 << 22 // FAT entries kept (16 MiB of 4-byte entries)
	miniCutoff = 4096    // streams smaller than this live in the mini stream
	endOfChain = 0xFFFFFFFA
)

// Entry types.
const (
	TypeStorage = 1
	TypeStream  = 2
	TypeRoot    = 5
)

// Anomaly codes, in the order a report lists them.
const (
	AnomalyHeader    = "cfb-header"          // unusable header: nothing was read
	AnomalyTruncated = "cfb-truncated"       // a chain points past the end of the file
	AnomalyLoop      = "cfb-chain-loop"      // a sector chain returns to a sector it used
	AnomalyCrossed   = "cfb-chains-cross"    // two streams claim the same sector
	AnomalyTreeCycle = "cfb-directory-cycle" // the directory tree revisits an entry
	AnomalySize      = "cfb-size-mismatch"   // a stream's chain is shorter than its size
	AnomalyBudget    = "cfb-read-budget"     // the read budget ran out
	AnomalyEntries   = "cfb-too-many-entries"
)

// Entry is one directory entry. Name and Path are attacker-authored. Path
// joins the storage names below the root with "/".
type Entry struct {
	Name, Path          string
	Type                byte
	Start               uint32
	Size                int64
	left, right, child  uint32
	CLSID               [16]byte
	Parent              int // index of the parent storage, -1 for the root
	index               int
	reachable, children bool
}

// File is an opened compound file.
type File struct {
	b          []byte
	sectorSize int
	nSectors   int
	fat        []uint32
	miniFAT    []uint32
	mini       []byte // the mini stream, read on first use
	miniRead   bool
	Entries    []Entry
	budget     int64
	claimed    map[uint32]int // sector -> first entry index that read it
	anomalies  map[string]bool
	cache      map[int][]byte
}

// Open parses the header, the FAT, the mini FAT and the directory. budget
// caps the bytes all later Read calls copy out. It returns nil only when
// b is not a compound file at all (no signature or no usable header).
func Open(b []byte, budget int64) *File {
	if len(b) < 512 || !Is(b) {
		return nil
	}
	shift := binary.LittleEndian.Uint16(b[0x1E:])
	if shift != 9 && shift != 12 {
		return nil
	}
	f := &File{b: b, sectorSize: 1 << shift, budget: budget, claimed: map[uint32]int{}, anomalies: map[string]bool{}, cache: map[int][]byte{}}
	// The header occupies the first sector (512 bytes used, the rest of
	// a 4096-byte sector padding).
	if len(b) <= f.sectorSize {
		return nil
	}
	f.nSectors = (len(b) - f.sectorSize + f.sectorSize - 1) / f.sectorSize // a short last sector is read as far as it goes
	f.readFAT()
	f.fat = f.fat[:min(len(f.fat), maxFAT)]
	f.readDirectory()
	if len(f.Entries) == 0 || f.Entries[0].Type != TypeRoot {
		f.anomalies[AnomalyHeader] = true
	}
	f.readMiniFAT()
	f.buildTree()
	return f
}

// sector returns sector id's bytes (possibly short at the end of the file).
func (f *File) sector(id uint32) []byte {
	if int64(id) >= int64(f.nSectors) {
		f.anomalies[AnomalyTruncated] = true
		return nil
	}
	off := (int(id) + 1) * f.sectorSize
	if off >= len(f.b) {
		f.anomalies[AnomalyTruncated] = true
		return nil
	}
	return f.b[off:min(len(f.b), off+f.sectorSize)]
}

func (f *File) readFAT() {
	var ids []uint32
	for i := 0; i < 109; i++ {
		if id := binary.LittleEndian.Uint32(f.b[0x4C+4*i:]); id < endOfChain {
			ids = append(ids, id)
		}
	}
	seen := map[uint32]bool{}
	difat := binary.LittleEndian.Uint32(f.b[0x44:])
	for difat < endOfChain {
		if seen[difat] {
			f.anomalies[AnomalyLoop] = true
			break
		}
		seen[difat] = true
		s := f.sector(difat)
		if len(s) < f.sectorSize {
			break
		}
		for i := 0; i+4 < f.sectorSize; i += 4 {
			if id := binary.LittleEndian.Uint32(s[i:]); id < endOfChain {
				ids = append(ids, id)
			}
		}
		difat = binary.LittleEndian.Uint32(s[f.sectorSize-4:])
	}
	for _, id := range ids {
		if len(f.fat) >= maxFAT || len(f.fat) >= f.nSectors+f.sectorSize/4 {
			break
		}
		s := f.sector(id)
		for i := 0; i+4 <= len(s); i += 4 {
			f.fat = append(f.fat, binary.LittleEndian.Uint32(s[i:]))
		}
	}
}

// chain follows a FAT-like table from start, stopping at the end marker,
// at a loop (recorded) or after limit links.
func (f *File) chain(table []uint32, start uint32, limit int) []uint32 {
	var out []uint32
	seen := map[uint32]bool{}
	for id := start; id < endOfChain && len(out) < limit; {
		if seen[id] {
			f.anomalies[AnomalyLoop] = true
			break
		}
		seen[id] = true
		out = append(out, id)
		if int(id) >= len(table) {
			if len(out) < limit {
				f.anomalies[AnomalyTruncated] = true
			}
			break
		}
		id = table[id]
	}
	return out
}

func (f *File) readDirectory() {
	start := binary.LittleEndian.Uint32(f.b[0x30:])
	for _, id := range f.chain(f.fat, start, f.nSectors) {
		s := f.sector(id)
		for i := 0; i+128 <= len(s); i += 128 {
			if len(f.Entries) >= MaxEntries {
				f.anomalies[AnomalyEntries] = true
				return
			}
			f.Entries = append(f.Entries, parseEntry(s[i:i+128], f.sectorSize, len(f.Entries)))
		}
	}
}

func parseEntry(e []byte, sectorSize, index int) Entry {
	n := int(binary.LittleEndian.Uint16(e[64:]))
	var name string
	if n >= 2 && n <= 64 {
		u := make([]uint16, 0, n/2-1)
		for j := 0; j+1 < n-2; j += 2 {
			u = append(u, binary.LittleEndian.Uint16(e[j:]))
		}
		name = string(utf16.Decode(u))
	}
	size := int64(binary.LittleEndian.Uint64(e[120:]))
	if sectorSize == 512 {
		// Version 3 files may leave garbage in the high half.
		size &= 0xFFFFFFFF
	}
	ent := Entry{
		Name: name, Type: e[66],
		left:   binary.LittleEndian.Uint32(e[68:]),
		right:  binary.LittleEndian.Uint32(e[72:]),
		child:  binary.LittleEndian.Uint32(e[76:]),
		Start:  binary.LittleEndian.Uint32(e[116:]),
		Size:   size,
		Parent: -1,
		index:  index,
	}
	copy(ent.CLSID[:], e[80:96])
	if n < 2 || n > 64 || (ent.Type != TypeStorage && ent.Type != TypeStream && ent.Type != TypeRoot) {
		ent.Type = 0
	}
	return ent
}

func (f *File) readMiniFAT() {
	start := binary.LittleEndian.Uint32(f.b[0x3C:])
	for _, id := range f.chain(f.fat, start, f.nSectors) {
		s := f.sector(id)
		for i := 0; i+4 <= len(s); i += 4 {
			f.miniFAT = append(f.miniFAT, binary.LittleEndian.Uint32(s[i:]))
		}
	}
}

// buildTree walks each storage's red-black tree of children, giving every
// reachable entry its parent and path. Entries not reachable from the root
// keep Parent -1 and an empty Path, and are not listed by Children.
func (f *File) buildTree() {
	if len(f.Entries) == 0 || f.Entries[0].Type != TypeRoot {
		return
	}
	f.Entries[0].reachable = true
	visited := make([]bool, len(f.Entries))
	visited[0] = true
	queue := []int{0}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		stack := []uint32{f.Entries[p].child}
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if id >= endOfChain {
				continue
			}
			if int(id) >= len(f.Entries) || visited[id] {
				if int(id) < len(f.Entries) {
					f.anomalies[AnomalyTreeCycle] = true
				}
				continue
			}
			visited[id] = true
			e := &f.Entries[id]
			if e.Type == 0 || e.Type == TypeRoot {
				continue
			}
			e.reachable = true
			e.Parent = p
			e.Path = e.Name
			if p != 0 {
				e.Path = f.Entries[p].Path + "/" + e.Name
			}
			f.Entries[p].children = true
			stack = append(stack, e.left, e.right)
			if e.Type == TypeStorage {
				queue = append(queue, int(id))
			}
		}
	}
}

// Anomalies lists what the walk had to cut short, in a fixed order.
func (f *File) Anomalies() []string {
	var out []string
	for _, c := range []string{AnomalyHeader, AnomalyTruncated, AnomalyLoop, AnomalyCrossed, AnomalyTreeCycle, AnomalySize, AnomalyBudget, AnomalyEntries} {
		if f.anomalies[c] {
			out = append(out, c)
		}
	}
	return out
}

// Streams returns the reachable streams in directory order.
func (f *File) Streams() []*Entry {
	var out []*Entry
	for i := range f.Entries {
		if e := &f.Entries[i]; e.reachable && e.Type == TypeStream {
			out = append(out, e)
		}
	}
	return out
}

// Children returns the reachable children of entry i, in directory order.
func (f *File) Children(i int) []*Entry {
	var out []*Entry
	for j := range f.Entries {
		if e := &f.Entries[j]; e.reachable && e.Parent == i && j != i {
			out = append(out, e)
		}
	}
	return out
}

// Lookup finds a reachable entry by path, case-insensitively as Office
// does; nil when absent.
func (f *File) Lookup(path string) *Entry {
	for i := range f.Entries {
		if e := &f.Entries[i]; e.reachable && i > 0 && strings.EqualFold(e.Path, path) {
			return e
		}
	}
	return nil
}

// Index is the entry's position in the directory.
func (e *Entry) Index() int { return e.index }

// Read returns up to limit bytes of a stream. The chain is followed with a
// visited set; a chain shorter than the declared size, a sector already
// claimed by another stream and the shared budget are recorded as
// anomalies. The result is cached: reading a stream twice costs nothing.
func (f *File) Read(e *Entry, limit int64) []byte {
	if e == nil || e.Type != TypeStream && e.Type != TypeRoot {
		return nil
	}
	if b, ok := f.cache[e.index]; ok {
		return b
	}
	size := min(e.Size, limit, int64(len(f.b)))
	if size <= 0 {
		return nil
	}
	if size > f.budget {
		f.anomalies[AnomalyBudget] = true
		size = max(f.budget, 0)
	}
	var out []byte
	if e.Size < miniCutoff && e.Type == TypeStream {
		out = f.readMini(e.Start, size)
	} else {
		out = f.readRegular(e, size)
	}
	f.budget -= int64(len(out))
	if int64(len(out)) < size {
		f.anomalies[AnomalySize] = true
	}
	f.cache[e.index] = out
	return out
}

func (f *File) readRegular(e *Entry, size int64) []byte {
	n := int((size + int64(f.sectorSize) - 1) / int64(f.sectorSize))
	out := make([]byte, 0, size)
	for _, id := range f.chain(f.fat, e.Start, n) {
		if owner, ok := f.claimed[id]; ok && owner != e.index {
			f.anomalies[AnomalyCrossed] = true
		} else {
			f.claimed[id] = e.index
		}
		s := f.sector(id)
		if s == nil {
			break
		}
		out = append(out, s[:min(len(s), int(size)-len(out))]...)
	}
	return out
}

func (f *File) readMini(start uint32, size int64) []byte {
	if !f.miniRead {
		f.miniRead = true
		if len(f.Entries) > 0 && f.Entries[0].Type == TypeRoot {
			root := &f.Entries[0]
			f.mini = f.readRegular(root, min(root.Size, int64(len(f.b))))
		}
	}
	n := int((size + 63) / 64)
	out := make([]byte, 0, size)
	for _, id := range f.chain(f.miniFAT, start, n) {
		off := int(id) * 64
		if off >= len(f.mini) {
			f.anomalies[AnomalyTruncated] = true
			break
		}
		out = append(out, f.mini[off:min(len(f.mini), off+64, off+int(size)-len(out))]...)
	}
	return out
}
