package sigs

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/report"
)

// Touched counts the objects one revision wrote, by kind. The first seven
// fields partition the objects written; PageImages is the subset of Images
// that a page names directly in its resources (SPEC.md).
type Touched struct {
	PageContent       int `json:"pageContent"`
	Images            int `json:"images"`
	Pages             int `json:"pages"`
	WidgetAnnotations int `json:"widgetAnnotations"`
	OtherAnnotations  int `json:"otherAnnotations"`
	Signatures        int `json:"signatures"`
	Other             int `json:"other"`
	PageImages        int `json:"pageImages"`
}

// Overwritten is an object that replaced an earlier revision's object.
type Overwritten struct {
	Object int    `json:"object"`
	Kind   string `json:"kind"` // page | content | image | annotation | other
}

// RevisionChange is what one appended revision wrote.
type RevisionChange struct {
	Revision    int
	XrefOffset  int
	Written     []int
	Overwritten []Overwritten
	Freed       int
	// Unchanged counts objects the revision listed again with the same
	// bytes or parsed value as before (hybrid-reference files, savers that
	// re-list every object): listed, not written.
	Unchanged int
	Touched   Touched
	// PagesChanged counts page objects whose content, resources or
	// geometry differ from their previous version; PagesAdded counts page
	// objects with no earlier version.
	PagesChanged int
	PagesAdded   int
	// PagesRotated counts pages whose only change is /Rotate: the page
	// turns, nothing on it changes or hides.
	PagesRotated int
}

// ContentTouched reports whether the revision changed what a page shows:
// page content, images a page names, page geometry or resources, or pages.
func (c RevisionChange) ContentTouched() bool {
	return c.Touched.PageContent > 0 || c.Touched.PageImages > 0 || c.PagesChanged > 0 || c.PagesAdded > 0
}

// Evidence is the revision's entry of changedPerRevision (SPEC.md), shared
// by the incremental-updates family and /compare's ancestry.
func (c RevisionChange) Evidence() map[string]any {
	entry := map[string]any{
		"revision":     c.Revision,
		"xrefOffset":   c.XrefOffset,
		"touched":      c.Touched,
		"objectsFreed": c.Freed,
		// Objects re-listed identical to the earlier revision are neither
		// written nor overwritten (issue 25 item 1); the count says so.
		"objectsUnchanged": c.Unchanged,
		"contentTouched":   c.ContentTouched(),
	}
	report.Capped(entry, "objectsWritten", c.Written)
	report.Capped(entry, "objectsOverwritten", c.Overwritten)
	return entry
}

// objectClass is the kind of one written object.
type objectClass int

const (
	classOther objectClass = iota
	classPageContent
	classImage
	classPage
	classWidget
	classAnnotation
	classSignature
)

// pageRoles are the objects pages use in one revision's view.
type pageRoles struct {
	content map[int]bool // streams (and arrays) named by a page's /Contents
	images  map[int]bool // XObjects named in a page's resources
}

func (a *analysis) rolesIn(rev int) pageRoles {
	roles := pageRoles{content: map[int]bool{}, images: map[int]bool{}}
	resolve := func(o cos.Object) cos.Object { return a.f.ResolveIn(o, rev) }
	cat := cos.DictOf(resolve(a.f.Revisions[rev-1].Trailer.Get("Root")))
	if cat == nil {
		return roles
	}
	pages := a.walkPages(cat, rev)
	for _, p := range pages {
		c := p.dict.Get("Contents")
		if ref, ok := c.(cos.Ref); ok {
			roles.content[ref.Num] = true
		}
		if arr, ok := resolve(c).(cos.Array); ok {
			for _, o := range arr {
				if ref, ok := o.(cos.Ref); ok {
					roles.content[ref.Num] = true
				}
			}
		}
		if p.resources == nil {
			continue
		}
		if xo := cos.DictOf(resolve(p.resources.Get("XObject"))); xo != nil {
			for _, v := range xo.Vals {
				if ref, ok := v.(cos.Ref); ok {
					roles.images[ref.Num] = true
				}
			}
		}
	}
	return roles
}

