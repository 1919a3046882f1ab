// Package office inspects Office Open XML packages (docx, xlsx, pptx and
// their macro-enabled forms) as packages: ZIP structure, content types,
// relationships and part XML. Nothing is rendered, so text hidden by colour
// or covered by a shape is not detected; every report says so.
//
// The package is pure like the rest of the engine: no I/O, no clock, no
// mutable globals, no goroutines. Every read is bounded by the limits below,
// none of which is taken from the file.
package office

import (
	"archive/zip"
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/internal/zipcap"
)

// Limits of the package reader.
const (
	// MaxEntries caps the central-directory entries; archive/zip would
	// otherwise materialise every header a hostile file declares.
	MaxEntries = 10000
	// MaxPartBytes caps the decompressed bytes read from one part.
	MaxPartBytes = 16 << 20
	// DefaultBudget caps the decompressed bytes read from the whole package.
	DefaultBudget = 64 << 20
)

// Part is one ZIP entry of the package.
type Part struct {
	// Name is the OPC part name without the leading slash, as stored.
	Name      string
	lower     string // Name lower-cased, the form lookups compare
	file      *zip.File
	data      []byte
	read      bool
	truncated bool // the part exceeded MaxPartBytes or the budget
	failed    bool // the entry could not be decompressed
}

// ZipAnomalies are the container-level facts a hostile or damaged archive
// shows. Names are attacker-authored and must be sanitised before reporting.
type ZipAnomalies struct {
	TooManyEntries   bool
	Duplicates       []string // names occurring more than once, case-insensitively
	PathTricks       []string // absolute, parent-relative, backslash or drive names
	Encrypted        []string // entries with the encryption flag set
	HeaderMismatch   []string // local header name disagreeing with the central directory
	LeadingBytes     int64    // bytes before the first local header
	TrailingBytes    int64    // bytes after the end-of-central-directory record
	OverLimit        []string // parts cut at MaxPartBytes or the budget
	Unreadable       []string // parts that failed to decompress
	DeclaredBombs    []string // entries declaring an expansion past the limits
	BudgetExhausted  bool
	OpenFailed       bool // archive/zip refused the archive
	CentralDirectory int  // entries found
}

// Any reports whether any container anomaly was seen.
func (z *ZipAnomalies) Any() bool {
	return z.TooManyEntries || len(z.Duplicates) > 0 || len(z.PathTricks) > 0 || len(z.Encrypted) > 0 ||
		len(z.HeaderMismatch) > 0 || z.LeadingBytes > 0 || z.TrailingBytes > 0 || len(z.OverLimit) > 0 ||
		len(z.Unreadable) > 0 || len(z.DeclaredBombs) > 0 || z.BudgetExhausted || z.OpenFailed
}

// Package is an opened OOXML package. Parts are decompressed lazily, at most
// once each, against one budget; Expanded counts what was decompressed.
type Package struct {
	Parts    []*Part
	byName   map[string]*Part // lower-cased names; the first entry wins
	Zip      ZipAnomalies
	Expanded int64
	budget   int64
}

// OpenPackage reads the ZIP structure of data. It never fails: a package
// archive/zip cannot open comes back empty with Zip.OpenFailed set, so the
// caller can still report on it. budget <= 0 means DefaultBudget.
func OpenPackage(data []byte, budget int64) *Package {
	if budget <= 0 {
		budget = DefaultBudget
	}
	p := &Package{byName: map[string]*Part{}, budget: budget}
	// Only the first MaxEntries entries are read (zipcap): a package
	// listing more is analysed from those, with the cut reported.
	zr, capped, err := zipcap.Open(data, MaxEntries)
	p.Zip.TooManyEntries = capped
	if err != nil && !(errors.Is(err, zip.ErrInsecurePath) && zr != nil) {
		p.Zip.OpenFailed = true
		return p
	}
	files := zr.File
	if len(files) > MaxEntries {
		files = files[:MaxEntries]
		p.Zip.TooManyEntries = true
	}
	p.Zip.CentralDirectory = len(files)
	locals := localHeaders(data)
	seen := map[string]int{}
	first := int64(-1)
	for _, f := range files {
		name := f.Name
		pn := strings.TrimPrefix(name, "/")
		key := strings.ToLower(pn)
		seen[key]++
		if seen[key] == 2 {
			p.Zip.Duplicates = append(p.Zip.Duplicates, name)
		}
		if pathTrick(name) {
			p.Zip.PathTricks = append(p.Zip.PathTricks, name)
		}
		if f.Flags&1 != 0 {
			p.Zip.Encrypted = append(p.Zip.Encrypted, name)
		}
		if off, err := f.DataOffset(); err == nil {
			lh, ok := locals[off]
			if !ok || lh.name != name {
				p.Zip.HeaderMismatch = append(p.Zip.HeaderMismatch, name)
			} else if first < 0 || lh.at < first {
				first = lh.at
			}
		} else {
			p.Zip.HeaderMismatch = append(p.Zip.HeaderMismatch, name)
		}
		// Declared sizes are not trusted for allocation, but a declared
		// expansion past the part cap, or a ratio no document reaches, is
		// worth reporting even when no family needs to read the part.
		if u, c := f.UncompressedSize64, f.CompressedSize64; u > MaxPartBytes || u > 1<<20 && c > 0 && u/c > 1000 {
			p.Zip.DeclaredBombs = append(p.Zip.DeclaredBombs, name)
		}
		part := &Part{Name: pn, lower: key, file: f}
		p.Parts = append(p.Parts, part)
		if _, dup := p.byName[key]; !dup {
			p.byName[key] = part
		}
	}
	if first > 0 {
		p.Zip.LeadingBytes = first
	}
	if end := eocdEnd(data); end > 0 && end < int64(len(data)) {
		p.Zip.TrailingBytes = int64(len(data)) - end
	}
	return p
}

