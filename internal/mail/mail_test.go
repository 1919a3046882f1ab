package mail

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"mime/quotedprintable"
	"net/http"
	"net/http/httptest"
	netmail "net/mail"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sesv2"
	"github.com/aws/smithy-go"
)

// longURL is longer than a quoted-printable line and full of '=' and '&',
// which the encoding must escape and the decoding restore.
const longURL = "https://doctrust.example/verify?token=Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFyYmF6cXV4Zm9vYmFy&account=acc_0123456789abcdef&next=%2Fdashboard%3Ftab%3Dkeys"

func envOf(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func emlFiles(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestOutboxWritesParseableMessage(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "outbox", "nested")
	when := time.Date(2026, 3, 4, 5, 6, 7, 0, time.FixedZone("", 3600))
	o := &Outbox{Dir: dir, From: "Doctrust Alerts <alerts@doctrust.example>", Now: func() time.Time { return when }}
	subject := "Bestätigen Sie Ihre Adresse — 確認 " + strings.Repeat("ü", 60)
	text := "Hello Zoë,\n\nOpen this link:\n" + longURL + "\n\nLine with trailing space \nand = sign.\n"
	if err := o.Send(context.Background(), Message{To: "Zoë Müller <zoe@example.com>", Subject: subject, Text: text}); err != nil {
		t.Fatal(err)
	}

	names := emlFiles(t, dir)
	if len(names) != 1 || !strings.HasSuffix(names[0], ".eml") {
		t.Fatalf("outbox holds %v, want one .eml", names)
	}
	path := filepath.Join(dir, names[0])
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("file mode %v, want 0600", fi.Mode().Perm())
	}
	di, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if di.Mode().Perm() != 0o700 {
		t.Errorf("folder mode %v, want 0700", di.Mode().Perm())
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > 78 {
			t.Errorf("line %d is %d bytes long: %q", i+1, len(line), line)
		}
		if strings.Contains(line, "\n") || strings.Contains(line, "\r") {
			t.Errorf("line %d has a bare CR or LF: %q", i+1, line)
		}
	}

	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	h := msg.Header
	from, err := h.AddressList("From")
	if err != nil || len(from) != 1 || from[0].Address != "alerts@doctrust.example" || from[0].Name != "Doctrust Alerts" {
		t.Errorf("From = %v, %v", from, err)
	}
	to, err := h.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Address != "zoe@example.com" || to[0].Name != "Zoë Müller" {
		t.Errorf("To = %v, %v", to, err)
	}
	var dec mime.WordDecoder
	gotSubject, err := dec.DecodeHeader(h.Get("Subject"))
	if err != nil || gotSubject != subject {
		t.Errorf("Subject decodes to %q, %v; want %q", gotSubject, err, subject)
	}
	if !strings.HasPrefix(h.Get("Subject"), "=?utf-8?q?") {
		t.Errorf("non-ASCII Subject not RFC 2047-encoded: %q", h.Get("Subject"))
	}
	date, err := h.Date()
	if err != nil || !date.Equal(when) {
		t.Errorf("Date = %v, %v; want %v", date, err, when)
	}
	if id := h.Get("Message-ID"); !strings.HasPrefix(id, "<") || !strings.HasSuffix(id, "@doctrust.example>") {
		t.Errorf("Message-ID = %q", id)
	}
	if v := h.Get("MIME-Version"); v != "1.0" {
		t.Errorf("MIME-Version = %q", v)
	}
	mt, params, err := mime.ParseMediaType(h.Get("Content-Type"))
	if err != nil || mt != "text/plain" || !strings.EqualFold(params["charset"], "utf-8") {
		t.Errorf("Content-Type = %q", h.Get("Content-Type"))
	}
	if v := h.Get("Content-Transfer-Encoding"); v != "quoted-printable" {
		t.Errorf("Content-Transfer-Encoding = %q", v)
	}
	body, err := io.ReadAll(quotedprintable.NewReader(msg.Body))
	if err != nil {
		t.Fatal(err)
	}
	// Quoted-printable carries hard line breaks as CRLF.
	if got := strings.ReplaceAll(string(body), "\r\n", "\n"); got != text {
		t.Errorf("body decodes to\n%q\nwant\n%q", got, text)
	}
	if !strings.Contains(string(body), longURL+"\r\n") {
		t.Error("the long URL does not survive on one decoded line")
	}
	if bytes.Contains(raw, []byte(longURL)) {
		t.Error("the long URL appears unencoded although it exceeds a line")
	}
}

