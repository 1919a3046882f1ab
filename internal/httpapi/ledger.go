package httpapi

import (
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/store"
)

// IngestSecretHeader authenticates the email worker (SPEC.md).
const IngestSecretHeader = "x-service-ingest-secret"

// IngestBodyLimit is API Gateway's 10 MB payload limit, so the route
// answers the same behind it as under doctrust serve; the base64 of
// ledger.MaxMessageBytes and the JSON around it fit (a test checks).
const IngestBodyLimit = 10 << 20

func (s *Server) ledgerRoutes() {
	s.mux.HandleFunc("POST /api/v1/ap/alias", s.withSession(s.apAlias))
	s.mux.HandleFunc("GET /api/v1/ap/ledger", s.withSession(s.apLedger))
	s.mux.HandleFunc("POST /api/v1/ap/alerts/{id}/acknowledge", s.withSession(s.apAcknowledge))
	s.mux.HandleFunc("PUT /api/v1/ap/webhook", s.withSession(s.apSetWebhook))
	s.mux.HandleFunc("DELETE /api/v1/ap/webhook", s.withSession(s.apDeleteWebhook))
	s.mux.HandleFunc("POST /api/v1/ingest/email", s.ingestEmail)
}

func (s *Server) apAlias(w http.ResponseWriter, r *http.Request, a store.Account) {
	if s.cfg.Ledger == nil {
		s.fail(w, r, E(IngestUnavailable))
		return
	}
	alias, err := s.cfg.Ledger.Alias(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	body := map[string]any{"alias": alias}
	if s.cfg.IngestMailDomain != "" {
		body["address"] = alias + "@" + s.cfg.IngestMailDomain
	}
	writeJSON(w, http.StatusOK, body)
}

func (s *Server) apLedger(w http.ResponseWriter, r *http.Request, a store.Account) {
	if s.cfg.Ledger == nil {
		s.fail(w, r, E(IngestUnavailable))
		return
	}
	v, err := s.cfg.Ledger.View(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// ingestRequest is the email worker's call: the envelope recipient and the
// raw RFC 5322 message, base64.
type ingestRequest struct {
	Recipient  string `json:"recipient"`
	RawMessage string `json:"rawMessage"`
}

// ingestEmail: the secret first (503 unset, 401 wrong, compared in
// constant time), then the body (413), then ledger.Intake: the alias
// (404), its limit (429), the message (422). The sender is evidence only;
// the alias names the tenant.
func (s *Server) ingestEmail(w http.ResponseWriter, r *http.Request) {
	secret := s.cfg.IngestSecret
	if secret == "" || s.cfg.Ledger == nil {
		s.fail(w, r, E(IngestUnavailable))
		return
	}
	if subtle.ConstantTimeCompare([]byte(r.Header.Get(IngestSecretHeader)), []byte(secret)) != 1 {
		s.fail(w, r, E(InvalidIngestSecret))
		return
	}
	var req ingestRequest
	err := json.NewDecoder(r.Body).Decode(&req)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		s.fail(w, r, E(BodyTooLarge, "maxBytes", IngestBodyLimit))
		return
	case err != nil:
		s.fail(w, r, E(InvalidRequest, "message", "the body is not the JSON object this route takes"))
		return
	}
	in := ledger.Intake{Ledger: s.cfg.Ledger, Domain: s.cfg.IngestMailDomain, Limiter: s.cfg.Limiter, Workers: s.cfg.Pool}
	out, err := in.Receive(r.Context(), req.Recipient, func() ([]byte, error) {
		raw, err := base64.StdEncoding.DecodeString(req.RawMessage)
		req.RawMessage = ""
		if err != nil {
			return nil, ledger.ErrUnparseable
		}
		return raw, nil
	})
	if errors.Is(err, pool.ErrBusy) {
		s.fail(w, r, busyError())
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
