package pdf

import (
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// hiddenTextFamily declares the hidden-text family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var hiddenTextFamily = declaration{
	ID:               "hidden-text",
	Order:            100,
	Run:              (*analysis).hiddenText,
	Summary:          "Text a reader cannot see or sees otherwise than it extracts: invisible render mode, background colour, outside the page, optional content switched off, hidden annotations, fonts drawing other characters, squeezed, rotated into a margin, microscopic.",
	ContentDependent: true,
	TriageSuppressed: true,
	Evidence: []string{
		"invisibleRuns", "backgroundColourRuns", "transparentRuns", "outsidePageRuns", "tinyRuns",
		"clippedRuns", "optionalContentOffRuns", "hiddenAnnotationRuns", "coveredRuns", "squeezedRuns",
		"remappedRuns", "rotatedRuns", "outsideEdges[]", "annotations[]", "ocrRuns", "ocrPages[]", "ocrProducer",
		"pages[]", "boxes[]", "objects[]", "revisions[]", "cueCategories[]", "cueCounts",
	},
	Variants: []report.VariantDecl{
		{Code: "invisible", Severity: report.Medium, Title: "Invisible text", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} drawn in the invisible render mode outside an OCR layer: a reader cannot see them, but text extraction and language models read them."},
		{Code: "background-colour", Severity: report.Medium, Title: "Text in the colour of its background", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} painted in a colour that does not stand out from what lies beneath {runs?it|them}."},
		{Code: "transparent", Severity: report.Medium, Title: "Transparent text", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} painted at 10% opacity or less: a reader cannot see {runs?it|them}, but text extraction and language models read {runs?it|them}."},
		{Code: "outside-page", Severity: report.Info, Title: "Text outside the page", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?lies|lie} entirely outside the visible page area (CropBox or MediaBox)."},
		{Code: "tiny", Severity: report.Info, Title: "Microscopic text", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} drawn smaller than 1 point."},
		{Code: "clipped", Severity: report.Info, Title: "Text clipped away", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} entirely outside their clipping path, so nothing of them is shown."},
		{Code: "optional-content-off", Severity: report.Info, Title: "Text in a layer switched off", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} in optional content (a layer) that is switched off when the document is viewed: extraction reads {runs?it|them}, a reader never sees {runs?it|them}."},
		{Code: "hidden-annotation", Severity: report.Info, Title: "Text in a hidden annotation", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} drawn by an annotation or form field marked hidden or not to be viewed."},
		{Code: "covered", Severity: report.Info, Title: "Text under an opaque image or form", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} painted over by an opaque image or form drawn after {runs?it|them}."},
		{Code: "squeezed", Severity: report.Info, Title: "Text squeezed to nothing", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} set in a readable font size but scaled below 1 point by the text or graphics matrix."},
		{Code: "remapped", Severity: report.Info, Title: "Glyphs that extract as other characters", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?uses|use} a font whose glyphs show other characters than text extraction reads, or draw nothing."},
		{Code: "rotated", Severity: report.Info, Title: "Rotated text in a margin", Text: "{runs#text run|text runs} on {pages#page|pages} {runs?is|are} set at an angle in a margin of a page whose body text is horizontal."},
		{Code: "injection", Severity: report.High, Title: "Hidden text addressed to a language model", Text: "Text hidden from a reader on {pages#page|pages} reads as instructions to a language model ({cues#cue|cues} in {categories#category|categories})."},
		{Code: "ocr-layer", Severity: report.Info, Title: "OCR text layer", Text: "{pages#page carries|pages carry} an invisible OCR text layer over scanned images, as OCR software writes; this is normal and not hidden text."},
	},
}

// hidden-text variants, indexing the facts; classifyHidden decides the
// order in which a run is classified (the first rule that applies names
// it), hiddenAnnotations the annotations flagged hidden.
const (
	hidOCR = iota
	hidInvisible
	hidOCOff
	hidAnnotation
	hidOutside
	hidClipped
	hidTiny
	hidBackground
	hidTransparent
	hidCovered
	hidSqueezed
	hidRemapped
	hidRotated
	hidCount
)

var hiddenCodes = [hidCount]string{
	"ocr-layer", "invisible", "optional-content-off", "hidden-annotation", "outside-page", "clipped", "tiny",
	"background-colour", "transparent", "covered", "squeezed", "remapped", "rotated",
}

