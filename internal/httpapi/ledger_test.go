package httpapi

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/ledger/ledgertest"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

const ingestSecret = "ingest-test-secret"

func ledgerEnv(t *testing.T, secret string) *env {
	var n atomic.Int64
	return newEnv(t, func(c *Config) {
		c.Ledger = &ledger.Ledger{Store: storeOf(c), NewID: func() string { return fmt.Sprintf("alert_%d", n.Add(1)) }}
		c.IngestSecret = secret
		c.IngestMailDomain = "in.example"
	})
}

func ingest(t *testing.T, e *env, secret, recipient string, raw []byte) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"recipient": recipient, "rawMessage": base64.StdEncoding.EncodeToString(raw)})
	h := map[string]string{"Content-Type": "application/json"}
	if secret != "" {
		h[IngestSecretHeader] = secret
	}
	resp, got, _ := e.do(t, "POST", "/api/v1/ingest/email", bytes.NewReader(body), h)
	return resp.StatusCode, got
}

func invoiceMessage(id, iban string) []byte {
	pdf := pdftest.OnePage("Acme GmbH USt-IdNr. DE136695976 IBAN " + iban).Bytes()
	return ledgertest.Message("billing@acme.example", id, "Please find the invoice attached.",
		ledgertest.Attachment{Name: "invoice.pdf", Type: "application/pdf", Data: pdf})
}

func TestLedgerEndToEnd(t *testing.T) {
	e := ledgerEnv(t, ingestSecret)
	b, _, _ := signup(t, e, "ap@example.com", "correct horse battery")
	resp, body := b.call(t, "POST", "/api/v1/ap/alias", nil)
	alias, _ := body["alias"].(string)
	if resp.StatusCode != 200 || !strings.HasPrefix(alias, "ap-") || body["address"] != alias+"@in.example" {
		t.Fatalf("alias: %d %v", resp.StatusCode, body)
	}
	if _, again := b.call(t, "POST", "/api/v1/ap/alias", nil); again["alias"] != alias {
		t.Fatalf("alias not idempotent: %v then %v", alias, again["alias"])
	}
	to := alias + "@in.example"

	status, out := ingest(t, e, ingestSecret, to, invoiceMessage("<m1@acme>", "DE89 3704 0044 0532 0130 00"))
	if status != 200 || out["created"] != true || out["supplierKey"] != "tax:DE136695976" {
		t.Fatalf("first invoice: %d %v", status, out)
	}
	status, out = ingest(t, e, ingestSecret, "Accounts <"+strings.ToUpper(alias)+"+inv@in.example>", invoiceMessage("<m2@acme>", "GB29 NWBK 6016 1331 9268 19"))
	if status != 200 || out["changed"] != true {
		t.Fatalf("changed invoice: %d %v", status, out)
	}

	resp, view := b.call(t, "GET", "/api/v1/ap/ledger", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("ledger: %d %v", resp.StatusCode, view)
	}
	sups := view["suppliers"].([]any)
	if len(sups) != 1 {
		t.Fatalf("suppliers: %v", sups)
	}
	sp := sups[0].(map[string]any)
	versions := sp["versions"].([]any)
	current := sp["current"].([]any)[0].(map[string]any)
	if len(versions) != 2 || current["accountLast4"] != "6819" || current["bankCode"] != "NWBK" {
		t.Fatalf("supplier: %v", sp)
	}
	alerts := view["alerts"].([]any)
	if len(alerts) != 1 || alerts[0].(map[string]any)["kind"] != "coordinates-changed" {
		t.Fatalf("alerts: %v", alerts)
	}

	// Hostile MIME: 422, never a 500.
	status, out = ingest(t, e, ingestSecret, to, ledgertest.Nested(50))
	if status != 422 || out["error"] != "unparseable_message" {
		t.Fatalf("deep nesting: %d %v", status, out)
	}
	resp, got, _ := e.do(t, "POST", "/api/v1/ingest/email", strings.NewReader(`{"recipient":"`+to+`","rawMessage":"!!"}`),
		map[string]string{IngestSecretHeader: ingestSecret})
	wantError(t, resp, got, 422, "unparseable_message")

	// Nothing of the documents or the full accounts reached the store.
	wal, _ := os.ReadFile(filepath.Join(e.data, sqlite.FileName+"-wal"))
	db, _ := os.ReadFile(filepath.Join(e.data, sqlite.FileName))
	for _, s := range []string{"0532013000", "60161331926819", "%PDF", "Please find"} {
		if bytes.Contains(db, []byte(s)) || bytes.Contains(wal, []byte(s)) {
			t.Fatalf("%q is in the store", s)
		}
	}
}

