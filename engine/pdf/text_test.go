package pdf

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
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

// TestTextOfEncrypted: a statement encrypted for permissions only (RC4
// 40/128, AES-128 with printing denied, AES-256 R5/R6, an empty owner
// password with AES-256, pikepdf's R6) reads as the same statement unencrypted; one that
// needs a real user password reads as nothing. Before, every encrypted
// document read as nothing, so the ledger missed the payment coordinates
// of encrypted invoices and statements.
func TestTextOfEncrypted(t *testing.T) {
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("file", "testdata", "crypt", name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := Text(context.Background(), data, bytes.Index(data, []byte("%PDF")), 1<<16)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return got
	}
	plain := read("plain.pdf")
	if !strings.Contains(plain, "Example Bank plc") {
		t.Fatalf("plain statement reads %q", plain)
	}
	for _, name := range []string{"rc4-40.pdf", "rc4-128.pdf", "aes-128-noprint.pdf", "aes-256-r5.pdf", "aes-256-r6.pdf",
		"owner-empty-aes-256.pdf", "pikepdf-r6.pdf"} {
		if got := read(name); got != plain {
			t.Errorf("%s reads %q, want the plain statement's text", name, got)
		}
	}
	// Neither opens without a password (poppler agrees).
	for _, name := range []string{"user-password.pdf", "owner-empty-rc4-128.pdf"} {
		if got := read(name); got != "" {
			t.Errorf("%s, which needs a password, reads %q", name, got)
		}
	}
}
