package pdf

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// redactionExposureFamily declares the redaction-exposure family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var redactionExposureFamily = declaration{
	ID:               "redaction-exposure",
	Order:            60,
	Run:              (*analysis).redactionExposure,
	Summary:          "Text still present under redaction boxes.",
	ContentDependent: true,
	TriageSuppressed: true,
	Evidence: []string{
		"pages[]", "boxes[]", "objects[]", "charactersUnder", "hatchedBoxes", "redactAnnotations",
		"blackHighlights", "annotationPages[]", "annotationObjects[]",
	},
	Variants: []report.VariantDecl{
		{Code: "text-under-box", Severity: report.High, Title: "Text still present under redaction boxes", Text: "{boxes#dark box|dark boxes} on {pages#page|pages} {boxes?is|are} drawn over text that is still in the file ({characters#character|characters} under them): the redaction can be undone by copying the text."},
		{Code: "unapplied-redact", Severity: report.Medium, Title: "Redaction marks never applied", Text: "{annotations#redaction annotation marks|redaction annotations mark} content for removal but {annotations?was|were} never applied; the content under them is still present."},
		{Code: "black-highlight", Severity: report.Medium, Title: "Black highlights over text", Text: "{annotations#opaque dark highlight annotation covers|opaque dark highlight annotations cover} text that is still present under them."},
	},
}

// Redaction rules follow freelawproject/x-ray (pdf_utils.py, text_utils.py),
// with the pixmap check replaced by paint order: a candidate box is an
// opaque, dark, filled rectangle (or dark image mask) larger than 4 pt
// both ways and not in the top 43 pt of the page; a character is under it
// when more than 80% of its box is covered by a box painted after it, or of
// its own colour; characters go to the latest box they touch; a box whose
// characters are only white space, one repeated character, no letter or
// digit, or only words such as "redacted" is not a failure; nor is a box
// with anything else painted on top of it (x-ray's "not one colour"
// rendering check), nor a document whose every failure reads as a date.
const (
	redactMinSide   = 4.0
	redactHeaderPts = 43.0
	redactOcclusion = 0.8
	annotCoverShare = 0.5
	// maxRedactBoxes bounds the candidate boxes checked per page: each is
	// tested against every glyph.
	maxRedactBoxes = 512
)

// redactionFacts accumulate over the pages.
type redactionFacts struct {
	pages      []int
	boxes      []box
	texts      []string // text under each failed box, for the all-dates rule only
	charsUnder int
	objects    []int
	redactAnn  int
	highlights int
	hatched    int // failed boxes crossed by lines of another colour
	annPages   []int
	annObjects []int
	scratch    []redactBox // reused from page to page
}

// redactBox is a candidate redaction box.
type redactBox struct {
	box    paint.Rect
	seq    int
	fill   paint.Color
	stream int
}

func (a *analysis) redactionPage(cp *contentPage) {
	pg := cp.paint
	f := &a.content.redaction
	boxes := f.scratch[:0]
	candidate := func(b paint.Rect) bool {
		return b.Width() > redactMinSide && b.Height() > redactMinSide && b.Y0 < cp.media.Y1-redactHeaderPts
	}
	for _, s := range pg.Shapes {
		if s.Fill && s.Rect && s.FillColor.Dark() && candidate(s.Box) && len(boxes) < maxRedactBoxes {
			boxes = append(boxes, redactBox{s.Box, s.Seq, s.FillColor, s.Stream})
		}
	}
	for _, im := range pg.Images {
		if im.Mask && im.Fill.Dark() && !im.SoftMask && candidate(im.Box) && len(boxes) < maxRedactBoxes {
			boxes = append(boxes, redactBox{im.Box, im.Seq, im.Fill, im.Stream})
		}
	}
	f.scratch = boxes
	if len(boxes) > 0 {
		a.redactionBoxes(cp, boxes)
	}
	for _, an := range a.pageAnnots(cp.page) {
		switch an.subtype {
		case "Redact":
			f.redactAnn++
		case "Highlight":
			c, ok := colorArray(a.resolve(an.dict.Get("C")), a.resolve)
			if !ok || !c.Dark() || !a.annotOpaque(an) || glyphsUnder(pg, an.rect, 0, annotCoverShare) == 0 {
				continue
			}
			f.highlights++
		default:
			continue
		}
		f.annPages = addPage(f.annPages, cp.number)
		f.annObjects = addNum(f.annObjects, an.ref)
	}
}