func TestIngestRefusals(t *testing.T) {
	msg := invoiceMessage("<m@x>", "DE89 3704 0044 0532 0130 00")
	status, out := ingest(t, ledgerEnv(t, ""), "anything", "ap-x@in.example", msg)
	if status != 503 || out["error"] != "ingest_unavailable" {
		t.Fatalf("unset secret: %d %v", status, out)
	}
	e := ledgerEnv(t, ingestSecret)
	for _, s := range []string{"", "wrong", ingestSecret + "x"} {
		if status, out := ingest(t, e, s, "ap-x@in.example", msg); status != 401 || out["error"] != "invalid_ingest_secret" {
			t.Fatalf("secret %q: %d %v", s, status, out)
		}
	}
	if status, out := ingest(t, e, ingestSecret, "ap-unknown@in.example", msg); status != 404 {
		t.Fatalf("unknown alias: %d %v", status, out)
	}
	b, _, _ := signup(t, e, "ap2@example.com", "correct horse battery")
	_, body := b.call(t, "POST", "/api/v1/ap/alias", nil)
	alias := body["alias"].(string)
	if status, _ := ingest(t, e, ingestSecret, alias+"@other.example", msg); status != 404 {
		t.Fatalf("foreign domain: %d", status)
	}
	for i := range ledger.IngestRule.Limit {
		if status, out := ingest(t, e, ingestSecret, alias+"@in.example", []byte("x")); status != 200 && status != 422 {
			t.Fatalf("call %d: %d %v", i, status, out)
		}
	}
	if status, out := ingest(t, e, ingestSecret, alias+"@in.example", msg); status != 429 || out["error"] != "rate_limited" {
		t.Fatalf("past the limit: %d %v", status, out)
	}
	// Session routes answer 401 without a session.
	anon := &browser{e: e}
	if resp, body := anon.call(t, "GET", "/api/v1/ap/ledger", nil); resp.StatusCode != 401 || body["error"] != "not_authenticated" {
		t.Fatalf("ledger without session: %d %v", resp.StatusCode, body)
	}
}

// TestIngestBodyCap: the largest message the ledger takes fits the body
// cap once base64-encoded in its JSON, and a body past the cap (declared
// or streamed) is 413 body_too_large with the route's own limit.
func TestIngestBodyCap(t *testing.T) {
	largest, _ := json.Marshal(map[string]string{"recipient": strings.Repeat("r", 320),
		"rawMessage": base64.StdEncoding.EncodeToString(make([]byte, ledger.MaxMessageBytes))})
	if len(largest) > IngestBodyLimit || IngestBodyLimit > 10<<20 {
		t.Fatalf("a %d-byte message needs a %d-byte body; the cap is %d, API Gateway's limit %d",
			ledger.MaxMessageBytes, len(largest), IngestBodyLimit, 10<<20)
	}
	e := ledgerEnv(t, ingestSecret)
	over := bytes.Repeat([]byte(" "), IngestBodyLimit+1)
	h := map[string]string{IngestSecretHeader: ingestSecret, "Content-Type": "application/json"}
	for name, body := range map[string]io.Reader{
		"declared": bytes.NewReader(over),
		"streamed": io.MultiReader(bytes.NewReader(over)), // no length: chunked
	} {
		resp, got, _ := e.do(t, "POST", "/api/v1/ingest/email", body, h)
		wantError(t, resp, got, 413, "body_too_large")
		if got["maxBytes"] != float64(IngestBodyLimit) {
			t.Fatalf("%s: maxBytes %v", name, got["maxBytes"])
		}
	}
}
