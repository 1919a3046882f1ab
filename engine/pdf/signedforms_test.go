package pdf_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/report"
)

// TestSignedFormFixtures (issue 34, item 4): a form entry changed after an
// approval signature that permits nothing is medium and named; changes a
// certification (P=2) or a field lock leaves free, and a blank filled in
// by the next party, stay quiet; an
// annotation added after signing over signed text is medium with its box,
// one in the empty margin is quiet.
func TestSignedFormFixtures(t *testing.T) {
	read := func(name string) *jsonReport {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "detection", "signedforms", name))
		if err != nil {
			t.Fatal(err)
		}
		return analyze(t, data, full)
	}
	t.Run("fill after approval", func(t *testing.T) {
		s := must(t, read("forged-fill-after-approval.pdf"), "signature-permissions")
		expect(t, s, report.Medium, "signature-permissions.unpermitted-fill")
		fills, _ := s.Evidence["unpermittedFills"].([]any)
		if len(fills) != 1 {
			t.Fatalf("unpermittedFills %v", s.Evidence["unpermittedFills"])
		}
		if f, _ := fills[0].(map[string]any); f["field"] != "amount" || num(t, f["revision"]) != 3 {
			t.Fatalf("fill %v", fills[0])
		}
	})
	for _, name := range []string{"genuine-fill-certified-p2.pdf", "genuine-fill-unlocked-field.pdf", "genuine-approval-signed.pdf", "genuine-blank-filled-after-approval.pdf"} {
		t.Run(name, func(t *testing.T) {
			if s := read(name).signal("signature-permissions"); s != nil && slices.Contains(codesOf(s), "signature-permissions.unpermitted-fill") {
				t.Fatalf("%s %v %v", s.Severity, codesOf(s), s.Evidence)
			}
		})
	}
	t.Run("stamp over signed total", func(t *testing.T) {
		s := must(t, read("forged-stamp-over-signed.pdf"), "annotation-overlays")
		if s.Severity != string(report.Medium) || !slices.Contains(codesOf(s), "annotation-overlays.after-signing") {
			t.Fatalf("%s %v", s.Severity, codesOf(s))
		}
		boxes, _ := s.Evidence["boxes"].([]any)
		if len(boxes) != 1 || num(t, s.Evidence["afterSigning"]) != 1 || num(t, s.Evidence["signedRevision"]) != 2 {
			t.Fatalf("evidence %v", s.Evidence)
		}
	})
	t.Run("box in the margin", func(t *testing.T) {
		absent(t, read("genuine-note-in-margin.pdf"), "annotation-overlays")
	})
}

// TestStampOverSignedImage: a stamp added after signing over a signed
// page image (a scanned page, no text) is after-signing; the same stamp
// beside the page is not.
func TestStampOverSignedImage(t *testing.T) {
	b := pdftest.ImagePage()
	b.Set(sigField, "<< /FT /Sig /T (Signature1) /V 7 0 R /Type /Annot /Subtype /Widget /Rect [0 0 0 0] /P 3 0 R /F 132 >>")
	b.Set(sigValue, pdftest.SigDict("Sig", "adbe.pkcs7.detached", 64, "/M (D:20250101120000Z)"))
	b.Set(pdftest.PageObj, pdftest.ImagePageDict("/Annots [6 0 R]"))
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict("/AcroForm << /Fields [6 0 R] /SigFlags 3 >>"))
	base := pdftest.Seal(b.Bytes())
	stamp := func(rect string) []byte {
		return appendRevision(base, signOpts{}, func(u *pdftest.Builder, _ signOpts) {
			n := u.Add("<< /Type /Annot /Subtype /Stamp /Rect " + rect + " >>")
			u.Set(pdftest.PageObj, pdftest.ImagePageDict(fmt.Sprintf("/Annots [6 0 R %d 0 R]", n)))
		})
	}
	s := must(t, analyze(t, stamp("[100 100 300 200]"), full), "annotation-overlays")
	expect(t, s, report.Medium, "annotation-overlays.after-signing")
	if s := analyze(t, stamp("[700 100 800 200]"), full).signal("annotation-overlays"); s != nil {
		t.Fatalf("stamp off the page: %v", codesOf(s))
	}
}
