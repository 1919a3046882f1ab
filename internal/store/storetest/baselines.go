package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

// testBaselines: create, read, replace (keeping created), list by issuer,
// delete; accounts never see each other's profiles.
func testBaselines(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "team")
	other, _ := newAccount(t, s, clock, "team")
	created := clock.Now().Add(123 * time.Nanosecond)
	put := func(acct, issuer, profile string, at time.Time) {
		t.Helper()
		b := store.Baseline{AccountID: acct, Issuer: issuer, Profile: []byte(profile), Created: at, Updated: at}
		if err := s.PutBaseline(ctx, b, 25); err != nil {
			t.Fatalf("put %s: %v", issuer, err)
		}
	}
	if _, err := s.Baseline(ctx, a.ID, "acme"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("missing baseline: %v", err)
	}
	put(a.ID, "zeta", `{"n":1}`, created)
	put(a.ID, "acme", `{"n":1}`, created)
	later := created.Add(time.Hour)
	put(a.ID, "acme", `{"n":2}`, later)
	got, err := s.Baseline(ctx, a.ID, "acme")
	if err != nil || string(got.Profile) != `{"n":2}` || !got.Created.Equal(created) || !got.Updated.Equal(later) || got.AccountID != a.ID {
		t.Fatalf("after replace: %+v, %v", got, err)
	}
	list, err := s.Baselines(ctx, a.ID)
	if err != nil || len(list) != 2 || list[0].Issuer != "acme" || list[1].Issuer != "zeta" {
		t.Fatalf("list: %+v, %v", list, err)
	}
	if list, _ := s.Baselines(ctx, other.ID); len(list) != 0 {
		t.Fatalf("other account sees %+v", list)
	}
	if _, err := s.Baseline(ctx, other.ID, "acme"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("other account reads acme: %v", err)
	}
	if err := s.DeleteBaseline(ctx, other.ID, "acme"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("other account deletes acme: %v", err)
	}
	if err := s.DeleteBaseline(ctx, a.ID, "acme"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteBaseline(ctx, a.ID, "acme"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("second delete: %v", err)
	}
	if list, _ := s.Baselines(ctx, a.ID); len(list) != 1 || list[0].Issuer != "zeta" {
		t.Fatalf("after delete: %+v", list)
	}
}

// testBaselineLimit: the limit counts profiles, not writes; replacing at
// the limit works, creating past it is refused whole, and deleting frees
// a place. Racing creates never pass the limit.
func testBaselineLimit(t *testing.T, s store.Store, clock *Clock) {
	a, _ := newAccount(t, s, clock, "team")
	const limit = 3
	put := func(issuer string) error {
		now := clock.Now()
		return s.PutBaseline(ctx, store.Baseline{AccountID: a.ID, Issuer: issuer, Profile: []byte("{}"), Created: now, Updated: now}, limit)
	}
	for i := range limit {
		if err := put(fmt.Sprintf("issuer-%d", i)); err != nil {
			t.Fatal(err)
		}
	}
	if err := put("issuer-0"); err != nil {
		t.Fatalf("replacing at the limit: %v", err)
	}
	if err := put("one-more"); !errors.Is(err, store.ErrRefused) {
		t.Fatalf("past the limit: %v", err)
	}
	if _, err := s.Baseline(ctx, a.ID, "one-more"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("refused profile was written: %v", err)
	}
	if err := s.DeleteBaseline(ctx, a.ID, "issuer-1"); err != nil {
		t.Fatal(err)
	}
	if err := put("one-more"); err != nil {
		t.Fatalf("after a delete: %v", err)
	}

	b, _ := newAccount(t, s, clock, "team")
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok := 0
	for i := range 8 {
		wg.Go(func() {
			now := clock.Now()
			err := s.PutBaseline(ctx, store.Baseline{AccountID: b.ID, Issuer: fmt.Sprintf("race-%d", i), Profile: []byte("{}"), Created: now, Updated: now}, limit)
			if err == nil {
				mu.Lock()
				ok++
				mu.Unlock()
			} else if !errors.Is(err, store.ErrRefused) {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if list, _ := s.Baselines(ctx, b.ID); ok != limit || len(list) != limit {
		t.Fatalf("racing creates: %d succeeded, %d stored, limit %d", ok, len(list), limit)
	}
}
