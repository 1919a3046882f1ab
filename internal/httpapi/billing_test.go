package httpapi

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/doctrust/doctrust/internal/billing"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/stripemock"
)

const webhookSecret = "whsec_http_test"

// tinyPDF is a readable document (a 200 with a report), so keyed calls
// are counted without the corpus.
const tinyPDF = "%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF"

// withBilling configures billing against apiBase (stripe-mock, or a dead
// address when no call may succeed).
func withBilling(apiBase string) func(*Config) {
	return func(c *Config) {
		priced := map[string]string{"STRIPE_PRICE_SOLO": "price_solo", "STRIPE_PRICE_TEAM": "price_team",
			"STRIPE_PRICE_BUSINESS": "price_business", "STRIPE_PRICE_CREDITS_SMALL": "price_small", "STRIPE_PRICE_CREDITS_LARGE": "price_large"}
		tab := plans.New(0).Configure(func(env string) string { return priced[env] }, func(_ string, def int) int { return def })
		c.Meter.Plans, c.Accounts.Plans = tab, tab
		c.Billing = billing.New(billing.Config{Store: storeOf(c), Plans: tab, Limiter: c.Limiter,
			SecretKey: "sk_test_http", WebhookSecret: webhookSecret, APIBase: apiBase, BaseURL: "http://127.0.0.1:8080",
			Logger: c.Logger})
	}
}

// deadAddress is a loopback address nothing listens on.
func deadAddress(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := "http://" + ln.Addr().String()
	ln.Close()
	return addr
}

// stripeEvent is a signed delivery of a Stripe event around object.
func stripeEvent(typ string, created int64, object map[string]any, secret string) ([]byte, map[string]string) {
	body, _ := json.Marshal(map[string]any{"id": fmt.Sprint("evt_", created, typ), "object": "event",
		"api_version": stripe.APIVersion, "created": created, "type": typ, "data": map[string]any{"object": object}})
	sig := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret}).Header
	return body, map[string]string{"Stripe-Signature": sig, "Content-Type": "application/json; charset=utf-8"}
}

func (e *env) webhook(t *testing.T, typ string, created int64, object map[string]any) (int, map[string]any) {
	t.Helper()
	body, h := stripeEvent(typ, created, object, webhookSecret)
	resp, got, _ := e.do(t, "POST", "/api/v1/billing/webhook", bytes.NewReader(body), h)
	return resp.StatusCode, got
}

func checkoutSession(acct, id, mode, status string, meta map[string]string, sub any) map[string]any {
	meta["account_id"] = acct
	return map[string]any{"id": id, "object": "checkout.session", "mode": mode, "payment_status": status,
		"client_reference_id": acct, "metadata": meta, "customer": "cus_" + acct, "subscription": sub}
}

func (b *browser) me(t *testing.T) map[string]any {
	t.Helper()
	resp, body := b.call(t, "GET", "/api/v1/me", nil)
	if resp.StatusCode != 200 {
		t.Fatalf("me %d %v", resp.StatusCode, body)
	}
	return body
}

