package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/webhook"
)

// genPDF is a one-page PDF built in code, so the description is checked in
// a clone without the corpus too.
func genPDF(title string) []byte {
	b := pdftest.New("1.7")
	content := b.AddStream("", []byte("BT /F1 12 Tf 72 720 Td ("+title+") Tj ET"))
	font := b.Add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")
	pages := b.Add("")
	page := b.Add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << /F1 %d 0 R >> >> >>", pages, content, font))
	b.Set(pages, fmt.Sprintf("<< /Type /Pages /Kids [%d 0 R] /Count 1 >>", page))
	cat := b.Add(fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pages))
	info := b.Add("<< /Title (" + title + ") /Producer (Acrobat Distiller 9.0) >>")
	b.Trailer(fmt.Sprintf("/Root %d 0 R /Info %d 0 R", cat, info))
	return b.Bytes()
}

type apiCheck struct {
	t       *testing.T
	h       http.Handler
	router  routers.Router
	covered map[string]bool // "METHOD path template status"
	ops     map[string]bool // "METHOD path template"
}

func loadOpenAPI(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(OpenAPI())
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(t.Context()); err != nil {
		t.Fatalf("the description is not valid: %v", err)
	}
	// The description's server is relative ("/"); the router matches any
	// host without it.
	doc.Servers = nil
	return doc
}

// do sends one request to the handler and validates the answer (status,
// headers, body) against the description's operation for it.
func (c *apiCheck) do(method, path string, header map[string]string, body []byte) *httptest.ResponseRecorder {
	c.t.Helper()
	req := httptest.NewRequest(method, path, bytes.NewReader(body))
	for k, v := range header {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	c.h.ServeHTTP(rec, req)
	route, params, err := c.router.FindRoute(httptest.NewRequest(method, "http://localhost"+path, nil))
	if err != nil {
		c.t.Fatalf("%s %s is not in the description: %v", method, path, err)
	}
	c.ops[method+" "+route.Path] = true
	c.covered[fmt.Sprintf("%s %s %d", method, route.Path, rec.Code)] = true
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
		Status:                 rec.Code,
		Header:                 rec.Header(),
		Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options: &openapi3filter.Options{IncludeResponseStatus: true,
			SchemaValidationOptions: []openapi3.SchemaValidationOption{openapi3.EnableJSONSchema2020()}},
	}
	if err := openapi3filter.ValidateResponse(c.t.Context(), in); err != nil {
		c.t.Errorf("%s %s answered %d, not as described: %v\n%.300s", method, path, rec.Code, err, rec.Body.String())
	}
	return rec
}

func multipartOf(parts ...[2]string) ([]byte, string) {
	var b bytes.Buffer
	mw := multipart.NewWriter(&b)
	for _, p := range parts {
		if p[0] == "file" || p[0] == "original" || p[0] == "candidate" {
			fw, _ := mw.CreateFormFile(p[0], "doc.pdf")
			fw.Write([]byte(p[1]))
			continue
		}
		mw.WriteField(p[0], p[1])
	}
	mw.Close()
	return b.Bytes(), mw.FormDataContentType()
}

