package pdf

import (
	"context"
	"encoding/hex"
	"sort"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/report"
)

// Description is the structural summary of one PDF that a comparison of
// two files works from: the same readings the families make, exposed as
// facts. Strings are the document's own (attacker-authored); callers
// sanitise them before they reach a report.
type Description struct {
	Size      int
	Encrypted bool
	// RevisionEnds holds, per revision, the offset just after its %%EOF.
	RevisionEnds []int
	// Changes has one entry per appended revision (2..n).
	Changes []RevisionChange
	// Info maps every Info key to its text; XMP every "prefix:name" (by
	// namespace URI) to its first value.
	Info map[string]string
	XMP  map[string]string
	// ID is the trailer /ID pair in hex, nil when absent or malformed.
	ID        []string
	Producer  string
	Creator   string
	Fonts     []string // BaseFont names as written (subset tags kept), sorted, distinct
	Pages     []PageGeometry
	Objects   int    // objects in use in the newest view
	XrefStyle string // table | stream | mixed
	Damaged   bool   // the cross-reference data was repaired or the page tree is damaged
	// Version is the PDF version in force: the catalogue's /Version when
	// present, else the header's; "" when neither is readable.
	Version    string
	Linearized bool
	// ObjectStreams is true when the newest view keeps objects in object
	// streams.
	ObjectStreams bool
	// Habits are the writing habits of the program that saved the file
	// (habits.go).
	Habits Habits
	// Signatures are the signatures and document timestamps with the
	// integrity of each, as the document block lists them.
	Signatures []report.SignatureFact
}

// PageGeometry is one page's boxes and rotation.
type PageGeometry struct {
	MediaBox [4]float64 `json:"mediaBox"`
	CropBox  [4]float64 `json:"cropBox"`
	Rotate   int        `json:"rotate"`
}

// Bounds of the description walk.
const (
	maxDescribedFonts = 2000
	maxFontDicts      = 20000
)

// Describe opens one PDF and reads its structure. header is the offset of
// "%PDF" (-1 when absent). Its only error is ErrDeadline.
func Describe(ctx context.Context, data []byte, header int, opt Options) (*Description, error) {
	doc, err := Open(ctx, data, header, opt.Budget)
	if err != nil {
		return nil, err
	}
	return doc.Describe(ctx)
}

// Describe reads the document's structure. Its only error is ErrDeadline.
func (doc *Document) Describe(ctx context.Context) (*Description, error) {
	a := doc.reading(Options{Triage: true}, doc.limit)
	f := a.f
	d := &Description{Size: len(f.Data), Encrypted: f.Encrypted, Info: map[string]string{}, XMP: map[string]string{}}
	for _, rev := range f.Revisions {
		d.RevisionEnds = append(d.RevisionEnds, rev.End)
	}
	a.safe("changes", func() { d.Changes = a.revisionChanges() })
	a.safe("strings", func() { a.describeStrings(d) })
	a.safe("pages", func() { a.describePages(d) })
	a.safe("habits", func() { a.describeHabits(d) })
	a.safe("signatures", func() { d.Signatures = a.signatureAnalysis().SignatureFacts() })
	if ctx.Err() != nil {
		return nil, ErrDeadline
	}
	d.Objects = countInUse(f.Entries())
	d.XrefStyle = xrefStyle(f)
	d.Version = headerVersion(f)
	if a.catalog != nil {
		if v := string(a.catalog.Name("Version")); v != "" {
			d.Version = v
		}
	}
	d.Linearized = f.Linearized
	d.ObjectStreams = hasCompressed(f.Entries())
	d.Damaged = f.Warn.XrefRepaired || a.pageTreeDamaged
	return d, nil
}

