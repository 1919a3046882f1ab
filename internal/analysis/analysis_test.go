package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"regexp"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/engine/receipt"
)

const sample = "../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf"

func load(t *testing.T) []byte {
	b, err := os.ReadFile(sample)
	if err != nil {
		t.Skip("corpus not present")
	}
	return b
}

func TestInspectSignsWhatItReturns(t *testing.T) {
	secret := []byte("test-secret")
	clock := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	p := &Pipeline{Secret: secret, Now: func() time.Time { return clock }}
	pol, err := policy.Parse([]byte(`{"reviewOn":["incremental-updates"]}`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.Inspect(context.Background(), Request{Data: load(t), Policy: &pol, Timing: true})
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`^insp_[0-9a-f-]{36}$`).MatchString(res.Report.ID) {
		t.Fatalf("id %q", res.Report.ID)
	}
	if res.Report.Policy == nil || res.Report.Policy.Verdict != "review" || res.Report.Timing == nil {
		t.Fatalf("policy %+v timing %+v", res.Report.Policy, res.Report.Timing)
	}
	var body map[string]json.RawMessage
	if err := json.Unmarshal(res.Body, &body); err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(bytes.TrimSpace(res.Body), append([]byte(`"receipt":`), append(body["receipt"], '}')...)) {
		t.Fatal("receipt is not the last key")
	}
	var rc struct {
		Version, IssuedAt, EngineVersion, ReportHash, Signature string
		Redacted                                                bool
	}
	json.Unmarshal(body["receipt"], &rc)
	if rc.IssuedAt != "2026-11-22T10:00:00.000Z" || rc.Redacted {
		t.Fatalf("receipt %+v", rc)
	}
	if ok, reason := receipt.Verify(res.Body, *res.Report.Receipt, secret); !ok {
		t.Fatalf("own receipt does not verify: %s", reason)
	}
}

func TestRedactedReportKeepsPolicyOfUnredacted(t *testing.T) {
	p := &Pipeline{Secret: []byte("s")}
	res, err := p.Inspect(context.Background(), Request{Data: load(t), Redact: true})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Report.Receipt.Redacted || res.Unredacted == nil {
		t.Fatal("redacted flag or unredacted report missing")
	}
}

func TestErrors(t *testing.T) {
	p := &Pipeline{Secret: []byte("s")}
	if _, err := p.Inspect(context.Background(), Request{Data: []byte("plain text, not a document")}); !errors.Is(err, ErrUnreadable) {
		t.Fatalf("got %v, want ErrUnreadable", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Inspect(ctx, Request{Data: load(t)}); !errors.Is(err, ErrDeadline) {
		t.Fatalf("got %v, want ErrDeadline", err)
	}
}
