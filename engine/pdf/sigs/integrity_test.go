package sigs_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/report"
)

// signedFixtures is where scripts/fixtures/sigs writes its files.
const signedFixtures = "../../testdata/detection/signed"

// TestIntegrityOfSignedFixtures: every genuine signed fixture (Go's
// crypto, scripts/fixtures/sigs; pyHanko, pyhanko_sign.py), and every
// one whose change lies in the /Contents padding no range covers, is
// verified and intact; every same-length edit of a covered range is a
// digest mismatch and every changed signed attribute or swapped
// certificate an invalid signature, high, naming the revision; the notices
// say what they are about.
func TestIntegrityOfSignedFixtures(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(signedFixtures, "*.pdf"))
	pyhanko, _ := filepath.Glob(filepath.Join(signedFixtures+"-pyhanko", "*.pdf"))
	files = append(files, pyhanko...)
	if len(files) < 50 {
		t.Fatalf("%d signed fixtures, want the scripts/fixtures/sigs set", len(files))
	}
	for _, path := range files {
		name := filepath.Base(path)
		t.Run(name, func(t *testing.T) {
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			fd := open(t, data).SignatureCoverage()
			if fd == nil {
				t.Fatal("no signature-coverage finding")
			}
			sigs, _ := fd.Evidence["signatures"].([]map[string]any)
			verdicts := map[string]int{}
			for _, s := range sigs {
				v, _ := s["integrity"].(string)
				verdicts[v]++
			}
			code := fd.Message.Code
			switch {
			case strings.HasPrefix(name, "genuine-"), strings.HasPrefix(name, "padding-"):
				if code != "signature-coverage.intact" || fd.Severity != report.Info || verdicts["verified"] != len(sigs) {
					t.Errorf("%s %s, verdicts %v: want intact and every signature verified", fd.Severity, code, verdicts)
				}
				if !strings.Contains(report.Render(fd.Message), "not validated against any trust list") {
					t.Errorf("intact text does not say what was not checked: %s", report.Render(fd.Message))
				}
			case name == "forged-rsa-timestamp-from-elsewhere.pdf":
				// The signature holds; the timestamp it carries stamps
				// other bytes.
				expect(t, fd, report.Medium, "signature-coverage.timestamp-integrity-broken")
				if verdicts["verified"] != 1 || sigs[0]["timestampIntegrity"] != "digest-mismatch" {
					t.Errorf("verdicts %v, timestamp %v", verdicts, sigs[0]["timestampIntegrity"])
				}
			case strings.HasPrefix(name, "forged-"):
				want := "digest-mismatch"
				if strings.Contains(name, "signed-attribute") || strings.Contains(name, "swapped-certificate") {
					want = "signature-invalid"
				}
				if code != "signature-coverage.integrity-broken" || fd.Severity != report.High || verdicts[want] == 0 {
					t.Errorf("%s %s, verdicts %v: want high integrity-broken with %s", fd.Severity, code, verdicts, want)
				}
				if f, _ := fd.Message.Params["failures"].(string); !strings.Contains(f, "revision ") || !strings.Contains(f, want) {
					t.Errorf("failures %q name no revision or verdict", f)
				}
			case name == "notice-expired-certificate.pdf":
				expect(t, fd, report.Medium, "signature-coverage.certificate-not-valid-at-signing")
				if s := sigs[0]["signer"].(map[string]any); s["validAtSigningTime"] != false || s["subjectCN"] != "Fixture Expired Signer" || s["selfSigned"] != true || s["keyType"] != "rsa" || s["keyBits"] != 2048 {
					t.Errorf("signer facts %v", s)
				}
			case name == "notice-sha1-digest-2024.pdf":
				expect(t, fd, report.Low, "signature-coverage.weak-digest")
			case name == "notice-no-certificate.pdf":
				expect(t, fd, report.Low, "signature-coverage.integrity-unchecked")
				if verdicts["unreadable"] != 1 || sigs[0]["integrityReason"] != "signer-certificate-not-embedded" {
					t.Errorf("verdicts %v, reason %v", verdicts, sigs[0]["integrityReason"])
				}
			case name == "notice-unsupported-digest.pdf":
				expect(t, fd, report.Low, "signature-coverage.integrity-unchecked")
				if verdicts["unsupported-algorithm"] != 1 || sigs[0]["integrityReason"] != "digest-algorithm" {
					t.Errorf("verdicts %v, reason %v", verdicts, sigs[0]["integrityReason"])
				}
			default:
				t.Fatalf("fixture %s has no expectation", name)
			}
		})
	}
}

func expect(t *testing.T, fd *report.Finding, sev report.Severity, code string) {
	t.Helper()
	if fd.Severity != sev || fd.Message.Code != code {
		t.Errorf("%s %s, want %s %s", fd.Severity, fd.Message.Code, sev, code)
	}
}

// TestIntegrityBudget: beyond the first 64 signatures of a document none
// is hashed; each is unreadable for the check budget, and says so.
func TestIntegrityBudget(t *testing.T) {
	const n = 66
	b := pdftest.OnePage("x")
	var fields []string
	for i := 0; i < n; i++ {
		field, value := 10+2*i, 11+2*i
		b.Set(field, fmt.Sprintf("<< /FT /Sig /T (s%d) /V %d 0 R >>", i, value))
		b.Set(value, pdftest.SigDict("Sig", "adbe.pkcs7.detached", 16, ""))
		fields = append(fields, fmt.Sprintf("%d 0 R", field))
	}
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict("/AcroForm << /Fields ["+strings.Join(fields, " ")+"] >>"))
	fd := open(t, pdftest.Seal(b.Bytes())).SignatureCoverage()
	if fd == nil || fd.Evidence["signatureCount"] != n {
		t.Fatalf("finding %+v", fd)
	}
	facts := open(t, pdftest.Seal(b.Bytes())).SignatureFacts()
	budget := 0
	for _, f := range facts {
		if f.Integrity == "unreadable" && f.IntegrityReason == "check-budget" {
			budget++
		}
	}
	if len(facts) != n || budget != n-64 {
		t.Errorf("%d signatures, %d beyond the budget; want %d and %d", len(facts), budget, n, n-64)
	}
}
