package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/receipt"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/accounts"
	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/mail"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/sqlite"

	"github.com/doctrust/doctrust/internal/corpustest"
)

const samplePDF = "../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf"

var secret = []byte("http-test-secret")

// forgotTime is /auth/forgot's fixed answer time in tests: long enough
// for the reset mail to be written before the answer.
const forgotTime = 250 * time.Millisecond

type env struct {
	srv    *httptest.Server
	pool   *pool.Pool
	logs   *bytes.Buffer
	store  store.Store
	data   string // the store's folder
	outbox string // MAIL_OUTBOX
}

func newEnv(t testing.TB, mutate ...func(*Config)) *env {
	t.Helper()
	logs := &bytes.Buffer{}
	p := pool.New(2, 4)
	data, outbox := t.TempDir(), t.TempDir()
	st, err := sqlite.Open(filepath.Join(data, sqlite.FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	cfg := Config{
		Pipeline: &analysis.Pipeline{Secret: secret},
		Pool:     p,
		Meter:    &metering.Meter{Store: st, Plans: plans.New(0), AnonPerHour: 1000},
		Limiter:  &ratelimit.Limiter{Store: st},
		Accounts: &accounts.Service{Store: st, Plans: plans.New(0), Limiter: &ratelimit.Limiter{Store: st},
			Mail: &mail.Outbox{Dir: outbox}, BaseURL: "http://127.0.0.1:8080", ForgotTime: forgotTime},
		MaxUploadMB:    1,
		AllowedOrigins: []string{"https://app.example"},
		Logger:         slog.New(slog.NewJSONHandler(logs, nil)),
	}
	for _, m := range mutate {
		m(&cfg)
	}
	srv := httptest.NewServer(New(cfg))
	t.Cleanup(srv.Close)
	return &env{srv: srv, pool: p, logs: logs, store: st, data: data, outbox: outbox}
}

// storeOf is the one store newEnv wires into every service of c, with all
// its methods, for a mutation that adds a service.
func storeOf(c *Config) *sqlite.Store { return c.Accounts.Store.(*sqlite.Store) }

func pdfBytes(t *testing.T) []byte {
	b, err := os.ReadFile(samplePDF)
	if err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	return b
}

func multipartBody(t *testing.T, parts ...[2]string) (*bytes.Buffer, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		if p[0] == "file" {
			fw, _ := mw.CreateFormFile("file", "statement.pdf")
			fw.Write([]byte(p[1]))
			continue
		}
		mw.WriteField(p[0], p[1])
	}
	mw.Close()
	return &b, mw.FormDataContentType()
}

func (e *env) do(t *testing.T, method, path string, body io.Reader, headers map[string]string) (*http.Response, map[string]any, []byte) {
	t.Helper()
	req, _ := http.NewRequest(method, e.srv.URL+path, body)
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	raw, _ := io.ReadAll(resp.Body)
	var m map[string]any
	if len(raw) > 0 {
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s %s: body is not JSON: %q", method, path, raw)
		}
	}
	return resp, m, raw
}

var unfilled = regexp.MustCompile(`\{[a-zA-Z]+\}`)

func wantError(t *testing.T, resp *http.Response, body map[string]any, status int, code string) {
	t.Helper()
	if resp.StatusCode != status || body["error"] != code {
		t.Fatalf("got %d %v, want %d %s", resp.StatusCode, body, status, code)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Fatalf("error content type %q", ct)
	}
	if m, _ := body["message"].(string); m == "" || unfilled.MatchString(m) {
		t.Fatalf("error %s without an English message: %v", code, body)
	}
}

func TestHealth(t *testing.T) {
	e := newEnv(t)
	resp, body, _ := e.do(t, "GET", "/api/v1/health", nil, nil)
	if resp.StatusCode != 200 || body["engineVersion"] != report.EngineVersion {
		t.Fatalf("%d %v", resp.StatusCode, body)
	}
}

func TestInspectMultipartSignsTheBody(t *testing.T) {
	e := newEnv(t)
	mb, ct := multipartBody(t, [2]string{"issuer", "acme-bank"}, [2]string{"policy", `{"reviewOn":["incremental-updates"]}`}, [2]string{"file", string(pdfBytes(t))})
	resp, body, raw := e.do(t, "POST", "/api/v1/inspect?timing=1", mb, map[string]string{"Content-Type": ct})
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, raw)
	}
	ib := body["issuerBaseline"].(map[string]any)
	if ib["requested"] != "acme-bank" || ib["resolved"] != false || ib["reason"] != "no_profile" {
		t.Fatalf("issuerBaseline %v", ib)
	}
	if body["policy"].(map[string]any)["verdict"] != "review" || body["timing"] == nil {
		t.Fatalf("policy %v timing %v", body["policy"], body["timing"])
	}
	var top map[string]json.RawMessage
	json.Unmarshal(raw, &top)
	rb := []byte(top["receipt"])
	var rc report.Receipt
	json.Unmarshal(rb, &rc)
	if ok, reason := receipt.Verify(raw, rc, secret); !ok {
		t.Fatalf("receipt: %s", reason)
	}
	if !bytes.HasSuffix(raw, append(append([]byte(`"receipt":`), rb...), '}')) {
		t.Fatal("receipt is not the last key")
	}
}

