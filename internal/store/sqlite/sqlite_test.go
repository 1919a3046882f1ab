package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/sqlite"
	"github.com/doctrust/doctrust/internal/store/storetest"
)

func TestSuite(t *testing.T) {
	storetest.Run(t, func(t *testing.T, clock func() time.Time) store.Store {
		s, err := sqlite.Open(filepath.Join(t.TempDir(), sqlite.FileName), clock)
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// Two handles on one file stand for `doctrust serve` and `doctrust admin`
// running side by side: a change through one is seen by the other.
func TestTwoProcessesShareTheFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), sqlite.FileName)
	serve, err := sqlite.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer serve.Close()
	admin, err := sqlite.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	a := store.Account{ID: "acct_1", Email: "a@example.com", Plan: "free", Created: time.Now()}
	if err := serve.CreateAccount(t.Context(), a, store.APIKey{ID: "key_1", AccountID: a.ID, Hash: "h1", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := admin.SetPlan(t.Context(), a.ID, "team"); err != nil {
		t.Fatal(err)
	}
	if got, _ := serve.Account(t.Context(), a.ID); got.Plan != "team" {
		t.Fatalf("serve sees plan %q after admin set team", got.Plan)
	}
}

func TestFileIsOwnerOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", sqlite.FileName)
	s, err := sqlite.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Secret(t.Context(), "x", []byte("y")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal"} {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v %v", p, fi.Mode(), err)
		}
	}
}

// TestMigratesOlderFile: a file written before sessions and billing gains
// their columns on open; its accounts read with zero values and take
// billing writes.
func TestMigratesOlderFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), sqlite.FileName)
	old, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := old.Exec(`CREATE TABLE accounts (
		id TEXT PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE, password_hash TEXT NOT NULL DEFAULT '',
		verified INTEGER NOT NULL DEFAULT 0, plan TEXT NOT NULL, credits INTEGER NOT NULL DEFAULT 0, created INTEGER NOT NULL);
		INSERT INTO accounts (id, email, plan, credits, created) VALUES ('acct_old', 'old@example.com', 'solo', 3, 1)`); err != nil {
		t.Fatal(err)
	}
	old.Close()
	s, err := sqlite.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a, err := s.Account(t.Context(), "acct_old")
	if err != nil || a.Plan != "solo" || a.Credits != 3 || a.SessionEpoch != 0 || a.Billing != (store.Billing{}) {
		t.Fatalf("migrated account = %+v, %v", a, err)
	}
	if err := s.ApplyPlan(t.Context(), a.ID, store.PlanState{Plan: "team", SubscriptionID: "sub_1", Version: 2}); err != nil {
		t.Fatal(err)
	}
	if a, _ := s.Account(t.Context(), a.ID); a.Plan != "team" || a.Billing.SubscriptionID != "sub_1" {
		t.Fatalf("after ApplyPlan: %+v", a)
	}
}

// Many concurrent callers mixing writes (one writer connection) with reads
// (the readers) all finish, with every count kept: the writer queues them
// rather than failing, and a read never waits on a transaction.
func TestConcurrentCallers(t *testing.T) {
	s, err := sqlite.Open(filepath.Join(t.TempDir(), sqlite.FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	a := store.Account{ID: "acct_1", Email: "a@example.com", Plan: "free", Created: time.Now()}
	if err := s.CreateAccount(ctx, a, store.APIKey{ID: "key_1", AccountID: a.ID, Hash: "h1", Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	const callers, each = 32, 20
	errs := make(chan error, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			for j := range each {
				if _, err := s.Hit(ctx, "anon:test", 1_000_000, time.Now().Add(time.Hour)); err != nil {
					errs <- err
					return
				}
				u := store.UsageRecord{ID: fmt.Sprintf("u_%d_%d", i, j), AccountID: a.ID, Route: "inspect", At: time.Now(), Documents: 1, Expires: time.Now().Add(time.Hour)}
				if err := s.RecordUsage(ctx, u); err != nil {
					errs <- err
					return
				}
				if _, err := s.UsageSince(ctx, a.ID, time.Time{}); err != nil {
					errs <- err
					return
				}
				if _, err := s.Count(ctx, "anon:test"); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if n, err := s.Count(ctx, "anon:test"); err != nil || n != callers*each {
		t.Fatalf("counter %d (%v), want %d", n, err, callers*each)
	}
	if u, err := s.UsageSince(ctx, a.ID, time.Time{}); err != nil || len(u) != callers*each {
		t.Fatalf("%d usage rows (%v), want %d", len(u), err, callers*each)
	}
}

// BenchmarkConcurrentHits is the anonymous limit's write (one per
// anonymous inspection) from 16 callers at once, as an overloaded server's
// queue makes them (docs/reliability.md, "One writer connection").
func BenchmarkConcurrentHits(b *testing.B) {
	s, err := sqlite.Open(filepath.Join(b.TempDir(), sqlite.FileName), nil)
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	expires := time.Now().Add(time.Hour)
	b.SetParallelism(8) // 16 goroutines on 2 cores
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := s.Hit(b.Context(), "anon:bench", 1<<30, expires); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
