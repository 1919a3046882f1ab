package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/inject"
)

// TestInjectionCleanMetadata measures the injection cue lexicon on clean
// metadata: every key and value the metadata listing gives for the corpus
// files whose MANIFEST.tsv row notes nothing ("-"), PDF, Office and images
// alike. A cue found there is a false alert on an ordinary document, so the
// test fails on any; the counts are the figures docs/detection.md quotes
// (go test -run TestInjectionCleanMetadata -v ./engine/).
func TestInjectionCleanMetadata(t *testing.T) {
	dir := corpusDir(t)
	values := map[string]string{} // distinct text -> first file holding it
	files := 0
	for _, row := range manifest(t) {
		if row.Expected != "-" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, row.File))
		if err != nil {
			continue
		}
		md, err := engine.Metadata(context.Background(), data, engine.Options{})
		if err != nil || md == nil {
			continue
		}
		files++
		for _, c := range md.Containers {
			for _, e := range c.Entries {
				for _, v := range []string{e.Key, e.Value} {
					if v = strings.TrimSpace(v); v != "" && values[v] == "" {
						values[v] = row.File
					}
				}
			}
		}
	}
	texts := make([]string, 0, len(values))
	for v := range values {
		texts = append(texts, v)
	}
	sort.Strings(texts)
	fired := 0
	for _, v := range texts {
		if r := inject.Scan(v); r.Found() {
			fired++
			t.Errorf("%s: %q fired %v", values[v], v, r.Cues)
		}
	}
	t.Logf("clean metadata: %d files, %d distinct keys and values, %d with a cue", files, len(texts), fired)
}
