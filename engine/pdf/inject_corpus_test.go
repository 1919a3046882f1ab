package pdf

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/inject"
)

// corpusPDFs returns the corpus PDF files, sorted, relative to the corpus.
func corpusPDFs(tb testing.TB) (string, []string) {
	root, _ := filepath.Abs("../../../shared/corpus")
	if _, err := os.Stat(root); err != nil {
		tb.Skip("shared corpus not present")
	}
	var out []string
	for _, cat := range []string{"pdf-general", "pdf-hostile", "pdf-incremental", "pdf-redaction", "pdf-signed"} {
		filepath.WalkDir(filepath.Join(root, cat), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(root, p)
				out = append(out, rel)
			}
			return nil
		})
	}
	sort.Strings(out)
	return root, out
}

// carriersOf reads a PDF's injection carriers the way Analyze does.
func carriersOf(data []byte) []inject.Carrier {
	header := bytes.Index(data, []byte("%PDF"))
	d, err := Open(context.Background(), data, header, DefaultBudget)
	if err != nil {
		return nil
	}
	a := d.reading(Options{}, d.limit)
	var out []inject.Carrier
	a.safe("carriers", func() { out = a.injectionCarriers() })
	return out
}

// corpusInjections are the corpus carriers that do hold an injection: the
// phantom-lint suite hides its prompt in page text, and in this file also
// in a FreeText annotation at the top of the page.
var corpusInjections = map[string]string{
	"pdf-hostile/phantom-lint/bad/fake_snail_paper_single_column-offpage.pdf": "page 1 /FreeText annotation",
}

// TestCorpusMetadataQuiet: no Info value, XMP text node, annotation
// /Contents or attachment name of any corpus PDF holds a cue, but the known
// injection above, which must be found. These are the corpus negatives
// counted in docs/families.md.
func TestCorpusMetadataQuiet(t *testing.T) {
	root, files := corpusPDFs(t)
	texts := map[string]bool{}
	kinds := map[string]int{}
	found := map[string]bool{}
	for _, rel := range files {
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range carriersOf(data) {
			if strings.TrimSpace(c.Text) == "" {
				continue
			}
			kinds[string(c.Kind)]++
			texts[c.Text] = true
			r := inject.Scan(c.Text)
			switch {
			case corpusInjections[rel] == c.Name:
				found[rel] = r.Directive
			case r.Found():
				t.Errorf("%s: %s %q fired %v", rel, c.Name, c.Text, r.Cues)
			}
		}
	}
	for rel := range corpusInjections {
		if !found[rel] {
			t.Errorf("%s: the injection in %s was not found as a directive", rel, corpusInjections[rel])
		}
	}
	t.Logf("%d files, %d distinct carrier values, by kind %v", len(files), len(texts), kinds)
}
