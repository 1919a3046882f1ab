package lambdases

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/ddblocal"
)

func TestMain(m *testing.M) { ddblocal.Main(m) }

// TestNewFromEnvironment: the function as deployed builds from its
// variables (DynamoDB Local for the store, S3_ENDPOINT for the stand-in)
// and takes an invoice through to the supplier list.
func TestNewFromEnvironment(t *testing.T) {
	s := newS3Stub(t)
	vars := map[string]string{
		"DYNAMODB_ENDPOINT":  ddblocal.Endpoint(t),
		"TABLE_PREFIX":       fmt.Sprintf("ses%d_", time.Now().UnixNano()%1e9),
		"RECEIPT_SECRET":     "ses-test",
		"S3_ENDPOINT":        s.srv.URL,
		"INGEST_BUCKET":      bucket,
		"INGEST_PREFIX":      prefix,
		"INGEST_MAIL_DOMAIN": domain,
	}
	var log bytes.Buffer
	h, err := New(context.Background(), func(k string) string { return vars[k] }, &log)
	if err != nil {
		t.Fatal(err)
	}
	alias, err := h.Intake.Ledger.Alias(context.Background(), "acct_env")
	if err != nil {
		t.Fatal(err)
	}
	d := &door{h: h, s3: s, to: strings.ToUpper(alias) + "+invoices@" + domain, log: &log}
	if err := d.deliver(t, "ses-env", invoice("<m1@acme>", "DE89 3704 0044 0532 0130 00")); err != nil {
		t.Fatal(err)
	}
	list, err := h.Intake.Ledger.Store.Suppliers(context.Background(), "acct_env")
	if err != nil || len(list) != 1 || s.has(bucket, prefix+"ses-env") {
		t.Fatalf("suppliers %+v (%v), object kept %v; log %s", list, err, s.has(bucket, prefix+"ses-env"), &log)
	}
}
