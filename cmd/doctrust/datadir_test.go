package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const fixturePDF = "../../engine/testdata/detection/traces/genuine-gs-statement-1.pdf"

// userEnv is a user with a home folder and no DATA_DIR, XDG_DATA_HOME or
// RECEIPT_SECRET: the CLI's own defaults.
func userEnv(t *testing.T) string {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("RECEIPT_SECRET", "")
	t.Setenv("STORE", "")
	return home
}

func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// TestDataFolderPerUser: with no DATA_DIR, inspect keeps its store (and the
// receipt secret in it) in the per-user data folder, never in the folder it
// runs from, so a receipt printed in one folder verifies from another.
func TestDataFolderPerUser(t *testing.T) {
	home := userEnv(t)
	fixture, err := filepath.Abs(fixturePDF)
	if err != nil {
		t.Fatal(err)
	}
	a, b := t.TempDir(), t.TempDir()
	code, report, errs := runIn(t, a, "inspect", fixture)
	if code != 0 {
		t.Fatalf("inspect: exit %d %s", code, errs)
	}
	if entries, _ := os.ReadDir(a); len(entries) != 0 {
		t.Fatalf("inspect left %d entries in the working folder (first %s)", len(entries), entries[0].Name())
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "share", "doctrust", "doctrust.db")); err != nil {
		t.Fatalf("no store in the per-user folder: %v", err)
	}
	saved := filepath.Join(b, "report.json")
	if err := os.WriteFile(saved, []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, errs := runIn(t, b, "verify", saved); code != 0 || strings.TrimSpace(out) != `{"valid":true}` {
		t.Fatalf("verify from another folder: exit %d %s %s", code, out, errs)
	}
	// Another store is another secret: the receipt does not verify there.
	t.Setenv("DATA_DIR", t.TempDir())
	if code, out, _ := runIn(t, b, "verify", saved); code != 5 || !strings.Contains(out, "bad_signature") {
		t.Fatalf("verify against another store: exit %d %s", code, out)
	}
	// XDG_DATA_HOME moves the folder.
	xdg := t.TempDir()
	t.Setenv("DATA_DIR", "")
	t.Setenv("XDG_DATA_HOME", xdg)
	if code, _, errs := runIn(t, a, "inspect", fixture); code != 0 {
		t.Fatalf("inspect: exit %d %s", code, errs)
	}
	if _, err := os.Stat(filepath.Join(xdg, "doctrust", "doctrust.db")); err != nil {
		t.Fatalf("XDG_DATA_HOME not used: %v", err)
	}
}

// TestErrorsNameTheStore: a command that looked in a store says which.
func TestErrorsNameTheStore(t *testing.T) {
	home := userEnv(t)
	want := filepath.Join(home, ".local", "share", "doctrust")
	fixture, err := filepath.Abs(fixturePDF)
	if err != nil {
		t.Fatal(err)
	}
	code, _, errs := runIn(t, t.TempDir(), "admin", "plan", "nobody@example.com", "team")
	if code != 1 || !strings.Contains(errs, "no account with email nobody@example.com in the embedded store "+want+" (DATA_DIR)") {
		t.Errorf("admin: exit %d %q", code, errs)
	}
	code, _, errs = runIn(t, t.TempDir(), "inspect", fixture, "--issuer", "acme", "--account", "nobody@example.com")
	if code != 1 || !strings.Contains(errs, "no account with email nobody@example.com in the embedded store "+want) {
		t.Errorf("inspect --account: exit %d %q", code, errs)
	}
	// A store that cannot be opened is named too.
	blocked := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(blocked, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("DATA_DIR", filepath.Join(blocked, "data"))
	code, _, errs = runIn(t, t.TempDir(), "inspect", fixture)
	if code != 1 || !strings.Contains(errs, filepath.Join(blocked, "data")) {
		t.Errorf("unopenable store: exit %d %q", code, errs)
	}
}
