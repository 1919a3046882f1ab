package apikey

import (
	"strings"
	"testing"
)

func TestNew(t *testing.T) {
	k1, h1, p1 := New()
	k2, _, _ := New()
	if k1 == k2 || !strings.HasPrefix(k1, Prefix) || len(k1) != len(Prefix)+bodyLen {
		t.Fatalf("keys %q %q", k1, k2)
	}
	if h1 != Hash(k1) || len(h1) != 64 || strings.Contains(h1, k1[len(Prefix):]) {
		t.Fatalf("hash %q", h1)
	}
	if p1 != Prefix+"…"+k1[len(k1)-4:] || strings.Contains(p1, k1[len(Prefix):len(k1)-4]) {
		t.Fatalf("preview %q reveals the key", p1)
	}
}

func TestFromHeader(t *testing.T) {
	for _, tc := range []struct {
		in, key string
		ok      bool
	}{
		{"Bearer svc_abc", "svc_abc", true},
		{"bearer  svc_abc ", "svc_abc", true},
		{"Bearer", "", false},
		{"Bearer ", "", false},
		{"Basic dXNlcjpwYXNz", "", false},
		{"svc_abc", "", false},
	} {
		if key, ok := FromHeader(tc.in); key != tc.key || ok != tc.ok {
			t.Errorf("FromHeader(%q) = %q, %v", tc.in, key, ok)
		}
	}
}
