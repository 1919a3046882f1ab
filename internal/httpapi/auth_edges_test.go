package httpapi

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/store"
)

// TestAuthorizationHeaderEdges: a header present that does not resolve is
// 401 invalid_api_key, never an anonymous call (SPEC.md).
func TestAuthorizationHeaderEdges(t *testing.T) {
	e := newEnv(t)
	_, h := e.keyed(t, "free")
	pdf := pdfBytes(t)
	for name, values := range map[string][]string{
		"empty":            {""},
		"blank":            {"   "},
		"scheme, no token": {"Bearer"},
		"scheme and space": {"Bearer "},
		"two headers":      {h["Authorization"], h["Authorization"]},
		"valid then empty": {h["Authorization"], ""},
	} {
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/inspect", bytes.NewReader(pdf))
		req.Header.Set("Content-Type", "application/pdf")
		req.Header["Authorization"] = values
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 401 {
			t.Errorf("%s: %d, want 401", name, resp.StatusCode)
		}
	}
}

// raceLoser is a store in which another call takes the account's last
// unit between this call's admission and its charge.
type raceLoser struct {
	metering.Store
	once sync.Once
}

func (s *raceLoser) Charge(ctx context.Context, c store.Charge) (store.Balance, error) {
	s.once.Do(func() {
		other := c
		other.Usage.ID += "-winner"
		s.Store.Charge(ctx, other)
	})
	return s.Store.Charge(ctx, c)
}

// TestRaceLoserHeadersAgreeWithBody: the call that lost the race for the
// last unit says exhausted in its headers, as its body does.
func TestRaceLoserHeadersAgreeWithBody(t *testing.T) {
	e := newEnv(t)
	a, h := e.keyed(t, "free")
	if _, err := e.store.Charge(t.Context(), store.Charge{AccountID: a.ID, Month: store.Month(time.Now()), Documents: 24, Limit: 25,
		Usage: store.UsageRecord{ID: "use_fill", AccountID: a.ID, Route: "inspect", At: time.Now(), Documents: 24, Expires: time.Now().Add(time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	s := e.srv.Config.Handler.(*Server)
	s.cfg.Meter.Store = &raceLoser{Store: s.cfg.Meter.Store}
	resp, body, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), h)
	wantError(t, resp, body, 429, "quota_exceeded")
	if body["used"] != float64(25) || quota(resp) != "25 25 0 0 exhausted" {
		t.Fatalf("body %v, headers %q", body, quota(resp))
	}
}

// TestOriginRules: origins compare by scheme, host and port; the Host
// header vouches for nothing once a public base URL is set; a browser
// saying cross-site without an Origin is refused.
func TestOriginRules(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.PublicBaseURL = "https://doctrust.example" })
	call := func(h map[string]string, host string) int {
		req, _ := http.NewRequest("GET", e.srv.URL+"/api/v1/health", nil)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		if host != "" {
			req.Host = host
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		name   string
		origin string
		host   string
		fetch  string
		want   int
	}{
		{"public origin", "https://doctrust.example", "", "", 200},
		{"public origin, default port written", "https://DocTrust.example:443", "", "", 200},
		{"allowed origin", "https://app.example", "", "", 200},
		{"allowed host, other scheme", "http://app.example", "", "", 403},
		{"allowed host, other port", "https://app.example:8443", "", "", 403},
		{"forged Host vouching for itself", "http://evil.example", "evil.example", "", 403},
		{"cross-site without Origin", "", "", "cross-site", 403},
		{"same-site without Origin", "", "", "same-origin", 200},
		{"no browser headers", "", "", "", 200},
	} {
		h := map[string]string{}
		if c.origin != "" {
			h["Origin"] = c.origin
		}
		if c.fetch != "" {
			h["Sec-Fetch-Site"] = c.fetch
		}
		if got := call(h, c.host); got != c.want {
			t.Errorf("%s: %d, want %d", c.name, got, c.want)
		}
	}
	// Without a public base URL (a local run) the page's own origin is
	// the request's: same scheme, host and port.
	local := newEnv(t)
	req, _ := http.NewRequest("GET", local.srv.URL+"/api/v1/health", nil)
	req.Header.Set("Origin", local.srv.URL)
	if resp, err := http.DefaultClient.Do(req); err != nil || resp.StatusCode != 200 {
		t.Fatalf("local same origin: %v %v", err, resp.StatusCode)
	}
}

func TestCookieSecureFor(t *testing.T) {
	for base, want := range map[string]bool{
		"http://127.0.0.1:8080":    false,
		"http://localhost:8080":    false,
		"http://[::1]:8080":        false,
		"http://192.168.1.20:8080": true,
		"http://doctrust.example":  true,
		"https://doctrust.example": true,
		"https://127.0.0.1:8443":   true,
		"":                         true,
	} {
		if got := CookieSecureFor(base); got != want {
			t.Errorf("%q: %v, want %v", base, got, want)
		}
	}
}