// redactionBoxes finds the failed boxes of one page.
func (a *analysis) redactionBoxes(cp *contentPage, boxes []redactBox) {
	pg := cp.paint
	type char struct {
		box  paint.Rect
		text string
	}
	var chars []char
	for i := range pg.Text {
		r := &pg.Text[i]
		if r.Mode == 7 || !occludedBy(r.Box, r.Seq, r.Fill, boxes, 0) {
			continue // text as a clipping path: a box paints through its shape
		}
		for _, g := range r.Glyphs {
			// The glyph's own extent, not the font's line box: a box that
			// covers a capital from baseline to cap height covers all of it
			// (issue 25: a line box made a real leak 79.6% covered).
			if occludedBy(g.Ink, r.Seq, r.Fill, boxes, redactOcclusion) {
				chars = append(chars, char{g.Ink, g.Text})
			}
		}
	}
	if len(chars) == 0 {
		return
	}
	f := &a.content.redaction
	f.charsUnder += len(chars)
	// Latest box first; each character goes to the first box it touches.
	order := slices.Clone(boxes)
	slices.SortStableFunc(order, func(x, y redactBox) int { return y.seq - x.seq })
	taken := make([]bool, len(chars))
	for _, b := range order {
		var text strings.Builder
		for i, c := range chars {
			if !taken[i] && c.box.Overlaps(b.box) {
				taken[i] = true
				text.WriteString(c.text)
			}
		}
		if !redactedText(text.String()) {
			continue
		}
		over, hatch := paintedOver(pg, b)
		if over {
			continue
		}
		if hatch {
			f.hatched++
		}
		f.pages = addPage(f.pages, cp.number)
		f.boxes = append(f.boxes, boxOf(cp.number, b.box))
		f.texts = append(f.texts, text.String())
		f.objects = addNum(f.objects, b.stream)
	}
}

// occludedBy is x-ray's intersects(): some box painted after the text, or
// of the text's own colour, covers more than share of r (any part when
// share is 0).
func occludedBy(r paint.Rect, seq int, fill paint.Color, boxes []redactBox, share float64) bool {
	area := r.Area()
	best := 0.0
	for _, b := range boxes {
		in := r.Intersect(b.box).Area()
		if in > 0 && (b.seq > seq || b.fill.Same(fill)) {
			best = max(best, in)
		}
	}
	if best == 0 {
		return false
	}
	return area <= 0 || best/area > share
}

// paintedOver reports anything of another colour painted on the box after
// it: x-ray renders the box and keeps it only when it is of one colour.
// Lines are the exception (hatch): stroked paths and fills thinner than
// hatchWidth crossing a black box leave the text under it as extractable
// as before, so they do not clear the box; hatch reports them, for
// evidence (issue 25).
func paintedOver(pg *paint.Page, b redactBox) (over, hatch bool) {
	for i := range pg.Text {
		r := &pg.Text[i]
		if r.Seq <= b.seq || !visible(r) || r.Fill.Same(b.fill) || !r.Box.Overlaps(b.box) {
			continue
		}
		for _, g := range r.Glyphs {
			if inkGlyph(g) && g.Box.Overlaps(b.box) {
				return true, false
			}
		}
	}
	for _, s := range pg.Shapes {
		if s.Seq <= b.seq || !s.Box.Overlaps(b.box) {
			continue
		}
		fillOther := s.Fill && !s.FillColor.Same(b.fill)
		strokeOther := s.Stroke && !s.StrokeColor.Same(b.fill)
		switch {
		case fillOther && min(s.Box.Width(), s.Box.Height()) > hatchWidth:
			return true, false
		case fillOther || strokeOther:
			hatch = true
		}
	}
	for _, im := range pg.Images {
		if im.Seq > b.seq && im.Box.Overlaps(b.box) && !(im.Mask && im.Fill.Same(b.fill)) {
			return true, false
		}
	}
	return false, hatch
}

