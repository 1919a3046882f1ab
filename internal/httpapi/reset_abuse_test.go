package httpapi

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
)

// allocatedBy is how many bytes the process allocated while f ran.
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestResetProvesTheTokenBeforeHashing: a reset token naming a real
// account id and its current epoch, but not issued by the service, is
// refused before the password is hashed (argon2id takes 19 MiB; 32 such
// requests at once took the server from 94 MiB to 1.2 GiB), the same way
// as an unknown id; and /auth/reset is limited per address.
func TestResetProvesTheTokenBeforeHashing(t *testing.T) {
	e := newEnv(t)
	b := &browser{e: e}
	resp, body := b.call(t, "POST", "/api/v1/auth/signup", map[string]string{"email": "erin@example.com", "password": "correct horse battery"})
	if resp.StatusCode != 201 {
		t.Fatalf("signup %d", resp.StatusCode)
	}
	id := body["user"].(map[string]any)["id"].(string)
	random := strings.Repeat("A", 43)
	forged := []string{
		id + ".0." + random, // the token's old shape, real id and epoch
		id + ".0." + random + "." + strings.Repeat("B", 43),                                     // a MAC that does not hold
		"acct_00000000-0000-0000-0000-000000000000.0." + random + "." + strings.Repeat("B", 43), // an unknown id
		id + ".7." + random + "." + strings.Repeat("B", 43),                                     // a stale epoch
	}
	for _, tok := range forged {
		var resp2 *httpResponse
		n := allocatedBy(func() {
			r, m := (&browser{e: e}).call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": tok, "password": "an attacker passphrase"})
			resp2 = &httpResponse{r.StatusCode, m}
		})
		if resp2.status != 400 || resp2.body["error"] != "invalid_token" {
			t.Fatalf("forged token %q: %d %v", tok, resp2.status, resp2.body)
		}
		if n > 8<<20 {
			t.Fatalf("forged token %q: %d MiB allocated, the password was hashed before the token was proven", tok, n>>20)
		}
	}
	// Per address, like /auth/forgot: the limit is counted on every try.
	var last int
	for i := 0; i < 20; i++ {
		r, _ := (&browser{e: e}).call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": forged[1], "password": "an attacker passphrase"})
		last = r.StatusCode
		if last == 429 {
			break
		}
	}
	if last != 429 {
		t.Fatalf("no limiter on /auth/reset: last answer %d", last)
	}
}

type httpResponse struct {
	status int
	body   map[string]any
}

// TestTakeoverRevokesThePreRegisteredKey: someone signs up with another
// person's address (unverified; its key works). When the owner of the
// address takes the account over by a password reset, that key stops
// working; the owner gets a key of their own by rotating the replacement
// the reset left (docs/api.md).
func TestTakeoverRevokesThePreRegisteredKey(t *testing.T) {
	e := newEnv(t)
	_, attackerKey, _ := signup(t, e, "victim@example.com", "attacker passphrase 1")
	pdf := pdfBytes(t)
	inspect := func(key string) int {
		resp, _, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf),
			map[string]string{"Content-Type": "application/pdf", "Authorization": "Bearer " + key})
		return resp.StatusCode
	}
	if got := inspect(attackerKey); got != 200 {
		t.Fatalf("the unverified account's key: %d", got)
	}
	victim := &browser{e: e}
	victim.call(t, "POST", "/api/v1/auth/forgot", map[string]string{"email": "victim@example.com"})
	msgs := mails(t, e)
	token := link(t, msgs[len(msgs)-1]).Query().Get("reset")
	if resp, body := victim.call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": token, "password": "the owner's passphrase"}); resp.StatusCode != 200 {
		t.Fatalf("reset %d %v", resp.StatusCode, body)
	}
	if got := inspect(attackerKey); got != 401 {
		t.Fatalf("the attacker's key after the owner's reset: %d, want 401", got)
	}
	if resp, _ := victim.call(t, "POST", "/api/v1/auth/login", map[string]string{"email": "victim@example.com", "password": "the owner's passphrase"}); resp.StatusCode != 200 {
		t.Fatalf("login %d", resp.StatusCode)
	}
	me := victim.me(t)
	var active string
	for _, k := range me["keys"].([]any) {
		if k := k.(map[string]any); k["state"] == "active" {
			active = k["id"].(string)
		}
	}
	if active == "" {
		t.Fatalf("no active key after the reset: %v", me["keys"])
	}
	resp, body := victim.call(t, "POST", "/api/v1/keys/rotate", map[string]string{"keyId": active})
	if resp.StatusCode != 200 {
		t.Fatalf("rotate %d %v", resp.StatusCode, body)
	}
	if got := inspect(body["apiKey"].(map[string]any)["plaintext"].(string)); got != 200 {
		t.Fatalf("the owner's new key: %d", got)
	}

	// A verified account's keys are its owner's: a reset keeps them.
	e2 := newEnv(t)
	owner, key, _ := signup(t, e2, "frank@example.com", "correct horse battery")
	verify := link(t, mails(t, e2)[0]).Query().Get("token")
	if resp, _ := owner.call(t, "POST", "/api/v1/auth/verify", map[string]string{"token": verify}); resp.StatusCode != 200 {
		t.Fatalf("verify %d", resp.StatusCode)
	}
	owner.call(t, "POST", "/api/v1/auth/forgot", map[string]string{"email": "frank@example.com"})
	msgs = mails(t, e2)
	token = link(t, msgs[len(msgs)-1]).Query().Get("reset")
	if resp, _ := owner.call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": token, "password": "a brand new passphrase"}); resp.StatusCode != 200 {
		t.Fatalf("reset %d", resp.StatusCode)
	}
	resp, _, _ = e2.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdf), map[string]string{"Content-Type": "application/pdf", "Authorization": "Bearer " + key})
	if resp.StatusCode != 200 {
		t.Fatalf("a verified account's key after its reset: %d", resp.StatusCode)
	}
}
