package httpapi

import (
	"strings"
	"testing"
)

// TestAcknowledgeAlert: a ledger alert raised from mail is acknowledged by
// the account (200, shown in the ledger view), a repeat keeps the first
// time, and another account's alert or an unknown id is 404.
func TestAcknowledgeAlert(t *testing.T) {
	e := ledgerEnv(t, ingestSecret)
	b, _, _ := signup(t, e, "ap@example.com", "correct horse battery")
	_, body := b.call(t, "POST", "/api/v1/ap/alias", nil)
	to := body["alias"].(string) + "@in.example"
	for _, m := range [][]byte{invoiceMessage("<m1@acme>", "DE89 3704 0044 0532 0130 00"), invoiceMessage("<m2@acme>", "GB29 NWBK 6016 1331 9268 19")} {
		if status, out := ingest(t, e, ingestSecret, to, m); status != 200 {
			t.Fatalf("ingest: %d %v", status, out)
		}
	}
	_, view := b.call(t, "GET", "/api/v1/ap/ledger", nil)
	alerts := view["alerts"].([]any)
	if len(alerts) != 1 {
		t.Fatalf("alerts %v", alerts)
	}
	alert := alerts[0].(map[string]any)
	id := alert["id"].(string)
	if _, ok := alert["acknowledged"]; ok {
		t.Fatalf("a new alert is acknowledged: %v", alert)
	}

	other, _, _ := signup(t, e, "someone@example.com", "correct horse battery")
	if resp, body := other.call(t, "POST", "/api/v1/ap/alerts/"+id+"/acknowledge", nil); resp.StatusCode != 404 || body["error"] != "not_found" {
		t.Fatalf("another account: %d %v", resp.StatusCode, body)
	}
	if resp, _ := (&browser{e: e}).call(t, "POST", "/api/v1/ap/alerts/"+id+"/acknowledge", nil); resp.StatusCode != 401 {
		t.Fatalf("no session: %d", resp.StatusCode)
	}
	resp, first := b.call(t, "POST", "/api/v1/ap/alerts/"+id+"/acknowledge", nil)
	at, _ := first["acknowledged"].(string)
	if resp.StatusCode != 200 || first["id"] != id || !strings.HasSuffix(at, "Z") {
		t.Fatalf("acknowledge: %d %v", resp.StatusCode, first)
	}
	if _, again := b.call(t, "POST", "/api/v1/ap/alerts/"+id+"/acknowledge", nil); again["acknowledged"] != at {
		t.Fatalf("a repeat moved the time: %v then %v", at, again["acknowledged"])
	}
	_, view = b.call(t, "GET", "/api/v1/ap/ledger", nil)
	if got := view["alerts"].([]any)[0].(map[string]any)["acknowledged"]; got != at {
		t.Fatalf("ledger view: acknowledged %v, want %v", got, at)
	}
	if resp, _ := b.call(t, "POST", "/api/v1/ap/alerts/alert_none/acknowledge", nil); resp.StatusCode != 404 {
		t.Fatalf("unknown id: %d", resp.StatusCode)
	}
}
