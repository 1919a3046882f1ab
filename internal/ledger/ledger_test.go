package ledger_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/ledger/ledgertest"
	"github.com/doctrust/doctrust/internal/store"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

func newLedger(t *testing.T) (*ledger.Ledger, *sqlite.Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "l.db")
	s, err := sqlite.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var n atomic.Int64
	return &ledger.Ledger{Store: s, NewID: func() string { return fmt.Sprintf("al_%d", n.Add(1)) }}, s, path
}

func invoice(iban string) ledgertest.Attachment {
	return ledgertest.Attachment{Name: "invoice.pdf", Type: "application/pdf",
		Data: pdftest.OnePage("USt-IdNr. DE136695976 IBAN " + iban).Bytes()}
}

func TestChangedIBANRaisesAlertAndKeepsVersions(t *testing.T) {
	l, s, _ := newLedger(t)
	ctx := context.Background()
	out, err := l.Ingest(ctx, "acct_1", ledgertest.Message("billing@acme.example", "<m1@acme>", "Invoice attached", invoice("DE89 3704 0044 0532 0130 00")))
	if err != nil || !out.Created || out.SupplierKey != "tax:DE136695976" || out.Documents != 1 || len(out.Alerts) != 0 {
		t.Fatalf("first = %+v, %v", out, err)
	}
	out, err = l.Ingest(ctx, "acct_1", ledgertest.Message("billing@acme.example", "<m2@acme>", "Invoice attached", invoice("GB29 NWBK 6016 1331 9268 19")))
	if err != nil || out.Created || !out.Changed || len(out.Alerts) != 1 || out.Alerts[0] != store.AlertCoordinatesChanged {
		t.Fatalf("second = %+v, %v", out, err)
	}
	list, _ := s.Suppliers(ctx, "acct_1")
	if len(list) != 1 || len(list[0].Versions) != 2 || list[0].Versions[1].Coords[0].AccountLast4 != "6819" || list[0].Versions[0].MessageID != "<m1@acme>" {
		t.Fatalf("suppliers = %+v", list)
	}
	// The same coordinates from a new domain: no new version, one alert.
	out, _ = l.Ingest(ctx, "acct_1", ledgertest.Message("ap@acme-billing.example", "<m3@x>", "", invoice("GB29 NWBK 6016 1331 9268 19")))
	if out.Changed || len(out.Alerts) != 1 || out.Alerts[0] != store.AlertNewSenderDomain {
		t.Fatalf("new domain = %+v", out)
	}
	alerts, _ := s.AlertsSince(ctx, "acct_1", time.Now().Add(-time.Hour))
	if len(alerts) != 2 {
		t.Fatalf("alerts = %+v", alerts)
	}
}

func TestNoFullAccountStored(t *testing.T) {
	l, s, path := newLedger(t)
	ctx := context.Background()
	body := "New details: Routing 021000021 Account 123456789012"
	if _, err := l.Ingest(ctx, "acct_1", ledgertest.Message("a@b.example", "<m@b>", body, invoice("DE89 3704 0044 0532 0130 00"))); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for _, suffix := range []string{"", "-wal"} {
		data, _ := readFile(path + suffix)
		for _, full := range []string{"0532013000", "123456789012", "DE89370400440532013000", "%PDF"} {
			if bytes.Contains(data, []byte(full)) {
				t.Fatalf("%q found in the database file%s", full, suffix)
			}
		}
	}
}

func TestHostileMessages(t *testing.T) {
	l, _, _ := newLedger(t)
	ctx := context.Background()
	for name, raw := range map[string][]byte{
		"deep nesting": ledgertest.Nested(40),
		"huge":         bytes.Repeat([]byte("a"), ledger.MaxMessageBytes+1),
		"empty":        nil,
	} {
		if _, err := l.Ingest(ctx, "acct_1", raw); !errors.Is(err, ledger.ErrUnparseable) {
			t.Errorf("%s: %v, want ErrUnparseable", name, err)
		}
	}
	bad := ledgertest.Message("a@b.example", "<m@b>", "hello", ledgertest.Attachment{Name: "x.pdf", Type: "application/pdf", Data: []byte("x")})
	bad = bytes.Replace(bad, []byte("eA=="), []byte("!!!*&^"), 1)
	out, err := l.Ingest(ctx, "acct_1", bad)
	if err != nil || out.Documents != 0 {
		t.Fatalf("bad base64: %+v, %v", out, err)
	}
	if !strings.Contains(string(ledgertest.Nested(3)), "n2") {
		t.Fatal("fixture")
	}
	if _, err := l.Ingest(ctx, "acct_1", ledgertest.Nested(3)); err != nil {
		t.Fatalf("shallow nesting refused: %v", err)
	}
}

// TestDeadlineKeepsTimeForTheWrite: past the point where the write's
// reserve begins, attachments are skipped, the result says partial, and
// what the body gave is still recorded.
func TestDeadlineKeepsTimeForTheWrite(t *testing.T) {
	l, s, _ := newLedger(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	out, err := l.Ingest(ctx, "acct_1", ledgertest.Message("billing@acme.example", "<m1@acme>",
		"IBAN DE89 3704 0044 0532 0130 00", invoice("GB29 NWBK 6016 1331 9268 19")))
	if err != nil || !out.Partial || out.Documents != 0 || out.Skipped != 1 || !out.Created {
		t.Fatalf("%+v, %v", out, err)
	}
	list, _ := s.Suppliers(context.Background(), "acct_1")
	if len(list) != 1 || list[0].Versions[0].Coords[0].AccountLast4 != "3000" {
		t.Fatalf("suppliers = %+v", list)
	}
}

// TestEncryptedInvoiceRead: an invoice encrypted for permissions only (the
// empty user password, AES-256, text extraction denied; made by
// scripts/fixtures/crypt/make.py with qpdf) gives the ledger its supplier
// and payment coordinates, as the same invoice unencrypted does: every
// reader shows its pages to anyone who opens it. Before, an encrypted
// attachment gave no text and so no coordinates.
func TestEncryptedInvoiceRead(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "invoice-aes-256.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	l, s, _ := newLedger(t)
	ctx := context.Background()
	att := ledgertest.Attachment{Name: "invoice.pdf", Type: "application/pdf", Data: data}
	out, err := l.Ingest(ctx, "acct_1", ledgertest.Message("billing@supplies.example", "<e1@supplies>", "Invoice 2024-0117", att))
	if err != nil || !out.Created || out.SupplierKey != "tax:DE136695976" || out.Documents != 1 {
		t.Fatalf("ingest = %+v, %v", out, err)
	}
	list, _ := s.Suppliers(ctx, "acct_1")
	if len(list) != 1 || len(list[0].Versions) != 1 || len(list[0].Versions[0].Coords) == 0 || list[0].Versions[0].Coords[0].AccountLast4 != "3000" {
		t.Fatalf("suppliers = %+v", list)
	}
}
