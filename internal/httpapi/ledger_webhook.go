package httpapi

import (
	"net/http"

	"github.com/doctrust/doctrust/internal/store"
)

// webhookRequest is PUT /api/v1/ap/webhook's body.
type webhookRequest struct {
	URL string `json:"url"`
}

// apSetWebhook sets or replaces the account's alert webhook: 200 {url,
// created, secret}, the signing secret shown this once; 400
// invalid_request for a URL the rules refuse (internal/webhook.CheckURL).
func (s *Server) apSetWebhook(w http.ResponseWriter, r *http.Request, a store.Account) {
	if s.cfg.Ledger == nil || s.cfg.Webhooks == nil {
		s.fail(w, r, E(IngestUnavailable))
		return
	}
	var req webhookRequest
	if err := readJSON(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	hook, err := s.cfg.Webhooks.Set(r.Context(), a.ID, req.URL)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"url": hook.URL, "created": hook.Created, "secret": hook.Secret})
}

// apDeleteWebhook removes the account's webhook: 200 {deleted: true},
// also when none was set. Events still pending are dropped.
func (s *Server) apDeleteWebhook(w http.ResponseWriter, r *http.Request, a store.Account) {
	if s.cfg.Ledger == nil || s.cfg.Webhooks == nil {
		s.fail(w, r, E(IngestUnavailable))
		return
	}
	if err := s.cfg.Webhooks.Remove(r.Context(), a.ID); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": true})
}
