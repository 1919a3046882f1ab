package file

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
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

// seedCrypt adds the encrypted and damaged fixtures (scripts/fixtures/crypt).
func seedCrypt(f *testing.F) {
	entries, _ := os.ReadDir(filepath.Join("testdata", "crypt"))
	for _, e := range entries {
		if b, err := os.ReadFile(filepath.Join("testdata", "crypt", e.Name())); err == nil {
			f.Add(b)
		}
	}
}

// FuzzDecrypt: an encrypted file, however its /Encrypt dictionary, crypt
// filters, strings and streams are mangled, opens without a panic, and
// every object and stream of it can be read.
func FuzzDecrypt(f *testing.F) {
	seedCrypt(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, err := Open(context.Background(), data, bytes.Index(data, []byte("%PDF")), filters.NewBudget(4<<20))
		if err != nil {
			t.Fatal(err)
		}
		if fl.Opened() && (fl.Security == nil || !fl.Security.Opened || !fl.Encrypted) {
			t.Fatalf("opened without security %+v", fl.Security)
		}
		for i, e := range fl.Entries() {
			if i > 2000 {
				break
			}
			if st, ok := fl.Load(e, 0).(*cos.Stream); ok {
				filters.Decode(st.Raw(fl.Data), st.Dict, fl.Resolve, fl.Budget)
			}
		}
	})
}

// FuzzHeaderless: a body without a header (header -1), as the sniffer hands
// over junk-prefixed and header-less files, is recovered without a panic.
func FuzzHeaderless(f *testing.F) {
	seedCrypt(f)
	f.Add([]byte("Statement attached\r\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		fl, err := Open(context.Background(), data, -1, filters.NewBudget(4<<20))
		if err != nil {
			t.Fatal(err)
		}
		if !fl.Warn.HeaderMissing {
			t.Fatal("header-less open without the warning")
		}
		fl.Resolve(fl.Trailer().Get("Root"))
	})
}
