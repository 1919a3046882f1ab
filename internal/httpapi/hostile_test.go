package httpapi

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/corpustest"
)

const corpusDir = "../../../shared/corpus"

// quietMalformed are readable files whose defect (a duplicated key, a
// non-integer /Size, a missing endobj...) the parser tolerates, as qpdf
// recovers each: lenient parses are too common in clean files to raise a
// signal alone. A malformed file outside this list must carry
// structure-warnings.
var quietMalformed = map[string]bool{
	"format-corpus/pdfCabinetOfHorrors/veraPDFHiResWrongObjectID.pdf": true,
	"pyhanko/broken-objstream5.pdf":                                   true,
	"pyhanko/minimal-badxref.pdf":                                     true,
	"pyhanko/struct-tree-circular-ref.pdf":                            true,
	"qpdf/bad10.pdf":                                                  true,
	"qpdf/bad11.pdf":                                                  true,
	"qpdf/bad13.pdf":                                                  true,
	"qpdf/bad15.pdf":                                                  true,
	"qpdf/bad17.pdf":                                                  true,
	"qpdf/bad18.pdf":                                                  true,
	"qpdf/bad23.pdf":                                                  true,
	"qpdf/bad29.pdf":                                                  true,
	"qpdf/bad30.pdf":                                                  true,
	"qpdf/bad39.pdf":                                                  true,
	"qpdf/bad6.pdf":                                                   true,
}

// TestHostileCorpusOverHTTP posts every file of the corpus's pdf-hostile
// category to /inspect: each is a 200 report or the not_a_pdf refusal,
// never a 5xx; a file its manifest calls malformed carries
// structure-warnings; the service answers the next request.
func TestHostileCorpusOverHTTP(t *testing.T) {
	malformed := map[string]bool{}
	for _, r := range corpustest.Manifest(t, corpusDir) {
		if strings.Contains(r.Expected, "malformed=yes") {
			malformed[filepath.Join(corpusDir, r.File)] = true
		}
	}
	hostileDir := filepath.Join(corpusDir, "pdf-hostile")
	e := newEnv(t, func(c *Config) { c.MaxUploadMB = 10 })
	var reports, refused int
	err := filepath.WalkDir(hostileDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		resp, body, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(data),
			map[string]string{"Content-Type": "application/octet-stream"})
		switch {
		case resp.StatusCode == 200:
			reports++
			rel, _ := filepath.Rel(hostileDir, path)
			if malformed[path] && !quietMalformed[filepath.ToSlash(rel)] && !hasSignal(body, "structure-warnings") {
				t.Errorf("%s: 200 without structure-warnings", path)
			}
		case resp.StatusCode == 422 && body["error"] == "not_a_pdf":
			refused++
		default:
			t.Errorf("%s: %d %v", path, resp.StatusCode, body)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if reports == 0 || len(malformed) == 0 {
		t.Fatalf("%d reports, %d malformed files listed", reports, len(malformed))
	}
	if resp, _, _ := e.do(t, "GET", "/api/v1/health", nil, nil); resp.StatusCode != 200 {
		t.Fatalf("health after the sweep: %d", resp.StatusCode)
	}
	t.Logf("%d reports, %d not_a_pdf", reports, refused)
}

func hasSignal(body map[string]any, id string) bool {
	signals, _ := body["signals"].([]any)
	for _, s := range signals {
		if m, _ := s.(map[string]any); m["id"] == id {
			return true
		}
	}
	return false
}
