package stripemock

import (
	"net/http"
	"strings"
	"testing"
)

// TestStartsOnLoopback: both listeners on 127.0.0.1 and the HTTP one
// answers like Stripe (a request without a key is refused with Stripe's
// error body).
func TestStartsOnLoopback(t *testing.T) {
	url := Start(t)
	if !strings.HasPrefix(url, "http://127.0.0.1:") {
		t.Fatalf("url %q", url)
	}
	resp, err := http.Get(url + "/v1/customers")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("unauthenticated request: %d", resp.StatusCode)
	}
}

func TestLoopback(t *testing.T) {
	for addr, ok := range map[string]bool{"127.0.0.1:1": true, "[::1]:2": true, "0.0.0.0:3": false, "[::]:4": false, "192.0.2.1:5": false} {
		if err := loopback(addr); (err == nil) != ok {
			t.Errorf("loopback(%s) = %v", addr, err)
		}
	}
}