// TestOpenAPIMatchesHandlers: the embedded description is valid OpenAPI,
// served at /api/v1/openapi.json, and real answers of every operation (a
// success and the usual refusals) match it, headers and error bodies
// included.
func TestOpenAPIMatchesHandlers(t *testing.T) {
	doc := loadOpenAPI(t)
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "1.0.0" {
		t.Fatalf("openapi %s version %s", doc.OpenAPI, doc.Info.Version)
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	var cfg *Config
	e := newEnv(t, withBaselines, func(c *Config) {
		c.Webhooks = &webhook.Service{Store: storeOf(c)}
		c.Ledger = &ledger.Ledger{Store: storeOf(c), NewID: func() string { return "alert_1" }, Webhooks: c.Webhooks}
		c.IngestSecret, c.IngestMailDomain = "ingest-secret", "in.example"
		cfg = c
	})
	c := &apiCheck{t: t, h: New(*cfg), router: router, covered: map[string]bool{}, ops: map[string]bool{}}
	pdf, other := genPDF("statement"), genPDF("statement, edited")
	rawPDF := map[string]string{"Content-Type": "application/pdf"}
	jsonCT := map[string]string{"Content-Type": "application/json"}

	c.do("GET", "/api/v1/health", nil, nil)
	if rec := c.do("GET", "/api/v1/openapi.json", nil, nil); !bytes.Equal(rec.Body.Bytes(), OpenAPI()) {
		t.Error("the served description is not the embedded one")
	}

	// Analysis, anonymous.
	c.do("POST", "/api/v1/inspect", rawPDF, pdf)
	c.do("POST", "/api/v1/inspect?mode=triage&timing=1&redact=payload", rawPDF, pdf)
	mb, ct := multipartOf([2]string{"issuer", "acme-bank"}, [2]string{"policy", `{"reject":50,"reviewOn":["producer-fingerprint"]}`}, [2]string{"file", string(pdf)})
	c.do("POST", "/api/v1/inspect", map[string]string{"Content-Type": ct}, mb)
	mb, ct = multipartOf([2]string{"file", string(pdf)}, [2]string{"issuer", "acme-bank"})
	c.do("POST", "/api/v1/inspect", map[string]string{"Content-Type": ct}, mb)
	c.do("POST", "/api/v1/inspect", map[string]string{"Content-Type": "text/plain"}, []byte("plain text, not a document"))
	c.do("POST", "/api/v1/inspect", rawPDF, nil)
	c.do("POST", "/api/v1/inspect", map[string]string{"Content-Type": "application/pdf", "Authorization": "Bearer svc_unknown"}, pdf)
	c.do("POST", "/api/v1/inspect", rawPDF, bytes.Repeat([]byte("x"), 2<<20))
	c.do("POST", "/api/v1/inspect", map[string]string{"Content-Type": "application/pdf", "Origin": "https://evil.example"}, pdf)
	c.do("POST", "/api/v1/metadata", rawPDF, pdf)
	c.do("POST", "/api/v1/metadata", map[string]string{"Content-Type": "text/plain"}, []byte("plain text"))
	mb, ct = multipartOf([2]string{"original", string(pdf)}, [2]string{"candidate", string(other)})
	c.do("POST", "/api/v1/compare", map[string]string{"Content-Type": ct}, mb)

	// An account: signup, session routes, keys.
	rec := c.do("POST", "/api/v1/auth/signup", jsonCT, []byte(`{"email":"spec@example.com","password":"a long password"}`))
	var signed struct {
		APIKey struct{ ID, Plaintext string } `json:"apiKey"`
	}
	json.Unmarshal(rec.Body.Bytes(), &signed)
	cookie := ""
	for _, ck := range rec.Result().Cookies() {
		if ck.Name == SessionCookie {
			cookie = SessionCookie + "=" + ck.Value
		}
	}
	if cookie == "" || signed.APIKey.Plaintext == "" {
		t.Fatalf("signup: %d %s", rec.Code, rec.Body.String())
	}
	sess := map[string]string{"Cookie": cookie, "Content-Type": "application/json"}
	keyed := map[string]string{"Authorization": "Bearer " + signed.APIKey.Plaintext, "Content-Type": "application/pdf"}
	c.do("POST", "/api/v1/auth/signup", jsonCT, []byte(`{"email":"spec@example.com","password":"a long password"}`))
	c.do("POST", "/api/v1/auth/signup", jsonCT, []byte(`{"email":"not an address","password":"short"}`))
	c.do("POST", "/api/v1/auth/login", jsonCT, []byte(`{"email":"spec@example.com","password":"a long password"}`))
	c.do("POST", "/api/v1/auth/login", jsonCT, []byte(`{"email":"spec@example.com","password":"the wrong one"}`))
	c.do("GET", "/api/v1/session", map[string]string{"Cookie": cookie}, nil)
	c.do("GET", "/api/v1/me", sess, nil)
	c.do("GET", "/api/v1/me", map[string]string{"Authorization": keyed["Authorization"]}, nil)
	c.do("GET", "/api/v1/usage", sess, nil)
	c.do("GET", "/api/v1/auth/verify?token=abc", nil, nil)
	c.do("POST", "/api/v1/auth/verify", jsonCT, []byte(`{"token":"no-such-token"}`))
	c.do("POST", "/api/v1/auth/resend-verification", sess, nil)
	c.do("POST", "/api/v1/auth/forgot", jsonCT, []byte(`{"email":"spec@example.com"}`))
	c.do("POST", "/api/v1/auth/reset", jsonCT, []byte(`{"token":"no-such-token","password":"another long password"}`))
	rec = c.do("POST", "/api/v1/inspect", keyed, pdf)
	c.do("POST", "/api/v1/receipt/verify", map[string]string{"Authorization": keyed["Authorization"], "Content-Type": "application/json"},
		[]byte(`{"report":`+rec.Body.String()+`,"receipt":`+string(receiptOf(t, rec.Body.Bytes()))+`}`))
	c.do("POST", "/api/v1/receipt/verify", jsonCT, []byte(`{}`))
	mb, ct = multipartOf([2]string{"original", string(pdf)}, [2]string{"candidate", string(other)})
	c.do("POST", "/api/v1/compare", map[string]string{"Authorization": keyed["Authorization"], "Content-Type": ct}, mb)
	c.do("POST", "/api/v1/keys/rotate", sess, []byte(`{"keyId":"key_unknown"}`))
	c.do("POST", "/api/v1/keys/rotate", sess, []byte(`{"keyId":"`+signed.APIKey.ID+`"}`))

	// Billing is off in this configuration.
	c.do("POST", "/api/v1/billing/checkout", sess, []byte(`{"plan":"team"}`))
	c.do("POST", "/api/v1/billing/credits", sess, []byte(`{"pack":"small"}`))
	c.do("POST", "/api/v1/billing/portal", sess, nil)
	c.do("POST", "/api/v1/billing/webhook", map[string]string{"Content-Type": "application/json", "Stripe-Signature": "t=1,v1=00"}, []byte(`{}`))

	// Baselines: below Team, then on it.
	c.do("GET", "/api/v1/baselines", sess, nil)
	mb, ct = multipartOf([2]string{"issuer", "acme-bank"}, [2]string{"file", string(pdf)})
	c.do("POST", "/api/v1/baselines", map[string]string{"Cookie": cookie, "Content-Type": ct}, mb)
	c.do("DELETE", "/api/v1/baselines/acme-bank", sess, nil)
	if err := e.store.SetPlan(t.Context(), accountOf(t, e, "spec@example.com"), plans.Team); err != nil {
		t.Fatal(err)
	}
	mb, ct = multipartOf([2]string{"issuer", "acme-bank"}, [2]string{"label", "Acme Bank"}, [2]string{"file", string(pdf)}, [2]string{"file", string(other)})
	c.do("POST", "/api/v1/baselines", map[string]string{"Cookie": cookie, "Content-Type": ct}, mb)
	c.do("GET", "/api/v1/baselines", sess, nil)
	c.do("DELETE", "/api/v1/baselines/acme-bank", sess, nil)

	// Supplier ledger; ingest is off without INGEST_SECRET.
	c.do("POST", "/api/v1/ap/alias", sess, nil)
	c.do("GET", "/api/v1/ap/ledger", sess, nil)
	c.do("GET", "/api/v1/ap/ledger", nil, nil)
	// An alert to list and acknowledge (the ledger's tests raise them from mail).
	if err := e.store.AddAlert(t.Context(), store.Alert{ID: "alert_spec", AccountID: accountOf(t, e, "spec@example.com"),
		Kind: store.AlertLookalikeDomain, SupplierKey: "domain:acme.example", At: time.Now(), SenderDomain: "acme-example.com",
		Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	c.do("POST", "/api/v1/ap/alerts/alert_spec/acknowledge", sess, nil)
	c.do("GET", "/api/v1/ap/ledger", sess, nil)
	// The alert webhook: set (the secret once), listed with an outcome,
	// refused, removed.
	c.do("PUT", "/api/v1/ap/webhook", sess, []byte(`{"url":"https://hooks.example.com/doctrust"}`))
	if err := e.store.RecordDelivery(t.Context(), accountOf(t, e, "spec@example.com"), webhookID(t, e, "spec@example.com"),
		store.DeliveryOutcome{EventID: "evt_spec", At: time.Now(), State: store.DeliveryRetrying, Attempts: 1, Status: 500,
			Error: "answered 500 Internal Server Error", Next: time.Now().Add(time.Minute)}); err != nil {
		t.Fatal(err)
	}
	c.do("GET", "/api/v1/ap/ledger", sess, nil)
	c.do("PUT", "/api/v1/ap/webhook", sess, []byte(`{"url":"http://hooks.example.com/doctrust"}`))
	c.do("PUT", "/api/v1/ap/webhook", sess, []byte(`{"url":`))
	c.do("PUT", "/api/v1/ap/webhook", nil, []byte(`{"url":"https://hooks.example.com/x"}`))
	c.do("DELETE", "/api/v1/ap/webhook", sess, nil)
	c.do("DELETE", "/api/v1/ap/webhook", nil, nil)
	c.do("POST", "/api/v1/ap/alerts/alert_missing/acknowledge", sess, nil)
	c.do("POST", "/api/v1/ap/alerts/alert_spec/acknowledge", nil, nil)
	c.do("POST", "/api/v1/ingest/email", jsonCT, []byte(`{"recipient":"x@in.example","rawMessage":""}`))
	ingest := map[string]string{"Content-Type": "application/json", "x-service-ingest-secret": "ingest-secret"}
	c.do("POST", "/api/v1/ingest/email", ingest, []byte(`{"recipient":"nobody@in.example","rawMessage":"From: a@b.example\r\n\r\nhi"}`))
	c.do("POST", "/api/v1/ingest/email", ingest, []byte(`not json`))
	c.do("POST", "/api/v1/auth/logout", sess, nil)

	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !c.ops[method+" "+path] {
				t.Errorf("%s %s is described but no test answer checked it", method, path)
			}
		}
	}
}

func receiptOf(t *testing.T, body []byte) []byte {
	var r struct{ Receipt json.RawMessage }
	if err := json.Unmarshal(body, &r); err != nil || r.Receipt == nil {
		t.Fatalf("no receipt in %.200s", body)
	}
	return r.Receipt
}

func webhookID(t *testing.T, e *env, email string) string {
	w, err := e.store.Webhook(t.Context(), accountOf(t, e, email))
	if err != nil {
		t.Fatal(err)
	}
	return w.ID
}

func accountOf(t *testing.T, e *env, email string) string {
	a, err := e.store.AccountByEmail(t.Context(), email)
	if err != nil {
		t.Fatal(err)
	}
	return a.ID
}

// TestEveryRouteDescribed: each route the server registers is in the
// description (an undescribed route answers 404 through the description's
// router, never silently).
func TestEveryRouteDescribed(t *testing.T) {
	doc := loadOpenAPI(t)
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	routes := registeredRoutes()
	if len(routes) < 20 {
		t.Fatalf("found only %d route patterns in the sources", len(routes))
	}
	for _, pattern := range routes {
		method, path, _ := strings.Cut(pattern, " ")
		path = strings.ReplaceAll(path, "{issuer}", "acme-bank")
		if _, _, err := router.FindRoute(httptest.NewRequest(method, "http://localhost"+path, nil)); err != nil {
			t.Errorf("%s is served but not described", pattern)
		}
	}
}

// registeredRoutes are the API's route patterns as this package's sources
// write them (mux patterns and the account routes' table).
func registeredRoutes() []string {
	files, _ := filepath.Glob("*.go")
	re := regexp.MustCompile(`"((?:GET|POST|PUT|DELETE) /api/v1/[^"]*)"`)
	var out []string
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, _ := os.ReadFile(f)
		for _, m := range re.FindAllSubmatch(src, -1) {
			out = append(out, string(m[1]))
		}
	}
	return out
}

