package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// fontAnomaliesFamily declares the font-anomalies family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var fontAnomaliesFamily = declaration{
	ID:               "font-anomalies",
	Order:            120,
	Run:              (*analysis).fontAnomalies,
	Summary:          "Several subsets of one font, fonts first used by a later revision, a font that shows only a few figures, stray Type3 glyphs.",
	ContentDependent: true,
	TriageSuppressed: true,
	Evidence: []string{
		"digitTounicodePages[]", "digitTounicodeObjects[]", "digitTounicodeFonts[]",
		"laterRevisionFontPages[]", "laterRevisionFontObjects[]", "laterRevisionFontFonts[]",
		"figureFontPages[]", "figureFontObjects[]", "figureFontFonts[]", "multipleSubsetsPages[]",
		"multipleSubsetsObjects[]", "multipleSubsetsFonts[]", "type3GlyphsPages[]",
		"type3GlyphsObjects[]", "type3GlyphsFonts[]", "subsetsFromSeveralRevisions",
	},
	Variants: []report.VariantDecl{
		{Code: "figure-font", Severity: report.Medium, Title: "Figures in a font of their own", Text: "On {pages#page|pages}, {runs#figure is|figures are} drawn in a font ({fonts#font object|font objects}) that shows nothing else, while the page's other figures use another font: the trace of a figure removed and typed again."},
		{Code: "multiple-subsets", Severity: report.Info, UpTo: report.Low, Title: "Several subsets of one font on a page", Text: "{pages#page|pages} draw text with two or more separately embedded subsets of the same font ({fonts#font object|font objects}), as happens when text is added by another tool."},
		{Code: "later-revision-font", Severity: report.Medium, Title: "Font added by a later revision", Text: "{fonts#font|fonts} used by the text of {pages#original page|original pages} {fonts?was|were} first written by a revision after the original save."},
		{Code: "type3-glyphs", Severity: report.Low, Title: "Type3 glyphs in a text page", Text: "{pages#page|pages} whose text uses ordinary fonts also draw {glyphs#glyph|glyphs} from Type3 fonts, whose shapes are arbitrary drawings."},
		{Code: "digit-tounicode", Severity: report.Medium, Title: "Digits mapped to other digits", Text: "{fonts#font carries|fonts carry} a ToUnicode map that turns {codes#digit glyph|digit glyphs} into different digits, so extracted text differs from what the page shows."},
	},
}

// font-anomalies variants, most severe first.
const (
	fontDigits = iota
	fontLater
	fontFigure
	fontSubsets
	fontType3
	fontCount
)

var fontCodes = [fontCount]string{"digit-tounicode", "later-revision-font", "figure-font", "multiple-subsets", "type3-glyphs"}

// Several subsets of one font are common in files no one edited (Word
// writes one per style, slide tools one per slide master), so they are
// info unless the subsets came from different revisions.
var fontSeverity = [fontCount]report.Severity{report.Medium, report.Medium, report.Medium, report.Info, report.Low}

// Type3 glyphs count as stray in a page whose text has at least
// type3MinText glyphs of other fonts and at most a type3MaxShare of
// Type3 glyphs.
const (
	type3MinText  = 20
	type3MaxShare = 0.2
)

type fontFacts struct {
	pages       [fontCount][]int
	fonts       [fontCount][]int // font objects
	names       [fontCount][]string
	type3Glyphs int
	digitCodes  int
	figureRuns  int
	// subsetsMixed is set when a page's subsets of one font were written by
	// different revisions.
	subsetsMixed bool
}

// note records a font under a variant once.
func (f *fontFacts) note(v, page int, font *paint.Font) {
	f.pages[v] = addPage(f.pages[v], page)
	for _, n := range f.fonts[v] {
		if n == font.Ref && n != 0 {
			return
		}
	}
	if len(f.fonts[v]) >= 4*report.MaxArray {
		return
	}
	f.fonts[v] = append(f.fonts[v], font.Ref)
	f.names[v] = append(f.names[v], report.Untrusted(font.BaseFont))
	if v == fontDigits {
		f.digitCodes += font.DigitConflicts
	}
}

