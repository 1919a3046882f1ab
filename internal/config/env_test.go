package config

import (
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/mail"
)

func TestCheck(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	for _, ok := range []map[string]string{
		{},
		{"PORT": "8080", "WORKERS": "4", "QUEUE": "0", "MAX_UPLOAD_MB": "25", "TRUSTED_PROXY_HOPS": "0", "STORE": "dynamodb", "BILLING_ENABLED": "false"},
		{"PORT": " 9000 ", "ANON_LIMIT_PER_HOUR": "1", "STORE": ""},
	} {
		if err := Check(env(ok)); err != nil {
			t.Errorf("%v refused: %v", ok, err)
		}
	}
	for _, bad := range []struct {
		vars map[string]string
		want []string
	}{
		{map[string]string{"PORT": "abc"}, []string{`PORT="abc" must be a port number from 1 to 65535`}},
		{map[string]string{"PORT": "70000"}, []string{`PORT="70000"`}},
		{map[string]string{"WORKERS": "-1", "MAX_UPLOAD_MB": "x", "QUEUE": "-2"}, []string{`WORKERS="-1"`, `MAX_UPLOAD_MB="x" must be a whole number of megabytes`, `QUEUE="-2"`}},
		{map[string]string{"STORE": "postgres"}, []string{`STORE="postgres" must be "embedded" or "dynamodb"`}},
		{map[string]string{"BILLING_ENABLED": "yes"}, []string{`BILLING_ENABLED="yes"`}},
		{map[string]string{"ANON_LIMIT_PER_HOUR": "0"}, []string{`ANON_LIMIT_PER_HOUR="0"`}},
	} {
		err := Check(env(bad.vars))
		if err == nil {
			t.Errorf("%v accepted", bad.vars)
			continue
		}
		for _, w := range bad.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%v: %q lacks %q", bad.vars, err, w)
			}
		}
	}
	if _, err := Server(t.Context(), Local, env(map[string]string{"DATA_DIR": t.TempDir(), "WORKERS": "-1"}), nil); err == nil || !strings.Contains(err.Error(), "WORKERS") {
		t.Errorf("Server with WORKERS=-1: %v", err)
	}
}

// TestLocalMailOutbox: locally, with no mail variable set, mail goes to
// DATA_DIR/outbox; MAIL_OUTBOX overrides it.
func TestLocalMailOutbox(t *testing.T) {
	data, other := t.TempDir(), t.TempDir()
	for _, c := range []struct {
		vars map[string]string
		want string
	}{
		{map[string]string{"DATA_DIR": data}, filepath.Join(data, "outbox")},
		{map[string]string{"DATA_DIR": data, "MAIL_OUTBOX": other}, other},
	} {
		svc, err := Server(t.Context(), Local, func(k string) string { return c.vars[k] }, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		svc.Close()
		if svc.MailOutbox != c.want || svc.HTTP.MailOutbox != c.want {
			t.Errorf("%v: outbox %q (http %q), want %q", c.vars, svc.MailOutbox, svc.HTTP.MailOutbox, c.want)
		}
		if o, ok := svc.HTTP.Accounts.Mail.(*mail.Outbox); !ok || o.Dir != c.want && !strings.HasSuffix(c.want, o.Dir) {
			t.Errorf("%v: sender %#v", c.vars, svc.HTTP.Accounts.Mail)
		}
	}
}
