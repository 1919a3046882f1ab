package pdf

import (
	"context"

	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// PageRuns is what one page of the newest revision shows as text: the
// content interpreter's runs (decoded text, glyph boxes in page space) in
// paint order, and the page's MediaBox.
type PageRuns struct {
	MediaBox [4]float64
	Runs     []paint.TextRun
}

// PageText returns the text runs of the first maxPages pages of the newest
// revision, for /compare's page-text comparison. It reads under
// TextBudget, like Text; a document sealed by a real password, or without
// a catalogue, gives no pages. A fault or the deadline keeps the pages
// read so far, each whole: a page cut short by a limit is marked by its
// runs ending, not by an error.
func (d *Document) PageText(ctx context.Context, maxPages int) (pages []PageRuns, err error) {
	a := d.reading(Options{Triage: true}, min(d.limit, TextBudget))
	f := a.f
	defer func() {
		// The panic value may quote document bytes and is dropped.
		if recover() != nil {
			err = nil
		}
	}()
	if d.catalog == nil || f.Sealed() {
		return nil, nil
	}
	in := paint.New(a.paintSource(0))
	for i, p := range d.pages {
		if i == maxPages || ctx.Err() != nil || f.Err() != nil {
			break
		}
		pg := in.Page(p.dict.Get("Contents"), p.resources)
		pages = append(pages, PageRuns{MediaBox: p.mediaBox, Runs: pg.Text})
	}
	if ctx.Err() != nil {
		return pages, ErrDeadline
	}
	return pages, nil
}
