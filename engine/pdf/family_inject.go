package pdf

import (
	"strconv"

	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/report"
)

// documentInjectionMarkersFamily declares the document-injection-markers family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var documentInjectionMarkersFamily = declaration{
	ID:               "document-injection-markers",
	Order:            70,
	Run:              (*analysis).injectionMarkers,
	Summary:          "Text addressed to a language model in PDF metadata and annotation carriers.",
	ContentDependent: true,
	Evidence: []string{
		"payloadIsUntrusted", "fields[]", "fieldKinds[]", "cues", "techniques", "carrierKinds",
		"directiveFields", "carriersScanned", "carriersTruncated",
	},
	Variants: []report.VariantDecl{
		{Code: "hidden-directive", Severity: report.High, Title: "Hidden instructions for a language model", Text: "{fields#metadata or annotation field|metadata or annotation fields} {fields?holds|hold} text addressed to a language model; at least one, in {kind~}, gives it an instruction where a reader does not see it, or hides it by obfuscation ({categories#cue category|cue categories}, {techniques#obfuscation technique|obfuscation techniques})."},
		{Code: "directive", Severity: report.Medium, Title: "Instructions for a language model", Text: "{fields#metadata or annotation field|metadata or annotation fields} {fields?holds|hold} text addressed to a language model; the instructions sit in carriers a reader can open, such as an annotation or an attachment name (first in {kind~}; {categories#cue category|cue categories})."},
		{Code: "cues", Severity: report.Low, UpTo: report.Medium, Title: "Language-model cue words", Text: "{fields#metadata or annotation field|metadata or annotation fields} {fields?holds|hold} words aimed at a language model without an instruction a model would follow (first in {kind~}; {categories#cue category|cue categories}, {techniques#obfuscation technique|obfuscation techniques})."},
		{Code: "categories", Text: "Cue categories: {categories}."},
		{Code: "techniques", Text: "Obfuscation undone: {techniques}."},
	},
}

// Bounds of the carrier walk, on top of inject's own scanning bounds.
const (
	maxAnnotations = 20000 // annotations read over all pages
	maxNameNodes   = 10000 // nodes of the EmbeddedFiles name tree
	maxNameDepth   = 32
)

// injectionMarkers reports text addressed to a language model in the
// carriers SPEC.md item 8 lists for PDF; the detector, the evidence and the
// severity rules are engine/inject's.
func (a *analysis) injectionMarkers() *report.Finding {
	return inject.Finding(report.FamilyDocumentInjectionMarkers, a.injectionCarriers())
}

// injectionCarriers gathers Info values (custom keys and their names
// included), every XMP text node, the /Contents of every page's
// annotations, and the names and descriptions of embedded files. Page text,
// visible or concealed (an OCR layer is concealed text), is not a carrier.
func (a *analysis) injectionCarriers() []inject.Carrier {
	var out []inject.Carrier
	if a.info != nil {
		for i, k := range a.info.Keys {
			out = append(out, inject.Carrier{Kind: inject.KindInfo, Name: "Info /" + string(k), Text: cos.Text(a.resolve(a.info.Vals[i]))})
			if !standardInfoKey(k) {
				out = append(out, inject.Carrier{Kind: inject.KindInfoKey, Name: "Info key", Text: string(k)})
			}
		}
	}
	if a.xmp != nil {
		for _, p := range a.xmp.Props {
			out = append(out, inject.Carrier{Kind: inject.KindXMP, Name: "XMP " + xmpPrefix(p.NS) + p.Name, Text: p.Value})
		}
	}
	out = a.annotationCarriers(out)
	if a.catalog != nil {
		names := a.dict(a.catalog.Get("Names"))
		out = a.embeddedFileCarriers(out, names.Get("EmbeddedFiles"))
	}
	return out
}

// standardInfoKey reports the Info keys ISO 32000 defines; the name of any
// other key is a carrier too.
func standardInfoKey(k cos.Name) bool {
	switch k {
	case "Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate", "Trapped":
		return true
	}
	return false
}

