package office

import (
	"os"
	"testing"
)

// A password-protected docx is reported as encrypted Office with the
// blind-spot note; a legacy binary workbook (a compound file without an
// EncryptedPackage stream, even an encrypted one) is not a package.
func TestEncryptedPackage(t *testing.T) {
	data, err := os.ReadFile("../../../shared/corpus/office/oletools/encrypted/encrypted.docx")
	if err != nil {
		t.Skip("corpus not present")
	}
	if !IsEncryptedPackage(data) {
		t.Fatal("encrypted.docx not recognised")
	}
	r := AnalyzeEncrypted(data)
	if !r.Document.Encrypted || r.Office == nil || r.Office.Format != EncryptedFormat {
		t.Fatalf("document %+v office %+v", r.Document, r.Office)
	}
	var sw, st bool
	for _, s := range r.Signals {
		switch s.ID {
		case "structure-warnings":
			sw = s.Evidence["code"] == "encrypted-content-not-analysed" && s.Evidence["skippedFamilies"] == 7
		case "office-structure-anomalies":
			st = len(s.Notes) == 1 && s.Notes[0].Code == "office-structure-anomalies.blind-spot"
		}
	}
	if !sw || !st {
		t.Fatalf("signals %+v", r.Signals)
	}
	for _, legacy := range []string{"excel4-macros/excel4_sample_macro.xls", "encrypted/dde-test-encrypt-standardpassword.xls"} {
		b, err := os.ReadFile("../../../shared/corpus/office/oletools/" + legacy)
		if err != nil {
			t.Fatal(err)
		}
		if !IsCFB(b) || IsEncryptedPackage(b) {
			t.Errorf("%s: legacy binary file taken for an encrypted package", legacy)
		}
	}
}
