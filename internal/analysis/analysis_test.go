package analysis

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/engine/receipt"

	"github.com/doctrust/doctrust/internal/corpustest"
)

const sample = "../../../shared/corpus/pdf-incremental/qpdf/incremental-2.pdf"

func load(t *testing.T) []byte {
	b, err := os.ReadFile(sample)
	if err != nil {
		corpustest.Skip(t, "../shared/corpus")
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

// TestMetadataBodyStaysSmall: a PNG of nearly 10 MB made of text chunks
// full of characters JSON would escape gives a listing body far under the
// 6 MB a Lambda response may carry, and the same body twice.
func TestMetadataBodyStaysSmall(t *testing.T) {
	chunk := func(typ string, data []byte) []byte {
		out := binary.BigEndian.AppendUint32(nil, uint32(len(data)))
		out = append(out, typ...)
		out = append(out, data...)
		return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(append([]byte(typ), data...)))
	}
	png := []byte("\x89PNG\r\n\x1a\n")
	png = append(png, chunk("IHDR", []byte{0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0})...)
	text := append(append(bytes.Repeat([]byte(`"`), 79), 0), bytes.Repeat([]byte("<&\\"), 1000)...)
	for len(png) < 9<<20 {
		png = append(png, chunk("tEXt", text)...)
	}
	png = append(png, chunk("IEND", nil)...)
	p := &Pipeline{}
	l, err := p.Metadata(context.Background(), png)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Body) > 4<<20 {
		t.Fatalf("body of %d bytes", len(l.Body))
	}
	if c := l.Report.Containers[1]; !json.Valid(l.Body) || c.Name != "PNG" || !c.EntriesTruncated || c.EntriesTotal < 3000 {
		t.Fatalf("PNG container %s: %d entries of %d", c.Name, len(c.Entries), c.EntriesTotal)
	}
	again, _ := p.Metadata(context.Background(), png)
	if !bytes.Equal(again.Body, l.Body) {
		t.Fatal("two listings differ")
	}
}

// TestMetadataBodyCapped: a PDF whose XMP holds 3 MB of quotes and angle
// brackets (characters JSON escapes) gives a listing cut at its caps and a
// body far under what a Lambda response may carry.
func TestMetadataBodyCapped(t *testing.T) {
	var props strings.Builder
	for i := 0; props.Len() < 3<<20; i++ {
		fmt.Fprintf(&props, "<dc:p%d>%s</dc:p%d>", i, strings.Repeat(`"'`, 500), i)
	}
	b := pdftest.OnePage("x")
	n := b.AddStream("<< /Type /Metadata /Subtype /XML >>", pdftest.XMP(props.String()))
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict(fmt.Sprintf("/Metadata %d 0 R", n)))
	l, err := (&Pipeline{}).Metadata(context.Background(), b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	x := l.Report.Containers[1]
	if len(l.Body) > 4<<20 || !json.Valid(l.Body) || x.Name != "XMP" || !x.EntriesTruncated {
		t.Fatalf("body of %d bytes; %s: %d entries of %d", len(l.Body), x.Name, len(x.Entries), x.EntriesTotal)
	}
}