// annotationCarriers reads the /Contents of each page's annotations, and
// the file specification of file-attachment annotations. An annotation a
// reader cannot see (flagged hidden or no-view, without area, off the page,
// or a link or widget whose /Contents is never shown) is a hidden carrier.
func (a *analysis) annotationCarriers(out []inject.Carrier) []inject.Carrier {
	seen := map[int]bool{}
	n := 0
	for pi, p := range a.pages {
		annots, _ := a.resolve(p.dict.Get("Annots")).(cos.Array)
		for _, o := range annots {
			if n >= maxAnnotations || a.f.Deadline() != nil {
				return out
			}
			if ref, ok := o.(cos.Ref); ok {
				if seen[ref.Num] {
					continue
				}
				seen[ref.Num] = true
			}
			d := a.dict(o)
			if d == nil {
				continue
			}
			n++
			sub := d.Name("Subtype")
			kind := inject.KindAnnotation
			if a.annotationHidden(d, p) {
				kind = inject.KindHiddenAnnotation
			}
			name := "page " + strconv.Itoa(pi+1) + " /" + string(sub) + " annotation"
			out = append(out, inject.Carrier{Kind: kind, Name: name, Text: cos.Text(a.resolve(d.Get("Contents")))})
			if sub == "FileAttachment" {
				out = a.fileSpecCarriers(out, d.Get("FS"))
			}
		}
	}
	return out
}

// Annotation flags (ISO 32000-1, 12.5.3).
const (
	annotHidden = 1 << 1
	annotNoView = 1 << 5
)

func (a *analysis) annotationHidden(d *cos.Dict, p page) bool {
	switch d.Name("Subtype") {
	case "Link", "Widget", "Popup":
		return true
	}
	if f, ok := cos.AsInt(a.resolve(d.Get("F"))); ok && f&(annotHidden|annotNoView) != 0 {
		return true
	}
	r, ok := rect(a.resolve(d.Get("Rect")), a.resolve)
	if !ok || r[2]-r[0] < 1 || r[3]-r[1] < 1 {
		return true
	}
	mb := p.mediaBox
	return r[2] <= mb[0] || r[0] >= mb[2] || r[3] <= mb[1] || r[1] >= mb[3]
}

// embeddedFileCarriers walks the EmbeddedFiles name tree: each entry's
// name and its file specification.
func (a *analysis) embeddedFileCarriers(out []inject.Carrier, root cos.Object) []inject.Carrier {
	type item struct {
		node  cos.Object
		depth int
	}
	seen := map[int]bool{}
	stack := []item{{root, 0}}
	for n := 0; len(stack) > 0 && n < maxNameNodes; n++ {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if ref, ok := it.node.(cos.Ref); ok {
			if seen[ref.Num] {
				continue
			}
			seen[ref.Num] = true
		}
		d := a.dict(it.node)
		if d == nil || it.depth > maxNameDepth || a.f.Deadline() != nil {
			continue
		}
		pairs, _ := a.resolve(d.Get("Names")).(cos.Array)
		for i := 0; i+1 < len(pairs); i += 2 {
			out = append(out, inject.Carrier{Kind: inject.KindEmbeddedFile, Name: "attachment name", Text: cos.Text(a.resolve(pairs[i]))})
			out = a.fileSpecCarriers(out, pairs[i+1])
		}
		kids, _ := a.resolve(d.Get("Kids")).(cos.Array)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{kids[i], it.depth + 1})
		}
	}
	return out
}

// fileSpecCarriers reads a file specification: a bare string is the file
// name; a dictionary has /UF, /F and /Desc.
func (a *analysis) fileSpecCarriers(out []inject.Carrier, o cos.Object) []inject.Carrier {
	o = a.resolve(o)
	if s := cos.Text(o); s != "" {
		return append(out, inject.Carrier{Kind: inject.KindEmbeddedFile, Name: "attachment /F", Text: s})
	}
	d := cos.DictOf(o)
	if d == nil {
		return out
	}
	for _, k := range []cos.Name{"UF", "F", "Desc"} {
		out = append(out, inject.Carrier{Kind: inject.KindEmbeddedFile, Name: "attachment /" + string(k), Text: cos.Text(a.resolve(d.Get(k)))})
	}
	return out
}