// Text outside the page, clipped away, microscopic, in a layer switched
// off (print-only watermarks), rotated into a margin (arXiv's side stamp)
// or drawn by a font whose encoding disagrees with its ToUnicode map is
// common litter of ordinary software, so alone it is info; any hidden
// text that reads as instructions to a language model is high whatever
// hid it.
var hiddenSeverity = [hidCount]report.Severity{
	report.Info, report.Medium, report.Info, report.Info, report.Info, report.Info, report.Info,
	report.Medium, report.Medium, report.Info, report.Info, report.Info, report.Info,
}

// unseen marks the variants whose text a reader does not see at all (the
// others are seen, but not as extracted or not as text): the render
// oracle checks that these boxes show no ink.
var unseen = [hidCount]bool{
	hidInvisible: true, hidOCOff: true, hidAnnotation: true, hidOutside: true, hidClipped: true,
	hidBackground: true, hidTransparent: true, hidCovered: true,
}

const (
	tinyTextPts       = 1.0
	backdropCover     = 0.9 // share of a run a fill must cover to be its backdrop
	textBackdropCover = 0.3 // glyph boxes are loose, so less for earlier text
	maxBackdropScan   = 200 // fills looked at below one run
	// maxBackgroundConfirms bounds the runs per page that look hidden
	// and are confirmed against every other run (a halo, a mark on a
	// glyph). The backdrop search itself runs on every run: a budget on it
	// ran out before the late runs where injected text sits (issue 25).
	// Past the bound a run that looks hidden counts as hidden.
	maxBackgroundConfirms = 256
	ocrImageCover         = 0.8 // share of an invisible run inside a page image to be OCR
	// transparentAlpha is the fill opacity at or below which text does not
	// show (/ca, or a soft mask that is known to be faint).
	transparentAlpha = 0.1
	// minContrast is the WCAG contrast ratio under which text does not
	// stand out from what lies beneath it: 1.2 is pale grey 0.93 on white.
	minContrast = 1.2
)

// hiddenFacts accumulate over the pages.
type hiddenFacts struct {
	runs        [hidCount]int
	pages       [hidCount][]int
	boxes       []box // non-OCR runs, a sample
	kinds       []int // the variant of each box (for the render oracle)
	objects     []int
	revisions   []int
	edges       []string           // sides of the page beyond which outside runs lie
	annots      []int              // annotations whose appearance holds hidden text
	text        strings.Builder    // hidden text, OCR layers included, for the injection scan
	drops       []backdrop         // scratch, reused from page to page
	colors      []paint.Color      // scratch
	annotIn     *paint.Interpreter // runs annotation appearances
	appearances int                // appearance streams run
	oc          *ocConfig
}

// backdrop is a fill, image or text a run may be painted on.
type backdrop struct {
	seq   int
	box   paint.Rect
	color paint.Color
	image bool // what an image (or a blended fill) shows beneath a run is unknown
	rect  bool // a filled rectangle, unclipped by a shape: it paints all of its box
}

// solidPathArea is how many times a run's area a filled path that is not a
// rectangle must cover to count as painted beneath all of the run.
const solidPathArea = 25

// pageLayout is what a page's body text looks like, for the rotated-text
// rule.
type pageLayout struct {
	horizontal bool       // nearly all of the body's glyphs run left to right
	body       paint.Rect // the extent of the horizontal text
}

// Body text is horizontal when at least minBodyGlyphs, and this share, of the
// glyphs of visible runs run at an angle under straightAngle degrees; a
// run turned by rotatedAngle or more lying wholly outside that text's
// extent is set in a margin.
const (
	minBodyGlyphs   = 40
	horizontalShare = 0.6
	straightAngle   = 2
	rotatedAngle    = 10
)

func layoutOf(pg *paint.Page) pageLayout {
	var l pageLayout
	flat, all := 0, 0
	for i := range pg.Text {
		r := &pg.Text[i]
		if !visible(r) || r.OCOff || r.Clipped {
			continue
		}
		n := len(r.Glyphs)
		all += n
		if math.Abs(r.Angle) < straightAngle {
			if flat == 0 {
				l.body = r.Box
			} else {
				l.body = l.body.Union(r.Box)
			}
			flat += n
		}
	}
	l.horizontal = flat >= minBodyGlyphs && float64(flat) >= horizontalShare*float64(all)
	return l
}

