package dynamodb

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/ledger"
	"github.com/doctrust/doctrust/internal/ledger/ledgertest"
)

// TestLedgerItemsHoldNoAccountNumber runs messages through the ledger
// into DynamoDB and scans every item of the ledger table: no full account
// number and no document byte may be there.
func TestLedgerItemsHoldNoAccountNumber(t *testing.T) {
	ctx := context.Background()
	s := open(t, time.Now).(*Store)
	n := 0
	l := &ledger.Ledger{Store: s, NewID: func() string { n++; return fmt.Sprintf("alert_%d", n) }}
	for i, iban := range []string{"DE89 3704 0044 0532 0130 00", "GB29 NWBK 6016 1331 9268 19"} {
		pdf := pdftest.OnePage("USt-IdNr. DE136695976 IBAN " + iban).Bytes()
		msg := ledgertest.Message("billing@acme.example", fmt.Sprintf("<m%d@acme>", i), "Routing 021000021 Account 123456789012",
			ledgertest.Attachment{Name: "invoice.pdf", Type: "application/pdf", Data: pdf})
		if _, err := l.Ingest(ctx, "acct_1", msg); err != nil {
			t.Fatal(err)
		}
	}
	out, err := s.db.Scan(ctx, &dynamodb.ScanInput{TableName: &s.ledger})
	if err != nil {
		t.Fatal(err)
	}
	if len(out.Items) < 2 {
		t.Fatalf("only %d items", len(out.Items))
	}
	var b strings.Builder
	for _, item := range out.Items {
		for k, v := range item {
			b.WriteString(k + "=")
			switch v := v.(type) {
			case *types.AttributeValueMemberS:
				b.WriteString(v.Value)
			case *types.AttributeValueMemberN:
				b.WriteString(v.Value)
			case *types.AttributeValueMemberB:
				b.Write(v.Value)
			}
			b.WriteString("\n")
		}
	}
	dump := b.String()
	for _, full := range []string{"0532013000", "60161331926819", "123456789012", "%PDF", "JVBER"} {
		if strings.Contains(dump, full) {
			t.Fatalf("%q stored in the ledger table", full)
		}
	}
	if !strings.Contains(dump, "6819") {
		t.Fatal("the scan did not read the items' values")
	}
}