func (a *analysis) fontPage(cp *contentPage) {
	type use struct {
		font   *paint.Font
		glyphs int
	}
	var used []use
	index := map[*paint.Font]int{}
	t3, other := 0, 0
	oldest := 0 // the oldest revision that wrote visible text on the page
	for i := range cp.paint.Text {
		r := &cp.paint.Text[i]
		if !visible(r) || r.Clipped || !inkRun(r) {
			continue
		}
		k, ok := index[r.Font]
		if !ok {
			k = len(used)
			index[r.Font] = k
			used = append(used, use{font: r.Font})
		}
		used[k].glyphs += len(r.Glyphs)
		if r.Revision > 0 && (oldest == 0 || r.Revision < oldest) {
			oldest = r.Revision
		}
		if r.Font.Type3() {
			t3 += len(r.Glyphs)
		} else {
			other += len(r.Glyphs)
		}
	}
	if len(used) == 0 {
		return
	}
	a.figureFontPage(cp)
	f := &a.content.fonts
	pageOriginal := cp.page.ref.Num != 0 && a.firstWritten(cp.page.ref.Num) == 1
	families := map[string][]*paint.Font{}
	for _, u := range used {
		fn := u.font
		if fn.DigitConflicts > 0 {
			f.note(fontDigits, cp.number, fn)
		}
		// A later font counts on an original page that still shows text of
		// an earlier revision: new text mixed into old.
		if pageOriginal && fn.Ref != 0 {
			if first := a.firstWritten(fn.Ref); first > 1 && oldest > 0 && oldest < first {
				f.note(fontLater, cp.number, fn)
			}
		}
		if fn.Subset() {
			families[fn.Family()] = append(families[fn.Family()], fn)
		}
	}
	for _, u := range used {
		fn := u.font
		if fam := families[fn.Family()]; fn.Subset() && len(fam) > 1 {
			f.note(fontSubsets, cp.number, fn)
			for _, other := range fam {
				if a.firstWritten(other.Ref) != a.firstWritten(fn.Ref) {
					f.subsetsMixed = true
				}
			}
		}
	}
	if t3 > 0 && other >= type3MinText && float64(t3) <= type3MaxShare*float64(t3+other) {
		f.type3Glyphs += t3
		for _, u := range used {
			if u.font.Type3() {
				f.note(fontType3, cp.number, u.font)
			}
		}
	}
}

func (a *analysis) fontAnomalies() *report.Finding {
	f := &a.content.fonts
	var vs []report.Variant
	ev := map[string]any{}
	for v := range fontCount {
		if len(f.pages[v]) == 0 {
			continue
		}
		var msg report.Message
		pages, fonts := len(f.pages[v]), len(f.fonts[v])
		switch v {
		case fontDigits:
			msg = report.Msg("font-anomalies.digit-tounicode", "fonts", fonts, "codes", f.digitCodes)
		case fontLater:
			msg = report.Msg("font-anomalies.later-revision-font", "fonts", fonts, "pages", pages)
		case fontFigure:
			msg = report.Msg("font-anomalies.figure-font", "pages", pages, "runs", f.figureRuns, "fonts", fonts)
		case fontSubsets:
			msg = report.Msg("font-anomalies.multiple-subsets", "pages", pages, "fonts", fonts)
		case fontType3:
			msg = report.Msg("font-anomalies.type3-glyphs", "pages", pages, "glyphs", f.type3Glyphs)
		}
		sev := fontSeverity[v]
		if v == fontSubsets && f.subsetsMixed {
			sev = report.Low
			ev["subsetsFromSeveralRevisions"] = true
		}
		vs = append(vs, report.Variant{Severity: sev, Message: msg})
		key := camel(fontCodes[v])
		report.Capped(ev, key+"Pages", f.pages[v])
		report.Capped(ev, key+"Objects", f.fonts[v])
		report.Capped(ev, key+"Fonts", f.names[v])
	}
	return report.Compose(report.FamilyFontAnomalies, vs, ev)
}