// TestBillingFlow: a Free account buys a plan through Checkout; the signed
// webhook moves it at once (the next keyed call's quota headers show the
// plan); the portal opens; cancellation returns it to Free, key intact.
func TestBillingFlow(t *testing.T) {
	e := newEnv(t, withBilling(stripemock.Start(t)))
	b, key, _ := signup(t, e, "buyer@example.com", "correct horse battery")
	acct := b.me(t)["user"].(map[string]any)["id"].(string)
	keyed := map[string]string{"Authorization": "Bearer " + key, "Content-Type": "application/pdf"}
	inspect := func() string {
		t.Helper()
		resp, body, _ := e.do(t, "POST", "/api/v1/inspect", strings.NewReader(tinyPDF), keyed)
		if resp.StatusCode != 200 {
			t.Fatalf("inspect %d %v", resp.StatusCode, body)
		}
		return quota(resp)
	}
	if got := inspect(); got != "25 1 24 0 within" {
		t.Fatalf("on Free: %q", got)
	}

	resp, body := b.call(t, "POST", "/api/v1/billing/checkout", map[string]string{"plan": "team"})
	if resp.StatusCode != 200 || !strings.HasPrefix(body["url"].(string), "https://") || resp.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("checkout %d %v", resp.StatusCode, body)
	}
	resp, body = b.call(t, "POST", "/api/v1/billing/checkout", map[string]string{"plan": "gold"})
	wantError(t, resp, body, 400, "invalid_request")
	if body["message"] != "plan must be one of solo, team, business" {
		t.Fatalf("message %v", body["message"])
	}
	resp, body = b.call(t, "POST", "/api/v1/billing/checkout", "team")
	wantError(t, resp, body, 400, "invalid_request")
	resp, body = b.call(t, "POST", "/api/v1/billing/credits", map[string]string{"pack": "huge"})
	wantError(t, resp, body, 400, "invalid_request")
	resp, body = b.call(t, "POST", "/api/v1/billing/credits", map[string]string{"pack": "small"})
	if resp.StatusCode != 200 || body["url"] == "" {
		t.Fatalf("credits %d %v", resp.StatusCode, body)
	}
	resp, body = b.call(t, "POST", "/api/v1/billing/portal", nil)
	wantError(t, resp, body, 409, "no_billing_customer")

	// Stripe reports the paid checkout.
	now := time.Now().Unix()
	if code, body := e.webhook(t, billing.EventCheckoutCompleted, now,
		checkoutSession(acct, "cs_team", "subscription", "paid", map[string]string{"plan": "team"}, "sub_team")); code != 200 || body["received"] != true {
		t.Fatalf("webhook %d %v", code, body)
	}
	me := b.me(t)
	if me["user"].(map[string]any)["plan"] != "team" || me["billing"].(map[string]any)["portal"] != true ||
		me["billing"].(map[string]any)["subscription"] != true || me["quota"].(map[string]any)["limit"] != float64(10000) {
		t.Fatalf("me after checkout %v", me)
	}
	if got := inspect(); got != "10000 2 9998 1000 within" {
		t.Fatalf("on Team at once: %q", got)
	}
	resp, body = b.call(t, "POST", "/api/v1/billing/checkout", map[string]string{"plan": "team"})
	wantError(t, resp, body, 409, "plan_already_active")
	resp, body = b.call(t, "POST", "/api/v1/billing/checkout", map[string]string{"plan": "business"})
	wantError(t, resp, body, 409, "subscription_active")
	resp, body = b.call(t, "POST", "/api/v1/billing/credits", map[string]string{"pack": "small"})
	wantError(t, resp, body, 409, "free_plan_only")
	resp, body = b.call(t, "POST", "/api/v1/billing/portal", nil)
	if resp.StatusCode != 200 || body["url"] == "" {
		t.Fatalf("portal %d %v", resp.StatusCode, body)
	}

	// Cancelled: Free again, and the same key goes on at Free's quota.
	sub := map[string]any{"id": "sub_team", "object": "subscription", "status": "canceled",
		"metadata": map[string]string{"account_id": acct}, "customer": "cus_" + acct,
		"items": map[string]any{"data": []any{map[string]any{"price": map[string]any{"id": "price_team"}}}}}
	if code, body := e.webhook(t, billing.EventSubscriptionDeleted, now+10, sub); code != 200 {
		t.Fatalf("deleted %d %v", code, body)
	}
	if got := inspect(); got != "25 3 22 0 within" {
		t.Fatalf("back on Free: %q", got)
	}
	if me := b.me(t); me["billing"].(map[string]any)["subscription"] != false || me["user"].(map[string]any)["plan"] != "free" {
		t.Fatalf("me after cancellation %v", me)
	}
}

