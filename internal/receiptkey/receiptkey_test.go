package receiptkey

import (
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/internal/store/sqlite"
)

func TestLoad(t *testing.T) {
	path := filepath.Join(t.TempDir(), sqlite.FileName)
	st, err := sqlite.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if s, _ := Load(t.Context(), "from-env", st); string(s) != "from-env" {
		t.Fatal("env not preferred")
	}
	a, err := Load(t.Context(), "", st)
	if err != nil || len(a) != 64 {
		t.Fatalf("generated %q %v", a, err)
	}
	// Another process on the same store gets the same secret.
	other, err := sqlite.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if b, _ := Load(t.Context(), "", other); string(a) != string(b) {
		t.Fatal("secret not shared through the store")
	}
}
