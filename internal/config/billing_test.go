package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/doctrust/doctrust/internal/billing"
	"github.com/doctrust/doctrust/internal/httpapi"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/store"
)

func TestPlansFromEnvironment(t *testing.T) {
	vars := map[string]string{"STRIPE_PRICE_TEAM": "price_t", "STRIPE_PRICE_CREDITS_SMALL": "price_s",
		"CREDITS_SMALL_DOCUMENTS": "not a number", "CREDITS_LARGE_DOCUMENTS": "2500", "BUSINESS_QUOTA": "70000"}
	tab := Plans(func(k string) string { return vars[k] })
	if p, ok := tab.ByPrice("price_t"); !ok || p.Name != plans.Team {
		t.Errorf("team price: %+v %v", p, ok)
	}
	if p, _ := tab.Get(plans.Business); p.Quota != 70000 || p.Price != "" {
		t.Errorf("business: %+v", p)
	}
	if k, _ := tab.Pack(plans.PackSmall); k.Documents != 100 || k.Price != "price_s" {
		t.Errorf("small pack (size unreadable: the default): %+v", k)
	}
	if k, _ := tab.Pack(plans.PackLarge); k.Documents != 2500 {
		t.Errorf("large pack: %+v", k)
	}
}

// TestBillingWiring: the service as `doctrust serve` builds it takes
// Stripe's signed events with STRIPE_WEBHOOK_SECRET, sizes packs from the
// environment, and answers 503 for checkout without STRIPE_SECRET_KEY.
func TestBillingWiring(t *testing.T) {
	vars := map[string]string{"DATA_DIR": t.TempDir(), "STRIPE_WEBHOOK_SECRET": "whsec_cfg", "CREDITS_LARGE_DOCUMENTS": "2500"}
	svc, err := Server(t.Context(), Local, func(k string) string { return vars[k] }, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer svc.Close()
	srv := httptest.NewServer(httpapi.New(svc.HTTP))
	defer srv.Close()
	a := store.Account{ID: "acct_cfg", Email: "cfg@example.com", Plan: plans.Free, Created: time.Now()}
	if err := svc.Store.CreateAccount(t.Context(), a, store.APIKey{ID: "key_cfg", AccountID: a.ID, Hash: "h_cfg", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(map[string]any{"id": "evt_cfg", "object": "event", "api_version": "2023-10-16",
		"created": time.Now().Unix(), "type": "checkout.session.completed", "data": map[string]any{"object": map[string]any{
			"id": "cs_cfg", "object": "checkout.session", "mode": "payment", "payment_status": "paid",
			"client_reference_id": a.ID, "metadata": map[string]string{"pack": "large"}}}})
	req, _ := http.NewRequest("POST", srv.URL+"/api/v1/billing/webhook", bytes.NewReader(body))
	req.Header.Set("Stripe-Signature", webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: "whsec_cfg"}).Header)
	resp, err := http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("webhook: %v %v", err, resp)
	}
	resp.Body.Close()
	if got, _ := svc.Store.Account(t.Context(), a.ID); got.Credits != 2500 {
		t.Fatalf("credits %d, want the configured large pack", got.Credits)
	}
	if svc.HTTP.Billing == nil {
		t.Fatal("no billing service")
	}
	if _, err := svc.HTTP.Billing.Checkout(t.Context(), a, plans.Team); !errors.Is(err, billing.ErrUnavailable) {
		t.Fatalf("checkout without STRIPE_SECRET_KEY: %v", err)
	}
}
