package bench

import (
	"os"
	"strings"
	"testing"
)

func TestListFiles(t *testing.T) {
	root := "../../../../shared/corpus"
	if _, err := os.Stat(root); err != nil {
		t.Skip("corpus not present")
	}
	files, err := ListFiles(root, []string{"pdf-signed", " ", "image"}, func(cat, p string) bool {
		return cat == "image" || IsPDF(cat, p)
	})
	if err != nil {
		t.Fatal(err)
	}
	var pdfs, images int
	for i, f := range files {
		if i > 0 && files[i-1].Rel >= f.Rel {
			t.Fatalf("not sorted at %s", f.Rel)
		}
		switch {
		case f.Category == "pdf-signed" && strings.HasSuffix(strings.ToLower(f.Rel), ".pdf") && f.Size > 0:
			pdfs++
		case f.Category == "image" && strings.HasPrefix(f.Rel, "image/"):
			images++
		default:
			t.Errorf("unexpected %+v", f)
		}
	}
	if pdfs == 0 || images == 0 {
		t.Fatalf("pdfs %d images %d", pdfs, images)
	}
}
