package httpapi

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"mime/quotedprintable"
	"net/http"
	"net/mail"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/apikey"
)

// browser is a cookie-carrying client of one env.
type browser struct {
	e      *env
	cookie string
}

func (b *browser) call(t *testing.T, method, path string, body any) (*http.Response, map[string]any) {
	t.Helper()
	h := map[string]string{"Content-Type": "application/json"}
	if b.cookie != "" {
		h["Cookie"] = SessionCookie + "=" + b.cookie
	}
	var rd *bytes.Reader
	if body != nil {
		raw, _ := json.Marshal(body)
		rd = bytes.NewReader(raw)
	} else {
		rd = bytes.NewReader(nil)
	}
	resp, got, _ := b.e.do(t, method, path, rd, h)
	for _, c := range resp.Cookies() {
		if c.Name == SessionCookie {
			b.cookie = c.Value
			if c.MaxAge < 0 {
				b.cookie = ""
			}
		}
	}
	return resp, got
}

func signup(t *testing.T, e *env, email, pw string) (*browser, string, string) {
	t.Helper()
	b := &browser{e: e}
	resp, body := b.call(t, "POST", "/api/v1/auth/signup", map[string]string{"email": email, "password": pw})
	if resp.StatusCode != 201 {
		t.Fatalf("signup %d %v", resp.StatusCode, body)
	}
	k := body["apiKey"].(map[string]any)
	return b, k["plaintext"].(string), k["id"].(string)
}

// mails returns the outbox's messages, oldest first, decoded.
func mails(t *testing.T, e *env) []string {
	t.Helper()
	entries, _ := os.ReadDir(e.outbox)
	var names []string
	for _, en := range entries {
		names = append(names, en.Name())
	}
	sort.Strings(names)
	var out []string
	for _, n := range names {
		f, _ := os.Open(filepath.Join(e.outbox, n))
		m, err := mail.ReadMessage(f)
		if err != nil {
			t.Fatal(err)
		}
		var body bytes.Buffer
		body.ReadFrom(quotedprintable.NewReader(m.Body))
		f.Close()
		out = append(out, "To: "+m.Header.Get("To")+"\n"+body.String())
	}
	return out
}

var linkRE = regexp.MustCompile(`http://127\.0\.0\.1:8080(/\S+)`)

func link(t *testing.T, msg string) *url.URL {
	t.Helper()
	m := linkRE.FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("no link in %q", msg)
	}
	u, _ := url.Parse(m[1])
	return u
}

