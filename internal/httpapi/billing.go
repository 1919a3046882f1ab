package httpapi

import (
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/doctrust/doctrust/internal/store"
)

func (s *Server) billingRoutes() {
	s.mux.HandleFunc("POST /api/v1/billing/checkout", s.withSession(s.checkout))
	s.mux.HandleFunc("POST /api/v1/billing/credits", s.withSession(s.buyCredits))
	s.mux.HandleFunc("POST /api/v1/billing/portal", s.withSession(s.portal))
	s.mux.HandleFunc("POST /api/v1/billing/webhook", s.billingWebhook)
}

// checkout answers {url} of a hosted Checkout Session for a paid plan.
func (s *Server) checkout(w http.ResponseWriter, r *http.Request, a store.Account) {
	var body struct {
		Plan string `json:"plan"`
	}
	if err := readJSON(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	url, err := s.cfg.Billing.Checkout(r.Context(), a, body.Plan)
	s.sessionURL(w, r, url, err)
}

// buyCredits answers {url} of a one-time Checkout Session for a credit pack.
func (s *Server) buyCredits(w http.ResponseWriter, r *http.Request, a store.Account) {
	var body struct {
		Pack string `json:"pack"`
	}
	if err := readJSON(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	url, err := s.cfg.Billing.Credits(r.Context(), a, body.Pack)
	s.sessionURL(w, r, url, err)
}

// portal answers {url} of a Billing Portal session; it takes no body.
func (s *Server) portal(w http.ResponseWriter, r *http.Request, a store.Account) {
	url, err := s.cfg.Billing.Portal(r.Context(), a)
	s.sessionURL(w, r, url, err)
}

// sessionURL answers {url} of a session for the browser to follow, or err.
func (s *Server) sessionURL(w http.ResponseWriter, r *http.Request, url string, err error) {
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, map[string]any{"url": url})
}

// billingWebhook hands Stripe's delivery, byte for byte (the signature
// covers the exact body), to billing. 200 when the event was applied or
// needs nothing; any other status makes Stripe deliver it again. The body
// is under the small-body cap: the events handled are a few kilobytes.
func (s *Server) billingWebhook(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		var mbe *http.MaxBytesError
		if errors.As(err, &mbe) {
			err = E(BodyTooLarge, "maxBytes", SmallBodyLimit)
		}
		s.fail(w, r, err)
		return
	}
	if err := s.cfg.Billing.Webhook(r.Context(), body, stripeSignature(r)); err != nil {
		if errors.Is(err, store.ErrUnavailable) {
			// SPEC.md: a storage failure answers the webhook 500, which
			// Stripe delivers again; the log still names the cause.
			s.cfg.Logger.Warn("store unavailable", "route", routeOf(r), "err", err.Error())
			err = E(Internal)
		}
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"received": true})
}

// stripeSignature is the Stripe-Signature header ("t=…,v1=…") whole. The
// Lambda adapter splits a header that is not on its list of single-valued
// ones at each comma into several values, so they are joined back; a
// plain server delivers the one value untouched.
func stripeSignature(r *http.Request) string {
	return strings.Join(r.Header.Values("Stripe-Signature"), ",")
}
