package lambdases

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-lambda-go/events"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/ledger/ledgertest"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

const (
	bucket = "doctrust-ingest-123456789012"
	prefix = "inbound/"
	domain = "in.example"
)

// door is a handler on the embedded store and the S3 stand-in, with the
// account acct_1's alias address and the log it writes.
type door struct {
	h      *Handler
	s3     *s3Stub
	st     *sqlite.Store
	dbPath string
	to     string
	log    *bytes.Buffer
}

func newDoor(t *testing.T) *door {
	t.Helper()
	path := filepath.Join(t.TempDir(), sqlite.FileName)
	st, err := sqlite.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	var n atomic.Int64
	l := &ledger.Ledger{Store: st, NewID: func() string { return fmt.Sprintf("alert_%d", n.Add(1)) }}
	alias, err := l.Alias(context.Background(), "acct_1")
	if err != nil {
		t.Fatal(err)
	}
	s, log := newS3Stub(t), &bytes.Buffer{}
	h := &Handler{Intake: ledger.Intake{Ledger: l, Domain: domain, Limiter: &ratelimit.Limiter{Store: st}},
		S3: s.client(), Bucket: bucket, Prefix: prefix, Logger: slog.New(slog.NewJSONHandler(log, nil))}
	return &door{h: h, s3: s, st: st, dbPath: path, to: alias + "@" + domain, log: log}
}

// event is testdata's SES event with the alias as the recipient and the
// given SES message id.
func (d *door) event(t *testing.T, name, sesID string) events.SimpleEmailEvent {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var ev events.SimpleEmailEvent
	if err := json.Unmarshal(bytes.ReplaceAll(b, []byte("ALIAS"), []byte(d.to)), &ev); err != nil {
		t.Fatal(err)
	}
	if sesID != "" {
		ev.Records[0].SES.Mail.MessageID = sesID
	}
	return ev
}

// deliver stores raw as the rule's S3 action does and invokes the handler
// as its Lambda action does.
func (d *door) deliver(t *testing.T, sesID string, raw []byte) error {
	t.Helper()
	d.s3.put(bucket, prefix+sesID, raw)
	ctx, cancel := context.WithTimeout(context.Background(), 13*time.Second)
	defer cancel()
	return d.h.Handle(ctx, d.event(t, "ses-lambda-action.json", sesID))
}

func invoice(id, iban string) []byte {
	pdf := pdftest.OnePage("Acme GmbH USt-IdNr. DE136695976 IBAN " + iban).Bytes()
	return ledgertest.Message("billing@acme.example", id, "Please find the invoice attached.",
		ledgertest.Attachment{Name: "invoice.pdf", Type: "application/pdf", Data: pdf})
}

// TestSESDoorEndToEnd: an invoice stored by the S3 action creates the
// supplier, a second one with another IBAN raises coordinates-changed and
// keeps both versions; each object is deleted, and neither the log nor the
// store holds a full account number or a document byte.
func TestSESDoorEndToEnd(t *testing.T) {
	d := newDoor(t)
	ctx := context.Background()
	if err := d.deliver(t, "ses-1", invoice("<m1@acme>", "DE89 3704 0044 0532 0130 00")); err != nil {
		t.Fatal(err)
	}
	list, _ := d.st.Suppliers(ctx, "acct_1")
	if len(list) != 1 || list[0].Key != "tax:DE136695976" || len(list[0].Versions) != 1 {
		t.Fatalf("after the first invoice: %+v", list)
	}
	if err := d.deliver(t, "ses-2", invoice("<m2@acme>", "GB29 NWBK 6016 1331 9268 19")); err != nil {
		t.Fatal(err)
	}
	list, _ = d.st.Suppliers(ctx, "acct_1")
	if len(list) != 1 || len(list[0].Versions) != 2 || list[0].Versions[1].Coords[0].AccountLast4 != "6819" {
		t.Fatalf("after the changed invoice: %+v", list)
	}
	alerts, _ := d.st.AlertsSince(ctx, "acct_1", time.Now().Add(-time.Hour))
	if len(alerts) != 1 || alerts[0].Kind != store.AlertCoordinatesChanged {
		t.Fatalf("alerts: %+v", alerts)
	}
	for _, id := range []string{"ses-1", "ses-2"} {
		if d.s3.has(bucket, prefix+id) {
			t.Fatalf("%s was not deleted", id)
		}
	}
	if !strings.Contains(d.log.String(), `"outcome":"ingested"`) {
		t.Fatalf("log: %s", d.log)
	}
	d.st.Close()
	wal, _ := os.ReadFile(d.dbPath + "-wal")
	db, _ := os.ReadFile(d.dbPath)
	for _, s := range []string{"0532013000", "60161331926819", "%PDF", "Please find"} {
		if bytes.Contains(db, []byte(s)) || bytes.Contains(wal, []byte(s)) {
			t.Fatalf("%q is in the store", s)
		}
	}
	for _, s := range []string{"0532013000", "6819", "acme", d.to, "m1@", "Please"} {
		if strings.Contains(d.log.String(), s) {
			t.Fatalf("%q is in the log: %s", s, d.log)
		}
	}
}

