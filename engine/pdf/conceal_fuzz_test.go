package pdf

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// FuzzConcealment: any mutation of the concealment fixtures (optional
// content configurations, annotation appearances, Type 3 glyph procedures,
// remapping fonts) runs every family without a contained fault.
func FuzzConcealment(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "detection", "conceal", "*.pdf"))
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Analyze(context.Background(), data, 0, Options{})
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
