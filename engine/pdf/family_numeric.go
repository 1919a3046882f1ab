package pdf

import (
	"math"
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// numericEditsFamily declares the numeric-edits family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var numericEditsFamily = declaration{
	ID:               "numeric-edits",
	Order:            140,
	Run:              (*analysis).numericEdits,
	Summary:          "Digits changed between revisions in overwritten content; figures written unlike the page's other text objects.",
	ContentDependent: true,
	TriageSuppressed: true,
	Evidence: []string{
		"sequences", "digits", "values[]", "pages[]", "boxes[]", "revisions[]", "usualPatterns[]",
		"oddPatterns[]", "patternPages[]", "patternBoxes[]", "payloadIsUntrusted",
	},
	Variants: []report.VariantDecl{
		{Code: "text-pattern", Severity: report.Low, Title: "Figures written unlike their neighbours", Text: "On {pages#page|pages}, {runs#figure is|figures are} written with text operators that break the pattern the rest of the page's text follows, as when a figure is typed in by another tool."},
		{Code: "digits-changed", Severity: report.High, Title: "Digits changed by a later revision", Text: "Revisions after the original save rewrote the content of {pages#page|pages} and changed {sequences#digit sequence|digit sequences} ({digits#digit|digits}) at the same positions."},
	},
}

// numeric-edits compares, for each page whose content an appended revision
// overwrote, the glyphs the page showed before and after that revision at
// the same positions (to half a point), and reports digits that changed.
const (
	maxNumericPages = 20 // (page, revision) pairs compared per file
	posGrid         = 2  // positions per point
)

type numericFacts struct {
	// text-pattern (family_numeric_pattern.go)
	patternPages    int // pages read again
	patternPagesHit []int
	patternRuns     int
	patternUsual    []string
	patternOdd      []string
	patternBoxes    []box

	pages     []int
	revisions []int
	sequences int
	digits    int
	boxes     []box
	values    []numericValue
}

