package main

import (
	"bytes"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/testproc"
	"time"

	"github.com/doctrust/doctrust/internal/apikey"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/sqlite"

	"github.com/doctrust/doctrust/internal/corpustest"
)

// TestMain lets a test start this binary as `doctrust` in a child process.
func TestMain(m *testing.M) {
	if os.Getenv("DOCTRUST_TEST_AS_CLI") == "1" {
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// TestAdminPlanWhileServing: `doctrust serve` runs in its own process on a
// DATA_DIR; `doctrust admin plan` changes an account's plan in the same
// store, and the running server meters the account's next call on it.
func TestAdminPlanWhileServing(t *testing.T) {
	pdf, err := os.ReadFile(sample)
	if err != nil {
		corpustest.Skip(t, "../shared/corpus")
	}
	dataDir := t.TempDir()
	port := testproc.FreePort(t)
	cmd := exec.Command(os.Args[0], "serve")
	cmd.Env = append(os.Environ(), "DOCTRUST_TEST_AS_CLI=1", "DATA_DIR="+dataDir, "PORT="+port, "RECEIPT_SECRET=")
	testproc.Serve(t, cmd)

	// An account made through a third handle on the same file (signup's
	// job once accounts land).
	st, err := sqlite.Open(filepath.Join(dataDir, sqlite.FileName), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	plain, hash, preview := apikey.New()
	a := store.Account{ID: "acct_admin", Email: "ops@example.com", Plan: "free", Created: time.Now()}
	if err := st.CreateAccount(t.Context(), a, store.APIKey{ID: "key_admin", AccountID: a.ID, Hash: hash, Preview: preview, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	limit := func() string {
		req, _ := http.NewRequest("POST", "http://127.0.0.1:"+port+"/api/v1/inspect", bytes.NewReader(pdf))
		req.Header.Set("Authorization", "Bearer "+plain)
		req.Header.Set("Content-Type", "application/pdf")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("inspect: %d", resp.StatusCode)
		}
		return resp.Header.Get("x-quota-limit")
	}
	if got := limit(); got != "25" {
		t.Fatalf("free limit %q", got)
	}
	t.Setenv("DATA_DIR", dataDir)
	var out, errb bytes.Buffer
	if code := run([]string{"admin", "plan", "OPS@example.com", "team"}, &out, &errb); code != 0 {
		t.Fatalf("admin plan: exit %d: %s", code, errb.String())
	}
	if !strings.Contains(out.String(), "plan Growth (team), was Free (free)") {
		t.Fatalf("admin output %q", out.String())
	}
	if got := limit(); got != "10000" {
		t.Fatalf("limit after admin plan team = %q", got)
	}
	// The dashboard's name for a plan is accepted too.
	out.Reset()
	if code := run([]string{"admin", "plan", "ops@example.com", "Starter"}, &out, &errb); code != 0 || !strings.Contains(out.String(), "plan Starter (solo), was Growth (team)") {
		t.Fatalf("admin plan Starter: exit %d %q %s", code, out.String(), errb.String())
	}
	for _, bad := range [][]string{{"admin", "plan", "ops@example.com", "gold"}, {"admin", "plan", "x"}} {
		if code := run(bad, &out, &errb); code != 2 {
			t.Errorf("%v: exit %d, want 2", bad, code)
		}
	}
	if code := run([]string{"admin", "plan", "nobody@example.com", "team"}, &out, &errb); code != 1 {
		t.Errorf("unknown email: exit %d, want 1", code)
	}
}
