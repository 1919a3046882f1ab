package pdf_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf"
)

// FuzzDrawingDocument: the document-page measure behind
// producer-fingerprint.drawing-tool-document (it runs only when a drawing
// tool is named) and the writer mismatch never panic or report a contained
// fault, seeded with Draw's exports: genuine drawings and an imported
// statement (scripts/fixtures/detect2, scripts/fixtures/traces).
func FuzzDrawingDocument(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "testdata", "detection", "detect2", "genuine-draw-*.pdf"))
	seeds = append(seeds, filepath.Join(tracesDir, "forged-draw-edit-lo-statement-1.pdf"),
		filepath.Join(tracesDir, "forged-pikepdf-patch-rl-statement-3.pdf"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := pdf.Analyze(context.Background(), data, 0, pdf.Options{Budget: 4 << 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.Signals {
			if _, fault := s.Evidence["faults"]; fault {
				t.Fatalf("contained fault: %v", s.Evidence)
			}
		}
	})
}
