package httpapi

import (
	"bytes"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/pool"
)

// containerNames lists a listing's container names in order.
func containerNames(body map[string]any) []string {
	var out []string
	cs, _ := body["containers"].([]any)
	for _, c := range cs {
		out = append(out, c.(map[string]any)["name"].(string))
	}
	return out
}

func TestMetadataMultipart(t *testing.T) {
	e := newEnv(t)
	// Text parts are ignored by /metadata: an issuer that is no slug and a
	// policy that is no policy do not refuse the call.
	mb, ct := multipartBody(t, [2]string{"issuer", "Not A Slug"}, [2]string{"policy", "[1]"}, [2]string{"file", string(pdfBytes(t))})
	resp, body, raw := e.do(t, "POST", "/api/v1/metadata", mb, map[string]string{"Content-Type": ct})
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, raw)
	}
	if body["mediaType"] != "pdf" || body["sizeBytes"] != float64(len(pdfBytes(t))) {
		t.Fatalf("listing head %v %v", body["mediaType"], body["sizeBytes"])
	}
	if names := containerNames(body); len(names) == 0 || names[0] != "File" {
		t.Fatalf("containers %v", names)
	}
	for _, k := range []string{"signals", "summary", "receipt", "id"} {
		if _, ok := body[k]; ok {
			t.Errorf("a listing carries %q", k)
		}
	}
	// Identical bytes, identical body: a listing has no id or time.
	mb, ct = multipartBody(t, [2]string{"file", string(pdfBytes(t))})
	if _, _, again := e.do(t, "POST", "/api/v1/metadata", mb, map[string]string{"Content-Type": ct}); !bytes.Equal(again, raw) {
		t.Fatal("two listings of the same bytes differ")
	}
}

func TestMetadataRawBody(t *testing.T) {
	e := newEnv(t)
	// The Content-Type never chooses the parser.
	resp, body, raw := e.do(t, "POST", "/api/v1/metadata", bytes.NewReader(pdfBytes(t)), map[string]string{"Content-Type": "image/jpeg"})
	if resp.StatusCode != 200 || body["mediaType"] != "pdf" {
		t.Fatalf("%d %s", resp.StatusCode, raw)
	}
	if resp.Header.Get("x-quota-limit") != "" {
		t.Fatal("quota headers on an anonymous call")
	}
}

func TestMetadataErrors(t *testing.T) {
	e := newEnv(t)
	pdf := string(pdfBytes(t))
	cases := []struct {
		name    string
		body    func() (io.Reader, string)
		headers map[string]string
		status  int
		code    string
	}{
		{"multipart without file", func() (io.Reader, string) { return multipartBody(t, [2]string{"issuer", "acme"}) }, nil, 400, "no_file"},
		{"empty raw body", func() (io.Reader, string) { return strings.NewReader(""), "application/pdf" }, nil, 400, "no_file"},
		{"not a document", func() (io.Reader, string) { return strings.NewReader("hello"), "application/pdf" }, nil, 422, "not_a_pdf"},
		{"raw too large", func() (io.Reader, string) { return bytes.NewReader(make([]byte, 1<<20+1)), "application/pdf" }, nil, 413, "file_too_large"},
		{"multipart file too large", func() (io.Reader, string) { return multipartBody(t, [2]string{"file", strings.Repeat("x", 1<<20+1)}) }, nil, 413, "file_too_large"},
		{"unresolvable key", func() (io.Reader, string) { return strings.NewReader(pdf), "application/pdf" }, map[string]string{"Authorization": "Bearer svc_nope"}, 401, "invalid_api_key"},
		{"malformed authorization", func() (io.Reader, string) { return strings.NewReader(pdf), "application/pdf" }, map[string]string{"Authorization": "Basic abc"}, 401, "invalid_api_key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, ct := c.body()
			h := map[string]string{"Content-Type": ct}
			for k, v := range c.headers {
				h[k] = v
			}
			resp, got, _ := e.do(t, "POST", "/api/v1/metadata", body, h)
			wantError(t, resp, got, c.status, c.code)
			if c.code == "file_too_large" && got["maxMb"] != float64(1) {
				t.Fatalf("maxMb %v", got["maxMb"])
			}
		})
	}
	if resp, got, _ := e.do(t, "GET", "/api/v1/metadata", nil, nil); resp.StatusCode != 405 && resp.StatusCode != 404 {
		t.Fatalf("GET: %d %v", resp.StatusCode, got)
	}
}

// TestMetadataMetering: a keyed listing costs one document, carries the
// quota headers and leaves a usage row without a band; a refused one is
// not counted.
func TestMetadataMetering(t *testing.T) {
	e := newEnv(t)
	a, h := e.keyed(t, plans.Free)
	resp, body, _ := e.do(t, "POST", "/api/v1/metadata", strings.NewReader("not a document"), h)
	wantError(t, resp, body, 422, "not_a_pdf")
	if got := quota(resp); got != "25 0 25 0 within" {
		t.Fatalf("headers on a refused listing: %q", got)
	}
	pdf := pdfBytes(t)
	resp, _, _ = e.do(t, "POST", "/api/v1/metadata", bytes.NewReader(pdf), h)
	if resp.StatusCode != 200 || quota(resp) != "25 1 24 0 within" {
		t.Fatalf("keyed listing: %d %q", resp.StatusCode, quota(resp))
	}
	// /inspect and /metadata draw on the one monthly counter.
	resp, _, _ = e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), h)
	if resp.StatusCode != 200 || quota(resp) != "25 2 23 0 within" {
		t.Fatalf("inspect after a listing: %d %q", resp.StatusCode, quota(resp))
	}
	rows, _ := e.store.UsageSince(t.Context(), a.ID, time.Now().Add(-time.Hour))
	if len(rows) != 2 || rows[0].Route != "metadata" || rows[0].Band != "" || rows[0].Documents != 1 || rows[0].Bytes != int64(len(pdf)) {
		t.Fatalf("usage rows %+v", rows)
	}
}

// TestMetadataAnonymousLimit: anonymous listings share the per-IP hourly
// window with inspections.
func TestMetadataAnonymousLimit(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Meter.AnonPerHour = 2 })
	pdf := pdfBytes(t)
	raw := map[string]string{"Content-Type": "application/pdf"}
	for _, path := range []string{"/api/v1/metadata", "/api/v1/inspect"} {
		if resp, _, b := e.do(t, "POST", path, bytes.NewReader(pdf), raw); resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, b)
		}
	}
	resp, body, _ := e.do(t, "POST", "/api/v1/metadata", bytes.NewReader(pdf), raw)
	wantError(t, resp, body, 429, "rate_limited")
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
}

func TestMetadataBusy(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Pool = pool.NewWaiting(1, 0, 50*time.Millisecond, 4) })
	srvPool := e.srv.Config.Handler.(*Server).cfg.Pool
	if err := srvPool.Acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	defer srvPool.Release()
	resp, body, _ := e.do(t, "POST", "/api/v1/metadata", bytes.NewReader(pdfBytes(t)), map[string]string{"Content-Type": "application/pdf"})
	wantError(t, resp, body, 503, "busy")
}