// numericValue is one changed digit sequence, before and after, as
// sanitised untrusted strings.
type numericValue struct {
	Page   int    `json:"page"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// numericEdits runs after the content walk: it needs the revision list.
func (a *analysis) numericEdits() *report.Finding {
	a.compareRevisions()
	f := &a.content.numeric
	var vs []report.Variant
	ev := map[string]any{}
	if f.sequences > 0 {
		vs = append(vs, report.Variant{Severity: report.High, Message: report.Msg("numeric-edits.digits-changed", "pages", len(f.pages), "sequences", f.sequences, "digits", f.digits)})
		ev["sequences"] = f.sequences
		ev["digits"] = f.digits
		ev["payloadIsUntrusted"] = true
		report.Capped(ev, "pages", f.pages)
		report.Capped(ev, "revisions", f.revisions)
		report.Capped(ev, "boxes", f.boxes)
		report.Capped(ev, "values", f.values)
	}
	if f.patternRuns > 0 {
		vs = append(vs, report.Variant{Severity: report.Low, Message: report.Msg("numeric-edits.text-pattern", "pages", len(f.patternPagesHit), "runs", f.patternRuns)})
		report.Capped(ev, "patternPages", f.patternPagesHit)
		report.Capped(ev, "patternBoxes", f.patternBoxes)
		// Operator names only: the patterns hold no document text.
		report.Capped(ev, "usualPatterns", f.patternUsual)
		report.Capped(ev, "oddPatterns", f.patternOdd)
	}
	return report.Compose(report.FamilyNumericEdits, vs, ev)
}

// compareRevisions finds the pages each appended revision rewrote and
// compares their glyphs with the previous revision's.
func (a *analysis) compareRevisions() {
	if a.content.pages == 0 {
		return // the content walk did not run (triage, encryption)
	}
	// Page numbers are those of the newest view; a page it lacks is 0.
	numbers := map[int]int{}
	for i, p := range a.pages {
		if p.ref.Num != 0 {
			numbers[p.ref.Num] = i + 1
		}
	}
	done := 0
	for _, ch := range a.revisionChanges() {
		if done >= maxNumericPages || a.f.Err() != nil {
			return
		}
		k := ch.Revision
		over := map[int]bool{}
		for _, o := range ch.Overwritten {
			if o.Kind == "content" || o.Kind == "page" {
				over[o.Object] = true
			}
		}
		if len(over) == 0 {
			continue
		}
		before := byRef(a.pagesIn(k - 1))
		after := a.pagesIn(k)
		var oldIn, newIn *paint.Interpreter
		for _, p := range after {
			if done >= maxNumericPages {
				break
			}
			old, ok := before[p.ref.Num]
			if !ok || !a.contentRewritten(p, k, over) {
				continue
			}
			if oldIn == nil {
				oldIn, newIn = paint.New(a.paintSource(k-1)), paint.New(a.paintSource(k))
			}
			done++
			pgOld := oldIn.Page(old.dict.Get("Contents"), old.resources)
			pgNew := newIn.Page(p.dict.Get("Contents"), p.resources)
			a.compareDigits(numbers[p.ref.Num], k, pgOld, pgNew)
		}
	}
}

// pagesIn lists the pages of revision rev's view in page order.
func (a *analysis) pagesIn(rev int) []page {
	cat := cos.DictOf(a.f.ResolveIn(a.f.Revisions[rev-1].Trailer.Get("Root"), rev))
	if cat == nil {
		return nil
	}
	pages, _ := walkPages(a.f, cat, rev)
	return pages
}

// byRef indexes pages by object number.
func byRef(pages []page) map[int]page {
	out := map[int]page{}
	for _, p := range pages {
		if p.ref.Num != 0 {
			out[p.ref.Num] = p
		}
	}
	return out
}

// contentRewritten reports that revision k overwrote the page object or
// one of its content streams.
func (a *analysis) contentRewritten(p page, k int, over map[int]bool) bool {
	if over[p.ref.Num] {
		return true
	}
	c := p.dict.Get("Contents")
	refs := []cos.Object{c}
	if arr, ok := a.f.ResolveIn(c, k).(cos.Array); ok {
		refs = arr
	}
	for _, o := range refs {
		if r, ok := o.(cos.Ref); ok && over[r.Num] {
			return true
		}
	}
	return false
}

type glyphAt struct {
	key  [2]int
	text string
	box  paint.Rect
}

// glyphMap indexes a page's visible glyphs by position.
func glyphMap(pg *paint.Page) map[[2]int]glyphAt {
	n := 0
	for i := range pg.Text {
		n += len(pg.Text[i].Glyphs)
	}
	// Sized once: growing a map of a page's glyphs costs more than the walk.
	m := make(map[[2]int]glyphAt, n)
	for i := range pg.Text {
		r := &pg.Text[i]
		if !visible(r) || r.Clipped {
			continue
		}
		for _, g := range r.Glyphs {
			if !inkGlyph(g) {
				continue
			}
			k := [2]int{int(math.Round(g.Box.X0 * posGrid)), int(math.Round(g.Box.Y0 * posGrid))}
			m[k] = glyphAt{k, g.Text, g.Box}
		}
	}
	return m
}

func isDigits(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// compareDigits records digits shown at the same place before and after.
func (a *analysis) compareDigits(pageNum, rev int, before, after *paint.Page) {
	old, cur := glyphMap(before), glyphMap(after)
	var changed []glyphAt
	for k, g := range cur {
		o, ok := old[k]
		if ok && o.text != g.text && (isDigits(o.text) || isDigits(g.text)) {
			changed = append(changed, g)
		}
	}
	if len(changed) == 0 {
		return
	}
	sort.Slice(changed, func(i, j int) bool {
		if changed[i].key[1] != changed[j].key[1] {
			return changed[i].key[1] > changed[j].key[1]
		}
		return changed[i].key[0] < changed[j].key[0]
	})
	f := &a.content.numeric
	f.pages = addPage(f.pages, pageNum)
	f.revisions = addNum(f.revisions, rev)
	f.digits += len(changed)
	// A sequence is a run of changed glyphs on one line, none further than
	// two glyph heights from the previous.
	start := 0
	for i := 1; i <= len(changed); i++ {
		if i < len(changed) {
			p, c := changed[i-1], changed[i]
			if c.key[1] == p.key[1] && c.box.X0-p.box.X1 <= 2*p.box.Height() {
				continue
			}
		}
		seq := changed[start:i]
		f.sequences++
		span := seq[0].box
		for _, g := range seq[1:] {
			span = span.Union(g.box)
		}
		f.boxes = append(f.boxes, boxOf(pageNum, span))
		if len(f.values) < 4*report.MaxArray {
			f.values = append(f.values, numericValue{pageNum, report.Untrusted(lineText(old, span)), report.Untrusted(lineText(cur, span))})
		}
		start = i
	}
}

// lineText reads the digits and separators shown on the line of span,
// widened to the number around it.
func lineText(m map[[2]int]glyphAt, span paint.Rect) string {
	var on []glyphAt
	y := int(math.Round(span.Y0 * posGrid))
	reach := 3 * span.Height()
	for k, g := range m {
		if k[1] == y && g.box.X1 >= span.X0-reach && g.box.X0 <= span.X1+reach {
			on = append(on, g)
		}
	}
	sort.Slice(on, func(i, j int) bool { return on[i].key[0] < on[j].key[0] })
	var b strings.Builder
	for _, g := range on {
		if isDigits(g.text) || g.text == "." || g.text == "," || g.text == "-" {
			b.WriteString(g.text)
		}
	}
	return b.String()
}
