package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/apikey"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/store"
)

var accountSeq int

// keyed creates an account on plan and returns its Authorization header.
func (e *env) keyed(t *testing.T, plan string) (store.Account, map[string]string) {
	t.Helper()
	accountSeq++
	plain, hash, preview := apikey.New()
	a := store.Account{ID: fmt.Sprint("acct_", accountSeq), Email: fmt.Sprint("u", accountSeq, "@example.com"), Plan: plan, Created: time.Now()}
	if err := e.store.CreateAccount(t.Context(), a, store.APIKey{ID: "key_" + a.ID, AccountID: a.ID, Hash: hash, Preview: preview, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return a, map[string]string{"Authorization": "Bearer " + plain, "Content-Type": "application/pdf"}
}

func quota(resp *http.Response) string {
	h := resp.Header
	return strings.Join([]string{h.Get("x-quota-limit"), h.Get("x-quota-used"), h.Get("x-quota-remaining"), h.Get("x-quota-ceiling"), h.Get("x-quota-state")}, " ")
}

func TestKeyedQuotaHeadersAndExhaustion(t *testing.T) {
	e := newEnv(t)
	a, h := e.keyed(t, plans.Free)
	pdf := pdfBytes(t)
	// A failed analysis is not counted, but still carries the headers.
	resp, body, _ := e.do(t, "POST", "/api/v1/inspect", strings.NewReader("not a document"), h)
	wantError(t, resp, body, 422, "not_a_pdf")
	if got := quota(resp); got != "25 0 25 0 within" {
		t.Fatalf("headers on a refused analysis: %q", got)
	}
	for i := 1; i <= 25; i++ {
		resp, _, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), h)
		want := fmt.Sprintf("25 %d %d 0 within", i, 25-i)
		if i == 25 {
			want = "25 25 0 0 exhausted"
		}
		if resp.StatusCode != 200 || quota(resp) != want {
			t.Fatalf("call %d: %d %q, want %q", i, resp.StatusCode, quota(resp), want)
		}
	}
	resp, body, _ = e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), h)
	wantError(t, resp, body, 429, "quota_exceeded")
	if body["quota"] != float64(25) || body["used"] != float64(25) || quota(resp) != "25 25 0 0 exhausted" {
		t.Fatalf("quota_exceeded body %v headers %q", body, quota(resp))
	}
	// The refused call was not counted; a credit pack serves the next one.
	if _, err := e.store.AddCredits(t.Context(), a.ID, 1, "cs_test"); err != nil {
		t.Fatal(err)
	}
	resp, _, _ = e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), h)
	if resp.StatusCode != 200 || quota(resp) != "25 25 0 0 exhausted" || resp.Header.Get("x-quota-credits") != "0" {
		t.Fatalf("credit-served call: %d %q credits %q", resp.StatusCode, quota(resp), resp.Header.Get("x-quota-credits"))
	}
	rows, _ := e.store.UsageSince(t.Context(), a.ID, time.Now().Add(-time.Hour))
	if len(rows) != 26 || !rows[25].Credit || rows[0].Bytes != int64(len(pdf)) || rows[0].Band == "" {
		t.Fatalf("usage rows %d", len(rows))
	}
}

func TestPaidPlanBuffer(t *testing.T) {
	e := newEnv(t)
	a, h := e.keyed(t, plans.Solo)
	month := store.Month(time.Now())
	// Bring the counter to the quota without 1000 requests.
	if _, err := e.store.Charge(t.Context(), store.Charge{AccountID: a.ID, Month: month, Documents: 1000, Limit: 1100,
		Usage: store.UsageRecord{ID: "seed", AccountID: a.ID, At: time.Now(), Documents: 1000, Expires: time.Now().Add(time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	resp, _, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), h)
	if resp.StatusCode != 200 || quota(resp) != "1000 1001 0 100 soft-ceiling" {
		t.Fatalf("past the quota: %d %q", resp.StatusCode, quota(resp))
	}
}

func TestConcurrentLastUnit(t *testing.T) {
	e := newEnv(t)
	a, h := e.keyed(t, plans.Free)
	if _, err := e.store.Charge(t.Context(), store.Charge{AccountID: a.ID, Month: store.Month(time.Now()), Documents: 24, Limit: 25,
		Usage: store.UsageRecord{ID: "seed", AccountID: a.ID, At: time.Now(), Documents: 24, Expires: time.Now().Add(time.Hour)}}); err != nil {
		t.Fatal(err)
	}
	pdf := pdfBytes(t)
	codes := make([]int, 4)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Go(func() {
			resp, _, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), h)
			codes[i] = resp.StatusCode
		})
	}
	wg.Wait()
	var ok, refused int
	for _, c := range codes {
		switch c {
		case 200:
			ok++
		case 429, 503:
			refused++
		}
	}
	if ok != 1 || refused != 3 {
		t.Fatalf("status codes %v: want exactly one 200 at the last unit", codes)
	}
	if bal, _ := e.store.Balance(t.Context(), a.ID, store.Month(time.Now())); bal.Used != 25 {
		t.Fatalf("used %d, want 25", bal.Used)
	}
}

