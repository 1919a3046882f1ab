package httpapi

import (
	"context"
	"errors"
	"math"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/ratelimit"
)

// clientIP is the peer address, or with TRUSTED_PROXY_HOPS = n > 0 the
// address the outermost of n trusted proxies saw: the n-th entry from the
// right of X-Forwarded-For. Entries further left are client-supplied and
// never trusted. In Lambda the adapter puts API Gateway's sourceIp in
// RemoteAddr, so hops stay 0 there.
func clientIP(r *http.Request, hops int) string {
	if hops > 0 {
		var chain []string
		for _, v := range r.Header.Values("X-Forwarded-For") {
			for _, p := range strings.Split(v, ",") {
				if p = strings.TrimSpace(p); p != "" {
					chain = append(chain, p)
				}
			}
		}
		if len(chain) >= hops {
			if ip := net.ParseIP(chain[len(chain)-hops]); ip != nil {
				return ip.String()
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr // API Gateway's sourceIp has no port
	}
	return host
}

// reply answers one request of a caller: every keyed response, success or
// error, carries the quota headers.
type reply struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	caller metering.Caller
	status *metering.Status // known quota state, else read on demand
	// anonMetered: the route counts anonymous calls against the hourly
	// allowance, so an anonymous answer carries the RateLimit headers.
	anonMetered bool
	// anonCounted: the anonymous call was counted in its window, so its
	// headers need a read begun after the count.
	anonCounted bool
	// window: the anonymous window as this call's own count left it.
	window *ratelimit.Window
}

// resolve identifies the caller; a presented key that does not resolve is
// answered at once with 401 and ok false.
func (s *Server) resolve(w http.ResponseWriter, r *http.Request) (*reply, bool) {
	rp := &reply{s: s, w: w, r: r}
	// SPEC.md: a header present that does not resolve never falls back
	// to anonymous. Header.Get cannot tell an empty header from none, and
	// takes the first of several: both are refused here.
	if v, present := r.Header["Authorization"]; present && (len(v) != 1 || strings.TrimSpace(v[0]) == "") {
		rp.error(metering.ErrInvalidKey)
		return nil, false
	}
	c, err := s.cfg.Meter.Resolve(r.Context(), r.Header.Get("Authorization"), clientIP(r, s.cfg.TrustedProxyHops))
	if err != nil {
		rp.error(err)
		return nil, false
	}
	rp.caller = c
	return rp, true
}

func (rp *reply) setStatus(st metering.Status) { rp.status = &st }

func (rp *reply) quotaHeaders() {
	if !rp.caller.Keyed() {
		if rp.anonMetered {
			rp.allowanceHeaders()
		}
		return
	}
	if rp.status == nil {
		st, err := rp.s.cfg.Meter.Status(rp.r.Context(), rp.caller)
		if err != nil {
			return // the answer still goes out; only its headers are missing
		}
		rp.status = &st
	}
	h, st := rp.w.Header(), rp.status
	h.Set("x-quota-limit", strconv.Itoa(st.Limit))
	h.Set("x-quota-used", strconv.Itoa(st.Used))
	h.Set("x-quota-remaining", strconv.Itoa(st.Remaining))
	h.Set("x-quota-ceiling", strconv.Itoa(st.Ceiling))
	h.Set("x-quota-state", string(st.State))
	h.Set("x-quota-credits", strconv.Itoa(st.Credits))
}

// allowanceHeaders tell an anonymous caller what is left of the hourly
// allowance (IETF draft-ietf-httpapi-ratelimit-headers, the
// RateLimit-Limit / -Remaining / -Reset form; Reset in seconds).
func (rp *reply) allowanceHeaders() {
	var win ratelimit.Window
	switch {
	case rp.window != nil:
		win = *rp.window
	case rp.anonCounted:
		w, err := rp.s.cfg.Meter.AnonWindow(rp.r.Context(), rp.caller)
		if err != nil {
			return // the answer still goes out; only its headers are missing
		}
		win = w
	default:
		w, err := rp.s.cfg.Meter.AnonWindowShared(rp.r.Context(), rp.caller)
		if err != nil {
			return
		}
		win = w
	}
	h := rp.w.Header()
	h.Set("RateLimit-Limit", strconv.Itoa(win.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(win.Remaining))
	h.Set("RateLimit-Reset", strconv.Itoa(int(math.Ceil(win.Reset.Seconds()))))
}

func (rp *reply) error(err error) {
	if apiError(err).Code == Internal && errors.Is(rp.r.Context().Err(), context.Canceled) {
		// The client went away (while queued, analysed or charged): its
		// fault, not the server's; nobody reads this answer but the log.
		err = E(InvalidRequest, "message", "the client closed the request")
	}
	var qe *metering.QuotaExceeded
	if errors.As(err, &qe) {
		// A call that lost the race for the last unit: its headers tell
		// the state its body reports, not the one seen at admission.
		rp.setStatus(qe.Status)
	}
	switch apiError(err).Code {
	case Internal:
		// Store and pipeline errors carry no document bytes; log the
		// failure so an operator sees more than a 500.
		rp.s.cfg.Logger.Error("request failed", "route", routeOf(rp.r), "err", err.Error())
	case StoreUnavailable:
		// Not a bug of the service: an outage the operator watches for.
		// No quota headers either: reading them would wait on the store
		// a second time.
		rp.s.cfg.Logger.Warn("store unavailable", "route", routeOf(rp.r), "err", err.Error())
		writeError(rp.w, err)
		return
	}
	rp.quotaHeaders()
	writeError(rp.w, err)
}

func (rp *reply) json(status int, v any) {
	rp.quotaHeaders()
	writeJSON(rp.w, status, v)
}

func (rp *reply) raw(status int, body []byte) {
	rp.quotaHeaders()
	writeRaw(rp.w, status, body)
}
