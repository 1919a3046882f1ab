package sniff

import (
	"bytes"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fuzzCorpusSeeds picks the first corpus file of each extension per
// category, capped to its first 64 KB.
func fuzzCorpusSeeds(f *testing.F) [][]byte {
	dir, ok := corpusPath()
	if !ok {
		return nil // no corpus: fixtures only
	}
	seen := map[string]bool{}
	var seeds [][]byte
	for _, rel := range corpusFiles(f, dir) {
		category, _, _ := strings.Cut(rel, "/")
		key := category + path.Ext(rel)
		if seen[key] {
			continue
		}
		seen[key] = true
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			f.Fatal(err)
		}
		seeds = append(seeds, b[:min(len(b), 64<<10)])
	}
	return seeds
}

func FuzzSniff(f *testing.F) {
	for _, tc := range sniffCases(f) {
		if len(tc.in) <= 256<<10 { // keep the seed corpus quick to replay
			f.Add(tc.in)
		}
	}
	for _, s := range fuzzCorpusSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		in := slices.Clone(b)
		r := Sniff(b)
		if !bytes.Equal(in, b) {
			t.Fatal("Sniff modified its input")
		}
		if again := Sniff(b); again != r {
			t.Fatalf("not deterministic: %+v then %+v", r, again)
		}
		want, known := wantKind[r.Format]
		if !known {
			t.Fatalf("Sniff returned undeclared format %q", r.Format)
		}
		if r.Format.Kind() != want {
			t.Fatalf("%q.Kind() = %q, want %q", r.Format, r.Format.Kind(), want)
		}
		if (r.Format == Unknown) != (r.Format.Kind() == KindNone) {
			t.Fatalf("%q: Unknown and KindNone disagree", r.Format)
		}
		if r.Format.Walked() && r.Format.Kind() == KindNone {
			t.Fatalf("%q walked without a kind", r.Format)
		}
		if r.Format != PDF {
			if r.HeaderOffset != 0 || r.Version != "" {
				t.Fatalf("non-PDF result carries PDF fields: %+v", r)
			}
			return
		}
		switch {
		case r.HeaderOffset == -1:
			if bytes.Contains(b[:min(len(b), pdfHeaderWindow+3)], []byte("%PDF")) {
				t.Fatalf("header-less result but %%PDF in the first KB: %+v", r)
			}
			if r.Version != "" {
				t.Fatalf("header-less result with a version: %+v", r)
			}
		case r.HeaderOffset >= 0 && r.HeaderOffset < len(b):
			if !bytes.HasPrefix(b[r.HeaderOffset:], []byte("%PDF")) {
				t.Fatalf("HeaderOffset %d does not point at %%PDF", r.HeaderOffset)
			}
			if r.HeaderOffset < pdfHeaderWindow && bytes.Contains(b[:r.HeaderOffset], []byte("%PDF")) {
				t.Fatalf("HeaderOffset %d is not the first %%PDF", r.HeaderOffset)
			}
			if r.HeaderOffset >= pdfHeaderWindow && bytes.Contains(b[:pdfHeaderWindow+3], []byte("%PDF")) {
				t.Fatalf("late HeaderOffset %d with %%PDF in the first KB", r.HeaderOffset)
			}
			if r.Version != "" {
				v := r.Version
				if len(v) != 3 || !isDigit(v[0]) || v[1] != '.' || !isDigit(v[2]) ||
					!bytes.HasPrefix(b[r.HeaderOffset:], []byte("%PDF-"+v)) {
					t.Fatalf("bad version %q for header %q", v, b[r.HeaderOffset:min(len(b), r.HeaderOffset+10)])
				}
			}
		default:
			t.Fatalf("HeaderOffset out of range: %+v", r)
		}
	})
}
