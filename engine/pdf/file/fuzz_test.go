package file

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/filters"
)

// seedCorpus adds the first 64 KB of a spread of corpus files.
func seedCorpus(f *testing.F) {
	dir := "../../../../shared/corpus"
	for _, sub := range []string{"pdf-hostile/qpdf", "pdf-hostile/pyhanko", "pdf-incremental/pyhanko", "pdf-general/pyhanko"} {
		entries, _ := os.ReadDir(filepath.Join(dir, sub))
		for i, e := range entries {
			if i >= 12 || e.IsDir() {
				continue
			}
			b, err := os.ReadFile(filepath.Join(dir, sub, e.Name()))
			if err == nil {
				f.Add(b[:min(len(b), 64<<10)])
			}
		}
	}
	f.Add([]byte("%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\nxref\n0 2\n0000000000 65535 f \n0000000009 00000 n \ntrailer<</Root 1 0 R/Prev 9>>\nstartxref\n41\n%%EOF"))
}

// FuzzOpen: opening any bytes never panics; every object of the newest view
// can be loaded; revisions are ordered and inside the file.
func FuzzOpen(f *testing.F) {
	seedCorpus(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, err := Open(context.Background(), data, 0, filters.NewBudget(4<<20))
		if err != nil {
			t.Fatal(err)
		}
		prevEnd := 0
		for _, r := range fl.Revisions {
			if r.End < prevEnd || r.End > len(data) {
				t.Fatalf("revision %d ends at %d (previous %d, size %d)", r.Number, r.End, prevEnd, len(data))
			}
			prevEnd = r.End
		}
		for i, e := range fl.Entries() {
			if i > 2000 {
				break
			}
			fl.Load(e, 0)
		}
		fl.Resolve(fl.Trailer().Get("Root"))
	})
}
