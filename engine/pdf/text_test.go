package pdf

import (
	"context"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

func TestText(t *testing.T) {
	data := pdftest.OnePage("IBAN DE89 3704 0044 0532 0130 00").Bytes()
	got, err := Text(context.Background(), data, 0, 1<<16)
	if err != nil || !strings.Contains(got, "IBAN DE89 3704 0044 0532 0130 00") {
		t.Fatalf("Text = %q, %v", got, err)
	}
	if got, _ := Text(context.Background(), data, 0, 4); got != "" {
		t.Fatalf("cap 4 gave %q", got)
	}
	if got, err := Text(context.Background(), []byte("%PDF-1.7 garbage"), 0, 100); err != nil || got != "" {
		t.Fatalf("garbage gave %q, %v", got, err)
	}
}

func FuzzText(f *testing.F) {
	f.Add(pdftest.OnePage("Sort code 12-34-56 Account 12345678").Bytes())
	f.Add([]byte("%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj trailer << /Root 1 0 R >>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, _ := Text(context.Background(), data, strings.Index(string(data), "%PDF"), 4096)
		if len(s) > 4096 {
			t.Fatalf("text of %d bytes over the cap", len(s))
		}
	})
}