// rotatedInMargin reports a run turned away from horizontal body text and
// lying outside it.
func (l pageLayout) rotatedInMargin(r *paint.TextRun) bool {
	turn := math.Abs(r.Angle)
	return l.horizontal && turn >= rotatedAngle && !r.Box.Overlaps(l.body)
}

func (a *analysis) hiddenTextPage(cp *contentPage) {
	pg := cp.paint
	f := &a.content.hidden
	if len(pg.Text) > 0 {
		f.drops = backdrops(pg, f.drops[:0])
		drops := f.drops
		colors := fillColors(drops, f.colors[:0])
		f.colors = colors
		layout := layoutOf(pg)
		confirms := 0
		for i := range pg.Text {
			r := &pg.Text[i]
			if !inkRun(r) {
				continue
			}
			f.add(cp, r, classifyHidden(r, cp, drops, colors, &confirms, layout))
		}
	}
	a.hiddenAnnotations(cp)
}

// add counts one run under variant v (-1: not hidden).
func (f *hiddenFacts) add(cp *contentPage, r *paint.TextRun, v int) {
	if v < 0 {
		return
	}
	f.runs[v]++
	f.pages[v] = addPage(f.pages[v], cp.number)
	if v != hidOCR {
		// An OCR layer is normal, but instructions written into one are
		// not: its text goes to the injection scan too (below).
		if len(f.boxes) < 4*report.MaxArray {
			f.boxes = append(f.boxes, boxOf(cp.number, r.Box))
			f.kinds = append(f.kinds, v)
		}
		f.objects = addNum(f.objects, r.Stream)
		f.revisions = addNum(f.revisions, r.Revision)
		if v == hidOutside {
			f.addEdges(r.Box, cp.crop)
		}
	}
	if f.text.Len() < inject.MaxScan {
		f.text.WriteString(r.Text)
		f.text.WriteByte(' ')
	}
}

// addEdges names the sides of the visible page beyond which b lies: the
// page-edge evidence of text placed off the page.
func (f *hiddenFacts) addEdges(b, crop paint.Rect) {
	for _, e := range [...]struct {
		name   string
		beyond bool
	}{
		{"left", b.X1 <= crop.X0}, {"right", b.X0 >= crop.X1},
		{"below", b.Y1 <= crop.Y0}, {"above", b.Y0 >= crop.Y1},
	} {
		if e.beyond && !slices.Contains(f.edges, e.name) {
			f.edges = append(f.edges, e.name)
		}
	}
}

// classifyHidden returns the variant that hides a run, or -1.
func classifyHidden(r *paint.TextRun, cp *contentPage, drops []backdrop, colors []paint.Color, confirms *int, layout pageLayout) int {
	switch {
	case r.Mode == 7:
		return -1 // text used as a clipping path shows what is painted through it
	case r.OCOff:
		return hidOCOff
	case !visible(r):
		if overImage(r, cp.paint) {
			return hidOCR
		}
		if shownVisibly(r, cp.paint) {
			return -1
		}
		return hidInvisible
	case !r.Box.Overlaps(cp.crop) && !cp.crop.Contains(r.Box, 0):
		return hidOutside
	case r.Clipped:
		return hidClipped
	case transparent(r):
		// OCR software writes its layer at opacity 0 as often as in the
		// invisible render mode.
		if overImage(r, cp.paint) {
			return hidOCR
		}
		if shownVisibly(r, cp.paint) {
			return -1
		}
		return hidTransparent
	case inBackground(r, cp, drops, colors, confirms):
		// tiny or not: text in the colour of its background is hidden
		return hidBackground
	}
	if im := coveringImage(r, cp.paint); im != nil {
		if cp.scanned && im.Box.Area() >= fullPageShare*cp.media.Area() {
			return hidOCR // a text layer beneath its scan
		}
		return hidCovered
	}
	if coveringForm(r, cp.paint) {
		return hidCovered
	}
	switch {
	case squeezed(r):
		return hidSqueezed
	case r.Size < tinyTextPts:
		return hidTiny
	case remapped(r):
		return hidRemapped
	case layout.rotatedInMargin(r):
		return hidRotated
	}
	return -1
}

