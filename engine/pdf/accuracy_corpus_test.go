package pdf_test

import (
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
)

// accuracyCases are real corpus files for issue 25's items: each names the
// family, the severity and code it gives now and, in was, what the engine
// gave before. sev "" means the family is absent or info.
var accuracyCases = []struct {
	item, file, family string
	sev                report.Severity
	code, was          string
}{
	// 1: appended sections that re-list objects unchanged (Word-style hybrid
	// reference files, qpdf's and pdf.js's re-saves) are not content edits.
	{"1", "pdf-general/pyhanko/minimal-hybrid-xref-mswordstyle.pdf", "incremental-updates", report.Low, "incremental-updates.appended", "medium content-touched"},
	{"1", "pdf-general/qpdf/good17.pdf", "incremental-updates", report.Low, "incremental-updates.appended", "medium content-touched: 94 objects re-listed as written"},
	{"1", "pdf-general/pdfjs/annotation-border-styles.pdf", "incremental-updates", report.Low, "incremental-updates.appended", "medium content-touched"},
	{"1", "pdf-signed/esig-dss/validation/timestamped_and_signed.pdf", "incremental-updates", report.Low, "incremental-updates.appended", "medium content-touched"},
	// a page turned by /Rotate, and boxes respelled 0.0 -> 0
	{"1", "pdf-general/pdfcpu/testdata/testRot.pdf", "incremental-updates", report.Low, "incremental-updates.appended", "medium content-touched"},
	{"1", "pdf-incremental/pdfjs/bug1871353.pdf", "incremental-updates", report.Low, "incremental-updates.appended", "medium content-touched"},
	// real content rewrites stay medium
	{"1", "pdf-incremental/pdfjs/issue13325_reduced.pdf", "incremental-updates", report.Medium, "incremental-updates.content-touched", "medium content-touched"},
	// 2: a full-page image corroborates, never high alone.
	{"2", "pdf-general/exiftool/PDF.pdf", "producer-fingerprint", report.Low, "producer-fingerprint.editor-full-page-image", "high"},
	{"2", "pdf-redaction/x-ray/partial_intersections_ok.pdf", "producer-fingerprint", report.Low, "producer-fingerprint.editor-full-page-image", "high"},
	// 3 and 6: a cream frame drawn as outer and inner outlines around pale
	// text on blue; with the frame taken as a box, the pale text would read
	// as hidden in the frame's near colour.
	{"3", "pdf-redaction/x-ray/no_bad_redactions.5.5.pdf", "hidden-text", "", "", "solid frame: background-colour"},
	// 5: a zero-filled placeholder is an unsigned field.
	{"5", "pdf-signed/esig-dss/validation/pdf-with-empty-sig.pdf", "signature-coverage", report.Low, "signature-coverage.placeholder-values", "info intact, document.signed true"},
	// 6: white instructions laid over a footnote, the last run of the page.
	{"6", "pdf-hostile/phantom-lint/bad/fake_snail_paper_single_column-alpha0_text.pdf", "hidden-text", report.High, "hidden-text.injection", "nothing"},
	// 6: instructions under a white box (phantom-lint's obscured text).
	{"6", "pdf-hostile/phantom-lint/bad/fake_snail_paper_two_column-obscured_text.pdf", "content-overlay", report.High, "content-overlay.injection", "low whiteout"},
	// 6: a redaction label printed in the box's colour is not hidden text.
	{"6", "pdf-redaction/x-ray/ok_words.pdf", "hidden-text", "", "", "medium background-colour"},
	// 9: page content changed after a signature is high whatever the type.
	{"9", "pdf-incremental/esig-dss/validation/pdf-signed-added-page.pdf", "signature-coverage", report.High, "signature-coverage.content-after-signing", "medium"},
	{"9", "pdf-incremental/esig-dss/validation/pdf-removed-pages.pdf", "signature-coverage", report.High, "signature-coverage.content-after-signing", "medium"},
	{"9", "pdf-incremental/esig-dss/validation/dss-2236/hide.pdf", "signature-coverage", report.High, "signature-coverage.content-after-signing", "medium"},
	// JavaScript that only formats and sets fields (pdf.js's form tests).
	{"js", "pdf-incremental/pdfjs/bug1811694.pdf", "active-content", report.Low, "active-content.form-scripts", "medium javascript"},
	{"js", "pdf-incremental/pdfjs/listbox_actions.pdf", "active-content", report.Low, "active-content.form-scripts", "medium javascript"},
	{"js", "pdf-general/pdfjs/doc_actions.pdf", "active-content", report.Low, "active-content.form-scripts", "medium javascript"},
	// and JavaScript that builds code with eval, in UTF-16, stays medium
	{"js", "pdf-hostile/pdfjs/issue19633.pdf", "active-content", report.Medium, "active-content.javascript", "medium javascript"},
}

func TestAccuracyCorpus(t *testing.T) {
	dir, rows := pdfCorpus(t)
	present := map[string]bool{}
	for _, r := range rows {
		present[r.File] = true
	}
	for _, tc := range accuracyCases {
		t.Run(tc.item+" "+tc.file, func(t *testing.T) {
			if !present[tc.file] {
				t.Fatalf("%s is not in the manifest", tc.file)
			}
			r, ok := analyzeFile(t, filepath.Join(dir, tc.file))
			if !ok {
				t.Fatal("not a PDF")
			}
			s := r.signal(tc.family)
			if tc.sev == "" {
				if s != nil && s.Severity != string(report.Info) {
					t.Fatalf("%s %s %s, want quiet (was %s)", tc.family, s.Severity, s.Message.Code, tc.was)
				}
				return
			}
			if s == nil {
				t.Fatalf("no %s, want %s %s (was %s)", tc.family, tc.sev, tc.code, tc.was)
			}
			expect(t, s, tc.sev, tc.code)
			if tc.item == "5" && r.Document["signed"] != false {
				t.Fatalf("signed = %v, want false", r.Document["signed"])
			}
			if tc.item == "1" && tc.sev == report.Low {
				for _, ch := range list(t, s.Evidence, "changedPerRevision") {
					if ch["contentTouched"] != false {
						t.Fatalf("revision %v contentTouched", ch["revision"])
					}
				}
			}
		})
	}
}
