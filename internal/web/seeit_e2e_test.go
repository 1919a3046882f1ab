package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/config"
	"github.com/doctrust/doctrust/internal/httpapi"
)

// seeitFixtures are made by scripts/fixtures/seeit/statement.py.
const (
	genuineStatement   = "testdata/statement.pdf"
	forgedStatement    = "testdata/statement-forged.pdf"
	rewrittenStatement = "testdata/statement-rewritten.pdf"
	officeFile         = "../../../shared/corpus/office/oletools/msodde/dde-test.xlsx"
	imageFile          = "../../../shared/corpus/image/c2pa-rs/CA.jpg"
)

// TestSeeItInChromium: the inspect page renders the forged statement (an
// incremental figure edit) with pdf.js and draws each evidence box where
// the report puts it; the revision view's difference marks the edited
// figure and nothing far from it; the compare page's overlay does the same
// for a library rewrite; the document's bytes leave the page only in the
// inspect (compare) call; and all of it works 390 px wide (e2e/seeit.cjs
// reads the canvases' pixels). With SCREENSHOT_DIR set it saves the
// screenshots of docs/screenshots.
func TestSeeItInChromium(t *testing.T) {
	node, chromium, playwright := browserTools(t)
	seen := &requestLog{}
	base, _ := startRecorded(t, seen, nil)
	abs := func(p string) string {
		a, err := filepath.Abs(p)
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	raw, err := os.ReadFile(forgedStatement)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`/MediaBox \[\s*0 0 ([0-9.]+) ([0-9.]+)\s*\]`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("no MediaBox at the origin in the fixture")
	}
	// Text wholly left of the page: hidden-text's box is off the page.
	b := pdftest.OnePage("Invoice 1001")
	b.Stream(pdftest.ContentObj, "", []byte("BT /F1 24 Tf 72 700 Td (Invoice 1001) Tj ET BT /F1 12 Tf -300 400 Td (Pay to account 99 1234) Tj ET"))
	offPage := filepath.Join(t.TempDir(), "off-page.pdf")
	if err := os.WriteFile(offPage, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	// An Office file and an image from the corpus, when it is beside the
	// repository.
	var extra []string
	for name, p := range map[string]string{"OFFICE_FILE": officeFile, "IMAGE_FILE": imageFile} {
		if _, err := os.Stat(p); err == nil {
			extra = append(extra, name+"="+abs(p))
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "../../e2e/seeit.cjs")
	cmd.Env = append(os.Environ(), "BASE_URL="+base, "PLAYWRIGHT_CORE="+playwright, "CHROMIUM="+chromium,
		"FORGED_PDF="+abs(forgedStatement), "GENUINE_PDF="+abs(genuineStatement), "REWRITTEN_PDF="+abs(rewrittenStatement),
		"PAGE_W="+string(m[1]), "PAGE_H="+string(m[2]), "API_KEY="+signupKey(t, base), "OFFPAGE_PDF="+offPage)
	cmd.Env = append(cmd.Env, extra...)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "seeit e2e: ok") {
		t.Fatalf("browser test failed: %v\n%s", err, out)
	}
	// What reached the server: each file's bytes in its analysis calls
	// only (two inspections of the forged file; the compare of the genuine
	// file and its rewrite), in no other request.
	for _, c := range []struct {
		file string
		want map[string]int
	}{
		{forgedStatement, map[string]int{"POST /api/v1/inspect": 2}},
		{rewrittenStatement, map[string]int{"POST /api/v1/compare": 1}},
	} {
		b, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		if got := seen.carrying(b); !maps.Equal(got, c.want) {
			t.Errorf("requests carrying %s: %v, want %v", c.file, got, c.want)
		}
	}
}

// requestLog keeps every request's method, path and body, so the test can
// say which requests carried a document.
type requestLog struct {
	mu   sync.Mutex
	reqs []loggedRequest
}

type loggedRequest struct {
	route string
	body  []byte
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		l.mu.Lock()
		l.reqs = append(l.reqs, loggedRequest{route: r.Method + " " + r.URL.Path, body: body})
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) carrying(doc []byte) map[string]int {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[string]int{}
	for _, r := range l.reqs {
		if bytes.Contains(r.body, doc) {
			out[r.route]++
		}
	}
	return out
}

// startRecorded runs the service as startService does, with extra
// settings, every request passing through log first.
func startRecorded(t *testing.T, log *requestLog, extra map[string]string) (string, *config.Service) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	env := map[string]string{"DATA_DIR": t.TempDir(), "MAIL_OUTBOX": t.TempDir(), "PUBLIC_BASE_URL": base, "STORE": "embedded"}
	maps.Copy(env, extra)
	svc, err := config.Server(context.Background(), config.Local, func(k string) string { return env[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: log.wrap(httpapi.New(svc.HTTP)), ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	t.Cleanup(func() {
		srv.Close()
		svc.Close()
	})
	return base, svc
}

// signupKey makes an account and returns its API key (/compare takes a key).
func signupKey(t *testing.T, base string) string {
	t.Helper()
	res, err := http.Post(base+"/api/v1/auth/signup", "application/json",
		strings.NewReader(`{"email":"seeit@example.com","password":"a long password"}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		APIKey struct{ Plaintext string } `json:"apiKey"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil || out.APIKey.Plaintext == "" {
		t.Fatalf("signup: %d %v", res.StatusCode, err)
	}
	return out.APIKey.Plaintext
}