func (a *analysis) describeStrings(d *Description) {
	if a.info != nil {
		for i, k := range a.info.Keys {
			d.Info[string(k)] = cos.Text(a.resolve(a.info.Vals[i]))
		}
	}
	if a.xmp != nil {
		for _, p := range a.xmp.Props {
			key := xmpPrefix(p.NS) + p.Name
			if _, ok := d.XMP[key]; !ok {
				d.XMP[key] = p.Value
			}
		}
	}
	if id, ok := a.resolve(a.f.Trailer().Get("ID")).(cos.Array); ok && len(id) == 2 {
		s0, ok0 := a.resolve(id[0]).(cos.String)
		s1, ok1 := a.resolve(id[1]).(cos.String)
		if ok0 && ok1 {
			d.ID = []string{hex.EncodeToString(s0.Bytes), hex.EncodeToString(s1.Bytes)}
		}
	}
	d.Producer = firstNonEmpty(a.infoText("Producer"), a.xmp.First(nsPDF, "Producer"))
	d.Creator = firstNonEmpty(a.infoText("Creator"), a.xmp.First(nsXMP, "CreatorTool"))
}

// describePages reads each page's geometry and the fonts its resources
// name (one level: fonts of Form XObjects are not followed).
func (a *analysis) describePages(d *Description) {
	fonts := map[string]bool{}
	seenFontDicts := map[int]bool{}
	for _, p := range a.pages {
		if a.f.Err() != nil {
			return
		}
		g := PageGeometry{MediaBox: p.mediaBox, CropBox: p.mediaBox}
		if cb, ok := rect(a.resolve(p.dict.Get("CropBox")), a.resolve); ok {
			g.CropBox = cb
		}
		if r, ok := cos.AsInt(a.resolve(p.dict.Get("Rotate"))); ok {
			g.Rotate = int(((r % 360) + 360) % 360)
		}
		d.Pages = append(d.Pages, g)
		if p.resources == nil || len(seenFontDicts) > maxFontDicts {
			continue
		}
		fd := a.dict(p.resources.Get("Font"))
		if fd == nil {
			continue
		}
		for _, v := range fd.Vals {
			if ref, ok := v.(cos.Ref); ok {
				if seenFontDicts[ref.Num] {
					continue
				}
				seenFontDicts[ref.Num] = true
			}
			if font := a.dict(v); font != nil && len(fonts) < maxDescribedFonts {
				if name := string(font.Name("BaseFont")); name != "" {
					fonts[name] = true
				}
			}
		}
	}
	for n := range fonts {
		d.Fonts = append(d.Fonts, n)
	}
	sort.Strings(d.Fonts)
}

func countInUse(entries []file.Entry) int {
	n := 0
	for _, e := range entries {
		if e.Kind != file.Free && e.Num != 0 {
			n++
		}
	}
	return n
}

func hasCompressed(entries []file.Entry) bool {
	for _, e := range entries {
		if e.Kind == file.Compressed {
			return true
		}
	}
	return false
}

func xrefStyle(f *file.File) string {
	tables, streams := false, false
	for _, r := range f.Revisions {
		for _, s := range r.Sections {
			if s.Kind == file.XrefStream {
				streams = true
			} else {
				tables = true
			}
		}
	}
	switch {
	case tables && streams:
		return "mixed"
	case streams:
		return "stream"
	}
	return "table"
}

// xmpPrefixes names the namespaces XMP writers use most; others keep their
// URI in braces so distinct namespaces never share a key. Like the other
// small tables of the engine it is an array searched in order, not a map
// literal that every process would build at start.
var xmpPrefixes = [...][2]string{
	{nsPDF, "pdf:"},
	{nsXMP, "xmp:"},
	{nsMM, "xmpMM:"},
	{"http://purl.org/dc/elements/1.1/", "dc:"},
	{"http://ns.adobe.com/pdfx/1.3/", "pdfx:"},
	{"http://www.aiim.org/pdfa/ns/id/", "pdfaid:"},
	{"http://ns.adobe.com/photoshop/1.0/", "photoshop:"},
	{"http://ns.adobe.com/xap/1.0/rights/", "xmpRights:"},
	{"http://ns.adobe.com/xap/1.0/sType/ResourceRef#", "stRef:"},
	{nsEvt, "stEvt:"},
}

func xmpPrefix(ns string) string {
	for _, p := range xmpPrefixes {
		if p[0] == ns {
			return p[1]
		}
	}
	return "{" + ns + "}"
}