func TestSignupAndVerificationMail(t *testing.T) {
	e := newEnv(t)
	b, key, _ := signup(t, e, "Alice@Example.com", "correct horse battery")
	if !strings.HasPrefix(key, apikey.Prefix) || b.cookie == "" {
		t.Fatalf("key %q cookie %q", key, b.cookie)
	}
	resp, body := b.call(t, "GET", "/api/v1/me", nil)
	user := body["user"].(map[string]any)
	if resp.StatusCode != 200 || user["email"] != "alice@example.com" || user["verified"] != false || user["plan"] != "free" {
		t.Fatalf("me %d %v", resp.StatusCode, body)
	}
	// The same address in another case is taken.
	resp, body = (&browser{e: e}).call(t, "POST", "/api/v1/auth/signup", map[string]string{"email": "alice@example.com", "password": "another long one"})
	wantError(t, resp, body, 409, "email_taken")

	msgs := mails(t, e)
	if len(msgs) != 1 || !strings.HasPrefix(msgs[0], "To: alice@example.com") {
		t.Fatalf("mails %q", msgs)
	}
	u := link(t, msgs[0])
	token := u.Query().Get("token")
	// Following the mailed link redirects to the dashboard and consumes nothing.
	for range 2 {
		resp, _, _ := e.do(t, "GET", u.String(), nil, nil)
		if resp.StatusCode != 302 || resp.Header.Get("Location") != "/account?verify="+url.QueryEscape(token) {
			t.Fatalf("GET verify: %d %q", resp.StatusCode, resp.Header.Get("Location"))
		}
	}
	resp, _, _ = e.do(t, "GET", "/api/v1/auth/verify", nil, nil)
	if resp.StatusCode != 302 || resp.Header.Get("Location") != "/account?verified=0" {
		t.Fatalf("GET verify without token: %d %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	anon := &browser{e: e}
	if resp, body := anon.call(t, "POST", "/api/v1/auth/verify", map[string]string{"token": token}); resp.StatusCode != 200 || body["ok"] != true {
		t.Fatalf("POST verify %d %v", resp.StatusCode, body)
	}
	resp, body = anon.call(t, "POST", "/api/v1/auth/verify", map[string]string{"token": token})
	wantError(t, resp, body, 400, "invalid_token")
	if _, body := b.call(t, "GET", "/api/v1/me", nil); body["user"].(map[string]any)["verified"] != true {
		t.Fatalf("not verified: %v", body)
	}
	// Resending to a verified account sends nothing.
	if resp, _ := b.call(t, "POST", "/api/v1/auth/resend-verification", nil); resp.StatusCode != 200 || len(mails(t, e)) != 1 {
		t.Fatalf("resend to verified: %d, %d mails", resp.StatusCode, len(mails(t, e)))
	}
}

func TestSignupRefusals(t *testing.T) {
	e := newEnv(t)
	b := &browser{e: e}
	for _, c := range []struct {
		body any
		code string
	}{
		{map[string]string{"email": "not-an-address", "password": "long enough pw"}, "invalid_request"},
		{map[string]string{"email": "Bob <bob@example.com>", "password": "long enough pw"}, "invalid_request"},
		{map[string]string{"email": "bob@example.com", "password": "short"}, "invalid_request"},
		{[]int{1}, "invalid_request"},
	} {
		resp, body := b.call(t, "POST", "/api/v1/auth/signup", c.body)
		wantError(t, resp, body, 400, c.code)
	}
	resp, body, _ := e.do(t, "POST", "/api/v1/auth/signup", strings.NewReader(""), nil)
	wantError(t, resp, body, 400, "invalid_request")
}

func TestLoginLogoutSession(t *testing.T) {
	e := newEnv(t)
	_, key, _ := signup(t, e, "carol@example.com", "correct horse battery")
	b := &browser{e: e}
	for _, creds := range []map[string]string{
		{"email": "carol@example.com", "password": "wrong password!"},
		{"email": "nobody@example.com", "password": "correct horse battery"},
	} {
		resp, body := b.call(t, "POST", "/api/v1/auth/login", creds)
		wantError(t, resp, body, 401, "invalid_credentials")
	}
	if _, body := b.call(t, "GET", "/api/v1/session", nil); body["authenticated"] != false || len(body) != 1 {
		t.Fatalf("session before login: %v", body)
	}
	resp, _ := b.call(t, "POST", "/api/v1/auth/login", map[string]string{"email": "CAROL@example.com", "password": "correct horse battery"})
	if resp.StatusCode != 200 || b.cookie == "" {
		t.Fatalf("login %d", resp.StatusCode)
	}
	for _, c := range resp.Cookies() {
		if c.Name == SessionCookie && (!c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure) {
			t.Fatalf("cookie attributes %+v", c)
		}
	}
	if _, body := b.call(t, "GET", "/api/v1/session", nil); body["authenticated"] != true {
		t.Fatalf("session after login: %v", body)
	}
	// A bearer key opens no session route; a cookie opens no analysis.
	resp, body, _ := e.do(t, "GET", "/api/v1/me", nil, map[string]string{"Authorization": "Bearer " + key})
	wantError(t, resp, body, 401, "not_authenticated")
	resp, _, _ = e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), map[string]string{"Content-Type": "application/pdf", "Cookie": SessionCookie + "=" + b.cookie})
	if resp.StatusCode != 200 || resp.Header.Get("x-quota-state") != "" {
		t.Fatalf("inspect with a cookie was not anonymous: %d %q", resp.StatusCode, resp.Header.Get("x-quota-state"))
	}
	old := b.cookie
	if resp, _ := b.call(t, "POST", "/api/v1/auth/logout", nil); resp.StatusCode != 200 || b.cookie != "" {
		t.Fatalf("logout %d cookie %q", resp.StatusCode, b.cookie)
	}
	b.cookie = old // a stolen copy of the cookie is dead too
	resp, body = b.call(t, "GET", "/api/v1/me", nil)
	wantError(t, resp, body, 401, "not_authenticated")
}

