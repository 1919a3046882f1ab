package engine_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine"
)

// FuzzInspect: the one door never panics, answers with a report or one of
// its two errors, and every report marshals with an in-range score.
func FuzzInspect(f *testing.F) {
	dir := "../../shared/corpus"
	for _, sub := range []string{"pdf-hostile/qpdf", "pdf-hostile/pdfjs", "pdf-signed/pyhanko", "image/exiftool", "office"} {
		filepath.WalkDir(filepath.Join(dir, sub), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || strings.Count(p, "/") > 8 {
				return nil
			}
			if b, err := os.ReadFile(p); err == nil && len(b) < 256<<10 {
				f.Add(b)
			}
			return nil
		})
	}
	f.Add([]byte("%PDF-1.7\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := engine.Inspect(context.Background(), data, engine.Options{Budget: 8 << 20})
		if err != nil {
			if !errors.Is(err, engine.ErrUnreadable) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if r.Summary.RiskScore < 0 || r.Summary.RiskScore > 100 {
			t.Fatalf("score %d", r.Summary.RiskScore)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
	})
}
