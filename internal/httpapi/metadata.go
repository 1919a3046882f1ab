package httpapi

import (
	"context"
	"net/http"

	"github.com/doctrust/doctrust/internal/metering"
)

// metadata serves POST /api/v1/metadata: the same upload, limits, caller
// rules and metering as /inspect (one document), answered with the
// MetadataReport. Text parts and issuer or policy headers are ignored.
func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	s.serveDocument(w, r, "metadata", false, func(up *upload, _ metering.Caller) (work, error) {
		return func(ctx context.Context) (*outcome, error) {
			l, err := s.cfg.Pipeline.Metadata(ctx, up.data)
			if err != nil {
				return nil, err
			}
			return &outcome{body: l.Body}, nil
		}, nil
	})
}
