package office

import (
	"context"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/inject"
)

// TestCorpusMetadataQuiet: no docProps value, custom property name, comment
// or hidden run of any corpus Office file holds a cue. These are the corpus
// negatives counted in docs/families.md.
func TestCorpusMetadataQuiet(t *testing.T) {
	names, data, formats := corpusOffice(t)
	texts := map[string]bool{}
	kinds := map[string]int{}
	for i, name := range names {
		a := &analysis{ctx: context.Background(), format: formats[i]}
		a.pkg = OpenPackage(data[i], 0)
		a.walk()
		for _, c := range a.injectionCarriers() {
			if strings.TrimSpace(c.Text) == "" {
				continue
			}
			kinds[string(c.Kind)]++
			texts[c.Text] = true
			if r := inject.Scan(c.Text); r.Found() {
				t.Errorf("%s: %s %q fired %v", name, c.Name, c.Text, r.Cues)
			}
		}
	}
	t.Logf("%d files, %d distinct carrier values, by kind %v", len(names), len(texts), kinds)
}