// TestRevisionLengthsDescribed: a PDF with an appended revision answers
// with document.revisionLengths, one length per revision, the first the
// original file's; the answer matches the description, which names the
// list (the Document schema allows unnamed keys, so matching alone would
// not catch an undescribed one).
func TestRevisionLengthsDescribed(t *testing.T) {
	doc := loadOpenAPI(t)
	items := doc.Components.Schemas["Document"].Value.Properties["revisionLengths"]
	if items == nil || !items.Value.Type.Is("array") || !items.Value.Items.Value.Type.Is("integer") {
		t.Fatal("the Document schema does not describe revisionLengths as a list of integers")
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	var cfg *Config
	newEnv(t, func(c *Config) { cfg = c })
	c := &apiCheck{t: t, h: New(*cfg), router: router, covered: map[string]bool{}, ops: map[string]bool{}}
	original := genPDF("statement")
	u := pdftest.Update(original)
	u.Add("<< /Producer (an editor) >>")
	u.Trailer(string(regexp.MustCompile(`/Root \d+ 0 R`).Find(original)))
	edited := u.Bytes()
	rec := c.do("POST", "/api/v1/inspect", map[string]string{"Content-Type": "application/pdf"}, edited)
	var r struct {
		Document struct {
			Revisions       int     `json:"revisions"`
			RevisionLengths []int64 `json:"revisionLengths"`
		} `json:"document"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	want := []int64{int64(len(original)), int64(len(edited))}
	if r.Document.Revisions != 2 || fmt.Sprint(r.Document.RevisionLengths) != fmt.Sprint(want) {
		t.Fatalf("document block: revisions %d, revisionLengths %v; want 2, %v", r.Document.Revisions, r.Document.RevisionLengths, want)
	}
}

// TestPageTextDescribed: a comparison of two PDFs whose pages say
// different things answers with pageText, matching the description, which
// names it (CompareReport, like Document, allows unnamed keys).
func TestPageTextDescribed(t *testing.T) {
	doc := loadOpenAPI(t)
	if p := doc.Components.Schemas["CompareReport"].Value.Properties["pageText"]; p == nil || p.Value.Properties["items"] == nil {
		t.Fatal("the CompareReport schema does not describe pageText")
	}
	router, err := legacy.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	var cfg *Config
	newEnv(t, func(c *Config) { cfg = c })
	c := &apiCheck{t: t, h: New(*cfg), router: router, covered: map[string]bool{}, ops: map[string]bool{}}
	rec := c.do("POST", "/api/v1/auth/signup", map[string]string{"Content-Type": "application/json"},
		[]byte(`{"email":"text@example.com","password":"a long password"}`))
	var signed struct {
		APIKey struct{ Plaintext string } `json:"apiKey"`
	}
	json.Unmarshal(rec.Body.Bytes(), &signed)
	mb, ct := multipartOf([2]string{"original", string(genPDF("Total 13,339.86"))}, [2]string{"candidate", string(genPDF("Total 99,339.86"))})
	rec = c.do("POST", "/api/v1/compare", map[string]string{"Authorization": "Bearer " + signed.APIKey.Plaintext, "Content-Type": ct}, mb)
	var r struct {
		PageText struct {
			FiguresChanged int `json:"figuresChanged"`
			Items          []struct {
				Original, Candidate string
			} `json:"items"`
		} `json:"pageText"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil {
		t.Fatal(err)
	}
	if r.PageText.FiguresChanged != 1 || len(r.PageText.Items) != 1 || r.PageText.Items[0].Candidate != "99,339.86" {
		t.Fatalf("pageText %+v in %.300s", r.PageText, rec.Body.String())
	}
}
