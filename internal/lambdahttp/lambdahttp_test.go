package lambdahttp

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"
	"github.com/doctrust/doctrust/internal/apikey"
	"github.com/doctrust/doctrust/internal/ddblocal"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/dynamodb"

	"github.com/doctrust/doctrust/internal/corpustest"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func loadEvent(t *testing.T, name string) events.APIGatewayV2HTTPRequest {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var ev events.APIGatewayV2HTTPRequest
	if err := json.Unmarshal(b, &ev); err != nil {
		t.Fatal(err)
	}
	return ev
}

func TestMain(m *testing.M) { ddblocal.Main(m) }

var prefixes atomic.Int64

// lambdaEnv is a function's environment against DynamoDB Local, with
// tables of its own.
func lambdaEnv(t *testing.T) map[string]string {
	return map[string]string{
		"DYNAMODB_ENDPOINT": ddblocal.Endpoint(t),
		"TABLE_PREFIX":      fmt.Sprintf("lambda%d_%d_", time.Now().UnixNano()%1e6, prefixes.Add(1)),
		"RECEIPT_SECRET":    "lambda-test",
	}
}

func handlerFor(t *testing.T, vars map[string]string) Handler {
	t.Helper()
	h, err := New(env(vars))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func handler(t *testing.T) Handler { return handlerFor(t, lambdaEnv(t)) }

func TestHealthEvent(t *testing.T) {
	resp, err := handler(t)(context.Background(), loadEvent(t, "apigw-v2-health.json"))
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %d %s", err, resp.StatusCode, resp.Body)
	}
}

// TestInspectBase64Multipart: a PDF uploaded as multipart arrives base64
// encoded in the event and must reach the engine byte for byte.
func TestInspectBase64Multipart(t *testing.T) {
	pdf, err := os.ReadFile("../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf")
	if err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("issuer", "acme-bank")
	fw, _ := mw.CreateFormFile("file", "statement.pdf")
	fw.Write(pdf)
	mw.Close()
	ev := loadEvent(t, "apigw-v2-inspect.json")
	ev.Headers["content-type"] = mw.FormDataContentType()
	ev.Headers["content-length"] = strconv.Itoa(body.Len())
	ev.Body = base64.StdEncoding.EncodeToString(body.Bytes())

	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	resp, err := handler(t)(ctx, ev)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %d %s", err, resp.StatusCode, resp.Body)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(resp.Body), &r); err != nil {
		t.Fatal(err)
	}
	doc := r["document"].(map[string]any)
	if doc["sizeBytes"] != float64(len(pdf)) || doc["revisions"] != float64(2) {
		t.Fatalf("upload did not arrive intact: %v", doc)
	}
	if r["receipt"].(map[string]any)["redacted"] != true || r["timing"] == nil || r["issuerBaseline"] == nil {
		t.Fatalf("query and parts not honoured: %v", r)
	}
}

