package httpapi

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestEveryCodeHasAMessage: the table gives every code an English sentence
// whose {fields} are ones the code's bodies carry.
func TestEveryCodeHasAMessage(t *testing.T) {
	fields := map[Code][]string{FileTooLarge: {"maxMb"}, BodyTooLarge: {"maxBytes"}, AnalysisTimeout: {"timeoutMs"},
		QuotaExceeded: {"quota", "used"}, RateLimited: {"retryAfterSeconds"}, Busy: {"retryAfterSeconds"},
		RequestTimeout: {"timeoutSeconds"}, StoreUnavailable: {"retryAfterSeconds"}}
	placeholder := regexp.MustCompile(`\{([a-zA-Z]+)\}`)
	for code := range statuses {
		m, ok := messages[code]
		if !ok {
			t.Errorf("%s has no message", code)
			continue
		}
		if !strings.HasSuffix(m, ".") || m[0] < 'A' || m[0] > 'Z' {
			t.Errorf("%s: %q is not a sentence", code, m)
		}
		for _, p := range placeholder.FindAllStringSubmatch(m, -1) {
			found := false
			for _, f := range fields[code] {
				found = found || f == p[1]
			}
			if !found {
				t.Errorf("%s: {%s} is not a field of its body", code, p[1])
			}
		}
	}
	_, body := Body(E(FileTooLarge, "maxMb", 10))
	if body["message"] != "The file is larger than the upload limit of 10 MB. Send a smaller file." || body["maxMb"] != 10 {
		t.Errorf("file_too_large body %v", body)
	}
	_, body = Body(E(InvalidPolicy, "message", "reject must be an integer"))
	if body["message"] != "reject must be an integer" {
		t.Errorf("a handler's message must win: %v", body)
	}
}

// TestTextPartAfterFile: an issuer or policy part after the file would be
// ignored; it is refused with a message that says where it belongs.
func TestTextPartAfterFile(t *testing.T) {
	e := newEnv(t)
	pdf := string(pdfBytes(t))
	for _, c := range []struct{ name, value, code string }{{"issuer", "acme-bank", "invalid_issuer"}, {"policy", `{"reject":50}`, "invalid_policy"}} {
		mb, ct := multipartBody(t, [2]string{"file", pdf}, [2]string{c.name, c.value})
		resp, body, _ := e.do(t, "POST", "/api/v1/inspect", mb, map[string]string{"Content-Type": ct})
		wantError(t, resp, body, 422, c.code)
		if m := body["message"].(string); !strings.Contains(m, `"`+c.name+`" part came after the "file" part`) {
			t.Errorf("%s after file: %q", c.name, m)
		}
		// Before the file it is read as ever.
		mb, ct = multipartBody(t, [2]string{c.name, c.value}, [2]string{"file", pdf})
		if resp, body, _ := e.do(t, "POST", "/api/v1/inspect", mb, map[string]string{"Content-Type": ct}); resp.StatusCode != 200 {
			t.Errorf("%s before file: %d %v", c.name, resp.StatusCode, body)
		}
	}
	// Other parts after the file, and metadata (which reads no issuer), stay ignored.
	mb, ct := multipartBody(t, [2]string{"file", pdf}, [2]string{"note", "x"})
	if resp, _, _ := e.do(t, "POST", "/api/v1/inspect", mb, map[string]string{"Content-Type": ct}); resp.StatusCode != 200 {
		t.Errorf("unknown part after file: %d", resp.StatusCode)
	}
	mb, ct = multipartBody(t, [2]string{"file", pdf}, [2]string{"issuer", "acme-bank"})
	if resp, _, _ := e.do(t, "POST", "/api/v1/metadata", bytes.NewReader(mb.Bytes()), map[string]string{"Content-Type": ct}); resp.StatusCode != 200 {
		t.Errorf("metadata with issuer after file: %d", resp.StatusCode)
	}
}
