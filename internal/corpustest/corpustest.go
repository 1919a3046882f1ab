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

// Note says why corpus tests skip and where the corpus comes from.
const Note = "../shared/corpus is not beside the repository, so this corpus test skips. " +
	"The corpus is real public files (PDF, Office, images) from other open-source projects' test suites, " +
	"each listed with its source and licence in its MANIFEST.tsv; it is never copied into the repository. " +
	"CI provides it (and fails without it, CI=true); locally, place it at ../shared/corpus to run these tests."

// Root is ../shared/corpus beside the repository (the folder holding
// go.mod), found from the test's working directory.
func Root() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "..", "shared", "corpus")
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// Require skips the test with Note when path (a corpus file or folder) is
// absent, or fails it under CI=true, where the corpus must be present.
func Require(t testing.TB, path string) {
	t.Helper()
	if _, err := os.Stat(path); err == nil {
		return
	}
	Skip(t, path)
}

// Skip stops a test whose corpus file could not be read: skipped with
// Note, or failed under CI=true.
func Skip(t testing.TB, path string) {
	t.Helper()
	if os.Getenv("CI") == "true" {
		t.Fatalf("CI requires the corpus, and %s is missing: %s", path, Note)
	}
	t.Skip(Note)
}

// Manifest reads dir/MANIFEST.tsv. The test is skipped (failed under CI)
// when dir is absent and fails when dir holds no readable manifest.
func Manifest(t testing.TB, dir string) []Row {
	t.Helper()
	Require(t, dir)
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
