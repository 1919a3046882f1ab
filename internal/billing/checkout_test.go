package billing

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/stripe/stripe-go/v76"

	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/stripemock"
)

// call is one request stripe-go sent, as stripe-mock received it.
type call struct {
	path    string
	form    url.Values
	key     string
	version string
}

// recorder stands in front of stripe-mock and keeps every request, so a
// test sees what was sent as well as stripe-mock's verdict on it.
type recorder struct {
	mu    sync.Mutex
	calls []call
}

func (r *recorder) last(t *testing.T) call {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.calls) == 0 {
		t.Fatal("no request reached Stripe")
	}
	return r.calls[len(r.calls)-1]
}

func (r *recorder) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.calls)
}

func recordingProxy(t *testing.T, target string) (string, *recorder) {
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	rp := httputil.NewSingleHostReverseProxy(u)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		key, _, _ := r.BasicAuth()
		if key == "" {
			key = strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		}
		rec.mu.Lock()
		rec.calls = append(rec.calls, call{path: r.URL.Path, form: form, key: key, version: r.Header.Get("Stripe-Version")})
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv.URL, rec
}

func apiService(t *testing.T, st store.Store, base string) *Service {
	return New(Config{Store: st, Plans: table(), Limiter: &ratelimit.Limiter{Store: st},
		SecretKey: "sk_test_billing", WebhookSecret: whsec, APIBase: base, BaseURL: "https://doctrust.example/"})
}

// TestSessionsAgainstStripeMock: Checkout and portal sessions are created
// with the parameters the flows rely on, and stripe-mock (Stripe's OpenAPI
// description of API 2023-10-16 and later) accepts every one of them.
func TestSessionsAgainstStripeMock(t *testing.T) {
	base, rec := recordingProxy(t, stripemock.Start(t))
	st := openSQLite(t)
	f := newFixture(t, st)
	svc := apiService(t, st, base)
	ctx := context.Background()

	u, err := svc.Checkout(ctx, f.acct, plans.Team)
	if err != nil || !strings.HasPrefix(u, "https://") {
		t.Fatalf("checkout = %q, %v", u, err)
	}
	c := rec.last(t)
	want := map[string]string{
		"mode": "subscription", "line_items[0][price]": "price_team", "line_items[0][quantity]": "1",
		"client_reference_id": f.acct.ID, "metadata[account_id]": f.acct.ID, "metadata[plan]": "team",
		"subscription_data[metadata][account_id]": f.acct.ID, "subscription_data[metadata][plan]": "team",
		"customer_email": f.acct.Email,
		"success_url":    "https://doctrust.example/account?checkout=success&session={CHECKOUT_SESSION_ID}",
		"cancel_url":     "https://doctrust.example/account?checkout=cancelled",
	}
	for k, v := range want {
		if got := c.form.Get(k); got != v {
			t.Errorf("checkout %s = %q, want %q", k, got, v)
		}
	}
	if c.path != "/v1/checkout/sessions" || c.key != "sk_test_billing" || c.version != stripe.APIVersion || c.form.Has("customer") {
		t.Errorf("checkout request %+v", c)
	}

	// An account with a customer reuses it.
	withCustomer := f.acct
	withCustomer.Billing.CustomerID = "cus_known"
	if _, err := svc.Checkout(ctx, withCustomer, plans.Solo); err != nil {
		t.Fatal(err)
	}
	if c := rec.last(t); c.form.Get("customer") != "cus_known" || c.form.Has("customer_email") || c.form.Get("line_items[0][price]") != "price_solo" {
		t.Errorf("checkout with a customer: %v", c.form)
	}

	u, err = svc.Credits(ctx, f.acct, plans.PackLarge)
	if err != nil || u == "" {
		t.Fatalf("credits = %q, %v", u, err)
	}
	c = rec.last(t)
	for k, v := range map[string]string{
		"mode": "payment", "line_items[0][price]": "price_large", "client_reference_id": f.acct.ID,
		"metadata[pack]": "large", "metadata[documents]": "1000", "customer_creation": "always",
	} {
		if got := c.form.Get(k); got != v {
			t.Errorf("credits %s = %q, want %q", k, got, v)
		}
	}
	if _, err := svc.Credits(ctx, withCustomer, plans.PackSmall); err != nil {
		t.Fatal(err)
	}
	if c := rec.last(t); c.form.Get("customer") != "cus_known" || c.form.Has("customer_creation") {
		t.Errorf("credits with a customer: %v", c.form)
	}

	u, err = svc.Portal(ctx, withCustomer)
	if err != nil || u == "" {
		t.Fatalf("portal = %q, %v", u, err)
	}
	if c := rec.last(t); c.path != "/v1/billing_portal/sessions" || c.form.Get("customer") != "cus_known" ||
		c.form.Get("return_url") != "https://doctrust.example/account" {
		t.Errorf("portal request %+v", c)
	}
}

