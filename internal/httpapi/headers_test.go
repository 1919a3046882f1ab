package httpapi

import (
	"bytes"
	"testing"
)

// TestSecretsAreNotCacheable: every answer that carries a key, session
// state or account data says Cache-Control: no-store (signup and rotation
// return a plaintext key; /me and /usage account data), and the public
// description stays cacheable.
func TestSecretsAreNotCacheable(t *testing.T) {
	e := newEnv(t)
	b := &browser{e: e}
	resp, body := b.call(t, "POST", "/api/v1/auth/signup", map[string]string{"email": "gail@example.com", "password": "correct horse battery"})
	if resp.StatusCode != 201 || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("signup %d Cache-Control %q", resp.StatusCode, resp.Header.Get("Cache-Control"))
	}
	keyID := body["apiKey"].(map[string]any)["id"].(string)
	for _, c := range []struct{ method, path string }{
		{"GET", "/api/v1/me"}, {"GET", "/api/v1/usage"}, {"GET", "/api/v1/session"},
		{"POST", "/api/v1/keys/rotate"}, {"POST", "/api/v1/auth/login"},
	} {
		var payload any
		switch c.path {
		case "/api/v1/keys/rotate":
			payload = map[string]string{"keyId": keyID}
		case "/api/v1/auth/login":
			payload = map[string]string{"email": "gail@example.com", "password": "correct horse battery"}
		}
		resp, _ := b.call(t, c.method, c.path, payload)
		if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-store" {
			t.Fatalf("%s %s: %d Cache-Control %q", c.method, c.path, resp.StatusCode, resp.Header.Get("Cache-Control"))
		}
	}
	// A report is the caller's too.
	resp, _, _ = e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), map[string]string{"Content-Type": "application/pdf"})
	if resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("inspect Cache-Control %q", resp.Header.Get("Cache-Control"))
	}
	resp, _, _ = e.do(t, "GET", "/api/v1/openapi.json", nil, nil)
	if cc := resp.Header.Get("Cache-Control"); cc == "no-store" || cc == "" {
		t.Fatalf("openapi.json Cache-Control %q", cc)
	}
	if h := resp.Header.Get("Strict-Transport-Security"); h != "" {
		t.Fatalf("HSTS without an https public address: %q", h)
	}
}

// TestHSTSWhenPublicURLIsHTTPS: a service whose public address is https
// tells browsers to keep to https.
func TestHSTSWhenPublicURLIsHTTPS(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.PublicBaseURL = "https://doctrust.example" })
	for _, path := range []string{"/api/v1/health", "/api/v1/session", "/account"} {
		resp, err := noRedirect.Get(e.srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if h := resp.Header.Get("Strict-Transport-Security"); h != "max-age=31536000" {
			t.Fatalf("%s: Strict-Transport-Security %q", path, h)
		}
	}
}
