package engine

import (
	"context"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Text returns up to maxBytes of the text a document shows, for readers
// of payment coordinates (the supplier ledger). PDFs only: Office text and
// images (no OCR) give "". Its only error is ErrDeadline.
func Text(ctx context.Context, data []byte, maxBytes int) (text string, err error) {
	defer func() {
		if recover() != nil {
			text, err = "", nil
		}
	}()
	s := sniff.Sniff(data)
	if s.Format.Kind() != sniff.KindPDF {
		return "", nil
	}
	t, err := pdf.Text(ctx, data, s.HeaderOffset, maxBytes)
	if err != nil {
		return "", ErrDeadline
	}
	return t, nil
}