func TestAnonymousLimitAndKeysNeverFallBack(t *testing.T) {
	// A fixed clock keeps all the calls in one hourly window.
	now := time.Now()
	e := newEnv(t, func(c *Config) { c.Meter.AnonPerHour, c.Meter.Now = 2, func() time.Time { return now } })
	pdf := pdfBytes(t)
	raw := map[string]string{"Content-Type": "application/pdf"}
	// Each anonymous answer tells what is left of the hour.
	allowance := func(resp *http.Response, remaining string) {
		t.Helper()
		h := resp.Header
		reset, err := strconv.Atoi(h.Get("RateLimit-Reset"))
		if h.Get("RateLimit-Limit") != "2" || h.Get("RateLimit-Remaining") != remaining || err != nil || reset < 1 || reset > 3600 {
			t.Fatalf("RateLimit headers %q %q %q, want 2 %s", h.Get("RateLimit-Limit"), h.Get("RateLimit-Remaining"), h.Get("RateLimit-Reset"), remaining)
		}
	}
	for i := range 2 {
		resp, _, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), raw)
		if resp.StatusCode != 200 || resp.Header.Get("x-quota-state") != "" {
			t.Fatalf("anonymous call: %d, quota headers %q", resp.StatusCode, resp.Header.Get("x-quota-state"))
		}
		allowance(resp, strconv.Itoa(1-i))
	}
	resp, body, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), raw)
	wantError(t, resp, body, 429, "rate_limited")
	if secs, _ := body["retryAfterSeconds"].(float64); secs < 1 || secs > 3600 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("rate_limited %v Retry-After %q", body, resp.Header.Get("Retry-After"))
	}
	allowance(resp, "0")
	if m := body["message"].(string); !strings.Contains(m, "2 documents an hour") || !strings.Contains(m, "API key") || !strings.Contains(m, "minute") {
		t.Fatalf("anonymous limit message %q", m)
	}
	// A bad key is refused as such, not served or limited as anonymous.
	resp, body, _ = e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), map[string]string{"Authorization": "Bearer svc_wrong", "Content-Type": "application/pdf"})
	wantError(t, resp, body, 401, "invalid_api_key")
	// A valid key is exempt from the anonymous limit.
	_, h := e.keyed(t, plans.Team)
	if resp, _, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), h); resp.StatusCode != 200 || resp.Header.Get("RateLimit-Limit") != "" {
		t.Fatalf("keyed call from a limited IP: %d, RateLimit-Limit %q", resp.StatusCode, resp.Header.Get("RateLimit-Limit"))
	}
	// Anonymous rows are kept for 90 days, with the client IP.
	rows, _ := e.store.UsageSince(t.Context(), "", time.Now().Add(-time.Hour))
	if len(rows) != 2 || rows[0].ClientIP != "127.0.0.1" || rows[0].Expires.Before(time.Now().Add(89*24*time.Hour)) {
		t.Fatalf("anonymous usage rows %+v", rows)
	}
}

func TestTrustedProxyHops(t *testing.T) {
	for _, tc := range []struct {
		hops int
		xff  []string
		want string
	}{
		{0, []string{"198.51.100.1"}, "192.0.2.9"},
		{1, []string{"203.0.113.66, 198.51.100.1"}, "198.51.100.1"},
		{2, []string{"203.0.113.66", "198.51.100.1, 10.0.0.2"}, "198.51.100.1"},
		{2, []string{"198.51.100.1"}, "192.0.2.9"}, // fewer entries than hops: the peer
		{1, []string{"not-an-ip"}, "192.0.2.9"},
	} {
		r, _ := http.NewRequest("GET", "/", nil)
		r.RemoteAddr = "192.0.2.9:5555"
		for _, v := range tc.xff {
			r.Header.Add("X-Forwarded-For", v)
		}
		if got := clientIP(r, tc.hops); got != tc.want {
			t.Errorf("hops %d xff %q: %s, want %s", tc.hops, tc.xff, got, tc.want)
		}
	}
	r, _ := http.NewRequest("GET", "/", nil)
	r.RemoteAddr = "198.51.100.4" // as aws-lambda-go-api-proxy sets it from sourceIp
	if got := clientIP(r, 0); got != "198.51.100.4" {
		t.Errorf("port-less RemoteAddr: %s", got)
	}
}