// hatchWidth is the widest fill that counts as a line across a box.
const hatchWidth = 2.0

// redactedText is x-ray's filter_redactions_by_text: true when the text
// under a box is a real leak.
func redactedText(s string) bool {
	first, _ := utf8.DecodeRuneInString(s)
	if n := utf8.RuneCountInString(s); n > 1 && strings.Count(s, string(first)) == n {
		return false // one repeated character, such as XXXX
	}
	if strings.TrimSpace(s) == "" || !strings.ContainsFunc(s, func(r rune) bool {
		return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_'
	}) {
		return false
	}
	return !onlyMatches(xrayOKWords(), xrayOKWordsChars, strings.Join(strings.Fields(s), " "))
}

// allDates is x-ray's check_if_all_dates.
func allDates(texts []string) bool {
	for _, t := range texts {
		if !onlyMatches(xrayDate(), xrayDateChars, t) {
			return false
		}
	}
	return len(texts) > 0
}

// x-ray tests a text by deleting every match of a regular expression and
// looking at what is left; these are its expressions as x-ray writes them,
// compiled on first use.
var (
	xrayOKWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`(?i)redacted +and +publicly +filed|name +redacted|confidential|privileged?|redacted|redacte|redact|redac|reda|red|re`)
	})
	xrayDate = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[0-3]?\d[/\-][0-3]?\d[/\-]\d{2,4}`)
	})
)

// The ASCII characters a match of each expression can hold, both cases
// where the expression ignores case.
const (
	xrayOKWordsChars = " abcdefgilmnoprtuvyABCDEFGILMNOPRTUVY"
	xrayDateChars    = "0123456789/-"
)

// onlyMatches reports whether deleting every match of re from s leaves
// nothing. chars lists the ASCII characters a match can hold: a text with
// another ASCII character keeps it, which spares running the expression on
// almost every text run of a page (other characters go to the expression).
func onlyMatches(re *regexp.Regexp, chars, s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < utf8.RuneSelf && strings.IndexByte(chars, c) < 0 {
			return false
		}
	}
	return re.ReplaceAllString(s, "") == ""
}

// annotOpaque reports an annotation drawn without constant transparency.
func (a *analysis) annotOpaque(an annot) bool {
	ca, ok := cos.AsNumber(a.resolve(an.dict.Get("CA")))
	return !ok || ca >= 0.999
}

func (a *analysis) redactionExposure() *report.Finding {
	f := &a.content.redaction
	var vs []report.Variant
	ev := map[string]any{}
	if len(f.boxes) > 0 && !allDates(f.texts) {
		vs = append(vs, report.Variant{Severity: report.High, Message: report.Msg("redaction-exposure.text-under-box", "boxes", len(f.boxes), "pages", len(f.pages), "characters", f.charsUnder)})
		report.Capped(ev, "pages", f.pages)
		report.Capped(ev, "boxes", f.boxes)
		report.Capped(ev, "objects", f.objects)
		ev["charactersUnder"] = f.charsUnder
		ev["hatchedBoxes"] = f.hatched
	}
	if f.redactAnn > 0 {
		vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("redaction-exposure.unapplied-redact", "annotations", f.redactAnn)})
		ev["redactAnnotations"] = f.redactAnn
	}
	if f.highlights > 0 {
		vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("redaction-exposure.black-highlight", "annotations", f.highlights)})
		ev["blackHighlights"] = f.highlights
	}
	if f.redactAnn+f.highlights > 0 {
		report.Capped(ev, "annotationPages", f.annPages)
		report.Capped(ev, "annotationObjects", f.annObjects)
	}
	return report.Compose(report.FamilyRedactionExposure, vs, ev)
}