func TestForgotAndResetEndEverySession(t *testing.T) {
	e := newEnv(t)
	first, _, _ := signup(t, e, "dave@example.com", "correct horse battery")
	second := &browser{e: e}
	second.call(t, "POST", "/api/v1/auth/login", map[string]string{"email": "dave@example.com", "password": "correct horse battery"})
	before := len(mails(t, e))
	// Unknown and known addresses get the same answer.
	for _, email := range []string{"nobody@example.com", "dave@example.com", "not an address"} {
		resp, body := (&browser{e: e}).call(t, "POST", "/api/v1/auth/forgot", map[string]string{"email": email})
		if resp.StatusCode != 200 || body["ok"] != true || len(body) != 1 {
			t.Fatalf("forgot %s: %d %v", email, resp.StatusCode, body)
		}
	}
	msgs := mails(t, e)
	if len(msgs) != before+1 || !strings.HasPrefix(msgs[len(msgs)-1], "To: dave@example.com") {
		t.Fatalf("reset mails: %q", msgs[before:])
	}
	token := link(t, msgs[len(msgs)-1]).Query().Get("reset")
	resp, body := first.call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": token, "password": "short"})
	wantError(t, resp, body, 400, "invalid_request")
	if resp, _ := first.call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": token, "password": "a brand new passphrase"}); resp.StatusCode != 200 {
		t.Fatalf("reset %d", resp.StatusCode)
	}
	resp, body = first.call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": token, "password": "yet another passphrase"})
	wantError(t, resp, body, 400, "invalid_token")
	// Both sessions, the caller's included, are gone.
	for _, b := range []*browser{first, second} {
		if b.cookie == "" {
			b.cookie = "stale"
		}
		if _, body := b.call(t, "GET", "/api/v1/session", nil); body["authenticated"] != false {
			t.Fatalf("a session survived the reset")
		}
	}
	b := &browser{e: e}
	resp, body = b.call(t, "POST", "/api/v1/auth/login", map[string]string{"email": "dave@example.com", "password": "correct horse battery"})
	wantError(t, resp, body, 401, "invalid_credentials")
	if resp, _ := b.call(t, "POST", "/api/v1/auth/login", map[string]string{"email": "dave@example.com", "password": "a brand new passphrase"}); resp.StatusCode != 200 {
		t.Fatalf("login with the new password: %d", resp.StatusCode)
	}
}

// TestForgotTimingAndOlderTokens: /auth/forgot answers in the same time
// whether or not the address has an account, and a reset voids every
// other reset token of the account.
func TestForgotTimingAndOlderTokens(t *testing.T) {
	e := newEnv(t)
	signup(t, e, "ivy@example.com", "correct horse battery")
	var tokens []string
	for _, email := range []string{"nobody@example.com", "ivy@example.com", "ivy@example.com"} {
		start := time.Now()
		resp, _ := (&browser{e: e}).call(t, "POST", "/api/v1/auth/forgot", map[string]string{"email": email})
		if d := time.Since(start); resp.StatusCode != 200 || d < forgotTime || d > forgotTime+2*time.Second {
			t.Fatalf("forgot %s: %d after %v, want %v", email, resp.StatusCode, d, forgotTime)
		}
		if email != "nobody@example.com" {
			msgs := mails(t, e)
			tokens = append(tokens, link(t, msgs[len(msgs)-1]).Query().Get("reset"))
		}
	}
	if tokens[0] == tokens[1] {
		t.Fatal("two requests, one token")
	}
	b := &browser{e: e}
	if resp, _ := b.call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": tokens[1], "password": "a brand new passphrase"}); resp.StatusCode != 200 {
		t.Fatalf("reset with the newer token: %d", resp.StatusCode)
	}
	resp, body := b.call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": tokens[0], "password": "an attacker passphrase"})
	wantError(t, resp, body, 400, "invalid_token")
}

