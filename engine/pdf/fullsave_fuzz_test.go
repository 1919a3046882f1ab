package pdf_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf"
)

// FuzzFullSaveTraces: the full-save traces (figure font, text pattern,
// foreign page, opaque annotation appearance) and the writer's habits read
// by Describe never panic or report a contained fault, seeded with the
// small real fixtures of scripts/fixtures/traces.
func FuzzFullSaveTraces(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join(tracesDir, "*.pdf"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil && len(data) < 8<<10 {
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
		if _, err := pdf.Describe(context.Background(), data, 0, pdf.Options{Budget: 4 << 20}); err != nil {
			t.Fatal(err)
		}
	})
}
