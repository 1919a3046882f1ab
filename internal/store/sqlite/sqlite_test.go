package sqlite_test

import (
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