// shownVisibly reports an invisible or transparent run whose words a
// visible run draws at the same place: a text layer for the words a reader
// sees (signature appearances measure their text so, padded with
// asterisks), not hidden text. The words must be the same, trailing
// punctuation and padding aside: a visible word that merely begins a
// hidden sentence does not clear it.
func shownVisibly(r *paint.TextRun, pg *paint.Page) bool {
	t := sameWords(r.Text)
	if len([]rune(t)) < 3 {
		return false
	}
	for i := range pg.Text {
		o := &pg.Text[i]
		if o == r || !visible(o) || transparent(o) || o.OCOff || o.Clipped || !o.Box.Overlaps(r.Box) || sameWords(o.Text) != t {
			continue
		}
		small := min(r.Box.Area(), o.Box.Area())
		if small > 0 && r.Box.Intersect(o.Box).Area() >= 0.5*small {
			return true
		}
	}
	return false
}

// sameWords is a run's text without surrounding spaces and trailing
// characters that are neither letters nor digits.
func sameWords(s string) string {
	return strings.TrimRightFunc(strings.TrimSpace(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// coveringForm reports an opaque rectangle a form XObject fills after a
// run over all of it: a stamp or panel placed over text. Fills of the
// page's own content are content-overlay's whiteouts and redaction boxes.
func coveringForm(r *paint.TextRun, pg *paint.Page) bool {
	for i := range pg.Shapes {
		s := &pg.Shapes[i]
		if s.Seq > r.Seq && s.Form && s.Fill && s.Rect && !s.OCOff && !s.Blend && s.FillColor.Opaque() && covered(r.Box, s.Box, backdropCover) {
			return true
		}
	}
	return false
}

// squeezed reports a run set in a font size that reads but scaled below
// a point, in height or width, by Tz, Tm or cm.
func squeezed(r *paint.TextRun) bool {
	shown := min(r.Size, r.Width)
	return shown < tinyTextPts && shown < 0.5*r.Nominal
}

// remapped reports a run with letters or digits drawn as other characters
// than they extract (or not drawn): at least one, and at least a tenth of
// its word glyphs.
func remapped(r *paint.TextRun) bool {
	if r.Remapped == 0 {
		return false
	}
	words := 0
	for _, g := range r.Glyphs {
		if wordGlyph(g) {
			words++
		}
	}
	return r.Remapped*10 >= words
}

// coveringImage returns an opaque image painted after a run over all of
// it (an image mask paints only its set bits, a soft mask lets the run
// through, a rotated or sheared image does not fill its box: none
// counts), or nil.
func coveringImage(r *paint.TextRun, pg *paint.Page) *paint.Image {
	for i := range pg.Images {
		im := &pg.Images[i]
		if im.Seq > r.Seq && !im.Mask && !im.SoftMask && !im.OCOff && !im.Skewed && !im.Blend && im.Alpha >= 0.999 && covered(r.Box, im.Box, backdropCover) {
			return im
		}
	}
	return nil
}

// transparent reports filled text at an opacity that does not show.
func transparent(r *paint.TextRun) bool {
	return r.Mode != 1 && r.Mode != 5 && r.Fill.A <= transparentAlpha && (r.Mode%4 == 0 || r.Stroke.A <= transparentAlpha)
}

// inBackground reports a run whose colour does not stand out from its
// backdrop, confirmed (within the page's bound) not to be a halo or a
// mark drawn on other glyphs.
//
// A run that holds nothing but a redaction label ("Privilege",
// "REDACTED"), repeats one character or has no letter or digit says
// nothing when hidden: court filings print such labels in the colour of
// the redaction box (x-ray's harmless words, redactedText).
func inBackground(r *paint.TextRun, cp *contentPage, drops []backdrop, colors []paint.Color, confirms *int) bool {
	// The colour test goes first: it is cheaper and rules out almost every run.
	if !sameAsBackdrop(r, drops, colors) || !redactedText(r.Text) {
		return false
	}
	if *confirms >= maxBackgroundConfirms {
		return true
	}
	*confirms++
	return !onEarlierText(r, cp.paint) && !shownElsewhere(r, cp.paint)
}

// indistinct reports two known colours whose WCAG contrast ratio is under
// minContrast: text in one does not stand out on the other.
func indistinct(a, b paint.Color) bool {
	if !a.Known || !b.Known {
		return false
	}
	// The channel test first: it is a few comparisons and fails for most
	// pairs, where the luminances cost four powers.
	if !hueClose(a, b) {
		return false
	}
	la, lb := relLuminance(a), relLuminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la+0.05)/(lb+0.05) < minContrast
}

// hueClose keeps two colours of equal luminance but different hue (red on
// green) apart: their channels must be near too.
func hueClose(a, b paint.Color) bool {
	const tol = 0.12
	return abs(a.R-b.R) <= tol && abs(a.G-b.G) <= tol && abs(a.B-b.B) <= tol
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// relLuminance is WCAG's relative luminance of an sRGB colour.
func relLuminance(c paint.Color) float64 {
	lin := func(v float64) float64 {
		if v <= 0.03928 {
			return v / 12.92
		}
		return math.Pow((v+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// overImage reports an invisible run lying on a page image, as an OCR
// layer does.
func overImage(r *paint.TextRun, pg *paint.Page) bool {
	for _, im := range pg.Images {
		if !im.Inline && !im.OCOff && covered(r.Box, im.Box, ocrImageCover) {
			return true
		}
	}
	return false
}

// backdrops lists opaque fills and images in paint order.
func backdrops(pg *paint.Page, out []backdrop) []backdrop {
	for _, s := range pg.Shapes {
		// Fills of unknown colour (patterns) still hide what lies beneath.
		if s.Fill && !s.OCOff && s.FillColor.A >= 0.999 && s.Box.Area() > 0 {
			// Under a blend mode what a fill shows is not its colour.
			out = append(out, backdrop{seq: s.Seq, box: s.Box, color: s.FillColor, rect: s.Rect && !s.ClipShaped, image: s.Blend})
		}
	}
	for _, im := range pg.Images {
		if !im.OCOff {
			out = append(out, backdrop{seq: im.Seq, box: im.Box, image: true})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].seq < out[j].seq })
	return out
}

// onEarlierText reports a run drawn on glyphs painted before it (a mark
// on a symbol): what lies beneath is then not known. Only glyphs about as
// large as the run's count: smaller text beneath is not a backdrop, and
// white text laid over a footnote stays invisible on the page around it.
func onEarlierText(r *paint.TextRun, pg *paint.Page) bool {
	for i := range pg.Text {
		o := &pg.Text[i]
		if o.Seq >= r.Seq {
			break
		}
		// Position first: it rules out almost every run, and inkRun walks
		// the glyphs.
		if covered(r.Box, o.Box, textBackdropCover) && visible(o) && o.Size >= 0.9*r.Size && !o.Fill.Same(r.Fill) && inkRun(o) {
			return true
		}
	}
	return false
}

// shownElsewhere reports the same text drawn visibly at the same place by
// another run: a halo or shadow, not hidden text.
func shownElsewhere(r *paint.TextRun, pg *paint.Page) bool {
	t := strings.TrimSpace(r.Text)
	for i := range pg.Text {
		o := &pg.Text[i]
		if o != r && covered(r.Box, o.Box, 0.5) && visible(o) && !o.Fill.Same(r.Fill) && strings.TrimSpace(o.Text) == t {
			return true
		}
	}
	return false
}

// maxFillColors bounds the distinct fill colours remembered per page.
const maxFillColors = 32

// fillColors lists the distinct colours of a page's fills, or nil when
// there are too many to be worth checking first.
func fillColors(drops []backdrop, out []paint.Color) []paint.Color {
	for _, d := range drops {
		if d.image || slices.ContainsFunc(out, d.color.Same) {
			continue
		}
		if len(out) >= maxFillColors {
			return nil
		}
		out = append(out, d.color)
	}
	if out == nil {
		out = []paint.Color{}
	}
	return out
}

var white = paint.Color{R: 1, G: 1, B: 1, A: 1, Known: true}

// sameAsBackdrop reports a run filled in a colour that does not stand out
// from what lies beneath it: the latest opaque fill painted before it that
// covers it, or the white page when there is none. An image beneath makes
// it unknown.
func sameAsBackdrop(r *paint.TextRun, drops []backdrop, colors []paint.Color) bool {
	if r.Mode == 1 || r.Mode == 5 || !r.Fill.Known || r.Blend {
		return false // stroked only, colour not computed, or mixed with its backdrop by a blend mode
	}
	near := func(c paint.Color) bool { return indistinct(r.Fill, c) }
	if colors != nil && !near(white) && !slices.ContainsFunc(colors, near) {
		return false // no fill on the page has a colour like the run's
	}
	i := sort.Search(len(drops), func(i int) bool { return drops[i].seq >= r.Seq })
	touched := false
	for n := 0; i > 0 && n < maxBackdropScan; n++ {
		i--
		d := drops[i]
		if !covered(r.Box, d.box, backdropCover) {
			touched = touched || r.Box.Overlaps(d.box)
			continue
		}
		// A path that is not a rectangle paints its shape, not its box:
		// glyph outlines under a figure's label, a frame around it. Only
		// a path much larger than the run is taken to paint all of it.
		if !d.image && !d.rect && d.box.Area() < solidPathArea*r.Box.Area() {
			// In the path's colour the run is hidden where the path
			// paints; it must also not stand out where it does not.
			if indistinct(r.Fill, d.color) {
				continue
			}
			return false
		}
		return !d.image && indistinct(r.Fill, d.color)
	}
	// Only a run that nothing earlier touches lies on the bare page.
	return i == 0 && !touched && indistinct(r.Fill, white)
}

func (a *analysis) hiddenText() *report.Finding {
	f := &a.content.hidden
	var vs []report.Variant
	ev := map[string]any{}
	hiddenPages := []int{}
	for v := range hidCount {
		if f.runs[v] == 0 {
			continue
		}
		code := hiddenCodes[v]
		if v == hidOCR {
			vs = append(vs, report.Variant{Severity: hiddenSeverity[v], Message: report.Msg("hidden-text."+code, "pages", len(f.pages[v]))})
			report.Capped(ev, "ocrPages", f.pages[v])
			ev["ocrRuns"] = f.runs[v]
			ev["ocrProducer"] = report.Untrusted(firstNonEmpty(a.infoText("Producer"), a.xmp.First(nsPDF, "Producer"), a.infoText("Creator")))
			continue
		}
		vs = append(vs, report.Variant{Severity: hiddenSeverity[v], Message: report.Msg("hidden-text."+code, "runs", f.runs[v], "pages", len(f.pages[v]))})
		ev[camel(code)+"Runs"] = f.runs[v]
		hiddenPages = mergePages(hiddenPages, f.pages[v])
	}
	if len(hiddenPages) > 0 {
		report.Capped(ev, "pages", hiddenPages)
		report.Capped(ev, "boxes", f.boxes)
		report.Capped(ev, "objects", f.objects)
		report.Capped(ev, "revisions", f.revisions)
		if len(f.edges) > 0 {
			report.Capped(ev, "outsideEdges", f.edges)
		}
		if len(f.annots) > 0 {
			report.Capped(ev, "annotations", f.annots)
		}
	}
	if f.text.Len() > 0 {
		if res := inject.Scan(f.text.String()); res.Found() {
			pages := hiddenPages
			if len(pages) == 0 {
				pages = f.pages[hidOCR]
			}
			cues := 0
			counts := map[string]int{}
			for c, n := range res.Cues {
				cues += n
				counts[string(c)] = n
			}
			vs = append(vs, report.Variant{Severity: report.High, Message: report.Msg("hidden-text.injection", "pages", len(pages), "cues", cues, "categories", len(res.Cues))})
			report.Capped(ev, "cueCategories", res.Categories())
			ev["cueCounts"] = counts
		}
	}
	return report.Compose(report.FamilyHiddenText, vs, ev)
}

// camel turns "outside-page" into "outsidePage".
func camel(s string) string {
	parts := strings.Split(s, "-")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

// mergePages unions two sorted page lists.
func mergePages(a, b []int) []int {
	out := append(append([]int{}, a...), b...)
	sort.Ints(out)
	w := 0
	for i, v := range out {
		if i == 0 || v != out[w-1] {
			out[w] = v
			w++
		}
	}
	return out[:w]
}
