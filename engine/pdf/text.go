package pdf

import (
	"context"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// TextBudget bounds the decompression of a text extraction: far below an
// inspection's, since only page text is wanted. A document opened for its
// text alone is opened under it.
const TextBudget = 64 << 20

// Text opens a PDF under TextBudget and returns its text (Document.Text).
func Text(ctx context.Context, data []byte, header int, maxBytes int) (string, error) {
	d, err := Open(ctx, data, header, TextBudget)
	if err != nil {
		return "", err
	}
	return d.Text(ctx, maxBytes)
}

// Text returns the text the pages of the newest revision show, one line
// per text run and a blank line between pages, cut at maxBytes. It is the
// reader of the supplier ledger's payment coordinates: no report, no
// families. A document encrypted for permissions only (the empty user or
// owner password opens it, as most bank statements and many invoices) is
// read like any other: its pages show this text to anyone who opens it.
// SPEC.md's rule for encrypted documents is about the report's families,
// which Analyze keeps; a document that needs a real password gives "".
// Hostile files give whatever text was read before a limit, a fault or the
// deadline; the error is ErrDeadline only.
func (d *Document) Text(ctx context.Context, maxBytes int) (text string, err error) {
	a := d.reading(Options{Triage: true}, min(d.limit, TextBudget))
	f := a.f
	var b strings.Builder
	defer func() {
		// A fault keeps what was read so far; the panic value may quote
		// document bytes and is dropped.
		if recover() != nil {
			text, err = b.String(), nil
		}
	}()
	if d.catalog == nil || f.Sealed() {
		return "", nil
	}
	in := paint.New(a.paintSource(0))
	for _, p := range d.pages {
		if ctx.Err() != nil || f.Err() != nil {
			break
		}
		pg := in.Page(p.dict.Get("Contents"), p.resources)
		for _, run := range pg.Text {
			if b.Len()+len(run.Text)+1 > maxBytes {
				return b.String(), nil
			}
			b.WriteString(run.Text)
			b.WriteByte('\n')
		}
		b.WriteByte('\n')
	}
	if ctx.Err() != nil && b.Len() == 0 {
		return "", ErrDeadline
	}
	return b.String(), nil
}
