package billing

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
)

func TestSignature(t *testing.T) {
	f := newFixture(t, openSQLite(t))
	body := payload(EventCheckoutCompleted, t0, f.planSession("cs_sig", plans.Team, "sub_sig", "paid"))
	ctx := context.Background()
	now := time.Now()
	for name, header := range map[string]string{
		"missing":         "",
		"malformed":       "garbage",
		"wrong secret":    sign(body, "whsec_other", now),
		"stale":           sign(body, whsec, now.Add(-10*time.Minute)),
		"no v1 scheme":    strings.Replace(sign(body, whsec, now), "v1=", "v0=", 1),
		"other payload":   sign([]byte(strings.Replace(string(body), "team", "solo", 1)), whsec, now),
		"empty signature": "t=" + strings.Split(strings.TrimPrefix(sign(body, whsec, now), "t="), ",")[0] + ",v1=",
	} {
		if err := f.svc.Webhook(ctx, body, header); !errors.Is(err, ErrBadSignature) {
			t.Errorf("%s: %v, want ErrBadSignature", name, err)
		}
	}
	// A tampered body under a genuine header.
	tampered := []byte(strings.Replace(string(body), `"paid"`, `"unpaid"`, 1))
	if err := f.svc.Webhook(ctx, tampered, sign(body, whsec, now)); !errors.Is(err, ErrBadSignature) {
		t.Errorf("tampered body: %v", err)
	}
	f.wantPlan(t, plans.Free, "")
	// Without a webhook secret the endpoint is not configured.
	off := New(Config{Store: f.st, Plans: table(), Limiter: &ratelimit.Limiter{Store: f.st}})
	if err := off.Webhook(ctx, body, sign(body, whsec, now)); !errors.Is(err, ErrUnavailable) {
		t.Errorf("no webhook secret: %v, want ErrUnavailable", err)
	}
	var nilSvc *Service
	if err := nilSvc.Webhook(ctx, body, sign(body, whsec, now)); !errors.Is(err, ErrUnavailable) {
		t.Errorf("nil service: %v", err)
	}
	// The genuine, fresh delivery is applied.
	if err := f.svc.Webhook(ctx, body, sign(body, whsec, now)); err != nil {
		t.Fatal(err)
	}
	f.wantPlan(t, plans.Team, "sub_sig")
}

// TestCheckoutSubscription: a paid checkout assigns the plan, its
// subscription and the customer; replays change nothing more.
func TestCheckoutSubscription(t *testing.T) {
	eachStore(t, func(t *testing.T, f *fixture) {
		done := f.planSession("cs_1", plans.Solo, "sub_1", "paid")
		f.mustDeliver(t, EventCheckoutCompleted, t0, done)
		a := f.wantPlan(t, plans.Solo, "sub_1")
		if a.Billing.CustomerID != "cus_"+f.acct.ID {
			t.Fatalf("customer %q", a.Billing.CustomerID)
		}
		for range 2 {
			f.mustDeliver(t, EventCheckoutCompleted, t0, done)
		}
		f.wantPlan(t, plans.Solo, "sub_1")
		// The subscription's own event brings the period; a later replay of
		// the checkout keeps it.
		f.mustDeliver(t, EventSubscriptionUpdated, t0+1, f.subscription("sub_1", "active", "price_solo", t0))
		f.mustDeliver(t, EventCheckoutCompleted, t0+1, done)
		a = f.wantPlan(t, plans.Solo, "sub_1")
		if a.Billing.PeriodStart.Unix() != t0 || a.Billing.PeriodEnd.Unix() != t0+30*24*3600 {
			t.Fatalf("period %v–%v", a.Billing.PeriodStart, a.Billing.PeriodEnd)
		}
		// No payment required (a 100% coupon, a trial) fulfils too.
		g := newFixture(t, f.st)
		g.mustDeliver(t, EventCheckoutCompleted, t0, g.planSession("cs_free", plans.Business, "sub_b", "no_payment_required"))
		g.wantPlan(t, plans.Business, "sub_b")
	})
}

