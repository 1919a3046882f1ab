package bench

import (
	"os"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/corpustest"
)

func TestListFiles(t *testing.T) {
	root := "../../../../shared/corpus"
	if _, err := os.Stat(root); err != nil {
		corpustest.Skip(t, "../shared/corpus")
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

func TestSpread(t *testing.T) {
	var files []File
	for i := range 10 {
		files = append(files, File{Rel: string(rune('j' - i)), Size: int64(100 - 10*i)})
	}
	got := Spread(files, 4)
	want := []int64{10, 40, 70, 100}
	if len(got) != len(want) {
		t.Fatalf("got %d files", len(got))
	}
	for i := range want {
		if got[i].Size != want[i] {
			t.Errorf("file %d: size %d, want %d", i, got[i].Size, want[i])
		}
	}
	if n := len(Spread(files, 20)); n != 10 {
		t.Errorf("Spread over fewer files gave %d", n)
	}
	if m := MedianSize(files); m.Size != 50 {
		t.Errorf("median size %d", m.Size)
	}
	if f := Nearest(files, 36); f.Size != 40 {
		t.Errorf("nearest to 36: %d", f.Size)
	}
}
