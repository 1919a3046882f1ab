package storetest

import (
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

func testBillingCustomer(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	if got, _ := s.Account(ctx, a.ID); got.Billing != (store.Billing{}) {
		t.Fatalf("a new account has billing %+v", got.Billing)
	}
	if err := s.SetCustomer(ctx, a.ID, "cus_123"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetCustomer(ctx, a.ID, "cus_123"); err != nil {
		t.Fatalf("setting the same customer again: %v", err)
	}
	if got, _ := s.Account(ctx, a.ID); got.Billing.CustomerID != "cus_123" || got.Plan != "free" {
		t.Fatalf("after SetCustomer: %+v", got)
	}
	if err := s.SetCustomer(ctx, "acct_missing", "cus_1"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetCustomer on a missing account: %v, want ErrNotFound", err)
	}
	if _, err := s.Account(ctx, "acct_missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetCustomer created an account: %v", err)
	}
	// Support tooling moves the plan and leaves the billing record alone.
	if err := s.SetPlan(ctx, a.ID, "team"); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.Account(ctx, a.ID); got.Billing.CustomerID != "cus_123" {
		t.Fatalf("SetPlan changed billing: %+v", got.Billing)
	}
}

// testApplyPlan: absolute states ordered by version; replays apply again,
// older states and foreign subscriptions' ends are refused whole.
func testApplyPlan(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	start := clock.Now().Add(123456789 * time.Nanosecond) // times keep their nanoseconds
	end := start.AddDate(0, 1, 0)
	team := store.PlanState{Plan: "team", SubscriptionID: "sub_A", PeriodStart: start, PeriodEnd: end, Version: 100}
	want := func(what string, plan, sub string, version int64) store.Account {
		t.Helper()
		got, err := s.Account(ctx, a.ID)
		if err != nil || got.Plan != plan || got.Billing.SubscriptionID != sub || got.Billing.PlanVersion != version {
			t.Fatalf("%s: %+v, %v; want plan %s, subscription %q, version %d", what, got, err, plan, sub, version)
		}
		return got
	}
	if err := s.ApplyPlan(ctx, a.ID, team); err != nil {
		t.Fatal(err)
	}
	got := want("first state", "team", "sub_A", 100)
	if !got.Billing.PeriodStart.Equal(start) || !got.Billing.PeriodEnd.Equal(end) {
		t.Fatalf("period %v–%v, want %v–%v", got.Billing.PeriodStart, got.Billing.PeriodEnd, start, end)
	}
	if err := s.ApplyPlan(ctx, a.ID, team); err != nil {
		t.Fatalf("a replay of the same state: %v", err)
	}
	// An older state (an event delivered late) is refused and writes nothing.
	solo := store.PlanState{Plan: "solo", SubscriptionID: "sub_A", PeriodStart: start, PeriodEnd: end, Version: 99}
	if err := s.ApplyPlan(ctx, a.ID, solo); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("an older state: %v, want ErrRefused", err)
	}
	want("after a stale state", "team", "sub_A", 100)
	// The end of another subscription leaves this one alone.
	other := store.PlanState{Plan: "free", Version: 103, IfSubscription: "sub_OTHER"}
	if err := s.ApplyPlan(ctx, a.ID, other); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("ending another subscription: %v, want ErrRefused", err)
	}
	want("after another subscription ended", "team", "sub_A", 100)
	// Its own end returns the account to Free and clears the subscription.
	ended := store.PlanState{Plan: "free", Version: 101, IfSubscription: "sub_A"}
	if err := s.ApplyPlan(ctx, a.ID, ended); err != nil {
		t.Fatal(err)
	}
	got = want("after the end", "free", "", 101)
	if !got.Billing.PeriodStart.IsZero() || !got.Billing.PeriodEnd.IsZero() {
		t.Fatalf("period kept after the end: %+v", got.Billing)
	}
	if err := s.ApplyPlan(ctx, a.ID, team); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("the update from before the end: %v, want ErrRefused", err)
	}
	if err := s.ApplyPlan(ctx, a.ID, ended); err != nil {
		t.Fatalf("a replay of the end: %v", err)
	}
	// With no subscription left, a condition on one holds.
	next := store.PlanState{Plan: "solo", SubscriptionID: "sub_B", Version: 200, IfSubscription: "sub_B"}
	if err := s.ApplyPlan(ctx, a.ID, next); err != nil {
		t.Fatalf("a new subscription: %v", err)
	}
	want("new subscription", "solo", "sub_B", 200)
	if err := s.ApplyPlan(ctx, "acct_missing", next); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("ApplyPlan on a missing account: %v, want ErrNotFound", err)
	}
	if _, err := s.Account(ctx, "acct_missing"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("ApplyPlan created an account: %v", err)
	}
	// Credits and the customer are not part of a plan state.
	if err := s.SetCustomer(ctx, a.ID, "cus_A"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AddCredits(ctx, a.ID, 7, uniq("cs_")); err != nil {
		t.Fatal(err)
	}
	if err := s.ApplyPlan(ctx, a.ID, store.PlanState{Plan: "free", Version: 201}); err != nil {
		t.Fatal(err)
	}
	if got := want("free again", "free", "", 201); got.Credits != 7 || got.Billing.CustomerID != "cus_A" {
		t.Fatalf("a plan state touched credits or customer: %+v", got)
	}
}

// testApplyPlanRace: states of many versions applied at once end on the
// newest, whatever order they ran in.
func testApplyPlanRace(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "free")
	plans := []string{"solo", "team", "business"}
	var wg sync.WaitGroup
	for i := range 12 {
		wg.Go(func() {
			st := store.PlanState{Plan: plans[i%3], SubscriptionID: "sub_race", Version: int64(10 + i)}
			if err := s.ApplyPlan(ctx, a.ID, st); err != nil && !errors.Is(err, store.ErrRefused) {
				t.Errorf("apply: %v", err)
			}
		})
	}
	wg.Wait()
	got, _ := s.Account(ctx, a.ID)
	if got.Billing.PlanVersion != 21 || got.Plan != plans[11%3] {
		t.Fatalf("after racing states: plan %s version %d; want %s 21", got.Plan, got.Billing.PlanVersion, plans[11%3])
	}
}

func testPaymentFailure(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "solo")
	first := store.PaymentFailure{At: clock.Now(), Ref: "cs_1"}
	if err := s.RecordPaymentFailure(ctx, a.ID, first); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordPaymentFailure(ctx, a.ID, first); err != nil {
		t.Fatalf("a replay: %v", err)
	}
	later := store.PaymentFailure{At: clock.Now().Add(time.Hour), Ref: "cs_2"}
	if err := s.RecordPaymentFailure(ctx, a.ID, later); err != nil {
		t.Fatal(err)
	}
	if err := s.RecordPaymentFailure(ctx, a.ID, first); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("an earlier failure after a later one: %v, want ErrRefused", err)
	}
	got, _ := s.Account(ctx, a.ID)
	if !got.Billing.PaymentFailedAt.Equal(later.At) || got.Billing.PaymentFailedRef != "cs_2" || got.Plan != "solo" {
		t.Fatalf("after failures: %+v", got)
	}
	if err := s.RecordPaymentFailure(ctx, "acct_missing", first); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("failure on a missing account: %v, want ErrNotFound", err)
	}
}
