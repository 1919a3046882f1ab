package receiptkey

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLoad(t *testing.T) {
	if s, _ := Load("from-env", t.TempDir()); string(s) != "from-env" {
		t.Fatal("env not preferred")
	}
	dir := filepath.Join(t.TempDir(), "data")
	a, err := Load("", dir)
	if err != nil || len(a) != 64 {
		t.Fatalf("generated %q %v", a, err)
	}
	b, _ := Load("", dir)
	if string(a) != string(b) {
		t.Fatal("secret not stable across loads")
	}
	if fi, _ := os.Stat(filepath.Join(dir, FileName)); fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v", fi.Mode())
	}
}
