// Package corpustest reads ../shared/corpus's MANIFEST.tsv for the tests
// that check the engine against real files: one reader, so every test
// skips alike when the corpus is absent and reads the same columns.
package corpustest

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Row is one corpus file: its category (the top folder), its path relative
// to the corpus, and the facts its source states ("-" for none).
type Row struct {
	Category, File, Expected string
}

// Manifest reads dir/MANIFEST.tsv. The test is skipped when dir is absent
// and fails when dir holds no readable manifest.
func Manifest(t testing.TB, dir string) []Row {
	t.Helper()
	if _, err := os.Stat(dir); err != nil {
		t.Skip("shared corpus not present")
	}
	fh, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatalf("corpus manifest: %v", err)
	}
	defer fh.Close()
	var rows []Row
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for first := true; sc.Scan(); first = false {
		f := strings.Split(sc.Text(), "\t")
		if first || len(f) < 6 {
			continue // the header, or no row
		}
		rows = append(rows, Row{Category: f[0], File: f[1], Expected: f[5]})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("corpus manifest: %v", err)
	}
	return rows
}
