package engine_test

import (
	"bufio"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/corpustest"
)

// goldenSignal is one signal of a corpus_golden.tsv line: family=severity(code).
var goldenSignal = regexp.MustCompile(`([a-z0-9-]+)=([a-z]+)\(([a-z0-9.-]+)\)`)

// TestGoldenMatchesDeclarations holds the analysers to the message codes
// and severities their families declare (report.Declaration) on every
// signal the corpus golden file records: the reports of ../shared/corpus,
// kept in the repository, so this runs without the corpus.
func TestGoldenMatchesDeclarations(t *testing.T) {
	f, err := os.Open("testdata/corpus_golden.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	signals := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		if len(fields) < 5 {
			continue
		}
		for _, m := range goldenSignal.FindAllStringSubmatch(fields[4], -1) {
			signals++
			s := report.Signal{ID: m[1], Severity: report.Severity(m[2]), Message: report.Message{Code: m[3]}}
			for _, p := range report.CheckDeclared(s) {
				t.Errorf("%s (%s): %s", fields[0], fields[1], p)
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if signals < 300 {
		t.Fatalf("%d signals in the golden file: expected the corpus's", signals)
	}
}

// TestSignalsMatchDeclarations runs every committed fixture of the engine
// and, when present, every file of ../shared/corpus through Inspect, full
// and triage, and checks each signal, with its notes and evidence keys,
// against its family's declaration.
// TestSignalsMatchDeclarations also holds every title and detail the
// fixtures and the corpus produce to plain English (report.CodeWords).
func TestSignalsMatchDeclarations(t *testing.T) {
	check := func(t *testing.T, roots ...string) int {
		files := 0
		for _, root := range roots {
			err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() {
					return err
				}
				switch strings.ToLower(filepath.Ext(path)) {
				case ".go", ".tsv", ".md", ".txt", ".json", ".py", ".sh":
					return nil
				}
				data, err := os.ReadFile(path)
				if err != nil {
					return err
				}
				files++
				for _, triage := range []bool{false, true} {
					r, err := engine.Inspect(context.Background(), data, engine.Options{Triage: triage})
					if err != nil {
						continue // refused: no signal to check
					}
					for _, s := range r.Signals {
						for _, p := range report.CheckDeclared(s) {
							t.Errorf("%s: %s", path, p)
						}
						// Plain English (issue 34): what a person reads
						// names no identifier of the code or the format.
						if w := report.CodeWords(s.Title + " " + s.Detail); len(w) > 0 {
							t.Errorf("%s: %s reads code words %q: %q", path, s.Message.Code, w, s.Title+" / "+s.Detail)
						}
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
	if n := check(t, "testdata", "pdf/testdata", "office/testdata"); n < 150 {
		t.Fatalf("%d fixtures read: expected the committed fixtures", n)
	}
	if testing.Short() {
		return
	}
	root := corpustest.Root()
	corpustest.Require(t, root)
	if n := check(t, root); n < 300 {
		t.Fatalf("%d corpus files read: expected the corpus", n)
	}
}