func TestInspectRawBody(t *testing.T) {
	e := newEnv(t)
	resp, body, _ := e.do(t, "POST", "/api/v1/inspect?mode=triage&redact=payload", bytes.NewReader(pdfBytes(t)),
		map[string]string{"Content-Type": "application/octet-stream", "X-Service-Issuer": "NOT A SLUG"})
	if resp.StatusCode != 200 || body["triage"] == nil || body["issuerBaseline"] != nil {
		t.Fatalf("%d triage=%v issuer=%v", resp.StatusCode, body["triage"], body["issuerBaseline"])
	}
	if body["receipt"].(map[string]any)["redacted"] != true {
		t.Fatal("redacted receipt flag not set")
	}
}

func TestInspectErrors(t *testing.T) {
	e := newEnv(t)
	pdf := string(pdfBytes(t))
	cases := []struct {
		name    string
		body    func() (io.Reader, string)
		headers map[string]string
		path    string
		status  int
		code    string
	}{
		{"multipart without file", func() (io.Reader, string) { return multipartBody(t, [2]string{"issuer", "acme"}) }, nil, "", 400, "no_file"},
		{"empty raw body", func() (io.Reader, string) { return strings.NewReader(""), "application/pdf" }, nil, "", 400, "no_file"},
		{"not a document", func() (io.Reader, string) { return strings.NewReader("hello"), "application/pdf" }, nil, "", 422, "not_a_pdf"},
		{"bad issuer part", func() (io.Reader, string) {
			return multipartBody(t, [2]string{"issuer", "Bad_Slug"}, [2]string{"file", pdf})
		}, nil, "", 422, "invalid_issuer"},
		{"bad issuer header", func() (io.Reader, string) { return strings.NewReader(pdf), "application/pdf" }, map[string]string{"X-Service-Issuer": "-x"}, "", 422, "invalid_issuer"},
		{"bad policy", func() (io.Reader, string) {
			return multipartBody(t, [2]string{"policy", `{"reject":"high"}`}, [2]string{"file", pdf})
		}, nil, "", 422, "invalid_policy"},
		{"issuer part too long", func() (io.Reader, string) {
			return multipartBody(t, [2]string{"issuer", strings.Repeat("a", 300)}, [2]string{"file", pdf})
		}, nil, "", 422, "invalid_issuer"},
		{"policy part too large", func() (io.Reader, string) {
			return multipartBody(t, [2]string{"policy", "{" + strings.Repeat(" ", 9000) + "}"}, [2]string{"file", pdf})
		}, nil, "", 422, "invalid_policy"},
		{"bad policy header", func() (io.Reader, string) { return strings.NewReader(pdf), "application/pdf" }, map[string]string{"X-Service-Policy": "[1]"}, "", 422, "invalid_policy"},
		{"raw too large", func() (io.Reader, string) { return bytes.NewReader(make([]byte, 1<<20+1)), "application/pdf" }, nil, "", 413, "file_too_large"},
		{"multipart file too large", func() (io.Reader, string) { return multipartBody(t, [2]string{"file", strings.Repeat("x", 1<<20+1)}) }, nil, "", 413, "file_too_large"},
		{"unresolvable key", func() (io.Reader, string) { return strings.NewReader(pdf), "application/pdf" }, map[string]string{"Authorization": "Bearer svc_nope"}, "", 401, "invalid_api_key"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body, ct := c.body()
			h := map[string]string{"Content-Type": ct}
			for k, v := range c.headers {
				h[k] = v
			}
			resp, got, _ := e.do(t, "POST", "/api/v1/inspect"+c.path, body, h)
			wantError(t, resp, got, c.status, c.code)
			switch c.code {
			case "file_too_large":
				if got["maxMb"] != float64(1) {
					t.Fatalf("maxMb %v", got["maxMb"])
				}
			case "invalid_policy":
				if m, _ := got["message"].(string); m == "" {
					t.Fatal("invalid_policy without a message")
				}
			}
		})
	}
}

