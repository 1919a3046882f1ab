package pdf

import (
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/paint"
	"github.com/doctrust/doctrust/engine/report"
)

// The text-pattern trace of a full re-save: a generator writes every text
// object of a page the same way (the same positioning and showing
// operators, wrapped in q/Q or not); a
// figure typed in by another tool is a text object of that tool's own
// pattern. A page counts when at least patternMinBlocks text objects show
// text, one pattern holds patternDominance of them and at least
// patternMinOther figures, and one to patternMaxOdd text objects of
// another pattern show nothing but figures. The trace alone is weak
// (generators vary their pattern for good reasons), so it is low.
const (
	patternMinBlocks = 8
	patternDominance = 0.7
	patternMinOther  = 2
	patternMaxOdd    = 3
	maxPatternPages  = 50      // pages whose content is read again
	maxPatternBytes  = 1 << 20 // decoded content bytes per page
	maxPatternBlocks = 20000   // text objects per page
)

// textBlock is one BT ... ET object of the page's own content streams.
type textBlock struct {
	pattern string
	runs    []int // indices of the paint runs its show operators made
}

// textPatternPage reads the page's content again, operator by operator,
// and matches its show operators with the runs the interpreter made.
func (a *analysis) textPatternPage(cp *contentPage) {
	f := &a.content.numeric
	if f.patternPages >= maxPatternPages || cp.paint.Truncated {
		return
	}
	// The runs of the page's own streams, in paint order; forms run their
	// own streams and are left out.
	var runs []int
	figures := 0
	for i := range cp.paint.Text {
		if r := &cp.paint.Text[i]; !r.Form {
			runs = append(runs, i)
			if _, ok := figureText(strings.TrimSpace(r.Text)); ok {
				figures++
			}
		}
	}
	if figures < patternMinOther+1 {
		return
	}
	f.patternPages++
	data := a.pageContent(cp.page)
	if len(data) == 0 {
		return
	}
	blocks, shows, ok := scanTextBlocks(data)
	if !ok || shows != len(runs) {
		return // a show the interpreter skipped: the mapping is lost
	}
	for i := range blocks {
		for k := range blocks[i].runs {
			blocks[i].runs[k] = runs[blocks[i].runs[k]]
		}
	}
	a.judgePattern(cp, blocks)
}

// judgePattern finds the dominant pattern and the figure-only objects
// outside it.
func (a *analysis) judgePattern(cp *contentPage, blocks []textBlock) {
	count := map[string]int{}
	shown := 0
	for _, b := range blocks {
		if len(b.runs) > 0 {
			count[b.pattern]++
			shown++
		}
	}
	if shown < patternMinBlocks {
		return
	}
	usual, best := "", 0
	for p, n := range count {
		if n > best || (n == best && p < usual) {
			usual, best = p, n
		}
	}
	if float64(best) < patternDominance*float64(shown) {
		return
	}
	isFigure := func(b textBlock) bool {
		for _, i := range b.runs {
			d, ok := figureText(strings.TrimSpace(cp.paint.Text[i].Text))
			if !ok || d < figureMinDigits {
				return false
			}
		}
		return true
	}
	usualFigures := 0
	var odd []textBlock
	for _, b := range blocks {
		if len(b.runs) == 0 || !isFigure(b) {
			continue
		}
		if b.pattern == usual {
			usualFigures++
		} else {
			odd = append(odd, b)
		}
	}
	if len(odd) == 0 || len(odd) > patternMaxOdd || usualFigures < patternMinOther {
		return
	}
	f := &a.content.numeric
	f.patternRuns += len(odd)
	f.patternPagesHit = addPage(f.patternPagesHit, cp.number)
	if len(f.patternUsual) < 4*report.MaxArray {
		f.patternUsual = append(f.patternUsual, usual)
		f.patternOdd = append(f.patternOdd, odd[0].pattern)
	}
	for _, b := range odd {
		span := cp.paint.Text[b.runs[0]].Box
		for _, i := range b.runs[1:] {
			span = span.Union(cp.paint.Text[i].Box)
		}
		f.patternBoxes = append(f.patternBoxes, boxOf(cp.number, span))
	}
}

// pageContent decodes the page's own content streams, outside the
// inspection's cost (the walk already counted them once).
func (a *analysis) pageContent(p page) []byte {
	c := p.dict.Get("Contents")
	parts := []cos.Object{c}
	if arr, ok := a.resolve(c).(cos.Array); ok {
		parts = arr
	}
	var data []byte
	for _, part := range parts {
		st, ok := a.resolve(part).(*cos.Stream)
		if !ok {
			continue
		}
		d, ok := a.pageData[st]
		if !ok {
			before := a.f.Budget.Used
			d = a.decodeContent(st)
			a.uncountedBytes += a.f.Budget.Used - before
		}
		if len(data)+len(d) > maxPatternBytes {
			return nil
		}
		data = append(data, d...)
		data = append(data, '\n')
	}
	return data
}

// scanTextBlocks splits content into text objects and names each one's
// pattern; shows counts the show operators that make a run (a font set,
// at least one byte to show), numbered in order into the blocks' runs.
func scanTextBlocks(data []byte) (blocks []textBlock, shows int, ok bool) {
	var sc paint.Scanner
	ok = true
	in := false
	font := false
	prev := ""
	var ops map[string]bool
	var cur textBlock
	sc.Scan(data, paint.MaxOperands, func(opb []byte, args []paint.Operand) bool {
		op := string(opb)
		switch op {
		case "BT":
			in = true
			ops = map[string]bool{}
			if prev == "q" {
				ops["q"] = true
			}
			cur = textBlock{}
		case "ET":
			if in {
				cur.pattern = patternOf(ops)
				blocks = append(blocks, cur)
				if len(blocks) > maxPatternBlocks {
					ok = false
					return false
				}
			}
			in = false
		case "Tf":
			font = true
		case "Td", "TD", "Tm", "T*":
			if in {
				ops[op] = true
			}
		case "Tj", "'", "\"", "TJ":
			if !in {
				break
			}
			// TJ with or without adjustments is one habit: kerning follows
			// the letters shown, not the writer.
			n := showBytes(op, args)
			ops[op] = true
			if font && n > 0 {
				cur.runs = append(cur.runs, shows)
				shows++
			}
		}
		prev = op
		return true
	})
	return blocks, shows, ok
}

// showBytes counts the bytes a show operator shows.
func showBytes(op string, args []paint.Operand) (n int) {
	if len(args) == 0 {
		return 0
	}
	last := args[len(args)-1]
	if op != "TJ" {
		if last.Kind == paint.String {
			return len(last.Bytes)
		}
		return 0
	}
	if last.Kind != paint.Array {
		return 0
	}
	for _, e := range last.Elems {
		if e.Kind == paint.String {
			n += len(e.Bytes)
		}
	}
	return n
}

func patternOf(ops map[string]bool) string {
	names := make([]string, 0, len(ops))
	for k := range ops {
		names = append(names, k)
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}
