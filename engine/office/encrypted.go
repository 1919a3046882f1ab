package office

import (
	"context"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// EncryptedFormat is the office block's format for a password-protected
// package: the encrypted stream hides whether it is a docx, xlsx or pptx.
const EncryptedFormat = "ooxml-encrypted"

// AnalyzeEncryptedPackage reports an encrypted OOXML package. When Excel's
// built-in default password opens it, the package is decrypted in memory
// and analysed like any other, the structure signal saying so; otherwise it
// is AnalyzeEncrypted's report. It returns ErrDeadline only when ctx ends.
func AnalyzeEncryptedPackage(ctx context.Context, data []byte, opt Options) (*report.Report, error) {
	plain := decryptDefault(data, opt.Budget)
	format := sniff.Sniff(plain).Format
	if plain == nil || format.Kind() != sniff.KindOffice || !format.Walked() {
		return AnalyzeEncrypted(data), nil
	}
	r, err := Analyze(ctx, plain, format, opt)
	if err != nil {
		return nil, err
	}
	r.Document.Encrypted = true
	r.Document.SizeBytes = int64(len(data))
	for i := range r.Signals {
		s := &r.Signals[i]
		if s.ID != string(report.FamilyOfficeStructureAnomalies) {
			continue
		}
		s.Evidence["defaultPassword"] = true
		// The blind-spot disclosure stays the last note.
		n := len(s.Notes)
		s.Notes = append(append(s.Notes[:n-1:n-1], report.Msg("office-structure-anomalies.default-password")), s.Notes[n-1])
	}
	// The size is the upload's; the decrypted package counts as expanded.
	r.Summary.Cost.ExpandedBytes += int64(len(plain))
	r.Finish()
	return r, nil
}

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
		if f.Media == report.MediaOffice && f.ID != report.FamilyOfficeStructureAnomalies {
			skipped++
		}
	}
	r.Add(report.Finding{
		Family:   report.FamilyStructureWarnings,
		Severity: report.Low,
		Message:  report.Msg("structure-warnings.encrypted-content-not-analysed", "skipped", skipped),
		Evidence: map[string]any{"code": "encrypted-content-not-analysed", "codes": []string{"encrypted-content-not-analysed"}, "skippedFamilies": skipped},
	})
	r.Add(report.Finding{
		Family:   report.FamilyOfficeStructureAnomalies,
		Severity: report.Info,
		Message:  report.Msg("office-structure-anomalies.encrypted-package", "format", report.Kind("Office Open XML")),
		Notes:    []report.Message{report.Msg("office-structure-anomalies.blind-spot")},
		Evidence: map[string]any{"code": "encrypted-package", "anomalies": []string{"encrypted-package"}},
	})
	r.Finish()
	return r
}
