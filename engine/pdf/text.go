package pdf

import (
	"context"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// textBudget bounds the decompression of a text extraction: far below an
// inspection's, since only page text is wanted.
const textBudget = 64 << 20

// Text returns the text the pages of the newest revision show, one line
// per text run and a blank line between pages, cut at maxBytes. It is the
// reader of the supplier ledger's payment coordinates: no report, no
// families. Hostile files give whatever text was read before a limit, a
// fault or the deadline; the error is ErrDeadline only.
func Text(ctx context.Context, data []byte, header int, maxBytes int) (text string, err error) {
	f, err := file.Open(ctx, data, header, filters.NewBudget(textBudget))
	if err != nil {
		return "", ErrDeadline
	}
	var b strings.Builder
	defer func() {
		// A fault keeps what was read so far; the panic value may quote
		// document bytes and is dropped.
		if recover() != nil {
			text, err = b.String(), nil
		}
	}()
	a := &analysis{f: f}
	catalog := a.dict(f.Trailer().Get("Root"))
	if catalog == nil || f.Encrypted {
		return "", nil
	}
	pages, _ := walkPages(f, catalog, 0)
	in := paint.New(a.paintSource(0))
	for _, p := range pages {
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
