package pdf

import (
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// The figure-font trace of a full re-save: a figure removed (redaction,
// white-out) and typed again with whatever font the editing tool offers.
// No revision history is needed; what remains is a font object that shows
// only one to figureMaxRuns figures on a page whose other figures are drawn
// in another font family, or in another object of the very same font (a
// tool adds its own Helvetica beside the generator's).
//
// Genuine pages draw figures in a font of their own too (amounts in a
// monospaced face, a bold total), but then the font shows every figure of
// its kind, and a bold total shares its family with the other figures, so
// the rule compares families, not styles.
const (
	figureMaxRuns = 3
	// figureMinDigits: page numbers and footnote marks are short; an amount
	// or reference a forger changes has at least three digits.
	figureMinDigits = 3
	// figureMinOther: the page's other figures that show the generator's
	// own figure font.
	figureMinOther = 2
	// figureMinGlyphs: glyphs of other fonts a page must show, so a sparse
	// page (a cover, a form) never counts.
	figureMinGlyphs = 40
	// figureMargin: runs in the top and bottom bands of the page (headers,
	// footers, page numbers) are left out.
	figureMargin = 0.07
)

// figureText reports a run whose text is a figure: digits with the
// separators, signs and currency marks of amounts, dates and references,
// and how many digits it holds.
func figureText(s string) (digits int, ok bool) {
	ok = true
	for _, c := range s {
		switch {
		case c >= '0' && c <= '9':
			digits++
		case strings.ContainsRune(" .,-+()/:'$€£¥%\u00a0\u2212", c):
		default:
			return 0, false
		}
	}
	return digits, ok
}

// chunkGap is the gap between two glyphs, in font sizes, that separates
// two pieces of text inside one run: writers such as Ghostscript draw a
// whole table row (date, payee, amounts) with one TJ and large kerns.
const chunkGap = 0.3

// forChunks calls fn with the text of each piece of a run, split at
// spaces and at gaps wider than chunkGap font sizes.
func forChunks(r *paint.TextRun, fn func(string)) {
	var b strings.Builder
	flush := func() {
		if t := strings.TrimSpace(b.String()); t != "" {
			fn(t)
		}
		b.Reset()
	}
	gap := chunkGap * r.Size
	for i, g := range r.Glyphs {
		if i > 0 && g.Box.X0-r.Glyphs[i-1].Box.X1 > gap {
			flush()
		}
		if strings.TrimSpace(g.Text) == "" {
			flush()
			continue
		}
		b.WriteString(g.Text)
	}
	flush()
}

type figureUse struct {
	runs, figures, glyphs int
	short, margin         bool // a figure under figureMinDigits; a run in the margin bands
}

// figureFontPage notes the fonts that show only a few figures, against the
// fonts of the page's other figures.
func (a *analysis) figureFontPage(cp *contentPage) {
	uses := map[*paint.Font]*figureUse{}
	var order []*paint.Font
	h := cp.media.Height()
	for i := range cp.paint.Text {
		r := &cp.paint.Text[i]
		if !visible(r) || r.Clipped || !inkRun(r) || r.Font == nil {
			continue
		}
		u := uses[r.Font]
		if u == nil {
			u = &figureUse{}
			uses[r.Font] = u
			order = append(order, r.Font)
		}
		u.glyphs += len(r.Glyphs)
		forChunks(r, func(text string) {
			d, ok := figureText(text)
			if d == 0 && ok {
				return // a lone sign or separator
			}
			u.runs++
			if ok {
				u.figures++
				u.short = u.short || d < figureMinDigits
			}
		})
		if h > 0 && (r.Box.Y1 < cp.media.Y0+figureMargin*h || r.Box.Y0 > cp.media.Y1-figureMargin*h) {
			u.margin = true
		}
	}
	for _, fn := range order {
		u := uses[fn]
		if u.figures != u.runs || u.runs > figureMaxRuns || u.short || u.margin {
			continue
		}
		otherFigures, otherGlyphs := 0, 0
		sameFamily, twin := false, false
		fam := fontFamily(fn.BaseFont)
		for _, g := range order {
			v := uses[g]
			if g == fn {
				continue
			}
			otherGlyphs += v.glyphs
			if v.figures == 0 {
				if g.BaseFont == fn.BaseFont {
					twin = true
				}
				continue
			}
			otherFigures += v.figures
			if g.BaseFont == fn.BaseFont {
				twin = true
			}
			if fontFamily(g.BaseFont) == fam {
				sameFamily = true
			}
		}
		if otherFigures < figureMinOther || otherGlyphs < figureMinGlyphs || (sameFamily && !twin) {
			continue
		}
		a.content.fonts.note(fontFigure, cp.number, fn)
		a.content.fonts.figureRuns += u.runs
	}
}

// fontFamily reduces a BaseFont name to its family: no subset tag, no
// style after '-' or ',', no PostScript "MT"/"PS" suffixes, lower case, so
// Arial-BoldMT and ArialMT, TimesNewRomanPS-BoldMT and TimesNewRomanPSMT,
// Courier-Bold and Courier each compare equal.
func fontFamily(name string) string {
	if n, ok := stripSubsetTag(name); ok {
		name = n
	}
	if i := strings.IndexAny(name, "-,"); i > 0 {
		name = name[:i]
	}
	name = strings.ToLower(name)
	for _, suffix := range []string{"mt", "ps", "bold", "italic", "oblique", "regular"} {
		name = strings.TrimSuffix(name, suffix)
	}
	name = strings.TrimSuffix(name, "ps")
	return name
}

// stripSubsetTag removes a six-capital "ABCDEF+" prefix.
func stripSubsetTag(s string) (string, bool) {
	if len(s) < 8 || s[6] != '+' {
		return s, false
	}
	for i := range 6 {
		if s[i] < 'A' || s[i] > 'Z' {
			return s, false
		}
	}
	return s[7:], true
}
