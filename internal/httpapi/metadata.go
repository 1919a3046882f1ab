package httpapi

import (
	"context"
	"net/http"

	"github.com/doctrust/doctrust/internal/metering"
)

// metadata serves POST /api/v1/metadata: the same upload, limits, caller
// rules and metering as /inspect (one document), answered with the
// MetadataReport. Text parts and issuer or policy headers are ignored;
// ?redact=payload replaces the listed strings that carry an injection cue.
func (s *Server) metadata(w http.ResponseWriter, r *http.Request) {
	redact := r.URL.Query().Get("redact") == "payload"
	s.serveDocument(w, r, "metadata", false, func(up *upload, _ metering.Caller) (work, error) {
		return func(ctx context.Context) (*outcome, error) {
			l, err := s.cfg.Pipeline.MetadataRedacting(ctx, up.data, redact)
			if err != nil {
				return nil, err
			}
			return &outcome{body: l.Body}, nil
		}, nil
	})
}
