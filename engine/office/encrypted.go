package office

import (
	"github.com/doctrust/doctrust/engine/report"
)

// EncryptedFormat is the office block's format for a password-protected
// package: the encrypted stream hides whether it is a docx, xlsx or pptx.
const EncryptedFormat = "ooxml-encrypted"

// AnalyzeEncrypted reports a password-protected Office package (a compound
// file holding an EncryptedPackage stream) the way an encrypted PDF is
// reported: structure-warnings says the content was not analysed, and the
// always-present office-structure-anomalies signal carries the blind-spot
// note. Nothing inside the encrypted stream is read.
func AnalyzeEncrypted(data []byte) *report.Report {
	r := report.New(report.MediaOffice, int64(len(data)))
	r.Document.Encrypted = true
	r.Office = &report.OfficeBlock{Format: EncryptedFormat}
	skipped := 0
	for _, f := range report.Families() {
		if f.Media == report.MediaOffice && f.ID != "office-structure-anomalies" {
			skipped++
		}
	}
	r.Add(report.Finding{
		Family:   "structure-warnings",
		Severity: report.Low,
		Message:  report.Msg("structure-warnings.encrypted-content-not-analysed", "skipped", skipped),
		Evidence: map[string]any{"code": "encrypted-content-not-analysed", "codes": []string{"encrypted-content-not-analysed"}, "skippedFamilies": skipped},
	})
	r.Add(report.Finding{
		Family:   "office-structure-anomalies",
		Severity: report.Info,
		Message:  report.Msg("office-structure-anomalies.encrypted-package", "format", report.Kind("Office Open XML")),
		Notes:    []report.Message{report.Msg("office-structure-anomalies.blind-spot")},
		Evidence: map[string]any{"code": "encrypted-package", "anomalies": []string{"encrypted-package"}},
	})
	r.Finish()
	return r
}
