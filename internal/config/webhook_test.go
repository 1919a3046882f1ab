package config

import (
	"io"
	"testing"
)

// TestWebhookReachesLocalOnlyOnLoopbackServe: receivers on this machine
// or its network are allowed only to a local server answering on plain
// http loopback; one published over https posts to public addresses
// only, and the ledger attempts through the same service.
func TestWebhookReachesLocalOnlyOnLoopbackServe(t *testing.T) {
	for _, tc := range []struct {
		base  string
		local bool
	}{
		{"", true},
		{"http://127.0.0.1:9090", true},
		{"http://localhost:9090", true},
		{"https://doctrust.example.com", false},
		{"http://doctrust.internal.example", false},
	} {
		vars := map[string]string{"DATA_DIR": t.TempDir(), "PUBLIC_BASE_URL": tc.base}
		svc, err := Server(t.Context(), Local, func(k string) string { return vars[k] }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		if svc.HTTP.Webhooks == nil || svc.HTTP.Webhooks.Local != tc.local {
			t.Errorf("PUBLIC_BASE_URL %q: webhooks %+v, want Local %v", tc.base, svc.HTTP.Webhooks, tc.local)
		}
		if svc.HTTP.Ledger.Webhooks != svc.HTTP.Webhooks {
			t.Errorf("PUBLIC_BASE_URL %q: the ledger does not attempt through the webhook service", tc.base)
		}
		svc.Close()
	}
}