// TestDelayedPayment: completed with payment_status unpaid grants nothing;
// async_payment_succeeded fulfils; async_payment_failed leaves the plan
// and records the failure.
func TestDelayedPayment(t *testing.T) {
	eachStore(t, func(t *testing.T, f *fixture) {
		f.mustDeliver(t, EventCheckoutCompleted, t0, f.planSession("cs_sepa", plans.Team, "sub_sepa", "unpaid"))
		a := f.wantPlan(t, plans.Free, "")
		if a.Billing.CustomerID == "" {
			t.Fatal("the customer of a pending checkout is not recorded")
		}
		f.mustDeliver(t, EventAsyncPaymentSucceeded, t0+60, f.planSession("cs_sepa", plans.Team, "sub_sepa", "paid"))
		f.wantPlan(t, plans.Team, "sub_sepa")
		// The subscription changed in the portal while a delayed payment was
		// pending: the later success of the first checkout keeps the change.
		p := newFixture(t, f.st)
		p.mustDeliver(t, EventCheckoutCompleted, t0, p.planSession("cs_p", plans.Solo, "sub_p", "unpaid"))
		p.mustDeliver(t, EventSubscriptionUpdated, t0+30, p.subscription("sub_p", "active", "price_business", t0))
		p.mustDeliver(t, EventAsyncPaymentSucceeded, t0+60, p.planSession("cs_p", plans.Solo, "sub_p", "paid"))
		p.wantPlan(t, plans.Business, "sub_p")

		// Credits by a delayed method: nothing until the payment succeeds.
		g := newFixture(t, f.st)
		g.mustDeliver(t, EventCheckoutCompleted, t0, g.packSession("cs_pack", plans.PackSmall, 100, "unpaid"))
		if a := g.account(t); a.Credits != 0 {
			t.Fatalf("credits %d before payment", a.Credits)
		}
		g.mustDeliver(t, EventAsyncPaymentSucceeded, t0+60, g.packSession("cs_pack", plans.PackSmall, 100, "paid"))
		if a := g.account(t); a.Credits != 100 {
			t.Fatalf("credits %d after payment", a.Credits)
		}

		// A failed delayed payment: the plan stays, the failure is kept.
		f.mustDeliver(t, EventCheckoutCompleted, t0+100, f.packSession("cs_fail", plans.PackLarge, 1000, "unpaid"))
		f.mustDeliver(t, EventAsyncPaymentFailed, t0+200, f.packSession("cs_fail", plans.PackLarge, 1000, "unpaid"))
		a = f.wantPlan(t, plans.Team, "sub_sepa")
		if a.Credits != 0 || a.Billing.PaymentFailedRef != "cs_fail" || a.Billing.PaymentFailedAt.Unix() != t0+200 {
			t.Fatalf("after a failed payment: credits %d billing %+v", a.Credits, a.Billing)
		}
		// An older failure delivered late does not replace it.
		f.mustDeliver(t, EventAsyncPaymentFailed, t0+150, f.packSession("cs_older", plans.PackLarge, 1000, "unpaid"))
		if a := f.account(t); a.Billing.PaymentFailedRef != "cs_fail" {
			t.Fatalf("a late older failure replaced the last: %+v", a.Billing)
		}
	})
}

// TestCreditPackOnce: a credit pack is a delta deduplicated by checkout
// session id: replays of completed, and the async success of the same
// session, add nothing more.
func TestCreditPackOnce(t *testing.T) {
	eachStore(t, func(t *testing.T, f *fixture) {
		small := f.packSession("cs_small", plans.PackSmall, 100, "paid")
		for range 3 {
			f.mustDeliver(t, EventCheckoutCompleted, t0, small)
		}
		f.mustDeliver(t, EventAsyncPaymentSucceeded, t0+5, small)
		if a := f.account(t); a.Credits != 100 {
			t.Fatalf("credits %d after replays, want 100", a.Credits)
		}
		f.mustDeliver(t, EventCheckoutCompleted, t0+10, f.packSession("cs_large", plans.PackLarge, 1000, "paid"))
		if a := f.account(t); a.Credits != 1100 || a.Plan != plans.Free {
			t.Fatalf("after a second pack: %+v", a)
		}
		// A session without the size recorded falls back to the pack's
		// configured size; one naming no pack grants nothing.
		f.mustDeliver(t, EventCheckoutCompleted, t0+20, f.session("cs_nosize", "payment", "paid", map[string]string{"pack": "small"}, nil))
		f.mustDeliver(t, EventCheckoutCompleted, t0+30, f.session("cs_nopack", "payment", "paid", nil, nil))
		if a := f.account(t); a.Credits != 1200 {
			t.Fatalf("credits %d, want 1200", a.Credits)
		}
	})
}