func TestOutboxDefaultsAndASCIISubject(t *testing.T) {
	dir := t.TempDir()
	o := &Outbox{Dir: dir}
	if err := o.Send(context.Background(), Message{To: "bob@example.com", Subject: "Verify your address", Text: "no trailing newline"}); err != nil {
		t.Fatal(err)
	}
	names := emlFiles(t, dir)
	if len(names) != 1 {
		t.Fatalf("outbox holds %v", names)
	}
	raw, err := os.ReadFile(filepath.Join(dir, names[0]))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"From: \"doctrust\" <no-reply@localhost>\r\n", "To: bob@example.com\r\n", "Subject: Verify your address\r\n"} {
		if !bytes.Contains(raw, []byte(want)) {
			t.Errorf("message lacks %q:\n%s", want, raw)
		}
	}
	if !bytes.HasSuffix(raw, []byte("no trailing newline\r\n")) {
		t.Errorf("body does not end in CRLF:\n%q", raw)
	}
}

func TestOutboxFoldsLongHeaders(t *testing.T) {
	dir := t.TempDir()
	name := "Dr. Ada Augusta King, Countess of Lovelace, Analytical Engine Department"
	subject := strings.TrimSpace(strings.Repeat("Your document trust report is ready ", 4))
	if err := (&Outbox{Dir: dir}).Send(context.Background(), Message{To: `"` + name + `" <ada@example.com>`, Subject: subject, Text: "t"}); err != nil {
		t.Fatal(err)
	}
	names := emlFiles(t, dir)
	raw, err := os.ReadFile(filepath.Join(dir, names[0]))
	if err != nil {
		t.Fatal(err)
	}
	for i, line := range strings.Split(string(raw), "\r\n") {
		if len(line) > 78 {
			t.Errorf("line %d is %d bytes long: %q", i+1, len(line), line)
		}
	}
	msg, err := netmail.ReadMessage(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	to, err := msg.Header.AddressList("To")
	if err != nil || len(to) != 1 || to[0].Name != name || to[0].Address != "ada@example.com" {
		t.Errorf("To = %v, %v", to, err)
	}
	if got := msg.Header.Get("Subject"); got != subject {
		t.Errorf("Subject = %q, want %q", got, subject)
	}
}

func TestOutboxTwoSendsTwoFilesInOrder(t *testing.T) {
	dir := t.TempDir()
	// A clock that stands still: the random part alone must keep names apart.
	fixed := time.Unix(1_700_000_000, 0)
	same := &Outbox{Dir: dir, Now: func() time.Time { return fixed }}
	for range 2 {
		if err := same.Send(context.Background(), Message{To: "a@example.com", Subject: "s", Text: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	if names := emlFiles(t, dir); len(names) != 2 {
		t.Fatalf("two sends with one timestamp gave %v", names)
	}

	dir2 := t.TempDir()
	// 9e9 ns then 1.4e10 ns: unpadded, the later stamp would sort first.
	tick := time.Unix(4, 0)
	moving := &Outbox{Dir: dir2, Now: func() time.Time {
		tick = tick.Add(5 * time.Second)
		return tick
	}}
	for _, subject := range []string{"first", "second"} {
		if err := moving.Send(context.Background(), Message{To: "a@example.com", Subject: subject, Text: "t"}); err != nil {
			t.Fatal(err)
		}
	}
	names := emlFiles(t, dir2)
	if len(names) != 2 {
		t.Fatalf("outbox holds %v", names)
	}
	sort.Strings(names)
	for i, want := range []string{"first", "second"} {
		f, err := os.Open(filepath.Join(dir2, names[i]))
		if err != nil {
			t.Fatal(err)
		}
		msg, err := netmail.ReadMessage(bufio.NewReader(f))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := msg.Header.Get("Subject"); got != want {
			t.Errorf("file %d by name order has subject %q, want %q", i, got, want)
		}
	}
}

func TestHeaderInjectionRefused(t *testing.T) {
	dir := t.TempDir()
	o := &Outbox{Dir: dir}
	bad := []Message{
		{To: "a@example.com\r\nBcc: victim@example.com", Subject: "s"},
		{To: "a@example.com\nBcc: victim@example.com", Subject: "s"},
		{To: "a@example.com", Subject: "s\r\nBcc: victim@example.com"},
		{To: "a@example.com", Subject: "s\rX: y"},
		{To: "a@example.com, b@example.com", Subject: "s"},
		{To: "not an address", Subject: "s"},
		{To: "", Subject: "s"},
		{To: "a@example.com", Subject: strings.Repeat("x", maxSubject+1)},
		{To: strings.Repeat("a", 250) + "@example.com", Subject: "s"},
	}
	// SES must refuse before any request, so an unreachable endpoint
	// proves it never called out.
	ses := &SES{Client: testClient("http://127.0.0.1:1"), From: "no-reply@doctrust.example"}
	for _, m := range bad {
		for _, s := range []Sender{o, ses} {
			err := s.Send(context.Background(), m)
			if !errors.Is(err, ErrInvalidMessage) {
				t.Errorf("%T.Send(%q) = %v, want ErrInvalidMessage", s, m, err)
			}
		}
	}
	if names := emlFiles(t, dir); len(names) != 0 {
		t.Errorf("refused messages left files: %v", names)
	}
}

func TestBadFromRefused(t *testing.T) {
	m := Message{To: "a@example.com", Subject: "s", Text: "t"}
	for _, from := range []string{"no address", "a@example.com\r\nBcc: x@example.com"} {
		if err := (&Outbox{Dir: t.TempDir(), From: from}).Send(context.Background(), m); err == nil {
			t.Errorf("outbox accepted From %q", from)
		}
		if _, err := FromEnv(context.Background(), envOf(map[string]string{"MAIL_OUTBOX": t.TempDir(), "MAIL_FROM": from})); err == nil {
			t.Errorf("FromEnv accepted MAIL_FROM %q", from)
		}
	}
}

// sesRequest is the part of SendEmail's JSON the stand-in checks.
type sesRequest struct {
	FromEmailAddress string
	Destination      struct{ ToAddresses []string }
	Content          struct {
		Simple struct {
			Subject struct{ Data, Charset string }
			Body    struct {
				Text struct{ Data, Charset string }
				HTML *json.RawMessage `json:"Html"`
			}
		}
		Raw *json.RawMessage
	}
}

// sesStandIn answers SendEmail like SES and records the decoded requests.
type sesStandIn struct {
	t      *testing.T
	status int // 0 means success
	mu     sync.Mutex
	got    []sesRequest
}

func (s *sesStandIn) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v2/email/outbound-emails" {
		s.t.Errorf("stand-in got %s %s", r.Method, r.URL.Path)
		http.NotFound(w, r)
		return
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") {
		s.t.Errorf("request not SigV4-signed: %q", r.Header.Get("Authorization"))
	}
	var req sesRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.t.Errorf("request body: %v", err)
	}
	s.mu.Lock()
	s.got = append(s.got, req)
	s.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	if s.status != 0 {
		w.Header().Set("X-Amzn-ErrorType", "MessageRejected")
		w.WriteHeader(s.status)
		_, _ = io.WriteString(w, `{"message":"Email address is not verified."}`)
		return
	}
	_, _ = io.WriteString(w, `{"MessageId":"x"}`)
}

func (s *sesStandIn) requests() []sesRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]sesRequest(nil), s.got...)
}

