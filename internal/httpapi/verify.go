package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/doctrust/doctrust/engine/receipt"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/ratelimit"
)

// VerifyBodyLimit is receipt verification's own body cap: a report with
// every array at its cap is well under it.
const VerifyBodyLimit = 1 << 20

// VerifyRule is receipt verification's limiter (DESIGN.md: 60 a minute per key).
var VerifyRule = ratelimit.Rule{Name: "verify", Limit: 60, Window: time.Minute}

// verifyReceipt answers whether a receipt is one this service issued for
// exactly this report. It needs a key, parses no document and costs no
// quota.
func (s *Server) verifyReceipt(w http.ResponseWriter, r *http.Request) {
	rp, ok := s.resolve(w, r)
	if !ok {
		return
	}
	if !rp.caller.Keyed() {
		rp.error(metering.ErrInvalidKey)
		return
	}
	if err := s.cfg.Limiter.Allow(r.Context(), VerifyRule, rp.caller.Key.ID); err != nil {
		rp.error(err)
		return
	}
	var body struct {
		Report  json.RawMessage `json:"report"`
		Receipt *report.Receipt `json:"receipt"`
	}
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(&body); err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			rp.error(E(BodyTooLarge, "maxBytes", VerifyBodyLimit))
			return
		}
		rp.error(E(InvalidRequest, "message", "body must be a JSON object {report, receipt}"))
		return
	}
	if len(body.Report) == 0 || body.Report[0] != '{' || body.Receipt == nil {
		rp.error(E(InvalidRequest, "message", "report and receipt must both be JSON objects"))
		return
	}
	valid, reason := receipt.Verify(bytes.TrimSpace(body.Report), *body.Receipt, s.cfg.Pipeline.Secret)
	if valid {
		rp.json(http.StatusOK, map[string]any{"valid": true})
		return
	}
	rp.json(http.StatusOK, map[string]any{"valid": false, "reason": reason})
}
