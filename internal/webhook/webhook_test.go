package webhook

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestCheckURL(t *testing.T) {
	long := "https://hooks.example/" + strings.Repeat("a", MaxURLLength)
	for _, tc := range []struct {
		url   string
		local bool
		want  string // the stored URL, or a piece of the error
		ok    bool
	}{
		{"https://hooks.example/doctrust?x=1", false, "https://hooks.example/doctrust?x=1", true},
		{"  https://hooks.example/a#frag ", false, "https://hooks.example/a", true},
		{"http://127.0.0.1:9000/h", true, "http://127.0.0.1:9000/h", true},
		{"http://hooks.example/h", false, "must use https", false},
		{"ftp://hooks.example/h", false, "https://", false},
		{"https://user:pw@hooks.example/h", false, "user name or password", false},
		{"https://token@hooks.example/h", true, "user name or password", false},
		{"", false, "required", false},
		{"hooks.example/h", false, "absolute", false},
		{"https:///path", false, "absolute", false},
		{long, false, "longer than 2048", false},
		{"https://10.0.0.8/h", false, "private", false},
		{"https://LOCALHOST./h", false, "this machine", false},
		{"https://10.0.0.8/h", true, "https://10.0.0.8/h", true},
	} {
		got, err := CheckURL(tc.url, tc.local)
		var ie *InputError
		switch {
		case tc.ok && (err != nil || got != tc.want):
			t.Errorf("CheckURL(%q) = %q, %v; want %q", tc.url, got, err, tc.want)
		case !tc.ok && (!errors.As(err, &ie) || !strings.Contains(ie.Message, tc.want)):
			t.Errorf("CheckURL(%q) error %v; want one saying %q", tc.url, err, tc.want)
		}
	}
}

func TestPublic(t *testing.T) {
	for addr, want := range map[string]bool{
		"93.184.215.14": true, "2606:2800:21f:cb07:6820:80da:af6b:8b2c": true,
		"127.0.0.1": false, "10.0.0.1": false, "172.16.5.4": false, "192.168.1.1": false, "169.254.169.254": false,
		"0.0.0.0": false, "100.64.1.1": false, "::1": false, "::": false, "fe80::1": false, "fd12::1": false,
		"::ffff:127.0.0.1": false, "::ffff:8.8.8.8": true, "64:ff9b::a00:1": false, "224.0.0.1": false, "255.255.255.255": false,
	} {
		if got := Public(netip.MustParseAddr(addr)); got != want {
			t.Errorf("Public(%s) = %v, want %v", addr, got, want)
		}
	}
}

func TestSignVerify(t *testing.T) {
	at := time.Unix(1764370000, 0)
	body := []byte(`{"id":"evt_1"}`)
	h := Sign("whsec_k", at, body)
	if !strings.HasPrefix(h, "t=1764370000,v1=") || len(h) != len("t=1764370000,v1=")+64 {
		t.Fatalf("header %q", h)
	}
	if err := Verify(h, body, "whsec_k", 5*time.Minute, at.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	// A second v1 (a rotated secret's) may stand beside the matching one.
	if err := Verify(h+",v1=00", body, "whsec_k", time.Minute, at); err != nil {
		t.Fatal(err)
	}
	for name, tc := range map[string]struct {
		header, secret string
		body           []byte
		now            time.Time
		want           error
	}{
		"tampered body": {h, "whsec_k", []byte(`{"id":"evt_2"}`), at, ErrNoMatch},
		"other secret":  {h, "whsec_other", body, at, ErrNoMatch},
		"replayed late": {h, "whsec_k", body, at.Add(6 * time.Minute), ErrTooOld},
		"no v1":         {"t=1764370000", "whsec_k", body, at, ErrBadHeader},
		"no t":          {h[strings.Index(h, ",")+1:], "whsec_k", body, at, ErrBadHeader},
	} {
		if err := Verify(tc.header, tc.body, tc.secret, 5*time.Minute, tc.now); !errors.Is(err, tc.want) {
			t.Errorf("%s: %v, want %v", name, err, tc.want)
		}
	}
}

func TestNewSecret(t *testing.T) {
	a, b := NewSecret(), NewSecret()
	if a == b || !strings.HasPrefix(a, "whsec_") || len(a) != 70 {
		t.Fatalf("secrets %q %q", a, b)
	}
}

func FuzzCheckURL(f *testing.F) {
	for _, s := range []string{"https://hooks.example/doctrust", "http://127.0.0.1:8080/h", "https://u:p@[::1]:443/x#y",
		"https://169.254.169.254/latest", "https://xn--caldrfinch-x7a.co.uk/hook?a=b"} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, raw string, local bool) {
		u, err := CheckURL(raw, local)
		if err != nil {
			return
		}
		// What is stored passes again unchanged.
		if again, err := CheckURL(u, local); err != nil || again != u {
			t.Fatalf("CheckURL(%q) = %q, then %q, %v", raw, u, again, err)
		}
		if !local && !strings.HasPrefix(u, "https://") {
			t.Fatalf("stored %q outside local mode", u)
		}
	})
}

func FuzzVerify(f *testing.F) {
	body := []byte(`{"id":"evt_1","type":"ledger.alert"}`)
	at := time.Unix(1764370000, 0)
	f.Add(Sign("whsec_k", at, body), body)
	f.Add("t=1,v1=zz,v0=1", []byte{})
	f.Add(",,=,t=,v1", []byte("x"))
	f.Fuzz(func(t *testing.T, header string, body []byte) {
		err := Verify(header, body, "whsec_k", time.Hour, at)
		// Anything accepted must carry the body's own signature.
		if err == nil && !strings.Contains(header, Sign("whsec_k", at, body)[len("t=1764370000,"):]) {
			t.Fatalf("accepted %q for %q", header, body)
		}
	})
}
