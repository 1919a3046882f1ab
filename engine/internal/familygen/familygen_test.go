package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGeneratedUpToDate fails while a generated file lags the family
// declarations of engine/pdf: a declaration changed without go generate.
func TestGeneratedUpToDate(t *testing.T) {
	out, n, err := run("../../report")
	if err != nil {
		t.Fatal(err)
	}
	if n < 33 {
		t.Fatalf("%d declarations read: expected every PDF, Office and image family", n)
	}
	if len(out) != 4 {
		t.Fatalf("%d files generated: expected the report file and three run lists", len(out))
	}
	for name, want := range out {
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./engine/report", name)
		}
	}
}

// TestRefusesBadDeclarations: what the generator cannot derive a sound
// catalogue from stops it with the place to fix.
func TestRefusesBadDeclarations(t *testing.T) {
	const ok = `{Code: "a", Severity: report.Low, Title: "A", Text: "An a."}`
	cases := map[string]struct{ src, want string }{
		"no id":          {`var aFamily = declaration{Order: 10, Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}`, "needs an id"},
		"no order":       {`var aFamily = declaration{ID: "a", Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}`, "positive order"},
		"no variant":     {`var aFamily = declaration{ID: "a", Order: 10, Summary: "S."}`, "declares no variant"},
		"computed id":    {`var aFamily = declaration{ID: name, Order: 10, Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}`, "want a string constant"},
		"unknown field":  {`var aFamily = declaration{ID: "a", Order: 10, Summary: "S.", Colour: "red", Variants: []report.VariantDecl{` + ok + `}}`, "does not know the field Colour"},
		"untitled":       {`var aFamily = declaration{ID: "a", Order: 10, Summary: "S.", Variants: []report.VariantDecl{{Code: "a", Severity: report.Low, Text: "An a."}}}`, "no title"},
		"titled note":    {`var aFamily = declaration{ID: "a", Order: 10, Summary: "S.", Variants: []report.VariantDecl{{Code: "a", Title: "A", Text: "An a."}}}`, "a note has neither"},
		"same order":     {`var aFamily = declaration{ID: "a", Order: 10, Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}` + "\n" + `var bFamily = declaration{ID: "b", Order: 10, Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}`, "order 10 is also"},
		"same id":        {`var aFamily = declaration{ID: "a", Order: 10, Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}` + "\n" + `var bFamily = declaration{ID: "a", Order: 20, Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}`, "declared twice"},
		"no declaration": {`var x = 1`, "no family declarations"},
		"upTo not above": {`var aFamily = declaration{ID: "a", Order: 10, Summary: "S.", Variants: []report.VariantDecl{{Code: "a", Severity: report.Low, UpTo: report.Low, Title: "A", Text: "An a."}}}`, "is not above"},
		"not a severity": {`var aFamily = declaration{ID: "a", Order: 10, Summary: "S.", Variants: []report.VariantDecl{{Code: "a", Severity: report.Loud, Title: "A", Text: "An a."}}}`, "not a severity"},
		"run in one":     {`var aFamily = declaration{ID: "a", Order: 10, Run: f, Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}` + "\n" + `var bFamily = declaration{ID: "b", Order: 20, Summary: "S.", Variants: []report.VariantDecl{` + ok + `}}`, "either every family"},
	}
	for name, c := range cases {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "f.go"), []byte("package pdf\n\n"+c.src+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := readDeclarations(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error containing %q", name, err, c.want)
		}
	}
}

func TestConstName(t *testing.T) {
	for id, want := range map[string]string{"hidden-text": "FamilyHiddenText", "id-inconsistency": "FamilyIdInconsistency", "page-geometry": "FamilyPageGeometry"} {
		if got := constName(id); got != want {
			t.Errorf("constName(%q) = %s, want %s", id, got, want)
		}
	}
}
