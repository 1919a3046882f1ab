package httpapi

import (
	"net/http"

	"github.com/doctrust/doctrust/internal/store"
)

// apAcknowledge marks one of the account's ledger alerts seen: 200
// {id, acknowledged}, the first acknowledgement's time when repeated; 404
// for an alert the account does not have. The session's cross-origin rule
// applies as on every session POST.
func (s *Server) apAcknowledge(w http.ResponseWriter, r *http.Request, a store.Account) {
	if s.cfg.Ledger == nil {
		s.fail(w, r, E(IngestUnavailable))
		return
	}
	id := r.PathValue("id")
	at, err := s.cfg.Ledger.Acknowledge(r.Context(), a.ID, id)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"id": id, "acknowledged": at})
}
