package httpapi

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/store"
)

// SessionCookie is the session cookie's name (SPEC.md).
const SessionCookie = "svc_session"

func (s *Server) accountRoutes() {
	for pattern, h := range map[string]http.HandlerFunc{
		"POST /api/v1/auth/signup":              s.signup,
		"POST /api/v1/auth/login":               s.login,
		"POST /api/v1/auth/logout":              s.logout,
		"GET /api/v1/auth/verify":               s.verifyRedirect,
		"POST /api/v1/auth/verify":              s.verifyEmail,
		"POST /api/v1/auth/resend-verification": s.withSession(s.resendVerification),
		"POST /api/v1/auth/forgot":              s.forgot,
		"POST /api/v1/auth/reset":               s.reset,
		"GET /api/v1/session":                   s.session,
		"GET /api/v1/me":                        s.withSession(s.me),
		"POST /api/v1/keys/rotate":              s.withSession(s.rotate),
		"GET /api/v1/usage":                     s.withSession(s.usage),
	} {
		s.mux.HandleFunc(pattern, h)
	}
}

// readJSON decodes a small JSON request body into v.
func readJSON(r *http.Request, v any) error {
	err := json.NewDecoder(r.Body).Decode(v)
	var mbe *http.MaxBytesError
	switch {
	case errors.As(err, &mbe):
		return E(BodyTooLarge, "maxBytes", SmallBodyLimit)
	case errors.Is(err, io.EOF):
		return E(InvalidRequest, "message", "a JSON body is required")
	case err != nil:
		return E(InvalidRequest, "message", "the body is not the JSON object this route takes")
	}
	return nil
}

func (s *Server) setSession(w http.ResponseWriter, value string, expires time.Time) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: value, Path: "/", Expires: expires,
		MaxAge: int(time.Until(expires).Seconds()), HttpOnly: true, Secure: s.cfg.CookieSecure, SameSite: http.SameSiteLaxMode})
}

func (s *Server) clearSession(w http.ResponseWriter) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, Secure: s.cfg.CookieSecure, SameSite: http.SameSiteLaxMode})
}

func sessionValue(r *http.Request) string {
	c, err := r.Cookie(SessionCookie)
	if err != nil {
		return ""
	}
	return c.Value
}

// withSession runs h for a live session's account. A request carrying
// only a bearer key has no session: 401 not_authenticated.
func (s *Server) withSession(h func(http.ResponseWriter, *http.Request, store.Account)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		a, _, err := s.cfg.Accounts.Authenticate(r.Context(), sessionValue(r))
		if err != nil {
			s.fail(w, r, err)
			return
		}
		h(w, r, a)
	}
}

// fail answers an error of a route that has no keyed caller.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	(&reply{s: s, w: w, r: r}).error(err)
}

// newKeyBody is a key as shown once, at signup or rotation: the only
// answer that ever carries the plaintext.
func (s *Server) newKeyBody(a store.Account, k accounts.NewKey) map[string]any {
	plan, _ := s.cfg.Accounts.Plans.Get(a.Plan)
	return map[string]any{"id": k.Key.ID, "plaintext": k.Plaintext, "preview": k.Key.Preview, "plan": plan.Name, "quota": plan.Quota}
}

type credentials struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

func (s *Server) signup(w http.ResponseWriter, r *http.Request) {
	var c credentials
	if err := readJSON(r, &c); err != nil {
		s.fail(w, r, err)
		return
	}
	a, k, err := s.cfg.Accounts.Signup(r.Context(), c.Email, c.Password, clientIP(r, s.cfg.TrustedProxyHops))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The new account is signed in, so the dashboard can go on at once.
	if value, sess, err := s.cfg.Accounts.StartSession(r.Context(), a); err == nil {
		s.setSession(w, value, sess.Expires)
	}
	writeJSON(w, http.StatusCreated, map[string]any{"user": accounts.View(a), "apiKey": s.newKeyBody(a, k)})
}

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	var c credentials
	if err := readJSON(r, &c); err != nil {
		s.fail(w, r, err)
		return
	}
	value, sess, err := s.cfg.Accounts.Login(r.Context(), c.Email, c.Password, clientIP(r, s.cfg.TrustedProxyHops))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	s.setSession(w, value, sess.Expires)
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

func (s *Server) logout(w http.ResponseWriter, r *http.Request) {
	if err := s.cfg.Accounts.Logout(r.Context(), sessionValue(r)); err != nil {
		s.fail(w, r, err)
		return
	}
	s.clearSession(w)
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

// verifyRedirect sends the mailed link on to the dashboard, which confirms
// with POST; a GET consumes nothing (mail scanners follow links).
func (s *Server) verifyRedirect(w http.ResponseWriter, r *http.Request) {
	target := "/account?verified=0"
	if tok := r.URL.Query().Get("token"); tok != "" {
		target = "/account?verify=" + url.QueryEscape(tok)
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Location", target)
	w.WriteHeader(http.StatusFound)
}

func (s *Server) verifyEmail(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Token string `json:"token"`
	}
	if err := readJSON(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.cfg.Accounts.Verify(r.Context(), body.Token); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true, "verified": true})
}

func (s *Server) resendVerification(w http.ResponseWriter, r *http.Request, a store.Account) {
	if err := s.cfg.Accounts.ResendVerification(r.Context(), a); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

func (s *Server) forgot(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Email string `json:"email"`
	}
	if err := readJSON(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.cfg.Accounts.Forgot(r.Context(), body.Email, clientIP(r, s.cfg.TrustedProxyHops)); err != nil {
		s.fail(w, r, err) // only a limiter or a store outage gets here
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

func (s *Server) reset(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Token    string `json:"token"`
		Password string `json:"password"`
	}
	if err := readJSON(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	if err := s.cfg.Accounts.Reset(r.Context(), body.Token, body.Password, clientIP(r, s.cfg.TrustedProxyHops)); err != nil {
		s.fail(w, r, err)
		return
	}
	s.clearSession(w)
	writeJSON(w, http.StatusOK, map[string]any{"ok": true})
}

func (s *Server) session(w http.ResponseWriter, r *http.Request) {
	_, _, err := s.cfg.Accounts.Authenticate(r.Context(), sessionValue(r))
	if err != nil && !errors.Is(err, accounts.ErrNotAuthenticated) {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"authenticated": err == nil})
}

func (s *Server) me(w http.ResponseWriter, r *http.Request, a store.Account) {
	me, err := s.cfg.Accounts.Summary(r.Context(), a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, me)
}

func (s *Server) rotate(w http.ResponseWriter, r *http.Request, a store.Account) {
	var body struct {
		KeyID string `json:"keyId"`
	}
	if err := readJSON(r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	k, err := s.cfg.Accounts.Rotate(r.Context(), a, body.KeyID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"revokedKeyId": body.KeyID, "apiKey": s.newKeyBody(a, k)})
}

func (s *Server) usage(w http.ResponseWriter, r *http.Request, a store.Account) {
	u, err := s.cfg.Accounts.Usage(r.Context(), a)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, u)
}
