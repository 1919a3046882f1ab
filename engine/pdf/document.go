package pdf

import (
	"context"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/pdf/sigs"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/xmp"
)

// Document is one PDF opened once: the file layer (revisions, objects,
// cross-reference data), the catalogue, Info, XMP and page tree, and the
// document block they give. Every reading of a request works from it
// (Analyze, Describe, ReadFacts, Text), so a request that wants a report
// and a description, or a report and the text, parses the file once.
//
// A Document is not safe for concurrent use: objects are parsed and
// cached as readings reach them. It keeps the context it was opened
// under, and its readings stop when that context ends.
type Document struct {
	f               *file.File
	catalog         *cos.Dict
	info            *cos.Dict
	xmp             *xmp.Packet
	pages           []page
	pageTreeDamaged bool
	// block is the report's document block as the opening read it.
	block report.Document
	// limit is the decompression budget of each reading.
	limit int64
	// openCost is what the opening decoded that summary.cost counts (cross
	// reference and object streams, not the XMP packet).
	openCost int64
	// readings counts the readings begun; see reading.
	readings int
	// faults names the opening steps that failed.
	faults []string
	// sig is the signature and modification analysis, made on first need
	// (signed.go).
	sig *sigs.Analysis
}

// Open walks a PDF's cross-reference chain and reads its document block
// under a decompression budget of budget bytes (DefaultBudget when not
// positive). header is the offset of "%PDF" (-1 when absent). Its only
// error is ErrDeadline; a damaged file is a document with structure
// warnings.
func Open(ctx context.Context, data []byte, header int, budget int64) (*Document, error) {
	if budget <= 0 {
		budget = DefaultBudget
	}
	f, err := file.Open(ctx, data, header, filters.NewBudget(budget))
	if err != nil {
		return nil, ErrDeadline
	}
	d := &Document{f: f, limit: budget, block: report.New(report.MediaPDF, int64(len(data))).Document}
	var xmpBytes int64
	func() {
		defer func() {
			// The panic value is dropped: it may quote document bytes.
			if recover() != nil {
				d.faults = append(d.faults, "document")
			}
		}()
		xmpBytes = d.readDocument()
	}()
	d.openCost = f.Budget.Used - xmpBytes
	return d, nil
}

// reading begins one reading of the document. The first uses the
// opening's budget, so a document read once decodes under one allowance;
// each later reading gets a fresh allowance of limit bytes, so what an
// earlier one consumed neither starves it nor is counted as its cost.
// Objects parsed by earlier readings stay parsed.
func (d *Document) reading(opt Options, limit int64) *analysis {
	d.readings++
	if d.readings > 1 {
		d.f.Budget = filters.NewBudget(limit)
	}
	a := &analysis{
		Document:  d,
		opt:       opt,
		r:         report.New(report.MediaPDF, int64(len(d.f.Data))),
		startUsed: d.f.Budget.Used,
		faults:    append([]string(nil), d.faults...),
	}
	a.r.Document = d.block
	return a
}

// Readings is how many readings have begun. Structure warnings and
// summary.cost count what the file layer met and decoded; a reading that
// reports them (Analyze, ReadFacts) is exact only as the first, since
// objects an earlier reading parsed are not parsed, counted or decoded
// again.
func (d *Document) Readings() int { return d.readings }

// Block returns the report's document block as the opening read it.
func (d *Document) Block() report.Document { return d.block }