// localHeader is a local file header found by scanning for its signature.
type localHeader struct {
	at   int64
	name string
}

// localHeaders maps the data offset each plausible local header implies to
// that header. Scanning rather than trusting the central directory is what
// lets a disagreement between the two show: two parsers reading one archive
// differently is how content is smuggled past a scanner.
func localHeaders(data []byte) map[int64]localHeader {
	out := map[int64]localHeader{}
	sig := []byte("PK\x03\x04")
	for i := 0; len(out) <= MaxEntries; {
		j := bytes.Index(data[i:], sig)
		if j < 0 {
			break
		}
		at := i + j
		i = at + 4
		if at+30 > len(data) {
			break
		}
		n := int(binary.LittleEndian.Uint16(data[at+26:]))
		m := int(binary.LittleEndian.Uint16(data[at+28:]))
		if at+30+n+m > len(data) {
			continue
		}
		off := int64(at + 30 + n + m)
		if _, ok := out[off]; !ok {
			out[off] = localHeader{at: int64(at), name: string(data[at+30 : at+30+n])}
		}
	}
	return out
}

// eocdEnd returns the offset just past the end-of-central-directory record
// and its comment, or 0 when none is found.
func eocdEnd(data []byte) int64 {
	tail := max(0, len(data)-(22+65535))
	i := bytes.LastIndex(data[tail:], []byte("PK\x05\x06"))
	if i < 0 {
		return 0
	}
	at := tail + i
	if at+22 > len(data) {
		return 0
	}
	return int64(at + 22 + int(binary.LittleEndian.Uint16(data[at+20:])))
}

// pathTrick reports entry names an extractor could resolve outside its
// target directory, or that name one part two ways.
func pathTrick(name string) bool {
	if name == "" || strings.HasPrefix(name, "/") || strings.Contains(name, `\`) || strings.ContainsRune(name, 0) {
		return true
	}
	if len(name) >= 2 && name[1] == ':' {
		return true
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == ".." || seg == "." {
			return true
		}
	}
	return false
}

// Lookup returns the part named name (case-insensitive, leading slash
// optional), or nil.
func (p *Package) Lookup(name string) *Part {
	return p.byName[strings.ToLower(strings.TrimPrefix(name, "/"))]
}

// Read returns the decompressed bytes of a part, at most MaxPartBytes and
// within the package budget. A part over a limit is returned cut short and
// recorded in Zip.OverLimit; the cut is what stops a zip bomb, since declared
// sizes are not trusted.
func (p *Package) Read(part *Part) []byte {
	if part == nil {
		return nil
	}
	if part.read {
		return part.data
	}
	part.read = true
	left := p.budget - p.Expanded
	if left <= 0 {
		p.Zip.BudgetExhausted = true
		part.truncated = true
		p.Zip.OverLimit = append(p.Zip.OverLimit, part.Name)
		return nil
	}
	limit := min(int64(MaxPartBytes), left)
	rc, err := part.file.Open()
	if err != nil {
		part.failed = true
		p.Zip.Unreadable = append(p.Zip.Unreadable, part.Name)
		return nil
	}
	defer rc.Close()
	// Size by the declared size only when it is small: it is a hint from
	// the file, never an allocation the file can dictate.
	size := 512
	if hint := part.file.UncompressedSize64; hint > 0 && hint < 1<<20 {
		size = int(hint) + 1 // room for the read that meets the end
	}
	buf, err := readAll(io.LimitReader(rc, limit+1), size)
	if err != nil {
		part.failed = true
		p.Zip.Unreadable = append(p.Zip.Unreadable, part.Name)
	}
	n := int64(len(buf))
	if n > limit {
		n = limit
		part.truncated = true
		p.Zip.OverLimit = append(p.Zip.OverLimit, part.Name)
		if limit == left {
			p.Zip.BudgetExhausted = true
		}
	}
	p.Expanded += n
	part.data = buf[:n]
	return part.data
}

// readAll is io.ReadAll starting from size bytes: with the right size, a
// part is read into one allocation. What was read before an error is
// returned with it; io.EOF is the end, not an error.
func readAll(r io.Reader, size int) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = nil
			}
			return b, err
		}
	}
}

// ReadName reads the part named name, or returns nil when it is absent.
func (p *Package) ReadName(name string) []byte { return p.Read(p.Lookup(name)) }

// Matching returns the parts whose lower-cased name has the prefix and the
// suffix, in name order so reports do not depend on archive order.
func (p *Package) Matching(prefix, suffix string) []*Part {
	var out []*Part
	for _, part := range p.Parts {
		n := part.lower
		if strings.HasPrefix(n, prefix) && strings.HasSuffix(n, suffix) && p.byName[n] == part {
			out = append(out, part)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// ext returns the lower-case extension of a part name without the dot.
func ext(name string) string { return strings.ToLower(strings.TrimPrefix(path.Ext(name), ".")) }
