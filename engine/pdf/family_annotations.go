package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// annotationOverlaysFamily declares the annotation-overlays family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var annotationOverlaysFamily = declaration{
	ID:               "annotation-overlays",
	Order:            150,
	Run:              (*analysis).annotationOverlays,
	Summary:          "Annotations whose rectangles cover page text: added later, by an editor, opaque, or over signed content.",
	TriageSuppressed: true,
	Evidence: []string{
		"annotations", "coveredGlyphs", "objects[]", "pages[]", "revisions[]", "subtypes",
		"afterSigning", "signedRevision", "boxes[]",
	},
	Variants: []report.VariantDecl{
		{Code: "later-revision", Severity: report.Medium, Title: "Annotations over text added later", Text: "{annotations#annotation|annotations} added by a revision after the original save {annotations?covers|cover} page text on {pages#page|pages}."},
		{Code: "opaque-cover", Severity: report.Medium, Title: "Opaque annotations over text", Text: "{annotations#annotation whose appearance is an opaque fill or image covers|annotations whose appearance is an opaque fill or image cover} page text on {pages#page|pages}, hiding it from a reader while it stays in the file."},
		{Code: "after-signing", Severity: report.Medium, Title: "Annotations added over signed content", Text: "{annotations#annotation|annotations} added after a signature {annotations?lies|lie} over page text or images the signature covers on {pages#page|pages}: what a reader sees of the signed page changed while the signature still verifies."},
		{Code: "editor-tool", Severity: report.Low, Title: "Annotations over text from a PDF editor", Text: "{annotations#annotation|annotations} {annotations?covers|cover} page text on {pages#page|pages} in a file written by a PDF editing tool."},
	},
}

// Annotation overlay rules: a FreeText, Square, Stamp or widget annotation
// (not a signature field) whose rectangle covers at least two letters or
// digits of page text (80% of each glyph's box), when the annotation was
// first written by a revision after the original save, or the file was
// written by a PDF editor, or (in any revision, widgets aside) its
// appearance paints the rectangle opaque: a full re-save leaves no later
// revision, but a filled box over figures still hides them.
const (
	annotGlyphCover = 0.8
	annotMinGlyphs  = 2
	maxAnnotChecks  = 256 // annotations checked against the text per page
)

// overlaySubtype reports the annotations that can paint an opaque area.
func overlaySubtype(n cos.Name) bool {
	switch n {
	case "FreeText", "Square", "Stamp", "Widget":
		return true
	}
	return false
}

type annotationFacts struct {
	later, editor, opaque int
	pages                 []int
	objects               []int
	subtypes              map[string]int
	glyphs                int
	revisions             []int
	signed                signedAnnotFacts
}

func (a *analysis) annotationOverlayPage(cp *contentPage) {
	a.annotationsAfterSigningPage(cp)
	if len(cp.paint.Text) == 0 {
		return
	}
	f := &a.content.annotations
	checks := 0
	var ap *paint.Interpreter // appearance streams, apart from the page's own walk
	for _, an := range a.pageAnnots(cp.page) {
		if !overlaySubtype(an.subtype) || a.signatureField(an.dict) || checks >= maxAnnotChecks {
			continue
		}
		checks++
		n := wordGlyphsUnder(cp, an)
		if n < annotMinGlyphs {
			continue
		}
		rev := 0
		if an.ref != 0 {
			rev = a.firstWritten(an.ref)
		}
		switch {
		case rev > 1:
			f.later++
			f.revisions = addNum(f.revisions, rev)
		case len(a.editorTools()) > 0:
			f.editor++
		case an.subtype != "Widget" && a.opaqueAppearance(&ap, an):
			f.opaque++
		default:
			continue
		}
		if f.subtypes == nil {
			f.subtypes = map[string]int{}
		}
		f.subtypes[string(an.subtype)]++
		f.glyphs += n
		f.pages = addPage(f.pages, cp.number)
		f.objects = addNum(f.objects, an.ref)
	}
}

