package webhook_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	stripewebhook "github.com/stripe/stripe-go/v76/webhook"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/ledger/ledgertest"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/sqlite"
	"github.com/doctrust/doctrust/internal/webhook"
)

// clock is the injected time: tests move it; nothing sleeps.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// receiver is a local webhook endpoint: it verifies every delivery's
// signature with the secret, as a customer would, and answers with the
// statuses it is given in turn (the last one repeats).
type receiver struct {
	t        *testing.T
	srv      *httptest.Server
	clock    *clock
	mu       sync.Mutex
	secret   string
	statuses []int
	got      []delivery
}

type delivery struct {
	eventID, userAgent string
	body               []byte
}

func newReceiver(t *testing.T, c *clock, statuses ...int) *receiver {
	r := &receiver{t: t, clock: c, statuses: statuses}
	r.srv = httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	sig := req.Header.Get(webhook.SignatureHeader)
	if err := webhook.Verify(sig, body, r.secret, 5*time.Minute, r.clock.Now()); err != nil {
		r.t.Errorf("delivery %d does not verify: %v", len(r.got)+1, err)
	}
	// Stripe's own verifier accepts it: the scheme is Stripe's. Its
	// tolerance is against the wall clock, so it is left out here.
	if err := stripewebhook.ValidatePayloadIgnoringTolerance(body, sig, r.secret); err != nil {
		r.t.Errorf("Stripe's verifier refuses delivery %d: %v", len(r.got)+1, err)
	}
	if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
		r.t.Errorf("delivery %s %s", req.Method, req.Header.Get("Content-Type"))
	}
	r.got = append(r.got, delivery{eventID: req.Header.Get(webhook.EventIDHeader), userAgent: req.Header.Get("User-Agent"), body: body})
	status := r.statuses[min(len(r.got), len(r.statuses))-1]
	w.WriteHeader(status)
	io.WriteString(w, strings.Repeat("ignored ", 2000))
}

func (r *receiver) deliveries() []delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]delivery(nil), r.got...)
}

type fixture struct {
	store  *sqlite.Store
	clock  *clock
	hooks  *webhook.Service
	ledger *ledger.Ledger
}

func newFixture(t *testing.T, local bool) *fixture {
	t.Helper()
	c := &clock{t: time.Now().UTC().Truncate(time.Second)}
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "w.db"), c.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	hooks := &webhook.Service{Store: s, Now: c.Now, Local: local}
	var n atomic.Int64
	l := &ledger.Ledger{Store: s, Now: c.Now, Webhooks: hooks, NewID: func() string { return fmt.Sprintf("alert_%d", n.Add(1)) }}
	return &fixture{store: s, clock: c, hooks: hooks, ledger: l}
}

// The invoice's distinctive text: none of it may leave in an event.
const (
	genuineIBAN = "DE89 3704 0044 0532 0130 00"
	changedIBAN = "GB29 NWBK 6016 1331 9268 19"
	address     = "Hartwell Foundry GmbH, Kesselstrasse 17"
	amount      = "EUR 48,913.27"
	bodyText    = "Please note our new bank details from this month"
)

func invoice(iban string) ledgertest.Attachment {
	return ledgertest.Attachment{Name: "invoice-7731.pdf", Type: "application/pdf",
		Data: pdftest.OnePage(address + ". Total " + amount + ". USt-IdNr. DE136695976 IBAN " + iban).Bytes()}
}

// changeBank runs the genuine invoice, then the one with other bank
// details that raises coordinates-changed.
func (f *fixture) changeBank(t *testing.T) ledger.Outcome {
	t.Helper()
	ctx := context.Background()
	if out, err := f.ledger.Ingest(ctx, "acct_1", ledgertest.Message("billing@hartwell.example", "<m1@hw>", "Invoice attached", invoice(genuineIBAN))); err != nil || len(out.Alerts) != 0 {
		t.Fatalf("genuine: %+v, %v", out, err)
	}
	f.clock.Add(time.Hour)
	out, err := f.ledger.Ingest(ctx, "acct_1", ledgertest.Message("billing@hartwell.example", "<m2@hw>", bodyText, invoice(changedIBAN)))
	if err != nil || len(out.Alerts) != 1 || out.Alerts[0] != store.AlertCoordinatesChanged {
		t.Fatalf("changed: %+v, %v", out, err)
	}
	return out
}

