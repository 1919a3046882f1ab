package httpapi

import (
	"context"
	"errors"
	"net/http"
	"regexp"

	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/internal/analysis"
)

// issuerSlug is SPEC.md's issuer rule.
var issuerSlug = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,63}$`)

// inspect serves POST /api/v1/inspect: the upload with its issuer and
// policy, the query switches, and the signed report.
func (s *Server) inspect(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	req := analysis.Request{
		Redact: q.Get("redact") == "payload",
		Triage: q.Get("mode") == "triage",
		Timing: q.Get("timing") == "1",
	}
	s.serveDocument(w, r, "inspect", true, func(up *upload) (work, error) {
		if up.hasIssuer && !req.Triage {
			req.Issuer = up.issuer
		}
		if up.hasPolicy {
			p, err := policy.Parse(up.policyRaw)
			if err != nil {
				var pe *policy.Error
				msg := "policy unreadable"
				if errors.As(err, &pe) {
					msg = pe.Message
				}
				return nil, E(InvalidPolicy, "message", msg)
			}
			req.Policy = &p
		}
		req.Data = up.data
		return func(ctx context.Context) (*outcome, error) {
			res, err := s.cfg.Pipeline.Inspect(ctx, req)
			if err != nil {
				return nil, err
			}
			return &outcome{body: res.Body, band: string(res.Unredacted.Summary.RiskBand)}, nil
		}, nil
	})
}

// checkIssuer applies the slug rule; triage mode ignores the issuer.
func checkIssuer(up *upload, r *http.Request) error {
	if !up.hasIssuer || r.URL.Query().Get("mode") == "triage" {
		return nil
	}
	if !issuerSlug.MatchString(up.issuer) {
		return E(InvalidIssuer)
	}
	return nil
}
