package httpapi

import (
	"crypto/subtle"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
)

// IngestSecretHeader authenticates the email worker (SPEC.md).
const IngestSecretHeader = "x-service-ingest-secret"

// IngestBodyLimit fits the base64 of ledger.MaxMessageBytes and the JSON
// around it.
const IngestBodyLimit = ledger.MaxMessageBytes/3*4 + 8192

// IngestRule is the per-alias ingest limit (DESIGN.md).
var IngestRule = ratelimit.Rule{Name: "ingest", Limit: 120, Window: time.Minute}

func (s *Server) ledgerRoutes() {
	s.mux.HandleFunc("POST /api/v1/ap/alias", s.withSession(s.apAlias))
	s.mux.HandleFunc("GET /api/v1/ap/ledger", s.withSession(s.apLedger))
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
// constant time), then the alias (404), its limit (429), the message
// (422). The sender is evidence only; the alias names the tenant.
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
	ctx := r.Context()
	alias, accountID, err := s.cfg.Ledger.Resolve(ctx, req.Recipient, s.cfg.IngestMailDomain)
	if errors.Is(err, ledger.ErrUnknownAlias) {
		s.fail(w, r, E(NotFound))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.cfg.Limiter.Allow(ctx, IngestRule, alias); err != nil {
		s.fail(w, r, err)
		return
	}
	raw, err := base64.StdEncoding.DecodeString(req.RawMessage)
	if err != nil {
		s.fail(w, r, E(UnparseableMessage))
		return
	}
	req.RawMessage = ""
	// Attachments are inspected: the same worker pool as uploads bounds
	// the CPU they take.
	if err := s.cfg.Pool.Acquire(ctx); err != nil {
		if errors.Is(err, pool.ErrBusy) {
			s.fail(w, r, &Error{Code: Busy, Fields: map[string]any{"retryAfterSeconds": 5}, RetryAfter: 5})
			return
		}
		s.fail(w, r, err)
		return
	}
	defer s.cfg.Pool.Release()
	out, err := s.cfg.Ledger.Ingest(ctx, accountID, raw)
	if errors.Is(err, ledger.ErrUnparseable) {
		s.fail(w, r, E(UnparseableMessage))
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}