// TestSubscriptionLifecycle: updates map the price to our plan; past due
// keeps it; unpaid falls to the Free quota with the subscription kept;
// deletion returns the account to Free with its keys active.
func TestSubscriptionLifecycle(t *testing.T) {
	eachStore(t, func(t *testing.T, f *fixture) {
		ctx := context.Background()
		f.mustDeliver(t, EventCheckoutCompleted, t0, f.planSession("cs_1", plans.Solo, "sub_1", "paid"))
		f.mustDeliver(t, EventSubscriptionUpdated, t0+10, f.subscription("sub_1", "active", "price_team", t0))
		a := f.wantPlan(t, plans.Team, "sub_1")
		if a.Billing.PeriodEnd.Unix() != t0+30*24*3600 {
			t.Fatalf("period end %v", a.Billing.PeriodEnd)
		}
		// A price we do not sell changes nothing (and is logged).
		f.mustDeliver(t, EventSubscriptionUpdated, t0+20, f.subscription("sub_1", "active", "price_unknown", t0))
		f.wantPlan(t, plans.Team, "sub_1")
		if !strings.Contains(f.logs.String(), "price sold as no plan") {
			t.Fatalf("unknown price not logged: %s", f.logs)
		}
		// Renewal: the next period.
		f.mustDeliver(t, EventSubscriptionUpdated, t0+30*24*3600, f.subscription("sub_1", "active", "price_business", t0+30*24*3600))
		a = f.wantPlan(t, plans.Business, "sub_1")
		if a.Billing.PeriodStart.Unix() != t0+30*24*3600 {
			t.Fatalf("renewed period %v", a.Billing.PeriodStart)
		}
		f.mustDeliver(t, EventSubscriptionUpdated, t0+31*24*3600, f.subscription("sub_1", "past_due", "price_business", t0+30*24*3600))
		f.wantPlan(t, plans.Business, "sub_1")
		f.mustDeliver(t, EventSubscriptionUpdated, t0+40*24*3600, f.subscription("sub_1", "unpaid", "price_business", t0+30*24*3600))
		f.wantPlan(t, plans.Free, "sub_1")
		f.mustDeliver(t, EventSubscriptionUpdated, t0+41*24*3600, f.subscription("sub_1", "active", "price_business", t0+30*24*3600))
		f.wantPlan(t, plans.Business, "sub_1")
		// An incomplete subscription (first payment pending) changes nothing.
		f.mustDeliver(t, EventSubscriptionUpdated, t0+42*24*3600, f.subscription("sub_1", "incomplete", "price_solo", t0))
		f.wantPlan(t, plans.Business, "sub_1")

		f.mustDeliver(t, EventSubscriptionDeleted, t0+50*24*3600, f.subscription("sub_1", "canceled", "price_business", t0+30*24*3600))
		a = f.wantPlan(t, plans.Free, "")
		if !a.Billing.PeriodEnd.IsZero() || a.Billing.CustomerID == "" {
			t.Fatalf("after deletion: %+v", a.Billing)
		}
		if k, err := f.st.KeyByHash(ctx, f.key.Hash); err != nil || k.Revoked {
			t.Fatalf("the key after cancellation: %+v, %v", k, err)
		}
	})
}

// TestOutOfOrder: whatever order events arrive in, the account ends in the
// state of the newest; a deletion wins over an update of the same second.
func TestOutOfOrder(t *testing.T) {
	eachStore(t, func(t *testing.T, f *fixture) {
		updated := f.subscription("sub_1", "active", "price_team", t0)
		deleted := f.subscription("sub_1", "canceled", "price_team", t0)
		// Update, then deletion: Free.
		f.mustDeliver(t, EventCheckoutCompleted, t0, f.planSession("cs_1", plans.Team, "sub_1", "paid"))
		f.mustDeliver(t, EventSubscriptionUpdated, t0+100, updated)
		f.mustDeliver(t, EventSubscriptionDeleted, t0+200, deleted)
		f.wantPlan(t, plans.Free, "")
		// The same update and checkout delivered late (or replayed): still Free.
		f.mustDeliver(t, EventSubscriptionUpdated, t0+100, updated)
		f.mustDeliver(t, EventCheckoutCompleted, t0, f.planSession("cs_1", plans.Team, "sub_1", "paid"))
		f.wantPlan(t, plans.Free, "")

		// Deletion delivered first, then the older update and checkout.
		g := newFixture(t, f.st)
		g.mustDeliver(t, EventSubscriptionDeleted, t0+200, g.subscription("sub_2", "canceled", "price_team", t0))
		g.mustDeliver(t, EventSubscriptionUpdated, t0+100, g.subscription("sub_2", "active", "price_team", t0))
		g.mustDeliver(t, EventCheckoutCompleted, t0+1, g.planSession("cs_2", plans.Team, "sub_2", "paid"))
		g.wantPlan(t, plans.Free, "")

		// Update and deletion of the same second, in either order: Free.
		for i, order := range [][2]string{{EventSubscriptionUpdated, EventSubscriptionDeleted}, {EventSubscriptionDeleted, EventSubscriptionUpdated}} {
			h := newFixture(t, f.st)
			sub := "sub_same" + string(rune('a'+i))
			h.mustDeliver(t, EventCheckoutCompleted, t0, h.planSession("cs_same", plans.Solo, sub, "paid"))
			for _, typ := range order {
				status := "active"
				if typ == EventSubscriptionDeleted {
					status = "canceled"
				}
				h.mustDeliver(t, typ, t0+300, h.subscription(sub, status, "price_team", t0))
			}
			h.wantPlan(t, plans.Free, "")
		}

		// Plan changes in the portal delivered in reverse: the newest holds.
		p := newFixture(t, f.st)
		p.mustDeliver(t, EventSubscriptionUpdated, t0+20, p.subscription("sub_p", "active", "price_business", t0))
		p.mustDeliver(t, EventSubscriptionUpdated, t0+10, p.subscription("sub_p", "active", "price_team", t0))
		p.wantPlan(t, plans.Business, "sub_p")
	})
}

