package metering_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/apikey"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

var now = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

func newMeter(t *testing.T) *metering.Meter {
	t.Helper()
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "db"), func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var ids atomic.Int64
	return &metering.Meter{Store: s, Plans: plans.New(0), AnonPerHour: 3, Now: func() time.Time { return now },
		NewID: func() string { return fmt.Sprintf("use_%06d", ids.Add(1)) }}
}

// whole is newMeter's store with all its methods: the tests set up
// accounts and read rows back through methods the meter does not use.
func whole(m *metering.Meter) *sqlite.Store { return m.Store.(*sqlite.Store) }

var n atomic.Int64

// account creates an account on plan and returns the Authorization value
// of its key.
func account(t *testing.T, m *metering.Meter, plan string) (store.Account, string) {
	t.Helper()
	id := n.Add(1)
	plain, hash, preview := apikey.New()
	a := store.Account{ID: "acct_" + string(rune('a'+id)), Email: string(rune('a'+id)) + "@example.com", Plan: plan, Created: now}
	if err := whole(m).CreateAccount(t.Context(), a, store.APIKey{ID: "key_" + a.ID, AccountID: a.ID, Hash: hash, Preview: preview, Created: now}); err != nil {
		t.Fatal(err)
	}
	return a, "Bearer " + plain
}

func TestResolve(t *testing.T) {
	m := newMeter(t)
	a, auth := account(t, m, plans.Team)
	c, err := m.Resolve(t.Context(), "", "203.0.113.5")
	if err != nil || c.Keyed() || c.IP != "203.0.113.5" {
		t.Fatalf("anonymous = %+v, %v", c, err)
	}
	c, err = m.Resolve(t.Context(), auth, "203.0.113.5")
	if err != nil || !c.Keyed() || c.Account.ID != a.ID || c.Plan.Name != plans.Team {
		t.Fatalf("keyed = %+v, %v", c, err)
	}
	for _, bad := range []string{"Bearer svc_unknown", "Bearer", "Basic abc", auth + "x"} {
		if _, err := m.Resolve(t.Context(), bad, "203.0.113.5"); !errors.Is(err, metering.ErrInvalidKey) {
			t.Errorf("Resolve(%q) = %v, want ErrInvalidKey", bad, err)
		}
	}
}

func use() metering.Use { return metering.Use{Route: "inspect", Documents: 1, Bytes: 100, Band: "low"} }

func TestFreeQuotaThenCredits(t *testing.T) {
	m := newMeter(t)
	a, auth := account(t, m, plans.Free)
	c, _ := m.Resolve(t.Context(), auth, "")
	var st metering.Status
	for i := range 25 {
		if _, err := m.Admit(t.Context(), c, 1); err != nil {
			t.Fatalf("admit %d: %v", i, err)
		}
		var err error
		if st, err = m.Settle(t.Context(), c, use()); err != nil {
			t.Fatalf("settle %d: %v", i, err)
		}
	}
	if st != (metering.Status{Limit: 25, Used: 25, Remaining: 0, Ceiling: 0, State: metering.Exhausted}) {
		t.Fatalf("status at the quota = %+v", st)
	}
	_, err := m.Admit(t.Context(), c, 1)
	var qe *metering.QuotaExceeded
	if !errors.As(err, &qe) || qe.Status.Used != 25 || qe.Status.Limit != 25 {
		t.Fatalf("admit past quota = %v", err)
	}
	if _, err := whole(m).AddCredits(t.Context(), a.ID, 2, "cs_1"); err != nil {
		t.Fatal(err)
	}
	if st, _ = m.Status(t.Context(), c); st.State != metering.SoftCeiling || st.Credits != 2 {
		t.Fatalf("with credits = %+v", st)
	}
	for i := range 2 {
		if _, err := m.Admit(t.Context(), c, 1); err != nil {
			t.Fatalf("credit admit %d: %v", i, err)
		}
		if st, err = m.Settle(t.Context(), c, use()); err != nil {
			t.Fatal(err)
		}
	}
	if st.Used != 25 || st.Credits != 0 || st.State != metering.Exhausted {
		t.Fatalf("after credits = %+v", st)
	}
	rows, _ := whole(m).UsageSince(t.Context(), a.ID, now.Add(-time.Hour))
	if len(rows) != 27 || !rows[26].Credit || rows[0].Credit || rows[0].KeyID == "" {
		t.Fatalf("usage rows: %d", len(rows))
	}
	if !rows[0].Expires.Equal(now.Add(metering.KeyedRetention)) {
		t.Fatalf("keyed row expires %v", rows[0].Expires)
	}
}

