package pdf_test

import (
	"context"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// TestRevisionLengths: the document block says where each revision ends,
// so the first n bytes of the file are that revision as it was saved;
// bytes after the last %%EOF belong to no revision, and a file read by
// rebuilding its cross-reference is one revision, the whole file.
func TestRevisionLengths(t *testing.T) {
	first := pdftest.OnePage("Total 13,339.86").Bytes()
	u := pdftest.Update(first)
	u.Stream(pdftest.ContentObj, "<< >>", []byte("BT /F1 12 Tf 72 720 Td (Total 99,339.86) Tj ET"))
	second := u.Bytes()
	lengths := func(data []byte) []int64 {
		t.Helper()
		r, err := pdf.Analyze(context.Background(), data, 0, full)
		if err != nil {
			t.Fatal(err)
		}
		return r.Document.RevisionLengths
	}
	for _, c := range []struct {
		name string
		data []byte
		want []int64
	}{
		{"one save", first, []int64{int64(len(first))}},
		{"an appended revision", second, []int64{int64(len(first)), int64(len(second))}},
		{"bytes after the last %%EOF", append(slices.Clip(second), "junk"...), []int64{int64(len(first)), int64(len(second))}},
		{"rebuilt cross-reference", append([]byte("%PDF-1.4\n"), first[20:]...), []int64{int64(len(first) - 11)}},
	} {
		if got := lengths(c.data); !slices.Equal(got, c.want) {
			t.Errorf("%s: revisionLengths %v, want %v", c.name, got, c.want)
		}
	}
	// The prefix at the first length is the original save, byte for byte.
	if got := lengths(second); string(second[:got[0]]) != string(first) {
		t.Error("the first revision's prefix is not the original file")
	}
}