// wordGlyphsUnder counts letters and digits of visible page text under an
// annotation's rectangle.
func wordGlyphsUnder(cp *contentPage, an annot) int {
	n := 0
	for i := range cp.paint.Text {
		r := &cp.paint.Text[i]
		if !visible(r) || r.Clipped || !r.Box.Overlaps(an.rect) {
			continue
		}
		for _, g := range r.Glyphs {
			if wordGlyph(g) && covered(g.Box, an.rect, annotGlyphCover) {
				n++
			}
		}
	}
	return n
}

// signatureField reports a widget of a signature field, whose appearance
// over a signature line is expected.
func (a *analysis) signatureField(d *cos.Dict) bool {
	for range 8 {
		if d == nil {
			return false
		}
		if d.Name("FT") == "Sig" {
			return true
		}
		if d.Has("FT") {
			return false
		}
		d = a.dict(d.Get("Parent"))
	}
	return false
}

func (a *analysis) annotationOverlays() *report.Finding {
	f := &a.content.annotations
	var vs []report.Variant
	if f.later > 0 {
		vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("annotation-overlays.later-revision", "annotations", f.later, "pages", len(f.pages))})
	}
	if f.editor > 0 {
		vs = append(vs, report.Variant{Severity: report.Low, Message: report.Msg("annotation-overlays.editor-tool", "annotations", f.editor, "pages", len(f.pages))})
	}
	if f.opaque > 0 {
		vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("annotation-overlays.opaque-cover", "annotations", f.opaque, "pages", len(f.pages))})
	}
	sf := &f.signed
	if sf.count > 0 {
		vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("annotation-overlays.after-signing", "annotations", sf.count, "pages", len(sf.pages))})
	}
	if len(vs) == 0 {
		return nil
	}
	ev := map[string]any{"annotations": f.later + f.editor + f.opaque, "coveredGlyphs": f.glyphs, "subtypes": f.subtypes}
	if sf.count > 0 {
		ev["afterSigning"] = sf.count
		ev["signedRevision"] = sf.revision
		report.Capped(ev, "boxes", sf.boxes)
		for _, o := range sf.objects {
			f.objects = addNum(f.objects, o)
		}
		f.pages = mergePages(f.pages, sf.pages)
	}
	report.Capped(ev, "pages", f.pages)
	report.Capped(ev, "objects", f.objects)
	report.Capped(ev, "revisions", f.revisions)
	return report.Compose(report.FamilyAnnotationOverlays, vs, ev)
}

// Opaque appearance rules: the normal appearance, run through the content
// interpreter, paints opaque fills or opaque images over at least
// opaqueCoverShare of its bounding box, and the annotation is not made
// translucent by /CA.
const opaqueCoverShare = 0.8

// opaqueAppearance reports an annotation whose appearance hides what lies
// under its rectangle. in is created on first use so pages without such
// annotations pay nothing.
func (a *analysis) opaqueAppearance(in **paint.Interpreter, an annot) bool {
	if ca, ok := cos.AsNumber(a.resolve(an.dict.Get("CA"))); ok && ca < 0.999 {
		return false
	}
	apd := a.dict(an.dict.Get("AP"))
	if apd == nil {
		return false
	}
	n := apd.Get("N")
	if states := a.dict(n); states != nil && !isStream(a.resolve(n)) {
		n = states.Get(an.dict.Name("AS"))
	}
	st, ok := a.resolve(n).(*cos.Stream)
	if !ok {
		return false
	}
	bbox, ok := rect(a.resolve(st.Dict.Get("BBox")), a.resolve)
	if !ok {
		return false
	}
	box := paint.RectOf(bbox)
	area := box.Area()
	if area <= 0 {
		return false
	}
	if *in == nil {
		*in = paint.New(a.paintSource(0))
	}
	pg := (*in).Page(n, a.dict(st.Dict.Get("Resources")))
	// The largest single opaque paint is what hides: summing overlapping
	// fills would count a border twice.
	best := 0.0
	for _, s := range pg.Shapes {
		if s.Fill && s.FillColor.Opaque() {
			best = max(best, s.Box.Intersect(box).Area())
		}
	}
	for _, im := range pg.Images {
		if !im.Mask && !im.SoftMask && im.Alpha >= 0.999 {
			best = max(best, im.Box.Intersect(box).Area())
		}
	}
	return best >= opaqueCoverShare*area
}

func isStream(o cos.Object) bool {
	_, ok := o.(*cos.Stream)
	return ok
}