// TestSESDoorRefusals: every message that cannot feed a ledger is deleted
// with a clean outcome: hostile MIME, an object over the cap (refused
// before its body is read), a message for no alias (never read).
func TestSESDoorRefusals(t *testing.T) {
	d := newDoor(t)
	huge := append([]byte("From: a@b.example\r\n\r\n"), bytes.Repeat([]byte("a"), ledger.MaxMessageBytes)...)
	badB64 := bytes.Replace(ledgertest.Message("a@b.example", "<m@b>", "hello",
		ledgertest.Attachment{Name: "x.pdf", Type: "application/pdf", Data: []byte("x")}), []byte("eA=="), []byte("!!!*&^"), 1)
	for name, c := range map[string]struct {
		raw  []byte
		want string
	}{
		"deep nesting": {ledgertest.Nested(50), `"outcome":"unparseable"`},
		"huge":         {huge, `"outcome":"unparseable"`},
		"not mime":     {[]byte{0, 1, 2}, `"outcome":"unparseable"`},
		// A damaged part: what could be read is used, the part is not.
		"bad base64": {badB64, `"outcome":"ingested","created":false,"changed":false,"alerts":0,"documents":0`},
	} {
		d.log.Reset()
		id := "ses-" + strings.ReplaceAll(name, " ", "-")
		start := time.Now()
		if err := d.deliver(t, id, c.raw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if time.Since(start) > 10*time.Second {
			t.Errorf("%s took %v", name, time.Since(start))
		}
		if d.s3.has(bucket, prefix+id) {
			t.Errorf("%s: object kept", name)
		}
		if !strings.Contains(d.log.String(), c.want) {
			t.Errorf("%s: log %s, want %s", name, d.log, c.want)
		}
	}
	if n := d.s3.readCount(bucket, prefix+"ses-huge"); n != 1 {
		t.Errorf("huge: read %d times", n)
	}

	// A recipient in another domain, or an unknown alias: never read.
	d.to = "ap-unknownalias@" + domain
	d.log.Reset()
	if err := d.deliver(t, "ses-stranger", invoice("<m@x>", "DE89 3704 0044 0532 0130 00")); err != nil {
		t.Fatal(err)
	}
	if d.s3.readCount(bucket, prefix+"ses-stranger") != 0 || d.s3.has(bucket, prefix+"ses-stranger") {
		t.Fatalf("unknown alias: read %d times, kept %v", d.s3.readCount(bucket, prefix+"ses-stranger"), d.s3.has(bucket, prefix+"ses-stranger"))
	}
	if !strings.Contains(d.log.String(), `"outcome":"no-alias"`) {
		t.Fatalf("log: %s", d.log)
	}
}

// TestS3ActionEvent: an event whose action is the S3 action itself names
// the bucket and key, which win over the configured ones.
func TestS3ActionEvent(t *testing.T) {
	d := newDoor(t)
	ev := d.event(t, "ses-s3-action.json", "")
	a := ev.Records[0].SES.Receipt.Action
	d.s3.put(a.BucketName, a.ObjectKey, invoice("<m1@acme>", "DE89 3704 0044 0532 0130 00"))
	if err := d.h.Handle(context.Background(), ev); err != nil {
		t.Fatal(err)
	}
	if list, _ := d.st.Suppliers(context.Background(), "acct_1"); len(list) != 1 || d.s3.has(a.BucketName, a.ObjectKey) {
		t.Fatalf("suppliers %+v, object kept %v", list, d.s3.has(a.BucketName, a.ObjectKey))
	}
}

// TestTransientFailuresKeepTheObject: S3 refusing the read, or the alias
// past its limit, returns an error (Lambda retries the asynchronous
// invocation) and leaves the object for that retry.
func TestTransientFailuresKeepTheObject(t *testing.T) {
	d := newDoor(t)
	d.s3.deny[bucket+"/"+prefix+"ses-denied"] = true
	if err := d.deliver(t, "ses-denied", invoice("<m@x>", "DE89 3704 0044 0532 0130 00")); err == nil || !d.s3.has(bucket, prefix+"ses-denied") {
		t.Fatalf("denied read: %v, kept %v", err, d.s3.has(bucket, prefix+"ses-denied"))
	}
	if strings.Contains(d.log.String(), d.to) {
		t.Fatalf("the address is in the log: %s", d.log)
	}

	alias := strings.TrimSuffix(d.to, "@"+domain)
	for range ledger.IngestRule.Limit {
		d.h.Intake.Limiter.Allow(context.Background(), ledger.IngestRule, alias)
	}
	err := d.deliver(t, "ses-limited", invoice("<m@x>", "DE89 3704 0044 0532 0130 00"))
	if err == nil || !d.s3.has(bucket, prefix+"ses-limited") || d.s3.readCount(bucket, prefix+"ses-limited") != 0 {
		t.Fatalf("limited: %v, kept %v", err, d.s3.has(bucket, prefix+"ses-limited"))
	}
}