func TestPaidBuffer(t *testing.T) {
	m := newMeter(t)
	_, auth := account(t, m, plans.Solo)
	c, _ := m.Resolve(t.Context(), auth, "")
	want := map[int]metering.State{1: metering.Within, 1000: metering.Within, 1001: metering.SoftCeiling, 1099: metering.SoftCeiling, 1100: metering.Exhausted}
	for i := 1; i <= 1100; i++ {
		st, err := m.Settle(t.Context(), c, use())
		if err != nil {
			t.Fatalf("settle %d: %v", i, err)
		}
		if w, ok := want[i]; ok && (st.State != w || st.Used != i || st.Ceiling != 100 || st.Limit != 1000) {
			t.Fatalf("after %d: %+v, want state %s", i, st, w)
		}
	}
	var qe *metering.QuotaExceeded
	if _, err := m.Settle(t.Context(), c, use()); !errors.As(err, &qe) {
		t.Fatalf("settle past the buffer = %v", err)
	}
}

func TestLastUnitRace(t *testing.T) {
	m := newMeter(t)
	_, auth := account(t, m, plans.Free)
	c, _ := m.Resolve(t.Context(), auth, "")
	for range 24 {
		if _, err := m.Settle(t.Context(), c, use()); err != nil {
			t.Fatal(err)
		}
	}
	var ok, refused atomic.Int32
	var wg sync.WaitGroup
	for range 10 {
		wg.Go(func() {
			// Both pass Admit (one unit is left) and race in Settle.
			if _, err := m.Admit(t.Context(), c, 1); err != nil {
				refused.Add(1)
				return
			}
			_, err := m.Settle(t.Context(), c, use())
			var qe *metering.QuotaExceeded
			switch {
			case err == nil:
				ok.Add(1)
			case errors.As(err, &qe):
				refused.Add(1)
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 || refused.Load() != 9 {
		t.Fatalf("%d passed, %d refused; want 1 and 9", ok.Load(), refused.Load())
	}
}

func TestAnonymousHourly(t *testing.T) {
	m := newMeter(t)
	c, _ := m.Resolve(t.Context(), "", "198.51.100.7")
	for range 3 {
		if _, err := m.Admit(t.Context(), c, 1); err != nil {
			t.Fatal(err)
		}
		if _, err := m.Settle(t.Context(), c, use()); err != nil {
			t.Fatal(err)
		}
	}
	var ex *ratelimit.Exceeded
	if _, err := m.Admit(t.Context(), c, 1); !errors.As(err, &ex) || ex.RetryAfter != 3600 {
		t.Fatalf("fourth anonymous call = %v", err)
	}
	other, _ := m.Resolve(t.Context(), "", "198.51.100.8")
	if _, err := m.Admit(t.Context(), other, 1); err != nil {
		t.Fatalf("another IP: %v", err)
	}
	// Anonymous rows belong to no account.
	if rows, _ := whole(m).UsageSince(t.Context(), "", now.Add(-time.Hour)); len(rows) != 3 || rows[0].ClientIP != "198.51.100.7" ||
		!rows[0].Expires.Equal(now.Add(metering.AnonymousRetention)) {
		t.Fatalf("anonymous rows = %+v", rows)
	}
}

// slowCount is a store whose window reads take a while and record how
// many run at once for the same bucket.
type slowCount struct {
	*sqlite.Store
	inFlight, most, reads atomic.Int64
}

func (s *slowCount) Count(ctx context.Context, bucket string) (int, error) {
	s.reads.Add(1)
	n := s.inFlight.Add(1)
	for m := s.most.Load(); n > m && !s.most.CompareAndSwap(m, n); m = s.most.Load() {
	}
	defer s.inFlight.Add(-1)
	time.Sleep(time.Millisecond)
	return s.Store.Count(ctx, bucket)
}

// TestAnonWindowSharedIsOneReadAtATime: refusals from one address asking
// for their window together share a store read (one read in flight for
// the address at any time, however many ask) and all see the window; an
// answer whose call was counted reads afresh and sees its count.
func TestAnonWindowSharedIsOneReadAtATime(t *testing.T) {
	m := newMeter(t)
	sc := &slowCount{Store: whole(m)}
	m.Store = sc
	c := metering.Caller{IP: "203.0.113.9"}
	if _, err := m.Admit(t.Context(), c, 1); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 10 {
				w, err := m.AnonWindowShared(t.Context(), c)
				if err != nil || w.Limit != 3 || w.Remaining != 2 {
					t.Errorf("shared window %+v %v, want 2 of 3 left", w, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if sc.most.Load() != 1 {
		t.Fatalf("%d reads of one address ran at once, want 1", sc.most.Load())
	}
	if _, err := m.Admit(t.Context(), c, 1); err != nil {
		t.Fatal(err)
	}
	if w, err := m.AnonWindow(t.Context(), c); err != nil || w.Remaining != 1 {
		t.Fatalf("window after the count %+v %v, want 1 left", w, err)
	}
}
