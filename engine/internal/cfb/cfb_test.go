package cfb

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzOpen drives the header, FAT, mini FAT and directory walks and every
// stream read: no panic, reads within the budget, entries within the cap.
func FuzzOpen(f *testing.F) {
	filepath.WalkDir("../../../../shared/corpus/office", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, err := os.ReadFile(p); err == nil && Is(b) && len(b) < 32<<10 {
				f.Add(b)
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		c := Open(data, 1<<20)
		if c == nil {
			return
		}
		if len(c.Entries) > MaxEntries {
			t.Fatalf("%d entries", len(c.Entries))
		}
		total := 0
		for _, e := range c.Streams() {
			total += len(c.Read(e, 1<<20))
		}
		if total > 1<<20 {
			t.Fatalf("read %d bytes past the budget", total)
		}
		_ = c.Anomalies()
	})
}

func TestOpenCorpus(t *testing.T) {
	dir := "../../../../shared/corpus/office"
	if _, err := os.Stat(dir); err != nil {
		t.Skip("shared corpus not present")
	}
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, _ := os.ReadFile(p)
		if !Is(b) {
			return nil
		}
		n++
		c := Open(b, 1<<30)
		if c == nil || len(c.Streams()) == 0 {
			t.Errorf("%s: no streams", p)
			return nil
		}
		if an := c.Anomalies(); len(an) > 0 {
			t.Errorf("%s: anomalies %v on a genuine file", p, an)
		}
		for _, e := range c.Streams() {
			if got := c.Read(e, 1<<30); int64(len(got)) != e.Size {
				t.Errorf("%s: %q read %d of %d bytes", p, e.Path, len(got), e.Size)
			}
		}
		return nil
	})
	if n < 20 {
		t.Fatalf("only %d compound files", n)
	}
}

// TestShortFiles: a header declaring 4096-byte sectors in a file shorter
// than one sector, and files cut anywhere, open without a panic.
func TestShortFiles(t *testing.T) {
	for _, shift := range []byte{9, 12} {
		for n := 0; n < 9000; n += 97 {
			b := make([]byte, n)
			copy(b, Magic)
			if n > 0x1E {
				b[0x1E] = shift
			}
			if c := Open(b, 1<<20); c != nil {
				for _, e := range c.Streams() {
					c.Read(e, 1<<20)
				}
			}
		}
	}
}