// annotationSubtype reports the annotation subtypes ISO 32000 defines.
func annotationSubtype(n cos.Name) bool {
	switch n {
	case "Text", "Link", "FreeText", "Line", "Square", "Circle", "Polygon", "PolyLine", "Highlight",
		"Underline", "Squiggly", "StrikeOut", "Stamp", "Caret", "Ink", "Popup", "FileAttachment",
		"Sound", "Movie", "Screen", "PrinterMark", "TrapNet", "Watermark", "3D", "Redact",
		"Projection", "RichMedia":
		return true
	}
	return false
}

func classify(num int, o cos.Object, roles pageRoles) objectClass {
	if roles.content[num] {
		return classPageContent
	}
	d := cos.DictOf(o)
	if d == nil {
		return classOther
	}
	if st, ok := o.(*cos.Stream); ok {
		sub := st.Dict.Name("Subtype")
		if sub == "Image" || sub == "Form" || st.Dict.Name("Type") == "XObject" {
			return classImage
		}
		return classOther
	}
	switch d.Name("Type") {
	case "Page":
		return classPage
	case "Pages":
		return classOther
	case "Sig", "DocTimeStamp":
		return classSignature
	}
	if d.Has("ByteRange") && d.Has("Contents") {
		return classSignature
	}
	sub := d.Name("Subtype")
	if sub == "Widget" || d.Has("FT") {
		return classWidget
	}
	if annotationSubtype(sub) && (d.Name("Type") == "Annot" || d.Has("Rect")) {
		return classAnnotation
	}
	return classOther
}

func (c objectClass) kind() string {
	switch c {
	case classPageContent:
		return "content"
	case classImage:
		return "image"
	case classPage:
		return "page"
	case classWidget, classAnnotation:
		return "annotation"
	}
	return "other"
}

// pageKeys are the page entries that decide what a page shows. /Rotate
// is not among them: turning a page changes no mark on it.
var pageKeys = []cos.Name{"Contents", "Resources", "MediaBox", "CropBox"}

// revisionChanges classifies what each appended revision wrote. Computed
// once and shared by the families that need it.
func (a *analysis) revisionChanges() []RevisionChange {
	if a.changes != nil || len(a.f.Revisions) < 2 {
		return a.changes
	}
	for k := 2; k <= len(a.f.Revisions); k++ {
		if a.f.Err() != nil {
			break
		}
		a.changes = append(a.changes, a.revisionChange(k))
	}
	return a.changes
}

func (a *analysis) revisionChange(k int) RevisionChange {
	rev := a.f.Revisions[k-1]
	roles := a.rolesIn(k)
	ch := RevisionChange{Revision: k, XrefOffset: rev.XrefOffset}
	for _, e := range rev.Entries {
		if e.Num == 0 {
			continue
		}
		if e.Kind == file.Free {
			if prev, ok := a.f.Lookup(int(e.Num), k-1); ok && prev.Kind != file.Free {
				ch.Freed++
			}
			continue
		}
		num := int(e.Num)
		obj := a.f.Load(e, k)
		prevEntry, existed := a.f.Lookup(num, k-1)
		existed = existed && prevEntry.Kind != file.Free
		if existed && sameObject(a.f.Data, a.f.Load(prevEntry, k-1), obj) {
			ch.Unchanged++
			continue
		}
		ch.Written = append(ch.Written, num)
		class := classify(num, obj, roles)
		switch class {
		case classPageContent:
			ch.Touched.PageContent++
		case classImage:
			ch.Touched.Images++
			if roles.images[num] {
				ch.Touched.PageImages++
			}
		case classPage:
			ch.Touched.Pages++
		case classWidget:
			ch.Touched.WidgetAnnotations++
		case classAnnotation:
			ch.Touched.OtherAnnotations++
		case classSignature:
			ch.Touched.Signatures++
		default:
			ch.Touched.Other++
		}
		if class == classPage {
			if !existed {
				ch.PagesAdded++
			} else if old := cos.DictOf(a.f.Load(prevEntry, k-1)); old == nil || pageDiffers(old, cos.DictOf(obj)) {
				ch.PagesChanged++
			} else if !cos.Equal(old.Get("Rotate"), cos.DictOf(obj).Get("Rotate")) {
				ch.PagesRotated++
			}
		}
		if existed {
			ch.Overwritten = append(ch.Overwritten, Overwritten{Object: num, Kind: class.kind()})
		}
	}
	return ch
}

func pageDiffers(old, cur *cos.Dict) bool {
	for _, k := range pageKeys {
		if !cos.Equal(old.Get(k), cur.Get(k)) {
			return true
		}
	}
	return false
}