func (f *fixture) webhook(t *testing.T) store.Webhook {
	t.Helper()
	w, err := f.store.Webhook(context.Background(), "acct_1")
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func (f *fixture) pending(t *testing.T) []store.Delivery {
	t.Helper()
	due, err := f.store.DueDeliveries(context.Background(), f.clock.Now().Add(48*time.Hour), 100)
	if err != nil {
		t.Fatal(err)
	}
	return due
}

// TestDeliveryRetriedBySweep: the receiver answers 500 to the attempt made
// at intake and 200 to the sweep's retry a minute later; both deliveries
// carry the same signed event, which holds the alert and the masked
// coordinates and nothing of the document or the message.
func TestDeliveryRetriedBySweep(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	r := newReceiver(t, f.clock, 500, 200)
	set, err := f.hooks.Set(ctx, "acct_1", r.srv.URL+"/hooks/doctrust")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(set.Secret, "whsec_") || len(set.Secret) != len("whsec_")+64 {
		t.Fatalf("secret %q", set.Secret)
	}
	r.secret = set.Secret
	f.changeBank(t)

	got := r.deliveries()
	if len(got) != 1 {
		t.Fatalf("%d deliveries at intake, want the one attempt", len(got))
	}
	w := f.webhook(t)
	if w.Last.State != store.DeliveryRetrying || w.Last.Status != 500 || w.Last.Attempts != 1 || !w.Last.Next.Equal(f.clock.Now().Add(time.Minute)) {
		t.Fatalf("after the failed attempt: %+v", w.Last)
	}
	// Not due yet: the sweep leaves it.
	f.clock.Add(59 * time.Second)
	if res, err := f.hooks.Sweep(ctx); err != nil || res.Due != 0 || len(r.deliveries()) != 1 {
		t.Fatalf("early sweep: %+v, %v, %d deliveries", res, err, len(r.deliveries()))
	}
	f.clock.Add(time.Second)
	if res, err := f.hooks.Sweep(ctx); err != nil || res.Attempted != 1 {
		t.Fatalf("sweep: %+v, %v", res, err)
	}
	got = r.deliveries()
	if len(got) != 2 {
		t.Fatalf("%d deliveries, want the retry", len(got))
	}
	w = f.webhook(t)
	if w.Last.State != store.DeliveryDelivered || w.Last.Status != 200 || w.Last.Attempts != 2 || w.Last.EventID != got[1].eventID {
		t.Fatalf("after the retry: %+v", w.Last)
	}
	if p := f.pending(t); len(p) != 0 {
		t.Fatalf("delivered event still pending: %+v", p)
	}
	if res, _ := f.hooks.Sweep(ctx); res.Due != 0 {
		t.Fatalf("a delivered event was swept again: %+v", res)
	}

	if string(got[0].body) != string(got[1].body) || got[0].eventID != got[1].eventID || got[0].userAgent != webhook.UserAgent {
		t.Fatalf("the retry is not the same event: %+v", got)
	}
	var ev struct {
		ID      string `json:"id"`
		Type    string `json:"type"`
		Created int64  `json:"created"`
		Data    struct {
			ID, Kind, SupplierKey, SenderDomain, MessageID, Band string
			Supplier                                             struct {
				Key, TaxID        string
				Current, Previous []store.PaymentCoord
			}
		} `json:"data"`
	}
	if err := json.Unmarshal(got[0].body, &ev); err != nil {
		t.Fatal(err)
	}
	if ev.ID != got[0].eventID || !strings.HasPrefix(ev.ID, "evt_") || ev.Type != "ledger.alert" || ev.Created != f.clock.Now().Add(-time.Minute).Unix() {
		t.Fatalf("event head: %+v", ev)
	}
	d := ev.Data
	if d.ID != "alert_1" || d.Kind != store.AlertCoordinatesChanged || d.SupplierKey != "tax:DE136695976" || d.SenderDomain != "hartwell.example" ||
		d.MessageID != "<m2@hw>" || d.Supplier.TaxID != "DE136695976" {
		t.Fatalf("event data: %+v", d)
	}
	if len(d.Supplier.Current) != 1 || d.Supplier.Current[0].AccountLast4 != "6819" || len(d.Supplier.Previous) != 1 || d.Supplier.Previous[0].AccountLast4 != "3000" {
		t.Fatalf("coordinates: %+v", d.Supplier)
	}
	body := string(got[0].body)
	for _, secret := range []string{"0532013000", "60161331926819", "NWBK60161331926819", strings.ReplaceAll(changedIBAN, " ", ""),
		"Hartwell Foundry", "Kesselstrasse", "48,913", "48913", bodyText, "invoice-7731", "%PDF", "JVBER", set.Secret} {
		if strings.Contains(body, secret) {
			t.Errorf("the event carries %q: %s", secret, body)
		}
	}
}

// TestDeliveryGivesUp: a receiver that never accepts gets the six
// attempts on the backoff schedule, then the event is failed, shown as
// such and no longer pending.
func TestDeliveryGivesUp(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	r := newReceiver(t, f.clock, 503)
	set, err := f.hooks.Set(ctx, "acct_1", r.srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	r.secret = set.Secret
	f.changeBank(t)
	for i, wait := range webhook.Backoff {
		f.clock.Add(wait - time.Second)
		if res, _ := f.hooks.Sweep(ctx); res.Due != 0 {
			t.Fatalf("retry %d came early", i+1)
		}
		f.clock.Add(time.Second)
		if res, err := f.hooks.Sweep(ctx); err != nil || res.Attempted != 1 {
			t.Fatalf("retry %d: %+v, %v", i+1, res, err)
		}
	}
	if n := len(r.deliveries()); n != webhook.MaxAttempts || n != 6 {
		t.Fatalf("%d attempts, want 6", n)
	}
	w := f.webhook(t)
	if w.Last.State != store.DeliveryFailed || w.Last.Attempts != 6 || w.Last.Status != 503 || !strings.Contains(w.Last.Error, "503") {
		t.Fatalf("after the last attempt: %+v", w.Last)
	}
	if p := f.pending(t); len(p) != 0 {
		t.Fatalf("a failed event is still pending: %+v", p)
	}
}

// TestPrivateAddressRefused: outside local mode, a URL naming a private
// address is refused when set, and one that reaches a private address at
// delivery (here the loopback receiver, stored directly as an older
// setting could be, and a name resolving to loopback) is never connected.
func TestPrivateAddressRefused(t *testing.T) {
	f := newFixture(t, false)
	ctx := context.Background()
	for _, u := range []string{"https://127.0.0.1/h", "https://10.1.2.3/h", "https://192.168.0.10/h", "https://[::1]/h",
		"https://169.254.169.254/latest/meta-data", "https://0.0.0.0/h", "https://[fd00::1]/h", "https://[::ffff:10.0.0.1]/h",
		"https://100.64.0.1/h", "https://localhost/h", "https://api.localhost/h"} {
		if _, err := f.hooks.Set(ctx, "acct_1", u); err == nil {
			t.Errorf("%s was accepted", u)
		}
	}
	for _, target := range []string{"", "localhost"} {
		r := newReceiver(t, f.clock, 200)
		u := r.srv.URL
		if target != "" {
			u = strings.Replace(u, "127.0.0.1", target, 1)
		}
		w := store.Webhook{AccountID: "acct_1", ID: "wh_" + target, URL: u, Secret: "whsec_x", Created: f.clock.Now()}
		if err := f.store.PutWebhook(ctx, w); err != nil {
			t.Fatal(err)
		}
		f.changeBank(t)
		if n := len(r.deliveries()); n != 0 {
			t.Fatalf("%s: the receiver on loopback was reached %d times", u, n)
		}
		last := f.webhook(t).Last
		if last.State != store.DeliveryRetrying || !strings.Contains(last.Error, "not public") || last.Status != 0 {
			t.Fatalf("%s: outcome %+v", u, last)
		}
		for _, d := range f.pending(t) {
			f.store.DeleteDelivery(ctx, d)
		}
		f.store.DeleteWebhook(ctx, "acct_1")
		f = newFixture(t, false)
	}
}

// TestRedirectNotFollowed: a 3xx is a failed attempt, and its target is
// never asked.
func TestRedirectNotFollowed(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	var followed atomic.Int64
	target := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { followed.Add(1) }))
	defer target.Close()
	redirect := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target.URL, http.StatusTemporaryRedirect)
	}))
	defer redirect.Close()
	if _, err := f.hooks.Set(ctx, "acct_1", redirect.URL); err != nil {
		t.Fatal(err)
	}
	f.changeBank(t)
	if last := f.webhook(t).Last; last.State != store.DeliveryRetrying || last.Status != http.StatusTemporaryRedirect {
		t.Fatalf("outcome %+v", last)
	}
	if followed.Load() != 0 {
		t.Fatal("the redirect was followed")
	}
}