// TestDeadlineReservesTimeToAnswer: the analysis deadline sits under the
// function's, so the client gets a 422 rather than a killed function.
func TestDeadlineReservesTimeToAnswer(t *testing.T) {
	ev := loadEvent(t, "apigw-v2-inspect.json")
	ev.Headers["content-type"] = "application/pdf"
	ev.Body = base64.StdEncoding.EncodeToString([]byte("%PDF-1.7\n"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Second) // less than the reserve
	defer cancel()
	resp, err := handler(t)(ctx, ev)
	if err != nil || resp.StatusCode != 422 || !bytes.Contains([]byte(resp.Body), []byte(`"analysis_timeout"`)) {
		t.Fatalf("%v %d %s", err, resp.StatusCode, resp.Body)
	}
}

// TestKeyedCallAndReceiptAcrossInstances: two instances of the function
// share the DynamoDB tables and, with RECEIPT_SECRET unset, the receipt
// secret generated into them. A keyed inspection on one instance is
// metered (quota headers) and its receipt verifies on the other.
func TestKeyedCallAndReceiptAcrossInstances(t *testing.T) {
	pdf, err := os.ReadFile("../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf")
	if err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	vars := lambdaEnv(t)
	delete(vars, "RECEIPT_SECRET")
	one, two := handlerFor(t, vars), handlerFor(t, vars)

	st, a, plain := keyedAccount(t, vars, "acct_lambda", "lambda@example.com", "team", "key_lambda")

	ev := loadEvent(t, "apigw-v2-inspect.json")
	ev.RawQueryString, ev.QueryStringParameters = "", nil
	ev.Headers["content-type"] = "application/pdf"
	ev.Headers["content-length"] = strconv.Itoa(len(pdf))
	ev.Headers["authorization"] = "Bearer " + plain
	ev.Body = base64.StdEncoding.EncodeToString(pdf)
	resp, err := one(t.Context(), ev)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %d %s", err, resp.StatusCode, resp.Body)
	}
	if header(resp, "x-quota-limit") != "10000" || header(resp, "x-quota-used") != "1" || header(resp, "x-quota-state") != "within" {
		t.Fatalf("quota headers %v", resp.Headers)
	}
	var rep map[string]json.RawMessage
	json.Unmarshal([]byte(resp.Body), &rep)
	body, _ := json.Marshal(map[string]json.RawMessage{"report": json.RawMessage(resp.Body), "receipt": rep["receipt"]})
	vev := loadEvent(t, "apigw-v2-verify.json")
	vev.Headers["authorization"] = "Bearer " + plain
	vev.Headers["content-length"] = strconv.Itoa(len(body))
	vev.Body = string(body)
	vresp, err := two(t.Context(), vev)
	if err != nil || vresp.StatusCode != 200 || !strings.Contains(vresp.Body, `"valid":true`) {
		t.Fatalf("verify on the other instance: %v %d %s", err, vresp.StatusCode, vresp.Body)
	}
	if header(vresp, "x-quota-used") != "1" {
		t.Fatalf("verification was metered: %v", vresp.Headers)
	}
	// The call left one usage row, kept 400 days.
	rows, err := st.UsageSince(t.Context(), a.ID, time.Now().Add(-time.Hour))
	if err != nil || len(rows) != 1 || rows[0].Bytes != int64(len(pdf)) || rows[0].Expires.Before(time.Now().Add(399*24*time.Hour)) {
		t.Fatalf("usage rows %+v %v", rows, err)
	}
	// An unknown key is refused, never served anonymously.
	ev.Headers["authorization"] = "Bearer svc_unknown"
	if resp, _ := one(t.Context(), ev); resp.StatusCode != 401 || !strings.Contains(resp.Body, "invalid_api_key") {
		t.Fatalf("unknown key: %d %s", resp.StatusCode, resp.Body)
	}
}

