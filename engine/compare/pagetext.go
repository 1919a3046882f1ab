package compare

import (
	"math"
	"sort"
	"strings"
	"unicode"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// PageText is what the pages say, compared: each page's words in reading
// order, original against candidate, pages taken in order up to the shorter
// count. A figure is a word holding a digit. Words are attacker-authored
// and sanitised; boxes are in each file's page space (points, origin
// bottom left), like the report's evidence boxes.
type PageText struct {
	PagesCompared  int          `json:"pagesCompared"`
	FiguresChanged int          `json:"figuresChanged"`
	WordsChanged   int          `json:"wordsChanged"`
	Items          []TextChange `json:"items"`
	Total          int          `json:"total"`
	Truncated      bool         `json:"truncated"`
}

// TextChange is one word or figure that differs: changed (read
// differently at that place in the reading order), added or removed.
type TextChange struct {
	Page         int         `json:"page"`
	Kind         string      `json:"kind"`   // figure | word
	Change       string      `json:"change"` // changed | added | removed
	Original     string      `json:"original,omitempty"`
	Candidate    string      `json:"candidate,omitempty"`
	OriginalBox  *[4]float64 `json:"originalBox,omitempty"`
	CandidateBox *[4]float64 `json:"candidateBox,omitempty"`
}

// Bounds of the page-text comparison: pages read per file, words kept per
// page, and the cells of one page's alignment (past it the differing
// middle of the page is reported as changed word by word).
const (
	maxTextPages = 50
	maxPageWords = 20_000
	maxAlignment = 1 << 22
)

// wordGap is the space between glyphs, in ems, that parts two words:
// narrower than any font's space (a quarter em and more), wider than
// kerning.
const wordGap = 0.15

// word is one token of a page: glyphs that follow each other on a line
// with no gap wider than wordGap.
type word struct {
	text string
	box  paint.Rect
}

// pageText compares the pages' words; nil when neither file shows text
// (sealed, scanned, or no pages read).
func pageText(o, c []pdf.PageRuns) *PageText {
	n := min(len(o), len(c))
	if n == 0 {
		return nil
	}
	pt := &PageText{PagesCompared: n, Items: []TextChange{}}
	any := false
	for i := range n {
		a, b := words(o[i].Runs), words(c[i].Runs)
		any = any || len(a) > 0 || len(b) > 0
		for _, ch := range diffWords(a, b) {
			ch.Page = i + 1
			if ch.Kind == "figure" {
				pt.FiguresChanged++
			} else {
				pt.WordsChanged++
			}
			pt.Total++
			if len(pt.Items) < maxListLen {
				pt.Items = append(pt.Items, ch)
			}
		}
	}
	if !any {
		return nil
	}
	pt.Truncated = pt.Total > len(pt.Items)
	return pt
}

// words splits a page's runs into words and puts them in reading order:
// lines from the top of the page down (a word joins the line whose middle
// lies within half its height), each line left to right.
func words(runs []paint.TextRun) []word {
	var out []word
	for _, r := range runs {
		if r.Clipped {
			continue
		}
		var cur []rune
		var box paint.Rect
		var lastX1 float64
		flush := func() {
			if len(cur) > 0 && len(out) < maxPageWords {
				out = append(out, word{text: string(cur), box: box})
			}
			cur = cur[:0]
		}
		gap := math.Max(r.Size, 1) * wordGap
		for _, g := range r.Glyphs {
			// Spaces are read by their width alone: a writer that drops
			// the space glyphs and moves the next word along must give the
			// same words.
			t := strings.TrimFunc(g.Text, unicode.IsSpace)
			if t == "" {
				continue
			}
			if len(cur) > 0 && (g.Box.X0-lastX1 > gap || g.Box.X0 < box.X0-gap) {
				flush()
			}
			if len(cur) == 0 {
				box = g.Box
			} else {
				box = paint.Rect{X0: min(box.X0, g.Box.X0), Y0: min(box.Y0, g.Box.Y0), X1: max(box.X1, g.Box.X1), Y1: max(box.Y1, g.Box.Y1)}
			}
			cur = append(cur, []rune(t)...)
			lastX1 = g.Box.X1
		}
		flush()
	}
	mid := func(w word) float64 { return (w.box.Y0 + w.box.Y1) / 2 }
	sort.SliceStable(out, func(i, j int) bool { return mid(out[i]) > mid(out[j]) })
	line := make([]int, len(out))
	for i := 1; i < len(out); i++ {
		line[i] = line[i-1]
		h := math.Max(out[i].box.Y1-out[i].box.Y0, 1)
		if math.Abs(mid(out[i])-mid(out[i-1])) > h/2 {
			line[i]++
		}
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(x, y int) bool {
		i, j := idx[x], idx[y]
		if line[i] != line[j] {
			return line[i] < line[j]
		}
		if out[i].box.X0 != out[j].box.X0 {
			return out[i].box.X0 < out[j].box.X0
		}
		return out[i].text < out[j].text
	})
	// Words that touch on one line are one word whatever runs showed them:
	// writers split runs differently (kerning, a re-save by another
	// program), and a word must not change with them.
	ordered := make([]word, 0, len(out))
	for k, i := range idx {
		w := out[i]
		if k > 0 && line[i] == line[idx[k-1]] && len(ordered) > 0 {
			prev := &ordered[len(ordered)-1]
			h := math.Max(math.Max(prev.box.Y1-prev.box.Y0, w.box.Y1-w.box.Y0), 1)
			if gap := w.box.X0 - prev.box.X1; gap < wordGap*h && gap > -wordGap*h {
				prev.text += w.text
				prev.box = paint.Rect{X0: min(prev.box.X0, w.box.X0), Y0: min(prev.box.Y0, w.box.Y0), X1: max(prev.box.X1, w.box.X1), Y1: max(prev.box.Y1, w.box.Y1)}
				continue
			}
		}
		ordered = append(ordered, w)
	}
	return ordered
}

// diffWords aligns two pages' words (longest common subsequence of their
// texts after the shared start and end) and turns each stretch between
// matches into changes: as many "changed" pairs as both sides have, the
// rest added or removed.
func diffWords(a, b []word) []TextChange {
	p := 0
	for p < len(a) && p < len(b) && a[p].text == b[p].text {
		p++
	}
	s := 0
	for s < len(a)-p && s < len(b)-p && a[len(a)-1-s].text == b[len(b)-1-s].text {
		s++
	}
	a, b = a[p:len(a)-s], b[p:len(b)-s]
	var out []TextChange
	hunk := func(x, y []word) {
		for k := range max(len(x), len(y)) {
			var ch TextChange
			switch {
			case k < len(x) && k < len(y):
				ch = TextChange{Change: "changed", Original: report.Untrusted(x[k].text), Candidate: report.Untrusted(y[k].text),
					OriginalBox: boxOf(x[k].box), CandidateBox: boxOf(y[k].box)}
			case k < len(x):
				ch = TextChange{Change: "removed", Original: report.Untrusted(x[k].text), OriginalBox: boxOf(x[k].box)}
			default:
				ch = TextChange{Change: "added", Candidate: report.Untrusted(y[k].text), CandidateBox: boxOf(y[k].box)}
			}
			ch.Kind = "word"
			if hasDigit(ch.Original) || hasDigit(ch.Candidate) {
				ch.Kind = "figure"
			}
			out = append(out, ch)
		}
	}
	if len(a) == 0 && len(b) == 0 {
		return nil
	}
	if len(a)*len(b) > maxAlignment {
		hunk(a, b)
		return out
	}
	// lcs[i][j]: the common subsequence of a[i:] and b[j:], in one slice.
	w := len(b) + 1
	lcs := make([]int32, (len(a)+1)*w)
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i].text == b[j].text {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	i, j, fi, fj := 0, 0, 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i].text == b[j].text:
			hunk(a[fi:i], b[fj:j])
			i, j = i+1, j+1
			fi, fj = i, j
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			i++
		default:
			j++
		}
	}
	hunk(a[fi:], b[fj:])
	return out
}

func hasDigit(s string) bool { return strings.ContainsFunc(s, unicode.IsDigit) }

func boxOf(r paint.Rect) *[4]float64 {
	round := func(v float64) float64 { return math.Round(v*10) / 10 }
	return &[4]float64{round(r.X0), round(r.Y0), round(r.X1), round(r.Y1)}
}

// textFindings: a changed figure is at least medium (a statement's amount,
// an invoice's total); other words low.
func (r *Report) textFindings() {
	t := r.PageText
	if t == nil {
		return
	}
	pages := func(kind string) int {
		seen := map[int]bool{}
		for _, it := range t.Items {
			if (it.Kind == "figure") == (kind == "figure") {
				seen[it.Page] = true
			}
		}
		return max(len(seen), 1)
	}
	if t.FiguresChanged > 0 {
		r.add(find("figures-changed", "figures", t.FiguresChanged, "pages", pages("figure")))
	}
	if t.WordsChanged > 0 {
		r.add(find("words-changed", "words", t.WordsChanged, "pages", pages("word")))
	}
}