// TestRemovedWebhookDropsPending: an event pending when the webhook is
// removed is dropped by the next sweep, not posted anywhere.
func TestRemovedWebhookDropsPending(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	r := newReceiver(t, f.clock, 500)
	set, _ := f.hooks.Set(ctx, "acct_1", r.srv.URL)
	r.secret = set.Secret
	f.changeBank(t)
	if len(f.pending(t)) != 1 {
		t.Fatal("no pending event")
	}
	if err := f.hooks.Remove(ctx, "acct_1"); err != nil {
		t.Fatal(err)
	}
	f.clock.Add(time.Minute)
	f.hooks.Sweep(ctx)
	if len(f.pending(t)) != 0 || len(r.deliveries()) != 1 {
		t.Fatalf("pending %d, deliveries %d", len(f.pending(t)), len(r.deliveries()))
	}
}

// TestNoWebhookNoOutbox: without a webhook an alert writes no outbox row.
func TestNoWebhookNoOutbox(t *testing.T) {
	f := newFixture(t, true)
	f.changeBank(t)
	if p := f.pending(t); len(p) != 0 {
		t.Fatalf("outbox rows without a webhook: %+v", p)
	}
}

// TestShortDeadlineLeavesItToTheSweep: a message whose reading used up the
// request's time gets no attempt at intake (it would be cut short and
// count as a failure); the sweep makes the first attempt a minute later.
func TestShortDeadlineLeavesItToTheSweep(t *testing.T) {
	f := newFixture(t, true)
	r := newReceiver(t, f.clock, 200)
	set, _ := f.hooks.Set(context.Background(), "acct_1", r.srv.URL)
	r.secret = set.Secret
	ctx := context.Background()
	if _, err := f.ledger.Ingest(ctx, "acct_1", ledgertest.Message("billing@hartwell.example", "<m1@hw>", "", invoice(genuineIBAN))); err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if out, err := f.ledger.Ingest(short, "acct_1", ledgertest.Message("billing@hartwell.example", "<m2@hw>", "", invoice(changedIBAN))); err != nil || len(out.Alerts) != 1 {
		t.Fatalf("%+v, %v", out, err)
	}
	if n := len(r.deliveries()); n != 0 {
		t.Fatalf("%d deliveries with 5 s left", n)
	}
	f.clock.Add(time.Minute)
	if res, err := f.hooks.Sweep(ctx); err != nil || res.Attempted != 1 {
		t.Fatalf("sweep: %+v, %v", res, err)
	}
	if w := f.webhook(t); w.Last.State != store.DeliveryDelivered || w.Last.Attempts != 1 || len(r.deliveries()) != 1 {
		t.Fatalf("after the sweep: %+v, %d deliveries", w.Last, len(r.deliveries()))
	}
}

