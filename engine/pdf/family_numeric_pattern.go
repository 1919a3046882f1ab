package pdf

import (
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
	maxPatternPages  = 50      // pages whose text objects are judged
	maxPatternBytes  = 1 << 20 // decoded content bytes per page
	maxPatternBlocks = 20000   // text objects per page
)

// textBlock is one BT ... ET object of the page's own content streams.
type textBlock struct {
	pattern string
	runs    []int // indices of the paint runs its show operators made
}

// textPatternPage takes the page's text objects, read from its operators
// as the walk's interpreter ran them (or, for a page of several content
// streams, from a second scan of its content), and
// matches their show operators with the runs the interpreter made.
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
	var blocks []textBlock
	var shows int
	ok := true
	if size, walked := a.walkedContentSize(cp.page); walked {
		// The walk's interpreter fed the page's operators to a.pageBlocks.
		if size == 0 || size > maxPatternBytes {
			return
		}
		blocks, shows, ok = a.pageBlocks.blocks, a.pageBlocks.shows, a.pageBlocks.ok
	} else {
		data := a.pageContent(cp.page)
		if len(data) == 0 {
			return
		}
		blocks, shows, ok = scanTextBlocks(data)
	}
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

// walkedContentSize returns the size pageContent would give the page's
// content, and whether a.pageBlocks holds what scanTextBlocks would find
// in it: the page has one content stream and the walk's interpreter
// decoded it. With several streams the interpreter reads each on its own
// while the scan reads them joined, and the two differ where a stream
// ends inside an operand (an array split between two streams, which
// PDF allows), so such pages get the scan.
func (a *analysis) walkedContentSize(p page) (size int, walked bool) {
	c := p.dict.Get("Contents")
	parts := []cos.Object{c}
	if arr, ok := a.resolve(c).(cos.Array); ok {
		parts = arr
	}
	var only *cos.Stream
	for _, part := range parts {
		if st, ok := a.resolve(part).(*cos.Stream); ok {
			if only != nil {
				return 0, false
			}
			only = st
		}
	}
	if only == nil {
		return 0, true
	}
	d, ok := a.pageData[only]
	if !ok {
		return 0, false
	}
	if len(d) > maxPatternBytes {
		return maxPatternBytes + 1, true
	}
	return len(d) + 1, true
}

// scanTextBlocks splits content into text objects and names each one's
// pattern; shows counts the show operators that make a run (a font set,
// at least one byte to show), numbered in order into the blocks' runs.
func scanTextBlocks(data []byte) (blocks []textBlock, shows int, ok bool) {
	var sc paint.Scanner
	bs := newBlockScan()
	sc.Scan(data, paint.MaxOperands, bs.op)
	return bs.blocks, bs.shows, bs.ok
}

// blockScan is scanTextBlocks' state, fed one operator at a time: by a
// scan of the content or by the walk's interpreter (paint.Source.PageOp).
type blockScan struct {
	blocks []textBlock
	shows  int
	ok     bool
	in     bool
	font   bool
	prev   string
	ops    uint16 // bits of patternOps seen in the current text object
	cur    textBlock
}

func newBlockScan() *blockScan { return &blockScan{ok: true} }

// op takes the next operator; false once the page holds too many text
// objects to judge.
func (b *blockScan) op(opb []byte, args []paint.Operand) bool {
	if !b.ok {
		return false
	}
	op := string(opb)
	switch op {
	case "BT":
		b.in = true
		b.ops = 0
		if b.prev == "q" {
			b.ops = patternBit("q")
		}
		b.cur = textBlock{}
	case "ET":
		if b.in {
			b.cur.pattern = patternOf(b.ops)
			b.blocks = append(b.blocks, b.cur)
			if len(b.blocks) > maxPatternBlocks {
				b.ok = false
				return false
			}
		}
		b.in = false
	case "Tf":
		b.font = true
	case "Td", "TD", "Tm", "T*":
		if b.in {
			b.ops |= patternBit(op)
		}
	case "Tj", "'", "\"", "TJ":
		if !b.in {
			break
		}
		// TJ with or without adjustments is one habit: kerning follows
		// the letters shown, not the writer.
		n := showBytes(op, args)
		b.ops |= patternBit(op)
		if b.font && n > 0 {
			b.cur.runs = append(b.cur.runs, b.shows)
			b.shows++
		}
	}
	b.prev = op
	return true
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

func patternOf(ops uint16) string {
	var names []string
	for i, name := range patternOps {
		if ops&(1<<i) != 0 {
			names = append(names, name)
		}
	}
	return strings.Join(names, " ")
}

// patternOps are the operators a text object's pattern names, in byte
// order (the order the pattern lists them).
var patternOps = [...]string{`"`, "'", "T*", "TD", "TJ", "Td", "Tj", "Tm", "q"}

// patternBit is op's bit in a set of patternOps.
func patternBit(op string) uint16 {
	for i, name := range patternOps {
		if name == op {
			return 1 << i
		}
	}
	return 0
}
