package pdf_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
)

// TestConcealmentFixtures (issue 34, item 1): every concealment technique
// of scripts/fixtures/conceal/make.py is reported by hidden-text under its
// code, with boxes (and the page edge for text off the page), and its
// instructions reach the injection scan; each clean twin is quiet. The
// OCR layers (opacity 0 over a scan, invisible text over a scanned
// figure) stay info and say so.
func TestConcealmentFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "detection", "conceal")
	cases := []struct {
		fixture, code string
		evidence      string // a key the evidence must hold
	}{
		{"outside-page", "outside-page", "outsideEdges"},
		{"clipped", "clipped", "clippedRuns"},
		{"optional-content-off", "optional-content-off", "optionalContentOffRuns"},
		{"optional-content-view-off", "optional-content-off", "optionalContentOffRuns"},
		{"optional-content-form", "optional-content-off", "optionalContentOffRuns"},
		{"hidden-annotation", "hidden-annotation", "annotations"},
		{"field-appearance", "background-colour", "annotations"},
		{"squeezed-tz", "squeezed", "squeezedRuns"},
		{"squeezed-cm", "squeezed", "squeezedRuns"},
		{"rotated", "rotated", "rotatedRuns"},
		{"remapped", "remapped", "remappedRuns"},
		{"type3-empty", "remapped", "remappedRuns"},
		{"empty-outlines", "remapped", "remappedRuns"},
		{"covered", "covered", "coveredRuns"},
		{"covered-form", "covered", "coveredRuns"},
	}
	read := func(t *testing.T, name string) []byte {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return data
	}
	for _, tc := range cases {
		t.Run(tc.fixture, func(t *testing.T) {
			s := must(t, analyze(t, read(t, "forged-"+tc.fixture+".pdf"), full), "hidden-text")
			expect(t, s, report.High, "hidden-text.injection")
			if codes := codesOf(s); !slices.Contains(codes, "hidden-text."+tc.code) {
				t.Fatalf("codes %v, want hidden-text.%s", codes, tc.code)
			}
			for _, k := range []string{tc.evidence, "boxes", "pages", "cueCategories"} {
				if _, ok := s.Evidence[k]; !ok {
					t.Fatalf("evidence has no %s: %v", k, s.Evidence)
				}
			}
			if tc.code == "outside-page" {
				if edges, _ := s.Evidence["outsideEdges"].([]any); len(edges) != 1 || edges[0] != "right" {
					t.Fatalf("outsideEdges %v, want [right]", s.Evidence["outsideEdges"])
				}
			}
			absent(t, analyze(t, read(t, "genuine-"+tc.fixture+".pdf"), full), "hidden-text")
		})
	}
	for _, name := range []string{"genuine-ocr-opacity-zero.pdf", "genuine-ocr-figure.pdf"} {
		t.Run(name, func(t *testing.T) {
			s := must(t, analyze(t, read(t, name), full), "hidden-text")
			expect(t, s, report.Info, "hidden-text.ocr-layer")
			if len(s.Notes) != 0 {
				t.Fatalf("more than the OCR layer: %v", codesOf(s))
			}
			if num(t, s.Evidence["ocrRuns"]) < 1 {
				t.Fatalf("ocrRuns %v", s.Evidence["ocrRuns"])
			}
		})
	}
}
