package engine

import (
	"context"
	"errors"

	"github.com/doctrust/doctrust/engine/metadata"
	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Metadata lists every metadata key of one document (the MetadataReport of
// POST /api/v1/metadata). Its errors are Inspect's: ErrUnreadable for bytes
// no walker reads, ErrDeadline when the context ends. A hostile file is a
// listing with notes, never an error.
func Metadata(ctx context.Context, data []byte, opt Options) (*metadata.Report, error) {
	return Read(data).Metadata(ctx, opt)
}

// Metadata lists the document's metadata, as Metadata, from the parse
// other readings of the document share.
func (d *Document) Metadata(ctx context.Context, opt Options) (*metadata.Report, error) {
	src := metadata.Source{Data: d.data, Sniff: d.sniff}
	if d.Kind() == sniff.KindPDF {
		src.OpenPDF = func() (*pdf.Document, error) { return d.openPDF(ctx, opt.Budget, true) }
	}
	r, err := metadata.ListSource(ctx, src, metadata.Options{Budget: opt.Budget})
	switch {
	case errors.Is(err, metadata.ErrUnreadable):
		return nil, ErrUnreadable
	case err != nil:
		return nil, ErrDeadline
	}
	return r, nil
}