func testClient(endpoint string) *sesv2.Client {
	return sesv2.New(sesv2.Options{
		Region:       "eu-west-1",
		BaseEndpoint: aws.String(endpoint),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDTEST", "secret", ""),
	})
}

func checkSESRequest(t *testing.T, req sesRequest, from, to, subject, text string) {
	t.Helper()
	if req.FromEmailAddress != from {
		t.Errorf("FromEmailAddress = %q, want %q", req.FromEmailAddress, from)
	}
	if len(req.Destination.ToAddresses) != 1 || req.Destination.ToAddresses[0] != to {
		t.Errorf("ToAddresses = %q, want [%q]", req.Destination.ToAddresses, to)
	}
	simple := req.Content.Simple
	if simple.Subject.Data != subject || simple.Subject.Charset != "UTF-8" {
		t.Errorf("Subject = %+v, want %q in UTF-8", simple.Subject, subject)
	}
	if simple.Body.Text.Data != text || simple.Body.Text.Charset != "UTF-8" {
		t.Errorf("Body.Text = %+v, want %q in UTF-8", simple.Body.Text, text)
	}
	if simple.Body.HTML != nil || req.Content.Raw != nil {
		t.Error("request carries an HTML or raw body")
	}
}

func TestSESSendsSimpleEmail(t *testing.T) {
	stand := &sesStandIn{t: t}
	srv := httptest.NewServer(stand)
	defer srv.Close()
	s := &SES{Client: testClient(srv.URL), From: "Doctrust <no-reply@doctrust.example>"}
	subject := "Bestätigen Sie Ihre Adresse"
	text := "Open " + longURL + "\n"
	if err := s.Send(context.Background(), Message{To: "zoe@example.com", Subject: subject, Text: text}); err != nil {
		t.Fatal(err)
	}
	reqs := stand.requests()
	if len(reqs) != 1 {
		t.Fatalf("stand-in got %d requests, want 1", len(reqs))
	}
	checkSESRequest(t, reqs[0], `"Doctrust" <no-reply@doctrust.example>`, "zoe@example.com", subject, text)
}

