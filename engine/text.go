package engine

import (
	"context"

	"github.com/doctrust/doctrust/engine/office"
	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Text returns up to maxBytes of the text a document shows, for readers
// of payment coordinates (the supplier ledger): PDF page text, and the
// text of an Office package's XML (office.Text); images (no OCR) give "".
// Its only error is ErrDeadline.
func Text(ctx context.Context, data []byte, maxBytes int) (text string, err error) {
	defer func() {
		if recover() != nil {
			text, err = "", nil
		}
	}()
	s := sniff.Sniff(data)
	switch s.Format.Kind() {
	case sniff.KindOffice:
		t := office.Text(ctx, data, maxBytes)
		if ctx.Err() != nil {
			return "", ErrDeadline
		}
		return t, nil
	case sniff.KindPDF:
	default:
		return "", nil
	}
	t, err := pdf.Text(ctx, data, s.HeaderOffset, maxBytes)
	if err != nil {
		return "", ErrDeadline
	}
	return t, nil
}
