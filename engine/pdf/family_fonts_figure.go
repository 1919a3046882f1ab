package pdf

import (
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
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
// the rule compares families, not styles. A page whose figures already
// come in several families (a total set in a display face) is left alone,
// unless the figure font is the only unembedded one.
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
	if textOfGlyphs(r) {
		// A chunk is then a slice of the run's text: no copy.
		start, end := 0, 0
		flush := func() {
			if t := strings.TrimSpace(r.Text[start:end]); t != "" {
				fn(t)
			}
			start = end
		}
		gap := chunkGap * r.Size
		for i, g := range r.Glyphs {
			if i > 0 && g.Box.X0-r.Glyphs[i-1].Box.X1 > gap {
				flush()
			}
			if strings.TrimSpace(g.Text) == "" {
				flush()
				end += len(g.Text)
				start = end
				continue
			}
			end += len(g.Text)
		}
		flush()
		return
	}
	chunksByCopy(r, fn)
}

// chunksByCopy is forChunks for a run whose text is not its glyphs'.
func chunksByCopy(r *paint.TextRun, fn func(string)) {
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

// textOfGlyphs reports a run whose text is its glyphs' texts end to end
// (the run's text is capped, and a capped run may skip a glyph).
func textOfGlyphs(r *paint.TextRun) bool {
	pos := 0
	for _, g := range r.Glyphs {
		if !strings.HasPrefix(r.Text[pos:], g.Text) {
			return false
		}
		pos += len(g.Text)
	}
	return true
}

type figureUse struct {
	runs, figures, glyphs int
	long                  int // figures of at least figureMinDigits digits
	// short: a figure under figureMinDigits or mostly not digits; margin: a
	// run in the margin bands.
	short, margin bool
	sizes         []float64 // font size of each figure
}

// figureSizeSpread: a retyped figure is set at about the size of the
// figures around it; sub- and superscripts, footnote marks and math
// indices (58-70% of the text) are not. 25%, not less: PyMuPDF reports
// the span size of a LibreOffice export about 22% small, and a forger
// retypes at the size the library reports.
const figureSizeSpread = 0.25

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
				u.sizes = append(u.sizes, r.Size)
				u.short = u.short || d < figureMinDigits || 2*d < len(text)
				if d >= figureMinDigits {
					u.long++
				}
			}
		})
		if h > 0 && (r.Box.Y1 < cp.media.Y0+figureMargin*h || r.Box.Y0 > cp.media.Y1-figureMargin*h) {
			u.margin = true
		}
	}
	for _, fn := range order {
		u := uses[fn]
		if u.figures == 0 || u.figures != u.runs || u.runs > figureMaxRuns || u.short || u.margin || !a.plainTextFont(fn) {
			continue
		}
		otherFigures, otherGlyphs := 0, 0
		twin := false
		// An unembedded font among embedded ones: generators embed
		// consistently, an editor types with a standard font by name.
		odd := !fn.Embedded
		fam := fontFamily(fn.BaseFont)
		var sizes []float64
		byFamily := map[string]int{}
		for _, g := range order {
			v := uses[g]
			if g == fn {
				continue
			}
			otherGlyphs += v.glyphs
			odd = odd && g.Embedded
			// A second object of the very same simple, unembedded font: an
			// editor's own Helvetica beside the generator's. Composite and
			// embedded fonts are split into several objects by word
			// processors, so only the standard fonts count.
			if g.BaseFont == fn.BaseFont && standardTwin(fn, g) {
				twin = true
			}
			if v.figures == 0 {
				continue
			}
			otherFigures += v.figures
			sizes = append(sizes, v.sizes...)
			byFamily[fontFamily(g.BaseFont)] += v.long
		}
		if otherFigures < figureMinOther || otherGlyphs < figureMinGlyphs || (byFamily[fam] > 0 && !twin) {
			continue
		}
		if !dominant(byFamily) && !twin && !odd {
			continue // the page draws its figures in several families already
		}
		if !sizesMatch(u.sizes, median(sizes)) {
			continue
		}
		a.content.fonts.note(fontFigure, cp.number, fn)
		a.content.fonts.figureRuns += u.runs
	}
}

// figureDominance: the share of the page's other long figures that one
// font family must draw for the page to have a figure font at all.
const figureDominance = 0.75

func dominant(byFamily map[string]int) bool {
	top, total := 0, 0
	for _, n := range byFamily {
		top = max(top, n)
		total += n
	}
	return total >= figureMinOther && float64(top) >= figureDominance*float64(total)
}

// standardTwin reports two simple fonts that carry no program of their
// own, the kind an editing tool adds by name.
func standardTwin(f, g *paint.Font) bool {
	return f != g && !f.Embedded && !g.Embedded && f.Subtype == g.Subtype && (f.Subtype == "Type1" || f.Subtype == "TrueType")
}

func sizesMatch(sizes []float64, m float64) bool {
	if m <= 0 {
		return false
	}
	for _, s := range sizes {
		if s < m*(1-figureSizeSpread) || s > m*(1+figureSizeSpread) {
			return false
		}
	}
	return true
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// symbolicFlag is bit 3 of a font descriptor's /Flags.
const symbolicFlag = 4

// plainTextFont reports a font whose decoded text can be trusted to be
// the digits it shows: not Type3 (glyphs are drawings), not a symbol or
// math font (its codes decode to letters and digits that are not what it
// draws), and an indirect object (tools add fonts as objects).
func (a *analysis) plainTextFont(fn *paint.Font) bool {
	if fn.Ref == 0 || fn.Type3() {
		return false
	}
	d := a.dict(cos.Ref{Num: fn.Ref})
	if d == nil {
		return false
	}
	if d.Name("Subtype") == "Type0" {
		if arr, ok := a.resolve(d.Get("DescendantFonts")).(cos.Array); ok && len(arr) > 0 {
			if df := a.dict(arr[0]); df != nil {
				d = df
			}
		}
	}
	if fd := a.dict(d.Get("FontDescriptor")); fd != nil {
		if flags, ok := cos.AsInt(a.resolve(fd.Get("Flags"))); ok && flags&symbolicFlag != 0 {
			return false
		}
	}
	name := strings.ToLower(fn.BaseFont)
	for _, sym := range []string{"symbol", "dingbat", "wingding", "webding", "math", "cmsy", "cmmi", "cmex", "msam", "msbm", "pi-", "ornament"} {
		if strings.Contains(name, sym) {
			return false
		}
	}
	return true
}

// fontFamily reduces a BaseFont name to its family: no subset tag, no
// style after '-' or ',', no PostScript "MT"/"PS" suffixes, lower case, so
// Arial-BoldMT and ArialMT, TimesNewRomanPS-BoldMT and TimesNewRomanPSMT,
// Courier-Bold and Courier each compare equal.
func fontFamily(name string) string {
	if n, ok := paint.StripSubsetTag(name); ok {
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