func TestSESErrorStatus(t *testing.T) {
	stand := &sesStandIn{t: t, status: http.StatusBadRequest}
	srv := httptest.NewServer(stand)
	defer srv.Close()
	s := &SES{Client: testClient(srv.URL), From: "no-reply@doctrust.example"}
	secret := "token-that-must-not-leak-7f3a"
	err := s.Send(context.Background(), Message{To: "zoe@example.com", Subject: "s", Text: "Your link: " + secret})
	if err == nil {
		t.Fatal("an SES error status gave no error")
	}
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) || apiErr.ErrorCode() != "MessageRejected" {
		t.Errorf("error %v does not carry SES's MessageRejected", err)
	}
	if errors.Is(err, ErrInvalidMessage) {
		t.Error("a delivery failure reads as an invalid message")
	}
	if strings.Contains(err.Error(), secret) {
		t.Errorf("error leaks the body: %v", err)
	}
}

func TestSESWithoutClient(t *testing.T) {
	if err := (&SES{From: "a@example.com"}).Send(context.Background(), Message{To: "b@example.com"}); err == nil {
		t.Error("SES without a client sent")
	}
}

func TestFromEnv(t *testing.T) {
	ctx := context.Background()

	if s, err := FromEnv(ctx, envOf(nil)); !errors.Is(err, ErrNotConfigured) || s != nil {
		t.Errorf("empty environment: %v, %v; want nil, ErrNotConfigured", s, err)
	}

	dir := t.TempDir()
	s, err := FromEnv(ctx, envOf(map[string]string{"MAIL_OUTBOX": dir, "MAIL_FROM": "ops@doctrust.example"}))
	if err != nil {
		t.Fatal(err)
	}
	o, ok := s.(*Outbox)
	if !ok || o.Dir != dir || o.From != "ops@doctrust.example" {
		t.Errorf("MAIL_OUTBOX with MAIL_FROM gave %#v", s)
	}
	s, err = FromEnv(ctx, envOf(map[string]string{"MAIL_OUTBOX": dir}))
	if err != nil {
		t.Fatal(err)
	}
	if o, ok := s.(*Outbox); !ok || o.From != DefaultOutboxFrom {
		t.Errorf("MAIL_OUTBOX alone gave %#v", s)
	}
}

func TestFromEnvSES(t *testing.T) {
	// Keep the SDK away from this machine's own AWS settings.
	home := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(home, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(home, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	t.Setenv("AWS_PROFILE", "")

	stand := &sesStandIn{t: t}
	srv := httptest.NewServer(stand)
	defer srv.Close()
	ctx := context.Background()
	s, err := FromEnv(ctx, envOf(map[string]string{
		"MAIL_FROM":    "no-reply@doctrust.example",
		"SES_ENDPOINT": srv.URL,
		"AWS_REGION":   "eu-central-1",
	}))
	if err != nil {
		t.Fatal(err)
	}
	ses, ok := s.(*SES)
	if !ok {
		t.Fatalf("MAIL_FROM alone gave %T, want *SES", s)
	}
	if r := ses.Client.Options().Region; r != "eu-central-1" {
		t.Errorf("region %q, want eu-central-1", r)
	}
	if err := s.Send(ctx, Message{To: "bob@example.com", Subject: "Reset", Text: "link\n"}); err != nil {
		t.Fatal(err)
	}
	reqs := stand.requests()
	if len(reqs) != 1 {
		t.Fatalf("stand-in got %d requests, want 1", len(reqs))
	}
	checkSESRequest(t, reqs[0], "no-reply@doctrust.example", "bob@example.com", "Reset", "link\n")
}
