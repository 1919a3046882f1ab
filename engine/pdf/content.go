package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// fullPageShare is the share of the page an image must cover to count as
// full-page.
const fullPageShare = 0.9

// contentPage is one page as the content walk saw it, handed to the
// per-page checks of the content families.
type contentPage struct {
	number int // 1-based
	page   page
	paint  *paint.Page
	media  paint.Rect
	crop   paint.Rect // CropBox clipped to MediaBox; MediaBox when absent
	// scanned is set when one image covers almost all of the page.
	scanned bool
}

// walkContent runs every page's content through the interpreter once (the
// per-page walk that triage mode skips) and hands each page to the
// per-page checks of the content families, which keep only small
// accumulators so memory does not grow with the page count.
func (a *analysis) walkContent() {
	src := a.paintSource(0)
	decode := src.Decode
	a.pageData = map[*cos.Stream][]byte{}
	defer func() { a.pageData, a.pageBlocks = nil, nil }()
	src.Decode = func(st *cos.Stream, content bool) []byte {
		data := decode(st, content)
		if content {
			a.pageData[st] = data
		}
		return data
	}
	src.PageOp = func(op []byte, args []paint.Operand) { a.pageBlocks.op(op, args) }
	src.OCOff = a.optionalContent().Off
	in := paint.New(src)
	for i, p := range a.pages {
		if a.f.Err() != nil {
			return
		}
		clear(a.pageData)
		a.pageBlocks = newBlockScan()
		pg := in.Page(p.dict.Get("Contents"), p.resources)
		cp := &contentPage{number: i + 1, page: p, paint: pg, media: paint.RectOf(p.mediaBox)}
		cp.crop = cp.media
		if p.cropBox != nil {
			cp.crop = paint.RectOf(*p.cropBox).Intersect(cp.media)
		}
		cp.scanned = fullPageImage(pg, cp.media)
		if cp.scanned {
			a.fullPageImagePages = append(a.fullPageImagePages, cp.number)
		}
		a.content.pages++
		for _, check := range pageChecks {
			check(a, cp)
		}
	}
}

// pageChecks are the per-page steps of the content families, run in order
// on every page of the newest revision.
var pageChecks = []func(*analysis, *contentPage){
	(*analysis).redactionPage,
	(*analysis).hiddenTextPage,
	(*analysis).overlayPage,
	(*analysis).annotationOverlayPage,
	(*analysis).fontPage,
	(*analysis).imagePage,
	(*analysis).geometryPage,
	(*analysis).textPatternPage,
	(*analysis).documentPage,
	(*analysis).figuresPage,
}

// fullPageImage reports an image XObject covering almost all of the page:
// the trace a scanned or flattened page leaves.
func fullPageImage(pg *paint.Page, media paint.Rect) bool {
	area := media.Area()
	if area <= 0 {
		return false
	}
	for _, im := range pg.Images {
		if !im.Inline && im.Box.Intersect(media).Area() >= fullPageShare*area {
			return true
		}
	}
	return false
}

// paintSource is the interpreter's view of revision rev (0: newest):
// objects resolve in that view, streams decode under the inspection's
// budget, and each object is attributed to the revision that wrote it.
func (a *analysis) paintSource(rev int) paint.Source {
	return paint.Source{
		Resolve: func(o cos.Object) cos.Object { return a.f.ResolveIn(o, rev) },
		Decode: func(st *cos.Stream, content bool) []byte {
			before := a.f.Budget.Used
			data, err := filters.Decode(st.Raw(a.f.Data), st.Dict, func(o cos.Object) cos.Object { return a.f.ResolveIn(o, rev) }, a.f.Budget)
			if !content {
				// summary.cost counts content, object and cross-reference
				// streams only (SPEC.md); CMaps are none of these.
				a.uncountedBytes += a.f.Budget.Used - before
			}
			if err != nil && err != filters.ErrBudget && len(data) == 0 {
				a.f.Warn.StreamErrors++
			}
			return data
		},
		Origin: func(num int) int { return a.writtenBy(num, rev) },
		Stop:   func() bool { return a.f.Deadline() != nil },
	}
}

// writtenBy returns the revision (1-based) whose own cross-reference
// section last wrote object num as revision rev (0: newest) sees the file.
func (a *analysis) writtenBy(num, rev int) int {
	k := len(a.f.Revisions)
	if rev > 0 && rev < k {
		k = rev
	}
	for ; k >= 1; k-- {
		if e, ok := a.f.Revisions[k-1].Find(num); ok && e.Kind != file.Free {
			return k
		}
	}
	return 0
}

// firstWritten returns the first revision whose own section has object
// num, or 0.
func (a *analysis) firstWritten(num int) int {
	for k, rev := range a.f.Revisions {
		if e, ok := rev.Find(num); ok && e.Kind != file.Free {
			return k + 1
		}
	}
	return 0
}

// contentFacts are what the per-page checks keep for the families.
type contentFacts struct {
	pages       int // pages walked
	redaction   redactionFacts
	hidden      hiddenFacts
	overlay     overlayFacts
	annotations annotationFacts
	fonts       fontFacts
	numeric     numericFacts
	images      imageFacts
	geometry    geometryFacts
	document    documentFacts
	figures     figureFacts
}
