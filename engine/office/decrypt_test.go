package office

import (
	"bytes"
	"context"
	"os"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// TestDefaultPassword: a workbook encrypted with Excel's default password
// is decrypted and analysed, the structure signal saying so before the
// blind-spot note; the same workbook under a real password stays
// encrypted and unanalysed.
func TestDefaultPassword(t *testing.T) {
	r, err := AnalyzeEncryptedPackage(context.Background(), readTestdata(t, "legacy/default-password-invoice.xlsx"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, "default", r)
	if r.Office.Format != "xlsx" || !r.Document.Encrypted {
		t.Fatalf("format %q encrypted %v", r.Office.Format, r.Document.Encrypted)
	}
	s := signal(r, "office-structure-anomalies")
	if n := s.Notes; len(n) < 2 || n[len(n)-2].Code != "office-structure-anomalies.default-password" || s.Evidence["defaultPassword"] != true {
		t.Fatalf("notes %s", codes(s))
	}
	quiet(t, r, "structure-warnings", "office-macros", "office-external-links")

	r, err = AnalyzeEncryptedPackage(context.Background(), readTestdata(t, "legacy/real-password-invoice.xlsx"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	expect(t, r, "office-structure-anomalies", report.Info, "office-structure-anomalies.encrypted-package")
	expect(t, r, "structure-warnings", report.Low, "structure-warnings.encrypted-content-not-analysed")
}

// TestDecryptAlgorithms checks standard and agile decryption on files
// Office and POI wrote, with their published passwords.
func TestDecryptAlgorithms(t *testing.T) {
	dir := "../../../shared/corpus/office/poi/"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("shared corpus not present")
	}
	for file, pw := range map[string]string{
		"spreadsheet/protected_passtika.xlsx":         "tika",     // standard
		"document/bug53475-password-is-solrcell.docx": "solrcell", // standard
		"document/bug53475-password-is-pass.docx":     "pass",     // agile
	} {
		b, err := os.ReadFile(dir + file)
		if err != nil {
			t.Fatal(err)
		}
		plain := decryptPackage(b, pw, 0)
		if f := sniff.Sniff(plain).Format; f.Kind() != sniff.KindOffice {
			t.Errorf("%s: decrypted to %q", file, f)
		}
		if decryptPackage(b, "wrong", 0) != nil || decryptDefault(b, 0) != nil {
			t.Errorf("%s: a wrong password opened it", file)
		}
	}
}

// FuzzDecrypt drives the EncryptionInfo parsers with the default password.
func FuzzDecrypt(f *testing.F) {
	for _, n := range []string{"legacy/default-password-invoice.xlsx", "legacy/real-password-invoice.xlsx"} {
		if b, err := os.ReadFile("testdata/" + n); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		out := decryptDefault(data, 1<<22)
		if len(out) > len(data) {
			t.Fatalf("%d bytes out of %d", len(out), len(data))
		}
		_ = bytes.HasPrefix(out, []byte("PK"))
	})
}
