package billing

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stripe/stripe-go/v76"
	"github.com/stripe/stripe-go/v76/webhook"

	"github.com/doctrust/doctrust/internal/ddblocal"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/dynamodb"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

const whsec = "whsec_test_billing"

// t0 is the creation time of the first event of a scenario (seconds).
const t0 = 1_800_000_000

var prices = map[string]string{
	"STRIPE_PRICE_SOLO": "price_solo", "STRIPE_PRICE_TEAM": "price_team", "STRIPE_PRICE_BUSINESS": "price_business",
	"STRIPE_PRICE_CREDITS_SMALL": "price_small", "STRIPE_PRICE_CREDITS_LARGE": "price_large",
}

func table() plans.Table {
	return plans.New(0).Configure(func(env string) string { return prices[env] }, func(_ string, def int) int { return def })
}

type fixture struct {
	st   store.Store
	svc  *Service
	acct store.Account
	key  store.APIKey
	logs *bytes.Buffer
}

var seq atomic.Int64

func openSQLite(t *testing.T) store.Store {
	st, err := sqlite.Open(filepath.Join(t.TempDir(), sqlite.FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

func openDynamo(t *testing.T) store.Store {
	ctx := context.Background()
	st, err := dynamodb.Open(ctx, dynamodb.Config{
		Endpoint: ddblocal.Endpoint(t),
		Prefix:   fmt.Sprintf("billing%d_%d_", time.Now().UnixNano()%1e6, seq.Add(1)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.CreateTables(ctx); err != nil {
		t.Fatal(err)
	}
	return st
}

// eachStore runs fn against a fresh fixture on each store implementation.
func eachStore(t *testing.T, fn func(*testing.T, *fixture)) {
	for name, open := range map[string]func(*testing.T) store.Store{"sqlite": openSQLite, "dynamodb": openDynamo} {
		t.Run(name, func(t *testing.T) { fn(t, newFixture(t, open(t))) })
	}
}

func newFixture(t *testing.T, st store.Store) *fixture {
	t.Helper()
	now := time.Now().UTC()
	n := seq.Add(1)
	a := store.Account{ID: fmt.Sprintf("acct_%d", n), Email: fmt.Sprintf("u%d@example.com", n), Plan: plans.Free, Created: now}
	k := store.APIKey{ID: fmt.Sprintf("key_%d", n), AccountID: a.ID, Hash: fmt.Sprintf("hash_%d", n), Created: now}
	if err := st.CreateAccount(context.Background(), a, k); err != nil {
		t.Fatal(err)
	}
	logs := &bytes.Buffer{}
	svc := New(Config{
		Store: st, Plans: table(), Limiter: &ratelimit.Limiter{Store: st},
		SecretKey: "sk_test_billing", WebhookSecret: whsec, BaseURL: "http://127.0.0.1:8080",
		Logger: slog.New(slog.NewJSONHandler(logs, nil)),
	})
	return &fixture{st: st, svc: svc, acct: a, key: k, logs: logs}
}

// account re-reads the fixture's account.
func (f *fixture) account(t *testing.T) store.Account {
	t.Helper()
	a, err := f.st.Account(context.Background(), f.acct.ID)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// payload is a Stripe event as the API renders it (2023-10-16, the
// version stripe-go v76 reads), around object.
func payload(typ string, created int64, object map[string]any) []byte {
	b, _ := json.Marshal(map[string]any{
		"id": fmt.Sprintf("evt_%d", seq.Add(1)), "object": "event", "api_version": stripe.APIVersion,
		"created": created, "type": typ, "livemode": false, "pending_webhooks": 1,
		"data": map[string]any{"object": object},
	})
	return b
}

// sign is the Stripe-Signature header for body, signed now with secret by
// stripe-go's own test signer.
func sign(body []byte, secret string, at time.Time) string {
	return webhook.GenerateTestSignedPayload(&webhook.UnsignedPayload{Payload: body, Secret: secret, Timestamp: at}).Header
}

// deliver signs and hands one event to the webhook.
func (f *fixture) deliver(typ string, created int64, object map[string]any) error {
	body := payload(typ, created, object)
	return f.svc.Webhook(context.Background(), body, sign(body, whsec, time.Now()))
}

func (f *fixture) mustDeliver(t *testing.T, typ string, created int64, object map[string]any) {
	t.Helper()
	if err := f.deliver(typ, created, object); err != nil {
		t.Fatalf("%s at %d: %v", typ, created, err)
	}
}

// session is a Checkout Session object as the webhook receives it.
func (f *fixture) session(id, mode, paymentStatus string, meta map[string]string, extra map[string]any) map[string]any {
	m := map[string]any{"account_id": f.acct.ID}
	for k, v := range meta {
		m[k] = v
	}
	obj := map[string]any{
		"id": id, "object": "checkout.session", "mode": mode, "payment_status": paymentStatus,
		"status": "complete", "client_reference_id": f.acct.ID, "metadata": m, "customer": "cus_" + f.acct.ID,
		"subscription": nil,
	}
	for k, v := range extra {
		obj[k] = v
	}
	return obj
}

func (f *fixture) planSession(id, plan, sub, paymentStatus string) map[string]any {
	return f.session(id, "subscription", paymentStatus, map[string]string{"plan": plan}, map[string]any{"subscription": sub})
}

func (f *fixture) packSession(id, pack string, documents int, paymentStatus string) map[string]any {
	return f.session(id, "payment", paymentStatus, map[string]string{"pack": pack, "documents": fmt.Sprint(documents)}, nil)
}

// subscription is a Subscription object (API 2023-10-16 shape) on price,
// with its period starting at start.
func (f *fixture) subscription(id, status, price string, start int64) map[string]any {
	return map[string]any{
		"id": id, "object": "subscription", "status": status, "customer": "cus_" + f.acct.ID,
		"metadata":             map[string]string{"account_id": f.acct.ID},
		"current_period_start": start, "current_period_end": start + 30*24*3600,
		"items": map[string]any{"object": "list", "data": []any{map[string]any{
			"id": "si_" + id, "object": "subscription_item", "price": map[string]any{"id": price, "object": "price"},
		}}},
	}
}

// wantPlan checks the account's plan and subscription.
func (f *fixture) wantPlan(t *testing.T, plan, sub string) store.Account {
	t.Helper()
	a := f.account(t)
	if a.Plan != plan || a.Billing.SubscriptionID != sub {
		t.Fatalf("plan %q subscription %q; want %q %q (billing %+v)", a.Plan, a.Billing.SubscriptionID, plan, sub, a.Billing)
	}
	return a
}

func newLogger(w io.Writer) *slog.Logger { return slog.New(slog.NewJSONHandler(w, nil)) }
