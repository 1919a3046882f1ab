package pdf_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// cryptFixture analyses a fixture of scripts/fixtures/crypt/make.py, with
// the header offset the sniffer finds.
func cryptFixture(t *testing.T, name string) *jsonReport {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("file", "testdata", "crypt", name))
	if err != nil {
		t.Fatal(err)
	}
	s := sniff.Sniff(data)
	if s.Format != sniff.PDF {
		t.Fatalf("%s sniffed as %q", name, s.Format)
	}
	return analyzeAt(t, data, s.HeaderOffset, full)
}

// TestEncryptedOpenedReport: a permissions-only statement (empty user
// password) is read like a clear one for producer, dates, XMP and active
// content, while the content-dependent families still do not run and the
// evidence names the handler. Before decryption the producer was null and
// the attached file unseen.
func TestEncryptedOpenedReport(t *testing.T) {
	for _, tc := range []struct {
		name   string
		method string
		bits   int
	}{
		{"rc4-40.pdf", "RC4", 40},
		{"rc4-128.pdf", "RC4", 128},
		{"aes-128-noprint.pdf", "AESV2", 128},
		{"pikepdf-r4-clear-metadata.pdf", "AESV2", 128},
		{"aes-256-r5.pdf", "AESV3", 256},
		{"aes-256-r6.pdf", "AESV3", 256},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cryptFixture(t, tc.name)
			eq(t, "encrypted", r.Document["encrypted"], true)
			eq(t, "producer", r.Document["producer"], "ReportLab PDF Library - www.reportlab.com")
			eq(t, "creator", r.Document["creator"], "Statement Service 4.2")
			eq(t, "creationDate", r.Document["creationDate"], "2024-04-01T08:00:00Z")
			sw := must(t, r, "structure-warnings")
			expect(t, sw, report.Low, "structure-warnings.encrypted-content-not-analysed")
			if len(sw.Notes) == 0 || sw.Notes[0].Code != "structure-warnings.encrypted-opened" {
				t.Errorf("notes %v", sw.Notes)
			}
			sec, _ := sw.Evidence["security"].(map[string]any)
			eq(t, "handler", sec["handler"], "Standard")
			eq(t, "opened", sec["emptyPasswordOpened"], true)
			eq(t, "method", sec["streamMethod"], tc.method)
			eq(t, "keyBits", num(t, sec["keyBits"]), tc.bits)
			for _, fam := range report.EncryptedSkipped() {
				absent(t, r, fam)
			}
			// The attached transactions.csv is read through the decrypted
			// names tree.
			ac := must(t, r, "active-content")
			counts, _ := ac.Evidence["counts"].(map[string]any)
			if ac.Message.Code != "active-content.attachments" || num(t, counts["embeddedFiles"]) != 1 {
				t.Errorf("active-content %s %v", ac.Message.Code, ac.Evidence)
			}
		})
	}
}

// TestEncryptedRealPassword: a user password stays a closed file, reported
// as before with the reason in evidence and no strings read.
func TestEncryptedRealPassword(t *testing.T) {
	r := cryptFixture(t, "user-password.pdf")
	eq(t, "producer", r.Document["producer"], nil)
	eq(t, "encrypted", r.Document["encrypted"], true)
	sw := must(t, r, "structure-warnings")
	expect(t, sw, report.Low, "structure-warnings.encrypted-content-not-analysed")
	sec, _ := sw.Evidence["security"].(map[string]any)
	eq(t, "opened", sec["emptyPasswordOpened"], false)
	eq(t, "reason", sec["notOpenedReason"], "password-required")
	eq(t, "r", num(t, sec["r"]), 6)
	if len(sw.Notes) == 0 || sw.Notes[0].Code != "structure-warnings.encrypted-password-required" {
		t.Errorf("notes %v", sw.Notes)
	}
}

// TestEncryptedSigned: a statement signed after encryption keeps its
// signature readable: /Contents is not deciphered, its text fields are.
func TestEncryptedSigned(t *testing.T) {
	r := cryptFixture(t, "signed-aes-128.pdf")
	eq(t, "signed", r.Document["signed"], true)
	eq(t, "revisions", r.Document["revisions"], float64(2))
	sc := must(t, r, "signature-coverage")
	sigs, _ := sc.Evidence["signatures"].([]any)
	if len(sigs) != 1 {
		t.Fatalf("signatures %v", sc.Evidence)
	}
	sig, _ := sigs[0].(map[string]any)
	eq(t, "reason", sig["reason"], "Statement issued")
	if _, ok := sig["signingTime"]; !ok {
		t.Errorf("no signing time: %v", sig)
	}
}

// TestDamagedReported: files other readers open despite junk before the
// header or a missing header are reported with structure-warnings; before,
// the sniffer refused the first two as not a PDF.
func TestDamagedReported(t *testing.T) {
	for _, tc := range []struct {
		name string
		code string
	}{
		{"mail-wrapped.pdf", "leading-junk"},
		{"header-replaced-trailing-junk.pdf", "header-missing"},
		{"junk-prepended.pdf", "leading-junk"},
		{"header-removed.pdf", "header-missing"},
		{"junk-prepended-aes-128.pdf", "leading-junk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := cryptFixture(t, tc.name)
			eq(t, "producer", r.Document["producer"], "ReportLab PDF Library - www.reportlab.com")
			eq(t, "pages", r.Document["pages"], float64(1))
			sw := must(t, r, "structure-warnings")
			codes, _ := sw.Evidence["codes"].([]any)
			if !slices.Contains(codes, any(tc.code)) {
				t.Errorf("codes %v", codes)
			}
		})
	}
	data, err := os.ReadFile(filepath.Join("file", "testdata", "crypt", "junk-truncated.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if s := sniff.Sniff(data); s.Format != sniff.Unknown {
		t.Errorf("junk-truncated.pdf (qpdf and pdfinfo refuse it) sniffed as %q", s.Format)
	}
}