func TestBusyWhenPoolFull(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Pool = pool.NewWaiting(1, 0, 50*time.Millisecond, 4) })
	// Occupy the only worker through the server's own pool.
	srvPool := e.srv.Config.Handler.(*Server).cfg.Pool
	if err := srvPool.Acquire(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer srvPool.Release()
	resp, body, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), map[string]string{"Content-Type": "application/pdf"})
	wantError(t, resp, body, 503, "busy")
	if resp.Header.Get("Retry-After") != "5" || body["retryAfterSeconds"] != float64(5) {
		t.Fatalf("retry %q %v", resp.Header.Get("Retry-After"), body)
	}
	// The body encoded once for every busy answer is the one the error
	// table gives, and the anonymous refusal still tells its window.
	_, want := Body(busyError())
	if len(body) != len(want) || body["message"] != want["message"] {
		t.Fatalf("busy body %v, want %v", body, want)
	}
	if resp.Header.Get("RateLimit-Limit") != "1000" || resp.Header.Get("RateLimit-Remaining") != "1000" {
		t.Fatalf("RateLimit headers %v", resp.Header)
	}
}

func TestOriginsAndCORS(t *testing.T) {
	e := newEnv(t)
	resp, body, _ := e.do(t, "GET", "/api/v1/health", nil, map[string]string{"Origin": "https://evil.example"})
	wantError(t, resp, body, 403, "origin_not_allowed")
	resp, _, _ = e.do(t, "GET", "/api/v1/health", nil, map[string]string{"Origin": "https://app.example"})
	if resp.StatusCode != 200 || resp.Header.Get("Access-Control-Allow-Origin") != "https://app.example" ||
		!strings.Contains(resp.Header.Get("Access-Control-Expose-Headers"), "x-quota-state") {
		t.Fatalf("CORS headers %v", resp.Header)
	}
	resp, _, _ = e.do(t, "OPTIONS", "/api/v1/inspect", nil, map[string]string{"Origin": "https://app.example"})
	if resp.StatusCode != 204 || !strings.Contains(resp.Header.Get("Access-Control-Allow-Headers"), "Authorization") {
		t.Fatalf("preflight %d %v", resp.StatusCode, resp.Header)
	}
}

func TestSmallBodyCapAndUnknownRoutes(t *testing.T) {
	e := newEnv(t)
	resp, body, _ := e.do(t, "POST", "/api/v1/health", bytes.NewReader(make([]byte, SmallBodyLimit+1)), map[string]string{"Content-Type": "application/json"})
	wantError(t, resp, body, 413, "body_too_large")
	if body["maxBytes"] != float64(SmallBodyLimit) {
		t.Fatalf("maxBytes %v", body["maxBytes"])
	}
	resp, body, _ = e.do(t, "GET", "/api/v1/nothing", nil, nil)
	wantError(t, resp, body, 404, "not_found")
	resp, body, _ = e.do(t, "TRACE", "/api/v1/nothing", nil, nil)
	wantError(t, resp, body, 404, "not_found")
	for _, c := range []struct{ method, path, allow string }{
		{"TRACE", "/api/v1/inspect", "POST"},
		{"GET", "/api/v1/inspect", "POST"},
		{"DELETE", "/api/v1/health", "GET, HEAD"},
		{"PUT", "/api/v1/baselines", "GET, HEAD, POST"},
		{"GET", "/api/v1/baselines/acme", "DELETE"},
	} {
		resp, body, _ = e.do(t, c.method, c.path, nil, nil)
		wantError(t, resp, body, 405, "method_not_allowed")
		if got := resp.Header.Get("Allow"); got != c.allow {
			t.Errorf("%s %s: Allow %q, want %q", c.method, c.path, got, c.allow)
		}
	}
}

// TestLogsHoldNoDocument: request logs carry method, route, status, size
// and duration only, never document bytes, names or header values.
func TestLogsHoldNoDocument(t *testing.T) {
	e := newEnv(t)
	marker := "ZQXJ-DOCUMENT-MARKER"
	pdf := strings.Replace(string(pdfBytes(t)), "%PDF-1.3", "%PDF-1.3\n%"+marker, 1)
	mb, ct := multipartBody(t, [2]string{"issuer", "marker-issuer"}, [2]string{"file", pdf})
	e.do(t, "POST", "/api/v1/inspect?redact=payload", mb, map[string]string{"Content-Type": ct, "Authorization": ""})
	logs := e.logs.String()
	for _, leak := range []string{marker, "statement.pdf", "marker-issuer", "payload", "%PDF"} {
		if strings.Contains(logs, leak) {
			t.Fatalf("log holds %q: %s", leak, logs)
		}
	}
	var line map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(logs, "\n", 2)[0]), &line); err != nil {
		t.Fatalf("log line %q", logs)
	}
	for k := range line {
		switch k {
		case "time", "level", "msg", "method", "route", "status", "bytes", "ms":
		default:
			t.Errorf("unexpected log field %q", k)
		}
	}
}

// noRedirect shows redirects to the test instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