func TestReceiptVerify(t *testing.T) {
	e := newEnv(t)
	_, h := e.keyed(t, plans.Free)
	resp, _, raw := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), h)
	if resp.StatusCode != 200 {
		t.Fatal(resp.StatusCode)
	}
	usedBefore := resp.Header.Get("x-quota-used")
	var rep map[string]json.RawMessage
	json.Unmarshal(raw, &rep)
	verify := func(report, receipt json.RawMessage, headers map[string]string) (*http.Response, map[string]any) {
		b, _ := json.Marshal(map[string]json.RawMessage{"report": report, "receipt": receipt})
		resp, body, _ := e.do(t, "POST", "/api/v1/receipt/verify", bytes.NewReader(b), headers)
		return resp, body
	}
	jh := map[string]string{"Authorization": h["Authorization"], "Content-Type": "application/json"}
	resp, body := verify(raw, rep["receipt"], jh)
	if resp.StatusCode != 200 || body["valid"] != true || len(body) != 1 {
		t.Fatalf("genuine: %d %v", resp.StatusCode, body)
	}
	if resp.Header.Get("x-quota-used") != usedBefore {
		t.Fatalf("verification was counted: used %s -> %s", usedBefore, resp.Header.Get("x-quota-used"))
	}
	// Key order does not matter: the report is re-serialised with sorted keys.
	var anyRep map[string]any
	json.Unmarshal(raw, &anyRep)
	resorted, _ := json.Marshal(anyRep)
	if _, body := verify(resorted, rep["receipt"], jh); body["valid"] != true {
		t.Fatalf("re-ordered report: %v", body)
	}
	tampered := bytes.Replace(raw, []byte(`"riskScore":`), []byte(`"riskScore":1`), 1)
	if _, body := verify(tampered, rep["receipt"], jh); body["valid"] != false || body["reason"] != "report_mismatch" {
		t.Fatalf("tampered report: %v", body)
	}
	forged := bytes.Replace(rep["receipt"], []byte(`"signature":"`), []byte(`"signature":"0`), 1)
	if _, body := verify(raw, forged, jh); body["valid"] != false || body["reason"] != "bad_signature" {
		t.Fatalf("forged receipt: %v", body)
	}
	resp, body = verify(raw, rep["receipt"], map[string]string{"Content-Type": "application/json"})
	wantError(t, resp, body, 401, "invalid_api_key")
	resp, body = verify(json.RawMessage(`[1]`), rep["receipt"], jh)
	wantError(t, resp, body, 400, "invalid_request")
	resp, body, _ = e.do(t, "POST", "/api/v1/receipt/verify", strings.NewReader("{"), jh)
	wantError(t, resp, body, 400, "invalid_request")
	big := append(append([]byte(`{"report":{"x":"`), bytes.Repeat([]byte("a"), VerifyBodyLimit)...), `"}}`...)
	resp, body, _ = e.do(t, "POST", "/api/v1/receipt/verify", bytes.NewReader(big), jh)
	wantError(t, resp, body, 413, "body_too_large")
	if body["maxBytes"] != float64(VerifyBodyLimit) {
		t.Fatalf("maxBytes %v", body["maxBytes"])
	}
}

func TestReceiptVerifyRateLimited(t *testing.T) {
	now := time.Now()
	e := newEnv(t, func(c *Config) { c.Limiter.Now = func() time.Time { return now } })
	_, h := e.keyed(t, plans.Free)
	h["Content-Type"] = "application/json"
	body := `{"report":{},"receipt":{"version":"v1"}}`
	for i := range VerifyRule.Limit {
		if resp, _, _ := e.do(t, "POST", "/api/v1/receipt/verify", strings.NewReader(body), h); resp.StatusCode != 200 {
			t.Fatalf("call %d: %d", i, resp.StatusCode)
		}
	}
	resp, got, _ := e.do(t, "POST", "/api/v1/receipt/verify", strings.NewReader(body), h)
	wantError(t, resp, got, 429, "rate_limited")
	if resp.Header.Get("x-quota-state") == "" {
		t.Fatal("keyed 429 without quota headers")
	}
}

// TestStoreFailureIsA500: with the store gone, a keyed call answers a plain
// internal_error (never a report that went uncounted) and the log says why
// without quoting the request.
func TestStoreFailureIsA500(t *testing.T) {
	e := newEnv(t)
	_, h := e.keyed(t, plans.Free)
	e.store.Close()
	resp, body, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), h)
	wantError(t, resp, body, 500, "internal_error")
	// The code and the one generic sentence: nothing of the failure.
	if len(body) != 2 || body["message"] != messages[Internal] {
		t.Fatalf("500 body says more than the code: %v", body)
	}
	if !strings.Contains(e.logs.String(), `"request failed"`) || strings.Contains(e.logs.String(), h["Authorization"][7:]) {
		t.Fatalf("log: %s", e.logs.String())
	}
}