// TestReplacedSubscription: the end of a subscription that another has
// replaced leaves the account on the new one.
func TestReplacedSubscription(t *testing.T) {
	eachStore(t, func(t *testing.T, f *fixture) {
		f.mustDeliver(t, EventSubscriptionUpdated, t0, f.subscription("sub_old", "active", "price_solo", t0))
		f.mustDeliver(t, EventCheckoutCompleted, t0+100, f.planSession("cs_new", plans.Team, "sub_new", "paid"))
		f.mustDeliver(t, EventSubscriptionDeleted, t0+200, f.subscription("sub_old", "canceled", "price_solo", t0))
		f.wantPlan(t, plans.Team, "sub_new")
	})
}

// flaky fails the first call of each billing write, then behaves.
type flaky struct {
	Store
	failed map[string]bool
}

var errOutage = errors.New("store outage")

func (s *flaky) fail(op string) error {
	if !s.failed[op] {
		s.failed[op] = true
		return errOutage
	}
	return nil
}

func (s *flaky) ApplyPlan(ctx context.Context, id string, st store.PlanState) error {
	if err := s.fail("plan"); err != nil {
		return err
	}
	return s.Store.ApplyPlan(ctx, id, st)
}

func (s *flaky) AddCredits(ctx context.Context, id string, n int, grant string) (store.Balance, error) {
	if err := s.fail("credits"); err != nil {
		return store.Balance{}, err
	}
	return s.Store.AddCredits(ctx, id, n, grant)
}

func (s *flaky) RecordPaymentFailure(ctx context.Context, id string, pf store.PaymentFailure) error {
	if err := s.fail("failure"); err != nil {
		return err
	}
	return s.Store.RecordPaymentFailure(ctx, id, pf)
}

// TestStorageFailureRedelivered: a store that fails once makes the webhook
// fail (500, so Stripe delivers again) with nothing half-written; the
// redelivery applies the event exactly once.
func TestStorageFailureRedelivered(t *testing.T) {
	eachStore(t, func(t *testing.T, f *fixture) {
		fl := &flaky{Store: f.st, failed: map[string]bool{}}
		f.svc.cfg.Store = fl
		for _, ev := range []struct {
			typ    string
			object map[string]any
		}{
			{EventCheckoutCompleted, f.packSession("cs_pack", plans.PackSmall, 100, "paid")},
			{EventCheckoutCompleted, f.planSession("cs_plan", plans.Team, "sub_1", "paid")},
			{EventAsyncPaymentFailed, f.packSession("cs_failed", plans.PackLarge, 1000, "unpaid")},
		} {
			before := f.account(t)
			if err := f.deliver(ev.typ, t0, ev.object); !errors.Is(err, errOutage) {
				t.Fatalf("%s during an outage: %v, want the store's error", ev.typ, err)
			}
			after := f.account(t)
			if after.Plan != before.Plan || after.Credits != before.Credits || after.Billing.PaymentFailedRef != before.Billing.PaymentFailedRef {
				t.Fatalf("a failed delivery changed the account: %+v -> %+v", before, after)
			}
			f.mustDeliver(t, ev.typ, t0, ev.object)
			f.mustDeliver(t, ev.typ, t0, ev.object) // and a replay on top
		}
		a := f.wantPlan(t, plans.Team, "sub_1")
		if a.Credits != 100 || a.Billing.PaymentFailedRef != "cs_failed" {
			t.Fatalf("after redelivery: %+v", a)
		}
	})
}

