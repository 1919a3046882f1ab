package sqlite_test

import (
	"database/sql"
	"os"
	"path/filepath"
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
