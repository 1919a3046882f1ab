package httpapi

import (
	"context"
	"errors"
	"net/http"
	"regexp"

	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/metering"
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
	s.serveDocument(w, r, "inspect", true, func(up *upload, c metering.Caller) (work, error) {
		if up.hasIssuer && !req.Triage {
			req.Issuer = up.issuer
			req.Baselines = s.resolver(c)
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

// resolver resolves an issuer for a caller: the caller's account's own
// profile first (an anonymous caller has none), then the built-in ones.
func (s *Server) resolver(c metering.Caller) analysis.Resolver {
	svc := s.cfg.Baselines
	if svc == nil {
		return nil
	}
	accountID := ""
	if c.Keyed() {
		accountID = c.Account.ID
	}
	return func(ctx context.Context, issuer string) (*baseline.Profile, string, error) {
		return svc.Resolve(ctx, accountID, issuer)
	}
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
