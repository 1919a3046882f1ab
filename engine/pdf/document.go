package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/report"
)

// readDocument fills the document block and what the families share.
func (a *analysis) readDocument() {
	f := a.f
	doc := &a.r.Document
	doc.Revisions = len(f.Revisions)
	doc.Encrypted = f.Encrypted
	a.catalog = a.dict(f.Trailer().Get("Root"))
	if a.catalog == nil {
		return
	}
	pages, damaged := walkPages(f, a.catalog, 0)
	a.pages = pages
	a.pageTreeDamaged = damaged
	doc.Pages = len(pages)
	if damaged && f.Encrypted && !f.Opened() {
		// Page-tree nodes inside encrypted object streams are unreadable,
		// not damaged: fall back to the root's own count.
		a.pageTreeDamaged = false
		if n, ok := cos.AsInt(a.resolve(a.dict(a.catalog.Get("Pages")).Get("Count"))); ok && n >= 0 && n <= maxPages {
			doc.Pages = int(n)
		}
	}
	if a.sealed() {
		// Info strings and the XMP stream are encrypted: nothing textual
		// can be read without the password.
		return
	}
	a.info = a.dict(f.Trailer().Get("Info"))
	a.xmp = a.readXMP()
	doc.Producer = report.Str(report.Untrusted(firstNonEmpty(a.infoText("Producer"), a.xmp.First(nsPDF, "Producer"))))
	doc.Creator = report.Str(report.Untrusted(firstNonEmpty(a.infoText("Creator"), a.xmp.First(nsXMP, "CreatorTool"))))
	doc.CreationDate = a.isoDate("CreationDate", "CreateDate")
	doc.ModDate = a.isoDate("ModDate", "ModifyDate")
}

// sealed reports an encrypted file the empty password did not open:
// its strings and streams are ciphertext.
func (a *analysis) sealed() bool { return a.f.Encrypted && !a.f.Opened() }

func firstNonEmpty(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

func (a *analysis) infoText(key cos.Name) string {
	if a.info == nil {
		return ""
	}
	return cos.Text(a.resolve(a.info.Get(key)))
}

func (a *analysis) infoDate(key cos.Name) (cos.Date, bool) {
	s := a.infoText(key)
	if s == "" {
		return cos.Date{}, false
	}
	return cos.ParseDate(s)
}

func (a *analysis) xmpDate(name string) (cos.Date, bool) {
	s := a.xmp.First(nsXMP, name)
	if s == "" {
		return cos.Date{}, false
	}
	return cos.ParseXMPDate(s)
}

// isoDate renders the Info date, or the XMP date when Info has none.
func (a *analysis) isoDate(infoKey cos.Name, xmpName string) *string {
	if d, ok := a.infoDate(infoKey); ok {
		return report.Str(d.ISO())
	}
	if d, ok := a.xmpDate(xmpName); ok {
		return report.Str(d.ISO())
	}
	return nil
}

// readXMP decodes the catalogue's metadata stream.
func (a *analysis) readXMP() *XMP {
	st, ok := a.resolve(a.catalog.Get("Metadata")).(*cos.Stream)
	if !ok {
		return nil
	}
	return a.decodeXMP(st)
}

// decodeXMP decodes and flattens one metadata stream.
func (a *analysis) decodeXMP(st *cos.Stream) *XMP {
	before := a.f.Budget.Used
	data, err := filters.Decode(st.Raw(a.f.Data), st.Dict, a.resolve, a.f.Budget)
	// The budget bounds XMP decoding too, but summary.cost counts only
	// content, object and cross-reference streams (SPEC.md).
	a.uncountedBytes += a.f.Budget.Used - before
	if err != nil && len(data) == 0 {
		if err != filters.ErrBudget {
			a.f.Warn.StreamErrors++
		}
		return nil
	}
	return ParseXMP(data)
}
