package file_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// breakPrev rewrites the n-th (0-based) /Prev of pdf to value, padding with
// spaces so no offset moves.
func breakPrev(t *testing.T, pdf []byte, n int, value string) []byte {
	t.Helper()
	out := bytes.Clone(pdf)
	at := -1
	for i, from := 0, 0; i <= n; i++ {
		j := bytes.Index(out[from:], []byte("/Prev "))
		if j < 0 {
			t.Fatalf("no /Prev %d", n)
		}
		at = from + j
		from = at + 1
	}
	end := at + len("/Prev ")
	for end < len(out) && out[end] >= '0' && out[end] <= '9' {
		end++
	}
	width := end - at - len("/Prev ")
	if len(value) > width {
		t.Fatalf("%q does not fit %d digits", value, width)
	}
	copy(out[at+len("/Prev "):end], value+strings.Repeat(" ", width-len(value)))
	return out
}

func TestBrokenPrevRecoveredFromStartxref(t *testing.T) {
	b := pdftest.OnePage("x")
	one := b.Bytes()
	u := pdftest.Update(one)
	u.Set(6, "<< /Producer (two) >>")
	u.Trailer("/Root 1 0 R /Info 6 0 R")
	two := u.Bytes()
	u = pdftest.Update(two)
	u.Set(6, "<< /Producer (three) >>")
	u.Trailer("/Root 1 0 R /Info 6 0 R")
	three := u.Bytes()

	for name, data := range map[string][]byte{
		"newest /Prev 0":            breakPrev(t, three, 1, "0"),
		"middle /Prev into nowhere": breakPrev(t, three, 0, "7"),
		"both broken":               breakPrev(t, breakPrev(t, three, 1, "0"), 0, "99"),
		"/Prev not a number":        bytes.Replace(three, []byte("/Prev "), []byte("/Prev/"), 1),
	} {
		t.Run(name, func(t *testing.T) {
			f, err := file.Open(context.Background(), data, 0, filters.NewBudget(1<<20))
			if err != nil {
				t.Fatal(err)
			}
			if len(f.Revisions) != 3 || f.Warn.XrefRepaired || f.Warn.XrefLoop {
				t.Fatalf("%d revisions, warnings %+v", len(f.Revisions), f.Warn)
			}
			if f.Warn.EntriesRepaired+f.Warn.Anomalies == 0 {
				t.Fatal("the repaired link is not reported")
			}
			for i, r := range f.Revisions {
				if !r.EOFFound || (i > 0 && r.Start != f.Revisions[i-1].End) {
					t.Fatalf("revision %d spans %d..%d", r.Number, r.Start, r.End)
				}
			}
		})
	}
}
