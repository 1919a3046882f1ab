package engine

import (
	"context"
	"errors"

	"github.com/doctrust/doctrust/engine/metadata"
)

// Metadata lists every metadata key of one document (the MetadataReport of
// POST /api/v1/metadata). Its errors are Inspect's: ErrUnreadable for bytes
// no walker reads, ErrDeadline when the context ends. A hostile file is a
// listing with notes, never an error.
func Metadata(ctx context.Context, data []byte, opt Options) (*metadata.Report, error) {
	r, err := metadata.List(ctx, data, metadata.Options{Budget: opt.Budget})
	switch {
	case errors.Is(err, metadata.ErrUnreadable):
		return nil, ErrUnreadable
	case err != nil:
		return nil, ErrDeadline
	}
	return r, nil
}
