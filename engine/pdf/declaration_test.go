package pdf

import (
	"bufio"
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/corpustest"
)

// TestDeclarationsAreTheCatalogue: the catalogue rows and English texts the
// report package holds for the PDF families are those the declarations
// state, and the catalogue knows no code of a PDF family that its
// declaration does not. (familygen's TestGeneratedUpToDate holds the
// generated source to the declarations; this holds what the engine runs.)
func TestDeclarationsAreTheCatalogue(t *testing.T) {
	declared := map[string]bool{}
	for _, fam := range families {
		row, ok := report.LookupFamily(fam.id)
		if !ok {
			t.Errorf("%s is declared but not in the catalogue", fam.id)
			continue
		}
		want := report.Family{ID: fam.id, Media: report.MediaPDF, ContentDependent: fam.contentDependent, TriageSuppressed: fam.triageSuppressed, Summary: fam.summary}
		if row != want {
			t.Errorf("%s: catalogue row %+v, declared %+v", fam.id, row, want)
		}
		for _, v := range fam.variants {
			code := string(fam.id) + "." + v.code
			declared[code] = true
			if !report.HasCode(code) {
				t.Errorf("%s is declared but has no catalogue text", code)
				continue
			}
			if title, text := report.TemplateOf(code); title != v.title || text != v.text {
				t.Errorf("%s: catalogue text differs from its declaration", code)
			}
			if v.upTo != "" && v.upTo.Rank() <= v.severity.Rank() {
				t.Errorf("%s: upTo %s is not above %s", code, v.upTo, v.severity)
			}
		}
	}
	for _, code := range report.Codes() {
		fam, _, _ := strings.Cut(code, ".")
		if declaredFamily(report.FamilyID(fam)) != nil && !declared[code] {
			t.Errorf("%s is in the catalogue but not in its family's declaration", code)
		}
	}
}

func declaredFamily(id report.FamilyID) *declaration {
	for _, fam := range families {
		if fam.id == id {
			return fam
		}
	}
	return nil
}

// checkSeverity reports how a PDF family's signal disagrees with its
// family's declaration: a message code not declared as a message, a
// severity outside the declared range, a note code not declared.
func checkSeverity(id string, sev report.Severity, code string, notes []string) []string {
	fam := declaredFamily(report.FamilyID(id))
	if fam == nil {
		return nil
	}
	find := func(code string) *variant {
		for i := range fam.variants {
			if id+"."+fam.variants[i].code == code {
				return &fam.variants[i]
			}
		}
		return nil
	}
	var out []string
	switch v := find(code); {
	case v == nil || v.severity == "":
		out = append(out, code+" is not a declared message of "+id)
	case sev.Rank() < v.severity.Rank() || sev.Rank() > v.severity.Max(v.upTo).Rank():
		out = append(out, code+" at "+string(sev)+", declared "+string(v.severity)+" up to "+string(v.severity.Max(v.upTo)))
	}
	for _, n := range notes {
		if find(n) == nil {
			out = append(out, n+" is not declared by "+id)
		}
	}
	return out
}

// goldenSignal is one signal of a corpus_golden.tsv line: family=severity(code).
var goldenSignal = regexp.MustCompile(`([a-z0-9-]+)=([a-z]+)\(([a-z0-9.-]+)\)`)

