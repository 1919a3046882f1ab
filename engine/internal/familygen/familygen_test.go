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
	const pdfDir = "../../pdf"
	decls, err := readDeclarations(pdfDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(decls) < 16 {
		t.Fatalf("%d declarations read: expected every PDF family", len(decls))
	}
	out, err := generate(decls)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range out {
		got, err := os.ReadFile(filepath.Join(pdfDir, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./engine/pdf", name)
		}
	}
}

// TestRefusesBadDeclarations: what the generator cannot derive a sound
// catalogue from stops it with the place to fix.
func TestRefusesBadDeclarations(t *testing.T) {
	const ok = `{code: "a", severity: report.Low, title: "A", text: "An a."}`
	cases := map[string]struct{ src, want string }{
		"no id":          {`var aFamily = declaration{order: 10, summary: "S.", variants: []variant{` + ok + `}}`, "needs an id"},
		"no order":       {`var aFamily = declaration{id: "a", summary: "S.", variants: []variant{` + ok + `}}`, "positive order"},
		"no variant":     {`var aFamily = declaration{id: "a", order: 10, summary: "S."}`, "declares no variant"},
		"computed id":    {`var aFamily = declaration{id: name, order: 10, summary: "S.", variants: []variant{` + ok + `}}`, "want a string constant"},
		"unknown field":  {`var aFamily = declaration{id: "a", order: 10, summary: "S.", colour: "red", variants: []variant{` + ok + `}}`, "does not know the field colour"},
		"untitled":       {`var aFamily = declaration{id: "a", order: 10, summary: "S.", variants: []variant{{code: "a", severity: report.Low, text: "An a."}}}`, "no title"},
		"titled note":    {`var aFamily = declaration{id: "a", order: 10, summary: "S.", variants: []variant{{code: "a", title: "A", text: "An a."}}}`, "a note has neither"},
		"same order":     {`var aFamily = declaration{id: "a", order: 10, summary: "S.", variants: []variant{` + ok + `}}` + "\n" + `var bFamily = declaration{id: "b", order: 10, summary: "S.", variants: []variant{` + ok + `}}`, "order 10 is also"},
		"same id":        {`var aFamily = declaration{id: "a", order: 10, summary: "S.", variants: []variant{` + ok + `}}` + "\n" + `var bFamily = declaration{id: "a", order: 20, summary: "S.", variants: []variant{` + ok + `}}`, "declared twice"},
		"no declaration": {`var x = 1`, "no family declarations"},
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