// TestCreditsAfterQuota: credits bought through the webhook are spent only
// once the month's quota is used up, show in x-quota-credits, are added
// once however often the event comes, and carry into the next month.
func TestCreditsAfterQuota(t *testing.T) {
	e := newEnv(t, withBilling(deadAddress(t)))
	a, h := e.keyed(t, plans.Free)
	now := time.Now().UTC()
	month := store.Month(now)
	c := store.Charge{AccountID: a.ID, Month: month, Documents: 24, Limit: 25,
		Usage: store.UsageRecord{ID: "use_pre", AccountID: a.ID, KeyID: "key_" + a.ID, Route: "inspect", At: now, Documents: 24, Expires: now.Add(time.Hour)}}
	if _, err := e.store.Charge(t.Context(), c); err != nil {
		t.Fatal(err)
	}
	pack := checkoutSession(a.ID, "cs_small", "payment", "paid", map[string]string{"pack": "small", "documents": "100"}, nil)
	for range 3 {
		if code, body := e.webhook(t, billing.EventCheckoutCompleted, now.Unix(), pack); code != 200 {
			t.Fatalf("webhook %d %v", code, body)
		}
	}
	resp, _, _ := e.do(t, "POST", "/api/v1/inspect", strings.NewReader(tinyPDF), h)
	if quota(resp) != "25 25 0 0 soft-ceiling" || resp.Header.Get("x-quota-credits") != "100" {
		t.Fatalf("the last quota unit: %q credits %s", quota(resp), resp.Header.Get("x-quota-credits"))
	}
	resp, _, _ = e.do(t, "POST", "/api/v1/inspect", strings.NewReader(tinyPDF), h)
	if resp.StatusCode != 200 || quota(resp) != "25 25 0 0 soft-ceiling" || resp.Header.Get("x-quota-credits") != "99" {
		t.Fatalf("past the quota: %d %q credits %s", resp.StatusCode, quota(resp), resp.Header.Get("x-quota-credits"))
	}
	next := store.Month(time.Date(now.Year(), now.Month()+1, 1, 0, 0, 0, 0, time.UTC))
	if bal, err := e.store.Balance(t.Context(), a.ID, next); err != nil || bal.Credits != 99 || bal.Used != 0 {
		t.Fatalf("next month: %+v, %v", bal, err)
	}
}

