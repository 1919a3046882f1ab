package pdf

import (
	"bytes"

	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// contentOverlayFamily declares the content-overlay family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var contentOverlayFamily = declaration{
	ID:               "content-overlay",
	Order:            110,
	Run:              (*analysis).contentOverlay,
	Summary:          "Opaque boxes or images painted over text, with new text on top.",
	ContentDependent: true,
	TriageSuppressed: true,
	Evidence: []string{
		"retypedLaterRevision", "retyped", "whiteout", "retypedRuns", "coveredGlyphs", "pages[]",
		"boxes[]", "objects[]", "revisions[]", "cueCategories[]",
	},
	Variants: []report.VariantDecl{
		{Code: "injection", Severity: report.High, Title: "Covered text addressed to a language model", Text: "Text covered by boxes on {pages#page|pages} reads as instructions to a language model ({cues#cue|cues} in {categories#category|categories})."},
		{Code: "retyped-later-revision", Severity: report.High, Title: "Text covered and retyped in a later revision", Text: "On {pages#page|pages}, {overlays#opaque box or image|opaque boxes or images} {overlays?covers|cover} existing text and new text is drawn on top, written by a revision after the original save."},
		{Code: "retyped", Severity: report.Medium, Title: "Text covered and retyped", Text: "On {pages#page|pages}, {overlays#opaque light box or image|opaque light boxes or images} {overlays?covers|cover} existing text and new text is drawn on top: the white-out-and-retype edit."},
		{Code: "whiteout", Severity: report.Low, Title: "Text covered by an opaque box", Text: "On {pages#page|pages}, {overlays#opaque light box is|opaque light boxes are} painted over text that is still in the file."},
	},
}

// Overlay rules: a cover is an opaque light filled rectangle, or an opaque
// image that is not a full-page scan, painted after text it hides (80% of
// a glyph's box under it). Text painted after the cover, lying on it and
// not in its colour, is the retyped text.
const (
	overlayGlyphCover = 0.8
	overlayTopCover   = 0.5
	whiteoutMinGlyphs = 3
	maxCovers         = 512 // covers checked per page, each against every glyph
)

// overlay variants, most severe first.
const (
	ovLater = iota
	ovRetyped
	ovWhiteout
	ovCount
)

var overlayCodes = [ovCount]string{"retyped-later-revision", "retyped", "whiteout"}

var overlaySeverity = [ovCount]report.Severity{report.High, report.Medium, report.Low}

type overlayFacts struct {
	count     [ovCount]int
	pages     []int
	boxes     []box
	glyphs    int // glyphs hidden under covers
	retyped   int // runs drawn on covers
	objects   []int
	revisions []int
	// text is what the reported covers hide, for the injection scan only.
	text bytes.Buffer
}

type cover struct {
	seq, stream, revision int
	box                   paint.Rect
	color                 paint.Color
	image                 bool
}

func (a *analysis) overlayPage(cp *contentPage) {
	pg := cp.paint
	if len(pg.Text) == 0 {
		return
	}
	var covers []cover
	for _, s := range pg.Shapes {
		if s.Fill && s.Rect && s.FillColor.Light() && len(covers) < maxCovers {
			covers = append(covers, cover{s.Seq, s.Stream, s.Revision, s.Box, s.FillColor, false})
		}
	}
	pageArea := cp.media.Area()
	for _, im := range pg.Images {
		if !im.Mask && !im.SoftMask && im.Alpha >= 0.999 && im.Box.Intersect(cp.media).Area() < fullPageShare*pageArea && len(covers) < maxCovers {
			covers = append(covers, cover{im.Seq, im.Stream, im.Revision, im.Box, paint.Color{}, true})
		}
	}
	f := &a.content.overlay
	for _, c := range covers {
		mark := f.text.Len()
		under, underRev := hiddenUnder(pg, c, &f.text)
		if under == 0 {
			continue
		}
		top, topRev := textOnTop(pg, c)
		v := ovWhiteout
		switch {
		case top > 0 && max(c.revision, topRev) > max(underRev, 1):
			v = ovLater
		case top > 0:
			v = ovRetyped
		case c.image, under < whiteoutMinGlyphs:
			// an image over text alone is a logo or a stamp; a few glyphs
			// a symbol or letter at a cell edge
			f.text.Truncate(mark)
			continue
		}
		f.text.WriteByte(' ')
		f.count[v]++
		f.pages = addPage(f.pages, cp.number)
		f.boxes = append(f.boxes, boxOf(cp.number, c.box))
		f.glyphs += under
		f.retyped += top
		f.objects = addNum(f.objects, c.stream)
		f.revisions = addNum(f.revisions, max(c.revision, topRev))
	}
}

// hiddenUnder counts letters and digits painted before the cover and hidden by it,
// and the newest revision that wrote them; the hidden glyphs' text goes to
// text, within inject.MaxScan.
func hiddenUnder(pg *paint.Page, c cover, text *bytes.Buffer) (n, rev int) {
	for i := range pg.Text {
		r := &pg.Text[i]
		if r.Seq >= c.seq || !visible(r) || r.Clipped || !r.Box.Overlaps(c.box) {
			continue
		}
		for _, g := range r.Glyphs {
			if covered(g.Box, c.box, overlayGlyphCover) {
				if text.Len() < inject.MaxScan {
					text.WriteString(g.Text)
				}
				if wordGlyph(g) {
					n++
					rev = max(rev, r.Revision)
				}
			}
		}
	}
	return n, rev
}

// textOnTop counts visible runs drawn on the cover after it, and the newest
// revision that wrote them.
func textOnTop(pg *paint.Page, c cover) (n, rev int) {
	for i := range pg.Text {
		r := &pg.Text[i]
		if r.Seq <= c.seq || !visible(r) || r.Clipped || !inkRun(r) || (!c.image && r.Fill.Same(c.color)) {
			continue
		}
		if covered(r.Box, c.box, overlayTopCover) {
			n++
			rev = max(rev, r.Revision)
		}
	}
	return n, rev
}

func (a *analysis) contentOverlay() *report.Finding {
	f := &a.content.overlay
	var vs []report.Variant
	for v := range ovCount {
		if f.count[v] > 0 {
			vs = append(vs, report.Variant{Severity: overlaySeverity[v], Message: report.Msg("content-overlay."+overlayCodes[v], "overlays", f.count[v], "pages", len(f.pages))})
		}
	}
	if len(vs) == 0 {
		return nil
	}
	ev := map[string]any{
		"coveredGlyphs": f.glyphs,
		"retypedRuns":   f.retyped,
	}
	// Covered text that reads as instructions to a language model is what
	// a prompt injection hides under a white box (issue 25: never low).
	if res := inject.Scan(f.text.String()); res.Found() {
		cues := 0
		for _, n := range res.Cues {
			cues += n
		}
		vs = append(vs, report.Variant{Severity: report.High, Message: report.Msg("content-overlay.injection", "pages", len(f.pages), "cues", cues, "categories", len(res.Cues))})
		report.Capped(ev, "cueCategories", res.Categories())
	}
	for v := range ovCount {
		if f.count[v] > 0 {
			ev[camel(overlayCodes[v])] = f.count[v]
		}
	}
	report.Capped(ev, "pages", f.pages)
	report.Capped(ev, "boxes", f.boxes)
	report.Capped(ev, "objects", f.objects)
	report.Capped(ev, "revisions", f.revisions)
	return report.Compose(report.FamilyContentOverlay, vs, ev)
}