// TestUnhandledEvents: other event types, other modes and foreign
// accounts answer 200 and change nothing.
func TestUnhandledEvents(t *testing.T) {
	f := newFixture(t, openSQLite(t))
	f.mustDeliver(t, "invoice.paid", t0, map[string]any{"id": "in_1", "object": "invoice"})
	f.mustDeliver(t, "customer.subscription.created", t0, f.subscription("sub_c", "active", "price_team", t0))
	f.mustDeliver(t, EventCheckoutCompleted, t0, f.session("cs_setup", "setup", "no_payment_required", nil, nil))
	other := f.planSession("cs_x", plans.Team, "sub_x", "paid")
	other["client_reference_id"], other["metadata"] = "acct_elsewhere", map[string]string{}
	f.mustDeliver(t, EventCheckoutCompleted, t0, other)
	anon := f.subscription("sub_y", "active", "price_team", t0)
	anon["metadata"] = map[string]string{}
	f.mustDeliver(t, EventSubscriptionUpdated, t0, anon)
	f.mustDeliver(t, EventCheckoutCompleted, t0, f.planSession("cs_gold", "gold", "sub_g", "paid"))
	a := f.wantPlan(t, plans.Free, "")
	if a.Credits != 0 {
		t.Fatalf("credits %d", a.Credits)
	}
	if !strings.Contains(f.logs.String(), `"outcome":"not handled"`) {
		t.Fatalf("logs: %s", f.logs)
	}
	// A signed event whose object is not an object is refused as unreadable.
	body := []byte(`{"id":"evt_bad","object":"event","api_version":"2023-10-16","created":1,"type":"checkout.session.completed","data":{"object":"oops"}}`)
	if err := f.svc.Webhook(context.Background(), body, sign(body, whsec, time.Now())); !errors.Is(err, ErrBadEvent) {
		t.Fatalf("unreadable object: %v", err)
	}
}

// TestNewerAPIVersion: an endpoint on a later API version, where the
// period moved onto the subscription's items, still works.
func TestNewerAPIVersion(t *testing.T) {
	f := newFixture(t, openSQLite(t))
	sub := f.subscription("sub_v", "active", "price_team", t0)
	items := sub["items"].(map[string]any)["data"].([]any)[0].(map[string]any)
	items["current_period_start"], items["current_period_end"] = sub["current_period_start"], sub["current_period_end"]
	delete(sub, "current_period_start")
	delete(sub, "current_period_end")
	body := []byte(strings.Replace(string(payload(EventSubscriptionUpdated, t0, sub)), `"2023-10-16"`, `"2025-03-31.basil"`, 1))
	if err := f.svc.Webhook(context.Background(), body, sign(body, whsec, time.Now())); err != nil {
		t.Fatal(err)
	}
	a := f.wantPlan(t, plans.Team, "sub_v")
	if a.Billing.PeriodStart.Unix() != t0 || a.Billing.PeriodEnd.Unix() != t0+30*24*3600 {
		t.Fatalf("period from the items: %+v", a.Billing)
	}
}

// TestWebhookLimiter: past the limit, deliveries are refused with a retry
// time and change nothing; forged ones are never counted.
func TestWebhookLimiter(t *testing.T) {
	saved := WebhookRule
	WebhookRule.Limit = 2
	defer func() { WebhookRule = saved }()
	f := newFixture(t, openSQLite(t))
	for range 5 {
		body := payload("invoice.paid", t0, map[string]any{"id": "in_1"})
		if err := f.svc.Webhook(context.Background(), body, sign(body, "whsec_forged", time.Now())); !errors.Is(err, ErrBadSignature) {
			t.Fatal(err)
		}
	}
	f.mustDeliver(t, "invoice.paid", t0, map[string]any{"id": "in_1"})
	f.mustDeliver(t, "invoice.paid", t0, map[string]any{"id": "in_2"})
	err := f.deliver(EventCheckoutCompleted, t0, f.planSession("cs_1", plans.Team, "sub_1", "paid"))
	var ex *ratelimit.Exceeded
	if !errors.As(err, &ex) || ex.RetryAfter < 1 || ex.RetryAfter > 60 {
		t.Fatalf("third delivery in the window: %v", err)
	}
	f.wantPlan(t, plans.Free, "")
}