// readDocument fills the document block and what the families share. It
// returns the bytes decoded for the XMP packet, which the budget bounds
// but summary.cost does not count.
func (d *Document) readDocument() (xmpBytes int64) {
	f := d.f
	doc := &d.block
	doc.Revisions = len(f.Revisions)
	doc.RevisionLengths = revisionLengths(f)
	doc.Encrypted = f.Encrypted
	d.catalog = d.dict(f.Trailer().Get("Root"))
	if d.catalog == nil {
		return 0
	}
	pages, damaged := walkPages(f, d.catalog, 0)
	d.pages = pages
	d.pageTreeDamaged = damaged
	doc.Pages = len(pages)
	if damaged && f.Sealed() {
		// Page-tree nodes inside encrypted object streams are unreadable,
		// not damaged: fall back to the root's own count.
		d.pageTreeDamaged = false
		if n, ok := cos.AsInt(d.resolve(d.dict(d.catalog.Get("Pages")).Get("Count"))); ok && n >= 0 && n <= maxPages {
			doc.Pages = int(n)
		}
	}
	if f.Sealed() {
		// Info strings and the XMP stream are encrypted: nothing textual
		// can be read without the password.
		return 0
	}
	d.info = d.dict(f.Trailer().Get("Info"))
	if st, ok := d.resolve(d.catalog.Get("Metadata")).(*cos.Stream); ok {
		d.xmp, xmpBytes = decodeXMP(f, st, d.resolve)
	}
	doc.Producer = report.Str(report.Untrusted(firstNonEmpty(d.infoText("Producer"), d.xmp.First(nsPDF, "Producer"))))
	doc.Creator = report.Str(report.Untrusted(firstNonEmpty(d.infoText("Creator"), d.xmp.First(nsXMP, "CreatorTool"))))
	doc.CreationDate = d.isoDate("CreationDate", "CreateDate")
	doc.ModDate = d.isoDate("ModDate", "ModifyDate")
	return xmpBytes
}

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func (d *Document) infoText(key cos.Name) string {
	if d.info == nil {
		return ""
	}
	return cos.Text(d.resolve(d.info.Get(key)))
}

func (d *Document) infoDate(key cos.Name) (cos.Date, bool) {
	s := d.infoText(key)
	if s == "" {
		return cos.Date{}, false
	}
	return cos.ParseDate(s)
}

func (d *Document) xmpDate(name string) (cos.Date, bool) {
	s := d.xmp.First(nsXMP, name)
	if s == "" {
		return cos.Date{}, false
	}
	return cos.ParseXMPDate(s)
}

// isoDate renders the Info date, or the XMP date when Info has none.
func (d *Document) isoDate(infoKey cos.Name, xmpName string) *string {
	if t, ok := d.infoDate(infoKey); ok {
		return report.Str(t.ISO())
	}
	if t, ok := d.xmpDate(xmpName); ok {
		return report.Str(t.ISO())
	}
	return nil
}

// decodeXMP decodes and flattens one metadata stream. The budget bounds
// XMP decoding too, but summary.cost counts only content, object and
// cross-reference streams (SPEC.md): the bytes decoded are returned so the
// caller leaves them out.
func decodeXMP(f *file.File, st *cos.Stream, resolve func(cos.Object) cos.Object) (*xmp.Packet, int64) {
	before := f.Budget.Used
	data, err := filters.Decode(st.Raw(f.Data), st.Dict, resolve, f.Budget)
	used := f.Budget.Used - before
	if err != nil && len(data) == 0 {
		if err != filters.ErrBudget {
			f.Warn.StreamErrors++
		}
		return nil, used
	}
	return xmp.Parse(data), used
}

// decodeXMP decodes a metadata stream met by a family.
func (a *analysis) decodeXMP(st *cos.Stream) *xmp.Packet {
	x, used := decodeXMP(a.f, st, a.resolve)
	a.uncountedBytes += used
	return x
}

// revisionLengths are the prefixes of the file each revision ends at. A
// rebuilt cross-reference (one revision, no end found) and a last revision
// without its %%EOF end at the end of the file: that is what a viewer
// given those bytes reads.
func revisionLengths(f *file.File) []int64 {
	n := min(len(f.Revisions), report.MaxArray)
	out := make([]int64, 0, n)
	for i, r := range f.Revisions[:n] {
		end := int64(r.End)
		if end <= 0 || end > int64(len(f.Data)) || (i == len(f.Revisions)-1 && !r.EOFFound) {
			end = int64(len(f.Data))
		}
		out = append(out, end)
	}
	return out
}