// TestBillingRefusals: sessions only, configuration, signature, limiter,
// storage and processor failures map onto the error table.
func TestBillingRefusals(t *testing.T) {
	routes := []string{"/api/v1/billing/checkout", "/api/v1/billing/credits", "/api/v1/billing/portal"}
	bodies := map[string]any{routes[0]: map[string]string{"plan": "team"}, routes[1]: map[string]string{"pack": "small"}}

	e := newEnv(t, withBilling(deadAddress(t)))
	b, key, _ := signup(t, e, "refusals@example.com", "correct horse battery")
	for _, path := range routes {
		raw, _ := json.Marshal(bodies[path])
		resp, body, _ := e.do(t, "POST", path, bytes.NewReader(raw), map[string]string{"Authorization": "Bearer " + key})
		wantError(t, resp, body, 401, "not_authenticated")
	}
	// Stripe unreachable: 502 for each session route (portal needs a customer).
	acct := b.me(t)["user"].(map[string]any)["id"].(string)
	if err := e.store.SetCustomer(t.Context(), acct, "cus_x"); err != nil {
		t.Fatal(err)
	}
	for _, path := range routes {
		resp, body := b.call(t, "POST", path, bodies[path])
		wantError(t, resp, body, 502, "payment_processor_error")
	}
	if !strings.Contains(e.logs.String(), "payment processor error") {
		t.Fatalf("no log of the processor error: %s", e.logs)
	}
	// Webhook: a bad, a stale and a missing signature are 400; a body over
	// the cap is 413.
	body, _ := stripeEvent("invoice.paid", time.Now().Unix(), map[string]any{"id": "in_1"}, "whsec_forged")
	resp, got, _ := e.do(t, "POST", "/api/v1/billing/webhook", bytes.NewReader(body), map[string]string{
		"Stripe-Signature": webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: "whsec_forged"}).Header})
	wantError(t, resp, got, 400, "invalid_signature")
	stale := webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: webhookSecret, Timestamp: time.Now().Add(-time.Hour)}).Header
	resp, got, _ = e.do(t, "POST", "/api/v1/billing/webhook", bytes.NewReader(body), map[string]string{"Stripe-Signature": stale})
	wantError(t, resp, got, 400, "invalid_signature")
	resp, got, _ = e.do(t, "POST", "/api/v1/billing/webhook", bytes.NewReader(body), nil)
	wantError(t, resp, got, 400, "invalid_signature")
	big := bytes.Repeat([]byte(" "), SmallBodyLimit+1)
	resp, got, _ = e.do(t, "POST", "/api/v1/billing/webhook", bytes.NewReader(big), nil)
	wantError(t, resp, got, 413, "body_too_large")
	// Unknown events are acknowledged.
	if code, got := e.webhook(t, "invoice.paid", time.Now().Unix(), map[string]any{"id": "in_2"}); code != 200 || got["received"] != true {
		t.Fatalf("unknown event %d %v", code, got)
	}

	// The limiter: 429 with Retry-After, so Stripe comes back later.
	saved := billing.WebhookRule
	billing.WebhookRule.Name, billing.WebhookRule.Limit = "webhook-http-test", 1
	defer func() { billing.WebhookRule = saved }()
	if code, _ := e.webhook(t, "invoice.paid", time.Now().Unix(), map[string]any{"id": "in_3"}); code != 200 {
		t.Fatalf("first in the window: %d", code)
	}
	body, h := stripeEvent("invoice.paid", time.Now().Unix(), map[string]any{"id": "in_4"}, webhookSecret)
	resp, got, _ = e.do(t, "POST", "/api/v1/billing/webhook", bytes.NewReader(body), h)
	wantError(t, resp, got, 429, "rate_limited")
	if resp.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
	billing.WebhookRule = saved

	// Not configured: every billing route answers 503 (after the session check).
	off := newEnv(t)
	ob, _, _ := signup(t, off, "off@example.com", "correct horse battery")
	for _, path := range routes {
		resp, body := ob.call(t, "POST", path, bodies[path])
		wantError(t, resp, body, 503, "billing_unavailable")
	}
	body, h = stripeEvent("invoice.paid", time.Now().Unix(), map[string]any{"id": "in_5"}, webhookSecret)
	resp, got, _ = off.do(t, "POST", "/api/v1/billing/webhook", bytes.NewReader(body), h)
	wantError(t, resp, got, 503, "billing_unavailable")
}

// downStore fails every plan write, as a store outage would.
type downStore struct{ billing.Store }

func (downStore) ApplyPlan(context.Context, string, store.PlanState) error {
	return errors.New("store: connection refused")
}

// TestWebhookStorageFailure: the event could not be stored, so the webhook
// answers 500 (Stripe delivers it again) and the log says why.
func TestWebhookStorageFailure(t *testing.T) {
	e := newEnv(t, withBilling(deadAddress(t)), func(c *Config) {
		c.Billing = billing.New(billing.Config{Store: downStore{storeOf(c)}, Plans: c.Meter.Plans, Limiter: c.Limiter,
			WebhookSecret: webhookSecret, Logger: c.Logger})
	})
	a, _ := e.keyed(t, plans.Free)
	code, body := e.webhook(t, billing.EventCheckoutCompleted, time.Now().Unix(),
		checkoutSession(a.ID, "cs_down", "subscription", "paid", map[string]string{"plan": "solo"}, "sub_down"))
	if code != 500 || body["error"] != "internal_error" || len(body) != 2 || body["message"] != messages[Internal] {
		t.Fatalf("%d %v", code, body)
	}
	if !strings.Contains(e.logs.String(), "connection refused") {
		t.Fatalf("log: %s", e.logs)
	}
	if got, _ := e.store.Account(t.Context(), a.ID); got.Plan != plans.Free {
		t.Fatalf("plan %s", got.Plan)
	}
}