// TestLookalikeEventNamesTheImitatedSupplier: a lookalike-domain alert's
// event is filed against the real supplier, with its coordinates, and
// names the imitating domain; no full account number, the real one or
// the message's, is in it.
func TestLookalikeEventNamesTheImitatedSupplier(t *testing.T) {
	f := newFixture(t, true)
	ctx := context.Background()
	r := newReceiver(t, f.clock, 200)
	set, _ := f.hooks.Set(ctx, "acct_1", r.srv.URL)
	r.secret = set.Secret
	real := ledgertest.Attachment{Name: "INV-1.pdf", Type: "application/pdf",
		Data: pdftest.OnePage("Calder & Finch Ltd. VAT reg. GB 011886419. Sort code 20-00-00 Account number 55779911").Bytes()}
	fake := ledgertest.Attachment{Name: "INV-2.pdf", Type: "application/pdf",
		Data: pdftest.OnePage("Calder & Finch Ltd. Sort code 40-11-62 Account number 31926819").Bytes()}
	if _, err := f.ledger.Ingest(ctx, "acct_1", ledgertest.Message("accounts@calderfinch.co.uk", "<r1@cf>", "", real)); err != nil {
		t.Fatal(err)
	}
	out, err := f.ledger.Ingest(ctx, "acct_1", ledgertest.Message("accounts@calderfinch-co.uk", "<f1@x>", "Our bank details have changed", fake))
	if err != nil || len(out.Alerts) != 1 || out.Alerts[0] != store.AlertLookalikeDomain {
		t.Fatalf("%+v, %v", out, err)
	}
	got := r.deliveries()
	if len(got) != 1 {
		t.Fatalf("%d deliveries", len(got))
	}
	var ev ledger.Event
	if err := json.Unmarshal(got[0].body, &ev); err != nil {
		t.Fatal(err)
	}
	d := ev.Data
	if d.Kind != store.AlertLookalikeDomain || d.SupplierKey != "tax:GB011886419" || d.SenderDomain != "calderfinch-co.uk" ||
		d.Supplier.Key != "tax:GB011886419" || len(d.Supplier.Current) != 1 || d.Supplier.Current[0].AccountLast4 != "9911" {
		t.Fatalf("event data %+v", d)
	}
	for _, s := range []string{"55779911", "31926819", "Our bank details", "Calder & Finch"} {
		if strings.Contains(string(got[0].body), s) {
			t.Errorf("the event carries %q", s)
		}
	}
}

// TestRunSweepsOnATicker: serve's loop sweeps without being asked.
func TestRunSweepsOnATicker(t *testing.T) {
	f := newFixture(t, true)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newReceiver(t, f.clock, 500, 200)
	set, _ := f.hooks.Set(ctx, "acct_1", r.srv.URL)
	r.secret = set.Secret
	f.changeBank(t)
	f.clock.Add(time.Minute)
	go f.hooks.Run(ctx, 10*time.Millisecond)
	// Polled, not timed: the loop is given up to 10 s.
	deadline := time.Now().Add(10 * time.Second)
	for f.webhook(t).Last.State != store.DeliveryDelivered && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if w := f.webhook(t); w.Last.State != store.DeliveryDelivered || len(r.deliveries()) != 2 {
		t.Fatalf("the loop did not deliver: %+v", w.Last)
	}
}