// TestRefusals: what is refused before any call to Stripe.
func TestRefusals(t *testing.T) {
	base, rec := recordingProxy(t, "http://127.0.0.1:9") // never reached
	st := openSQLite(t)
	f := newFixture(t, st)
	svc := apiService(t, st, base)
	ctx := context.Background()
	onTeam, withSub, withCustomer := f.acct, f.acct, f.acct
	onTeam.Plan = plans.Team
	withSub.Plan, withSub.Billing.SubscriptionID = plans.Solo, "sub_1"
	input := errors.New("an InputError")
	for name, tc := range map[string]struct {
		err  error
		want error
	}{
		"unknown plan":          {ignoreURL(svc.Checkout(ctx, f.acct, "gold")), input},
		"free plan":             {ignoreURL(svc.Checkout(ctx, f.acct, plans.Free)), input},
		"on that plan":          {ignoreURL(svc.Checkout(ctx, onTeam, plans.Team)), ErrAlreadyOnPlan},
		"on that plan (sub)":    {ignoreURL(svc.Checkout(ctx, withSub, plans.Solo)), ErrAlreadyOnPlan},
		"another subscription":  {ignoreURL(svc.Checkout(ctx, withSub, plans.Team)), ErrSubscriptionActive},
		"unknown pack":          {ignoreURL(svc.Credits(ctx, f.acct, "huge")), input},
		"pack on a paid plan":   {ignoreURL(svc.Credits(ctx, onTeam, plans.PackSmall)), ErrFreePlanOnly},
		"portal, no customer":   {ignoreURL(svc.Portal(ctx, withCustomer)), ErrNoCustomer},
		"business has no price": {ignoreURL(apiServiceNoBusiness(st, base).Checkout(ctx, f.acct, plans.Business)), ErrUnavailable},
	} {
		if tc.want == input {
			var ie *InputError
			if !errors.As(tc.err, &ie) {
				t.Errorf("%s: %v, want an InputError", name, tc.err)
			}
			continue
		}
		if !errors.Is(tc.err, tc.want) {
			t.Errorf("%s: %v, want %v", name, tc.err, tc.want)
		}
	}
	if msg := ignoreURL(svc.Checkout(ctx, f.acct, "gold")).Error(); msg != "plan must be one of solo, team, business" {
		t.Errorf("message %q", msg)
	}
	// Not configured: no secret key, no public address, no service at all.
	for name, s := range map[string]*Service{
		"no key":     New(Config{Store: st, Plans: table(), BaseURL: "https://x.example"}),
		"no address": New(Config{Store: st, Plans: table(), SecretKey: "sk_test_x"}),
		"nil":        nil,
	} {
		withCustomer.Billing.CustomerID = "cus_1"
		for _, err := range []error{ignoreURL(s.Checkout(ctx, f.acct, plans.Team)), ignoreURL(s.Credits(ctx, f.acct, plans.PackSmall)), ignoreURL(s.Portal(ctx, withCustomer))} {
			if !errors.Is(err, ErrUnavailable) {
				t.Errorf("%s: %v, want ErrUnavailable", name, err)
			}
		}
	}
	if rec.count() != 0 {
		t.Fatalf("%d requests reached Stripe", rec.count())
	}
}

func apiServiceNoBusiness(st store.Store, base string) *Service {
	tab := plans.New(0).Configure(func(env string) string {
		if env == "STRIPE_PRICE_BUSINESS" {
			return ""
		}
		return prices[env]
	}, func(_ string, def int) int { return def })
	return New(Config{Store: st, Plans: tab, SecretKey: "sk_test_x", APIBase: base, BaseURL: "https://x.example"})
}

func ignoreURL(_ string, err error) error { return err }

// TestProcessorErrors: Stripe refusing, failing, or unreachable is a
// ProcessorError (502); what Stripe said reaches the log, not the caller.
func TestProcessorErrors(t *testing.T) {
	st := openSQLite(t)
	f := newFixture(t, st)
	ctx := context.Background()
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Request-Id", "req_123")
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `{"error":{"type":"invalid_request_error","code":"resource_missing","param":"line_items[0][price]","message":"No such price: 'price_team'"}}`)
	}))
	defer refusing.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		io.WriteString(w, `{"error":{"type":"api_error","message":"boom"}}`)
	}))
	defer failing.Close()
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := "http://" + ln.Addr().String()
	ln.Close()
	for name, base := range map[string]string{"refused": refusing.URL, "failing": failing.URL, "unreachable": closed} {
		svc := apiService(t, st, base)
		var logs bytes.Buffer
		svc.cfg.Logger = newLogger(&logs)
		withCustomer := f.acct
		withCustomer.Billing.CustomerID = "cus_1"
		for op, err := range map[string]error{
			"checkout": ignoreURL(svc.Checkout(ctx, f.acct, plans.Team)),
			"credits":  ignoreURL(svc.Credits(ctx, f.acct, plans.PackSmall)),
			"portal":   ignoreURL(svc.Portal(ctx, withCustomer)),
		} {
			var pe *ProcessorError
			if !errors.As(err, &pe) {
				t.Errorf("%s %s: %v, want a ProcessorError", name, op, err)
			}
		}
		if !strings.Contains(logs.String(), "payment processor error") || strings.Contains(logs.String(), "No such price") {
			t.Errorf("%s: log %s", name, logs.String())
		}
		if name == "refused" && !strings.Contains(logs.String(), `"code":"resource_missing"`) {
			t.Errorf("the error code is not logged: %s", logs.String())
		}
	}
}
