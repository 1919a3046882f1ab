package pdf

import "github.com/doctrust/doctrust/engine/pdf/paint"

// Annotations added after a signature over what it signed (issue 34): a
// stamp or box laid on a signed figure changes what a reader sees of the
// signed page while the signature still verifies, since annotations live
// outside the page content. A certification that permits annotations
// (P=3) allows it; sticky-note icons, links and popups paint no area.

// signedImageShare is the share of the smaller of an annotation's
// rectangle and a signed image that must overlap.
const signedImageShare = 0.5

// signedAnnotFacts accumulate over the pages.
type signedAnnotFacts struct {
	read      bool
	revision  int  // earliest revision a signature vouches for (0: none)
	permitted bool // a certification allows annotations
	count     int
	pages     []int
	boxes     []box
	objects   []int
}

func (a *analysis) annotationsAfterSigningPage(cp *contentPage) {
	f := &a.content.annotations.signed
	if !f.read {
		f.read = true
		f.revision, f.permitted = a.signatureAnalysis().SignedContent()
	}
	if f.revision == 0 || f.permitted || len(a.f.Revisions) <= f.revision {
		return
	}
	checks := 0
	for _, an := range a.pageAnnots(cp.page) {
		switch an.subtype {
		case "Popup", "Link", "Text":
			continue
		}
		if an.ref == 0 || checks >= maxAnnotChecks || a.signatureField(an.dict) || a.firstWritten(an.ref) <= f.revision {
			continue
		}
		checks++
		if signedGlyphsUnder(cp.paint, an.rect, f.revision) < annotMinGlyphs && !signedImageUnder(cp.paint, an.rect, f.revision) {
			continue
		}
		f.count++
		f.pages = addPage(f.pages, cp.number)
		if len(f.boxes) < 4*maxAnnotChecks {
			f.boxes = append(f.boxes, boxOf(cp.number, an.rect))
		}
		f.objects = addNum(f.objects, an.ref)
	}
}

// signedGlyphsUnder counts letters and digits of visible text written by
// revision rev or earlier under a rectangle.
func signedGlyphsUnder(pg *paint.Page, rect paint.Rect, rev int) int {
	n := 0
	for i := range pg.Text {
		r := &pg.Text[i]
		if r.Revision < 1 || r.Revision > rev || !visible(r) || r.Clipped || !r.Box.Overlaps(rect) {
			continue
		}
		for _, g := range r.Glyphs {
			if wordGlyph(g) && covered(g.Box, rect, annotGlyphCover) {
				n++
			}
		}
	}
	return n
}

// signedImageUnder reports an image placed by revision rev or earlier that
// a rectangle overlaps for half of the smaller of the two.
func signedImageUnder(pg *paint.Page, rect paint.Rect, rev int) bool {
	for _, im := range pg.Images {
		if im.Revision < 1 || im.Revision > rev || im.OCOff {
			continue
		}
		if small := min(rect.Area(), im.Box.Area()); small > 0 && im.Box.Intersect(rect).Area() >= signedImageShare*small {
			return true
		}
	}
	return false
}
