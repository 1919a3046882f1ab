package password

import (
	"fmt"
	"strings"
	"testing"
)

func TestHashAndVerify(t *testing.T) {
	h := Hash("correct horse battery")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") || strings.Contains(h, "correct") {
		t.Fatalf("hash %q", h)
	}
	if h == Hash("correct horse battery") {
		t.Fatal("salt not random")
	}
	if !Verify("correct horse battery", h) || Verify("correct horse batterz", h) || Verify("", h) {
		t.Fatal("verify")
	}
	for _, bad := range []string{"", "plain", "$argon2i$v=19$m=1,t=1,p=1$AA$AA", "$argon2id$v=19$m=999999999,t=1,p=1$AA$AA", "$argon2id$v=19$m=8,t=1,p=1$!!$AA"} {
		if Verify("x", bad) {
			t.Errorf("verified against %q", bad)
		}
	}
}

func TestCheck(t *testing.T) {
	if Check("123456789") == nil || Check("1234567890") != nil || Check("ééééééééé") == nil || Check("éééééééééé") != nil {
		t.Fatal("length rule counts characters")
	}
	if Check(strings.Repeat("a", MaxBytes+1)) == nil {
		t.Fatal("no upper bound")
	}
}

func FuzzVerify(f *testing.F) {
	f.Add("pw", Hash("pw"))
	f.Add("x", "$argon2id$v=19$m=8,t=1,p=1$AAAA$AAAA")
	f.Fuzz(func(t *testing.T, pw, encoded string) {
		Verify(pw, encoded) // must not panic or run away
	})
}

// TestWasteDoesVerifysWork: the dummy an unknown account is checked against
// parses with the current parameters, so it costs a real Verify.
func TestWasteDoesVerifysWork(t *testing.T) {
	ok, err := verify("anything", dummy)
	if err != nil || ok {
		t.Fatalf("dummy: %v %v", ok, err)
	}
	if !strings.Contains(dummy, fmt.Sprintf("m=%d,t=%d,p=%d$", memoryKiB, passes, lanes)) {
		t.Fatalf("dummy parameters %q", dummy)
	}
}
