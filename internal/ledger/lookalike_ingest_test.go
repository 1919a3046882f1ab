package ledger_test

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/ledger/ledgertest"
	"github.com/doctrust/doctrust/internal/store"
)

// calderInvoice is an invoice footer as UK suppliers print it: the VAT
// number in one of its printed forms and the bank details.
func calderInvoice(vat, bank string) ledgertest.Attachment {
	return ledgertest.Attachment{Name: "INV-20431.pdf", Type: "application/pdf",
		Data: pdftest.OnePage("Calder & Finch Ltd, 4 Mill Lane, Leeds LS1 4AB. " + vat + ". Pay to " + bank).Bytes()}
}

// TestLookalikeDomain is issue 36's case: the supplier is known from
// calderfinch.co.uk with its VAT number printed one way; an invoice from
// calderfinch-co.uk with other bank details is a new supplier when it
// carries no tax id, and either way raises lookalike-domain against the
// real one.
func TestLookalikeDomain(t *testing.T) {
	l, s, _ := newLedger(t)
	ctx := context.Background()
	real := "Sort code 20-00-00 Account number 55779911"
	out, err := l.Ingest(ctx, "acct_1", ledgertest.Message("accounts@calderfinch.co.uk", "<r1@cf>", "Invoice attached",
		calderInvoice("VAT reg. GB 011886419", real)))
	if err != nil || !out.Created || out.SupplierKey != "tax:GB011886419" {
		t.Fatalf("genuine = %+v, %v", out, err)
	}
	// The same number printed the two other ways keys the same supplier.
	for i, form := range []string{"VAT No: GB 011 8864 19", "VAT Registration Number: GB011886419"} {
		out, err = l.Ingest(ctx, "acct_1", ledgertest.Message("accounts@calderfinch.co.uk", "<r2@cf>", "", calderInvoice(form, real)))
		if err != nil || out.Created || out.Changed || out.SupplierKey != "tax:GB011886419" || len(out.Alerts) != 0 {
			t.Fatalf("form %d = %+v, %v", i, out, err)
		}
	}

	// No tax id, another bank, a lookalike domain: a new supplier, and an
	// alert against the real one.
	fake := "Sort code 40-11-62 Account number 31926819"
	out, err = l.Ingest(ctx, "acct_1", ledgertest.Message("accounts@calderfinch-co.uk", "<f1@x>", "Our bank details have changed",
		calderInvoice("Registered in England", fake)))
	if err != nil || !out.Created || out.SupplierKey != "domain:calderfinch-co.uk" || !slices.Equal(out.Alerts, []string{store.AlertLookalikeDomain}) {
		t.Fatalf("lookalike without tax id = %+v, %v", out, err)
	}
	alerts, _ := s.AlertsSince(ctx, "acct_1", time.Now().Add(-time.Hour))
	if len(alerts) != 1 || alerts[0].Kind != store.AlertLookalikeDomain || alerts[0].SupplierKey != "tax:GB011886419" || alerts[0].SenderDomain != "calderfinch-co.uk" {
		t.Fatalf("alerts = %+v", alerts)
	}

	// The real VAT number from a homoglyph domain: filed under the real
	// supplier, whose coordinates changed, from a domain that imitates its
	// own.
	out, err = l.Ingest(ctx, "acct_1", ledgertest.Message("accounts@ca1derfinch.co.uk", "<f2@x>", "",
		calderInvoice("VAT No: GB 011 8864 19", fake)))
	if err != nil || out.SupplierKey != "tax:GB011886419" || !out.Changed {
		t.Fatalf("lookalike with the tax id = %+v, %v", out, err)
	}
	for _, kind := range []string{store.AlertCoordinatesChanged, store.AlertNewSenderDomain, store.AlertLookalikeDomain} {
		if !slices.Contains(out.Alerts, kind) {
			t.Errorf("alerts %v lack %s", out.Alerts, kind)
		}
	}

	// A domain seen before raises nothing new; an unrelated new supplier
	// raises nothing.
	out, _ = l.Ingest(ctx, "acct_1", ledgertest.Message("accounts@calderfinch-co.uk", "<f3@x>", "", calderInvoice("Registered in England", fake)))
	if slices.Contains(out.Alerts, store.AlertLookalikeDomain) {
		t.Errorf("known domain alerted again: %+v", out)
	}
	out, _ = l.Ingest(ctx, "acct_1", ledgertest.Message("billing@northwind.example", "<n1@x>", "", calderInvoice("VAT No: GB 123 4567 89", real)))
	if len(out.Alerts) != 0 {
		t.Errorf("unrelated supplier alerted: %+v", out)
	}
}