// TestAnonymousLimitPerSourceIP: the anonymous hourly limit is counted in
// the shared tables against API Gateway's sourceIp, so a second instance
// sees the first one's calls.
func TestAnonymousLimitPerSourceIP(t *testing.T) {
	vars := lambdaEnv(t)
	vars["ANON_LIMIT_PER_HOUR"] = "1"
	one, two := handlerFor(t, vars), handlerFor(t, vars)
	ev := loadEvent(t, "apigw-v2-inspect.json")
	ev.Headers["content-type"] = "application/pdf"
	ev.Body = base64.StdEncoding.EncodeToString([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF"))
	if resp, _ := one(t.Context(), ev); resp.StatusCode != 200 {
		t.Fatalf("first call: %d %s", resp.StatusCode, resp.Body)
	}
	resp, _ := two(t.Context(), ev)
	if resp.StatusCode != 429 || !strings.Contains(resp.Body, `"rate_limited"`) || header(resp, "Retry-After") == "" {
		t.Fatalf("second call from the same sourceIp: %d %s %v", resp.StatusCode, resp.Body, resp.Headers)
	}
	ev.RequestContext.HTTP.SourceIP = "198.51.100.8"
	if resp, _ := two(t.Context(), ev); resp.StatusCode != 200 {
		t.Fatalf("another sourceIp: %d %s", resp.StatusCode, resp.Body)
	}
}

// header reads a response header whatever its case.
func header(resp events.APIGatewayV2HTTPResponse, name string) string {
	for k, v := range resp.Headers {
		if strings.EqualFold(k, name) {
			return v
		}
	}
	return ""
}

// event reshapes the recorded API Gateway v2 event into another route.
func event(t *testing.T, method, path, body string, cookies []string) events.APIGatewayV2HTTPRequest {
	ev := loadEvent(t, "apigw-v2-inspect.json")
	ev.RouteKey, ev.RawPath, ev.RawQueryString, ev.QueryStringParameters = method+" "+path, path, "", nil
	ev.RequestContext.RouteKey, ev.RequestContext.HTTP.Method, ev.RequestContext.HTTP.Path = ev.RouteKey, method, path
	ev.Headers["content-type"] = "application/json"
	ev.Headers["content-length"] = strconv.Itoa(len(body))
	ev.Body, ev.IsBase64Encoded, ev.Cookies = body, false, cookies
	return ev
}

// TestAccountsFunction: signup, the session cookie and /me through the
// accounts function's handler on DynamoDB; a second instance sees the
// session and the key.
func TestAccountsFunction(t *testing.T) {
	vars := lambdaEnv(t)
	one, two := handlerFor(t, vars), handlerFor(t, vars)
	resp, err := one(t.Context(), event(t, "POST", "/api/v1/auth/signup", `{"email":"ivy@example.com","password":"correct horse battery"}`, nil))
	if err != nil || resp.StatusCode != 201 || len(resp.Cookies) != 1 {
		t.Fatalf("signup: %v %d %s cookies %v", err, resp.StatusCode, resp.Body, resp.Cookies)
	}
	cookie := strings.SplitN(resp.Cookies[0], ";", 2)[0]
	if !strings.HasPrefix(cookie, "svc_session=") || !strings.Contains(resp.Cookies[0], "Secure") || !strings.Contains(resp.Cookies[0], "HttpOnly") {
		t.Fatalf("cookie %q", resp.Cookies[0])
	}
	var signup struct {
		APIKey struct{ Plaintext, ID string } `json:"apiKey"`
	}
	json.Unmarshal([]byte(resp.Body), &signup)
	me, err := two(t.Context(), event(t, "GET", "/api/v1/me", "", []string{cookie}))
	if err != nil || me.StatusCode != 200 || !strings.Contains(me.Body, `"email":"ivy@example.com"`) || !strings.Contains(me.Body, signup.APIKey.ID) {
		t.Fatalf("me on another instance: %v %d %s", err, me.StatusCode, me.Body)
	}
	// The same address again is a conflict, whichever instance answers.
	dup, _ := two(t.Context(), event(t, "POST", "/api/v1/auth/signup", `{"email":"IVY@example.com","password":"correct horse battery"}`, nil))
	if dup.StatusCode != 409 || !strings.Contains(dup.Body, "email_taken") {
		t.Fatalf("duplicate signup: %d %s", dup.StatusCode, dup.Body)
	}
	rot, _ := one(t.Context(), event(t, "POST", "/api/v1/keys/rotate", `{"keyId":"`+signup.APIKey.ID+`"}`, []string{cookie}))
	if rot.StatusCode != 200 {
		t.Fatalf("rotate: %d %s", rot.StatusCode, rot.Body)
	}
	out, _ := two(t.Context(), event(t, "POST", "/api/v1/auth/logout", "", []string{cookie}))
	if out.StatusCode != 200 {
		t.Fatalf("logout: %d", out.StatusCode)
	}
	if me, _ := one(t.Context(), event(t, "GET", "/api/v1/me", "", []string{cookie})); me.StatusCode != 401 {
		t.Fatalf("me after logout: %d %s", me.StatusCode, me.Body)
	}
}

// TestMetadataEvent: the metadata function's handler takes a base64
// multipart upload anonymously and a raw body with a key, metered as one
// document each.
func TestMetadataEvent(t *testing.T) {
	jpeg, err := os.ReadFile("../../../shared/corpus/image/exiftool/Canon1DmkIII.jpg")
	if err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	vars := lambdaEnv(t)
	h := handlerFor(t, vars)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("issuer", "Not A Slug") // ignored by /metadata
	fw, _ := mw.CreateFormFile("file", "photo.jpg")
	fw.Write(jpeg)
	mw.Close()
	ev := loadEvent(t, "apigw-v2-metadata.json")
	ev.Headers["content-type"] = mw.FormDataContentType()
	ev.Headers["content-length"] = strconv.Itoa(body.Len())
	ev.Body = base64.StdEncoding.EncodeToString(body.Bytes())
	resp, err := h(t.Context(), ev)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %d %s", err, resp.StatusCode, resp.Body)
	}
	var r struct {
		MediaType  string `json:"mediaType"`
		SizeBytes  int    `json:"sizeBytes"`
		Containers []struct {
			Name    string
			Entries []struct{ Key, Value string }
		}
	}
	if err := json.Unmarshal([]byte(resp.Body), &r); err != nil {
		t.Fatal(err)
	}
	if r.MediaType != "image" || r.SizeBytes != len(jpeg) || !strings.Contains(resp.Body, `"value":"Canon EOS-1D Mark III"`) {
		t.Fatalf("upload did not arrive intact: %s", resp.Body[:min(400, len(resp.Body))])
	}

	st, a, plain := keyedAccount(t, vars, "acct_meta", "meta@example.com", "solo", "key_meta")
	ev.Headers["content-type"] = "image/jpeg"
	ev.Headers["content-length"] = strconv.Itoa(len(jpeg))
	ev.Headers["authorization"] = "Bearer " + plain
	ev.Body = base64.StdEncoding.EncodeToString(jpeg)
	resp, err = h(t.Context(), ev)
	if err != nil || resp.StatusCode != 200 || header(resp, "x-quota-used") != "1" || header(resp, "x-quota-limit") != "1000" {
		t.Fatalf("keyed raw body: %v %d %v", err, resp.StatusCode, resp.Headers)
	}
	rows, err := st.UsageSince(t.Context(), a.ID, time.Now().Add(-time.Hour))
	if err != nil || len(rows) != 1 || rows[0].Route != "metadata" || rows[0].Documents != 1 || rows[0].Band != "" {
		t.Fatalf("usage rows %+v %v", rows, err)
	}
}

// TestCompareEvent: the compare function's handler takes two PDFs in a
// base64 multipart body with a key, meters two documents, and refuses an
// anonymous caller.
func TestCompareEvent(t *testing.T) {
	pdf, err := os.ReadFile("../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf")
	if err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	vars := lambdaEnv(t)
	h := handlerFor(t, vars)
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for _, field := range []string{"original", "candidate"} {
		fw, _ := mw.CreateFormFile(field, field+".pdf")
		fw.Write(pdf)
	}
	mw.Close()
	ev := loadEvent(t, "apigw-v2-compare.json")
	ev.Headers["content-type"] = mw.FormDataContentType()
	ev.Headers["content-length"] = strconv.Itoa(body.Len())
	ev.Body = base64.StdEncoding.EncodeToString(body.Bytes())
	resp, err := h(t.Context(), ev)
	if err != nil || resp.StatusCode != 401 || !strings.Contains(resp.Body, "invalid_api_key") {
		t.Fatalf("anonymous comparison: %v %d %s", err, resp.StatusCode, resp.Body)
	}

	st, a, plain := keyedAccount(t, vars, "acct_cmp", "cmp@example.com", "solo", "key_cmp")
	ev.Headers["authorization"] = "Bearer " + plain
	resp, err = h(t.Context(), ev)
	if err != nil || resp.StatusCode != 200 || !strings.Contains(resp.Body, `"relationship":"identical"`) || header(resp, "x-quota-used") != "2" {
		t.Fatalf("keyed comparison: %v %d %v %.300s", err, resp.StatusCode, resp.Headers, resp.Body)
	}
	rows, err := st.UsageSince(t.Context(), a.ID, time.Now().Add(-time.Hour))
	if err != nil || len(rows) != 1 || rows[0].Route != "compare" || rows[0].Documents != 2 {
		t.Fatalf("usage rows %+v %v", rows, err)
	}
}

// keyedAccount opens the DynamoDB Local store the handler uses and creates
// an account on plan with one key, returning the store, the account and
// the key in plain text.
func keyedAccount(t *testing.T, vars map[string]string, id, email, plan, keyID string) (*dynamodb.Store, store.Account, string) {
	t.Helper()
	st, err := dynamodb.Open(t.Context(), dynamodb.Config{Endpoint: vars["DYNAMODB_ENDPOINT"], Prefix: vars["TABLE_PREFIX"]})
	if err != nil {
		t.Fatal(err)
	}
	plain, hash, preview := apikey.New()
	a := store.Account{ID: id, Email: email, Plan: plan, Created: time.Now()}
	if err := st.CreateAccount(t.Context(), a, store.APIKey{ID: keyID, AccountID: a.ID, Hash: hash, Preview: preview, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return st, a, plain
}