func TestRotateKeepsQuotaAndRevokes(t *testing.T) {
	e := newEnv(t)
	b, key, keyID := signup(t, e, "erin@example.com", "correct horse battery")
	inspect := func(k string) *http.Response {
		resp, _, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), map[string]string{"Content-Type": "application/pdf", "Authorization": "Bearer " + k})
		return resp
	}
	if resp := inspect(key); resp.StatusCode != 200 || resp.Header.Get("x-quota-used") != "1" {
		t.Fatalf("first call %d used %q", resp.StatusCode, resp.Header.Get("x-quota-used"))
	}
	resp, body := b.call(t, "POST", "/api/v1/keys/rotate", map[string]string{"keyId": "key_unknown"})
	wantError(t, resp, body, 404, "not_found")
	resp, body = b.call(t, "POST", "/api/v1/keys/rotate", map[string]string{"keyId": keyID})
	if resp.StatusCode != 200 || body["revokedKeyId"] != keyID {
		t.Fatalf("rotate %d %v", resp.StatusCode, body)
	}
	nk := body["apiKey"].(map[string]any)
	if nk["plan"] != "free" || nk["quota"] != float64(25) {
		t.Fatalf("replacement %v", nk)
	}
	resp, body = b.call(t, "POST", "/api/v1/keys/rotate", map[string]string{"keyId": keyID})
	wantError(t, resp, body, 404, "not_found")
	if resp := inspect(key); resp.StatusCode != 401 {
		t.Fatalf("revoked key: %d", resp.StatusCode)
	}
	if resp := inspect(nk["plaintext"].(string)); resp.StatusCode != 200 || resp.Header.Get("x-quota-used") != "2" {
		t.Fatalf("replacement key %d used %q (the quota survives rotation)", resp.StatusCode, resp.Header.Get("x-quota-used"))
	}
	_, me := b.call(t, "GET", "/api/v1/me", nil)
	keys := me["keys"].([]any)
	if len(keys) != 2 || keys[0].(map[string]any)["state"] != "revoked" || keys[1].(map[string]any)["state"] != "active" {
		t.Fatalf("keys %v", keys)
	}
	raw, _ := json.Marshal(me)
	if bytes.Contains(raw, []byte(nk["plaintext"].(string))) || bytes.Contains(raw, []byte(key)) {
		t.Fatal("/me shows a key")
	}
	if q := me["quota"].(map[string]any); q["used"] != float64(2) || q["limit"] != float64(25) || q["state"] != "within" {
		t.Fatalf("quota %v", q)
	}
	// Usage: today's two documents, split by band.
	_, u := b.call(t, "GET", "/api/v1/usage", nil)
	days := u["days"].([]any)
	if u["documents"] != float64(2) || len(days) != 1 || days[0].(map[string]any)["date"] != time.Now().UTC().Format("2006-01-02") {
		t.Fatalf("usage %v", u)
	}
	var split float64
	for _, n := range u["bands"].(map[string]any) {
		split += n.(float64)
	}
	if split != 2 {
		t.Fatalf("band split %v", u["bands"])
	}
	resp, body, _ = e.do(t, "GET", "/api/v1/usage", nil, map[string]string{"Authorization": "Bearer " + nk["plaintext"].(string)})
	wantError(t, resp, body, 401, "not_authenticated")
}

func TestAccountLimiters(t *testing.T) {
	e := newEnv(t)
	b, _, _ := signup(t, e, "frank@example.com", "correct horse battery")
	// Ten failures lock the account's logins for the window, even with
	// the right password.
	other := &browser{e: e}
	for range 10 {
		other.call(t, "POST", "/api/v1/auth/login", map[string]string{"email": "frank@example.com", "password": "wrong password!"})
	}
	resp, body := other.call(t, "POST", "/api/v1/auth/login", map[string]string{"email": "frank@example.com", "password": "correct horse battery"})
	wantError(t, resp, body, 429, "rate_limited")
	if body["retryAfterSeconds"] == nil || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("429 without retry: %v", body)
	}
	for i := range 3 {
		if resp, _ := b.call(t, "POST", "/api/v1/auth/resend-verification", nil); resp.StatusCode != 200 {
			t.Fatalf("resend %d: %d", i, resp.StatusCode)
		}
	}
	resp, body = b.call(t, "POST", "/api/v1/auth/resend-verification", nil)
	wantError(t, resp, body, 429, "rate_limited")
}