// TestDeclaredSeverities holds the analysers to the severities their
// families declare, on every PDF signal the engine's corpus golden file
// records (the reports of ../shared/corpus, kept in the repository) and on
// every signal of the committed PDF fixtures.
func TestDeclaredSeverities(t *testing.T) {
	f, err := os.Open("../testdata/corpus_golden.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 5 {
			continue
		}
		for _, m := range goldenSignal.FindAllStringSubmatch(fields[4], -1) {
			if declaredFamily(report.FamilyID(m[1])) != nil {
				seen++
			}
			for _, p := range checkSeverity(m[1], report.Severity(m[2]), m[3], nil) {
				t.Errorf("%s: %s", fields[0], p)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if seen < 100 {
		t.Fatalf("%d PDF signals in the golden file: expected the corpus's", seen)
	}

	files := eachFixtureSignal(t, func(path string, s report.Signal) {
		var notes []string
		for _, n := range s.Notes {
			notes = append(notes, n.Code)
		}
		for _, p := range checkSeverity(s.ID, s.Severity, s.Message.Code, notes) {
			t.Errorf("%s: %s", path, p)
		}
	}, "testdata", "../testdata/detection")
	if files < 100 {
		t.Fatalf("%d fixture PDFs analysed: expected the committed fixtures", files)
	}
}

// eachFixtureSignal analyses every PDF under roots (full mode and triage)
// and hands each signal to fn; it returns the number of files read.
func eachFixtureSignal(t *testing.T, fn func(path string, s report.Signal), roots ...string) int {
	t.Helper()
	files := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(strings.ToLower(path), ".pdf") {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			files++
			for _, triage := range []bool{false, true} {
				r, err := Analyze(context.Background(), data, bytes.Index(data, []byte("%PDF")), Options{Triage: triage})
				if err != nil {
					return err
				}
				for _, s := range r.Signals {
					fn(path, s)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// evidenceKeys expands a declaration's evidence list: "x[]" is x, xTotal
// and xTruncated.
func evidenceKeys(fam *declaration) map[string]bool {
	// Package report adds these to any family's evidence.
	keys := map[string]bool{"corroboration": true, "payloadRedacted": true}
	for _, k := range fam.evidence {
		if base, ok := strings.CutSuffix(k, "[]"); ok {
			keys[base], keys[base+"Total"], keys[base+"Truncated"] = true, true, true
			continue
		}
		keys[k] = true
	}
	return keys
}

// TestDeclaredEvidence holds the analysers to the evidence keys their
// families declare, on the committed PDF fixtures and on every PDF of
// ../shared/corpus (skipped without it, outside CI).
func TestDeclaredEvidence(t *testing.T) {
	check := func(path string, s report.Signal) {
		fam := declaredFamily(report.FamilyID(s.ID))
		if fam == nil {
			return
		}
		keys := evidenceKeys(fam)
		for k := range s.Evidence {
			if !keys[k] {
				t.Errorf("%s: %s evidence key %s is not declared", path, s.ID, k)
			}
		}
	}
	if files := eachFixtureSignal(t, check, "testdata", "../testdata/detection"); files < 100 {
		t.Fatalf("%d fixture PDFs analysed: expected the committed fixtures", files)
	}
	if testing.Short() {
		return
	}
	root := corpustest.Root()
	corpustest.Require(t, root)
	var dirs []string
	for _, cat := range []string{"pdf-general", "pdf-hostile", "pdf-incremental", "pdf-redaction", "pdf-signed"} {
		dirs = append(dirs, filepath.Join(root, cat))
	}
	if files := eachFixtureSignal(t, check, dirs...); files < 100 {
		t.Fatalf("%d corpus PDFs analysed: expected the corpus", files)
	}
}

// TestEvidenceDocumented: docs/families.md names every evidence key a PDF
// family declares (a capped list by its own name), in that family's
// section.
func TestEvidenceDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/families.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	var id string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "#") {
			id = strings.TrimSpace(strings.TrimLeft(line, "#"))
			continue
		}
		sections[id] += line + "\n"
	}
	for _, fam := range families {
		sec, ok := sections[string(fam.id)]
		if !ok {
			t.Errorf("docs/families.md has no section headed %s", fam.id)
			continue
		}
		for _, k := range fam.evidence {
			if !strings.Contains(sec, "`"+strings.TrimSuffix(k, "[]")) {
				t.Errorf("docs/families.md, %s: evidence key %s is not documented", fam.id, k)
			}
		}
	}
}
