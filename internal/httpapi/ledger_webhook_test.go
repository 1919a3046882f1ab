package httpapi

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/webhook"
)

// TestWebhookThroughIngestRoute: a session sets the webhook to a receiver
// on loopback (a local server), mail through the ingest route raises an
// alert, and the receiver gets one event that verifies with the secret
// the PUT answered; the ledger shows the delivery; URL errors are 400
// invalid_request with a message; DELETE stops the deliveries.
func TestWebhookThroughIngestRoute(t *testing.T) {
	var mu sync.Mutex
	var bodies []string
	var secret string
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		defer mu.Unlock()
		if err := webhook.Verify(r.Header.Get(webhook.SignatureHeader), body, secret, time.Minute, time.Now()); err != nil {
			t.Errorf("delivery does not verify: %v", err)
		}
		bodies = append(bodies, string(body))
	}))
	defer recv.Close()
	var n atomic.Int64
	e := newEnv(t, func(c *Config) {
		c.Webhooks = &webhook.Service{Store: storeOf(c), Local: true}
		c.Ledger = &ledger.Ledger{Store: storeOf(c), NewID: func() string { return fmt.Sprintf("alert_%d", n.Add(1)) }, Webhooks: c.Webhooks}
		c.IngestSecret, c.IngestMailDomain = ingestSecret, "in.example"
	})
	b, _, _ := signup(t, e, "hooks@example.com", "correct horse battery")
	_, body := b.call(t, "POST", "/api/v1/ap/alias", nil)
	to := body["alias"].(string) + "@in.example"

	for u, want := range map[string]string{
		"":                                     "url is required",
		"https://a:b@hooks.example.com/x":      "user name or password",
		"https://" + strings.Repeat("a", 2050): "longer than 2048",
		"ftp://hooks.example.com/x":            "https://",
	} {
		resp, out := b.call(t, "PUT", "/api/v1/ap/webhook", map[string]string{"url": u})
		if msg, _ := out["message"].(string); resp.StatusCode != 400 || out["error"] != "invalid_request" || !strings.Contains(msg, want) {
			t.Errorf("%.40q: %d %v", u, resp.StatusCode, out)
		}
	}
	resp, set := b.call(t, "PUT", "/api/v1/ap/webhook", map[string]string{"url": recv.URL + "/in"})
	if resp.StatusCode != 200 || set["url"] != recv.URL+"/in" || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("PUT: %d %v", resp.StatusCode, set)
	}
	mu.Lock()
	secret = set["secret"].(string)
	mu.Unlock()

	for _, m := range [][]byte{invoiceMessage("<m1@acme>", "DE89 3704 0044 0532 0130 00"), invoiceMessage("<m2@acme>", "GB29 NWBK 6016 1331 9268 19")} {
		if status, out := ingest(t, e, ingestSecret, to, m); status != 200 {
			t.Fatalf("ingest: %d %v", status, out)
		}
	}
	mu.Lock()
	got := append([]string(nil), bodies...)
	mu.Unlock()
	if len(got) != 1 || !strings.Contains(got[0], `"kind":"coordinates-changed"`) || strings.Contains(got[0], "60161331926819") {
		t.Fatalf("deliveries %v", got)
	}
	_, view := b.call(t, "GET", "/api/v1/ap/ledger", nil)
	hook, _ := view["webhook"].(map[string]any)
	last, _ := hook["lastDelivery"].(map[string]any)
	if hook["url"] != recv.URL+"/in" || hook["secret"] != nil || last["state"] != "delivered" || last["status"] != float64(200) {
		t.Fatalf("ledger webhook %v", view["webhook"])
	}

	if resp, out := b.call(t, "DELETE", "/api/v1/ap/webhook", nil); resp.StatusCode != 200 || out["deleted"] != true {
		t.Fatalf("DELETE: %d %v", resp.StatusCode, out)
	}
	if status, _ := ingest(t, e, ingestSecret, to, invoiceMessage("<m3@acme>", "DE89 3704 0044 0532 0130 00")); status != 200 {
		t.Fatal("ingest after DELETE")
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 1 {
		t.Fatalf("%d deliveries after DELETE", len(bodies))
	}
	if _, view := b.call(t, "GET", "/api/v1/ap/ledger", nil); view["webhook"] != nil {
		t.Fatalf("webhook after DELETE: %v", view["webhook"])
	}
}