func TestMailUnavailable(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Accounts.Mail = nil })
	b, _, _ := signup(t, e, "gina@example.com", "correct horse battery")
	resp, body := b.call(t, "POST", "/api/v1/auth/resend-verification", nil)
	wantError(t, resp, body, 503, "mail_unavailable")
	resp, body = b.call(t, "POST", "/api/v1/auth/forgot", map[string]string{"email": "gina@example.com"})
	if resp.StatusCode != 200 || body["ok"] != true {
		t.Fatalf("forgot without mail: %d %v", resp.StatusCode, body)
	}
	resp, body = (&browser{e: e}).call(t, "POST", "/api/v1/auth/resend-verification", nil)
	wantError(t, resp, body, 401, "not_authenticated")
}

// TestNoSecretInStoreOrLogs walks every account flow, then scans the store's
// files and the log for each secret in plaintext.
func TestNoSecretInStoreOrLogs(t *testing.T) {
	e := newEnv(t)
	const pw, newPW = "correct horse battery", "a brand new passphrase"
	b, key, keyID := signup(t, e, "hana@example.com", pw)
	secrets := []string{pw, newPW, key, b.cookie}
	_, rot := b.call(t, "POST", "/api/v1/keys/rotate", map[string]string{"keyId": keyID})
	secrets = append(secrets, rot["apiKey"].(map[string]any)["plaintext"].(string))
	b.call(t, "POST", "/api/v1/auth/forgot", map[string]string{"email": "hana@example.com"})
	for _, m := range mails(t, e) {
		u := link(t, m)
		for _, k := range []string{"token", "reset"} {
			if v := u.Query().Get(k); v != "" {
				secrets = append(secrets, v)
			}
		}
	}
	if len(secrets) != 7 {
		t.Fatalf("expected 7 secrets, have %d", len(secrets))
	}
	b.call(t, "POST", "/api/v1/auth/reset", map[string]string{"token": secrets[6], "password": newPW})
	b.call(t, "POST", "/api/v1/auth/login", map[string]string{"email": "hana@example.com", "password": newPW})
	secrets = append(secrets, b.cookie)
	var blobs [][]byte
	filepath.WalkDir(e.data, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			raw, _ := os.ReadFile(p)
			blobs = append(blobs, raw)
		}
		return nil
	})
	blobs = append(blobs, e.logs.Bytes())
	for i, s := range secrets {
		for _, blob := range blobs {
			if s != "" && bytes.Contains(blob, []byte(s)) {
				t.Errorf("secret %d found in plaintext in the store or the log", i)
			}
		}
	}
}

func TestSignupForgotRotateLimiters(t *testing.T) {
	e := newEnv(t)
	var b *browser
	var keyID string
	for i := range 20 {
		var resp *http.Response
		var body map[string]any
		nb := &browser{e: e}
		resp, body = nb.call(t, "POST", "/api/v1/auth/signup", map[string]string{"email": "u" + string(rune('a'+i)) + "@example.com", "password": "correct horse battery"})
		if resp.StatusCode != 201 {
			t.Fatalf("signup %d: %d %v", i, resp.StatusCode, body)
		}
		if b == nil {
			b, keyID = nb, body["apiKey"].(map[string]any)["id"].(string)
		}
	}
	resp, body := (&browser{e: e}).call(t, "POST", "/api/v1/auth/signup", map[string]string{"email": "late@example.com", "password": "correct horse battery"})
	wantError(t, resp, body, 429, "rate_limited")

	for range 5 {
		if resp, _ := b.call(t, "POST", "/api/v1/auth/forgot", map[string]string{"email": "ua@example.com"}); resp.StatusCode != 200 {
			t.Fatalf("forgot: %d", resp.StatusCode)
		}
	}
	resp, body = b.call(t, "POST", "/api/v1/auth/forgot", map[string]string{"email": "UA@example.com"})
	wantError(t, resp, body, 429, "rate_limited")

	for i := range 10 {
		resp, body := b.call(t, "POST", "/api/v1/keys/rotate", map[string]string{"keyId": keyID})
		if resp.StatusCode != 200 {
			t.Fatalf("rotate %d: %d %v", i, resp.StatusCode, body)
		}
		keyID = body["apiKey"].(map[string]any)["id"].(string)
	}
	resp, body = b.call(t, "POST", "/api/v1/keys/rotate", map[string]string{"keyId": keyID})
	wantError(t, resp, body, 429, "rate_limited")
}
