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
func Text(ctx context.Context, data []byte, maxBytes int) (string, error) {
	return Read(data).Text(ctx, maxBytes)
}

// Text returns up to maxBytes of the text the document shows, as Text; a
// PDF already parsed by an earlier reading is not parsed again.
func (d *Document) Text(ctx context.Context, maxBytes int) (text string, err error) {
	defer func() {
		if recover() != nil {
			text, err = "", nil
		}
	}()
	switch d.Kind() {
	case sniff.KindOffice:
		t := office.Text(ctx, d.data, maxBytes)
		if ctx.Err() != nil {
			return "", ErrDeadline
		}
		return t, nil
	case sniff.KindPDF:
	default:
		return "", nil
	}
	p, err := d.openPDF(ctx, pdf.TextBudget, false)
	if err != nil {
		return "", err
	}
	t, err := p.Text(ctx, maxBytes)
	if err != nil {
		return "", ErrDeadline
	}
	return t, nil
}
