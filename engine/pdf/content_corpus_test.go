package pdf_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
	"github.com/doctrust/doctrust/internal/corpustest"
)

// contentFamilies are the families of the page-content walk.
var contentFamilies = []string{"hidden-text", "redaction-exposure", "content-overlay", "annotation-overlays", "font-anomalies", "numeric-edits", "embedded-image-anomalies", "page-geometry"}

// pdfCorpus lists the MANIFEST.tsv rows of the given categories.
func pdfCorpus(t *testing.T, categories ...string) (string, []corpustest.Row) {
	t.Helper()
	dir, err := filepath.Abs("../../../shared/corpus")
	if err != nil {
		t.Fatal(err)
	}
	var rows []corpustest.Row
	for _, r := range corpustest.Manifest(t, dir) {
		if len(categories) == 0 || contains(categories, r.Category) {
			rows = append(rows, r)
		}
	}
	return dir, rows
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// analyzeFile runs a corpus PDF; ok is false for files that are not PDFs.
func analyzeFile(t *testing.T, path string) (*jsonReport, bool) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := sniff.Sniff(data)
	if s.Format != sniff.PDF {
		return nil, false
	}
	return analyzeAt(t, data, s.HeaderOffset, full), true
}

// TestRedactionCorpus: the x-ray test files give x-ray's results.
func TestRedactionCorpus(t *testing.T) {
	dir, rows := pdfCorpus(t, "pdf-redaction")
	for _, row := range rows {
		r, ok := analyzeFile(t, filepath.Join(dir, row.File))
		if !ok {
			t.Fatalf("%s: not a PDF", row.File)
		}
		s := r.signal("redaction-exposure")
		switch {
		case strings.Contains(row.Expected, "bad_redaction=yes"):
			if s == nil || s.Message.Code != "redaction-exposure.text-under-box" {
				t.Errorf("%s: want text-under-box, got %+v", row.File, s)
				continue
			}
			if strings.Contains(row.Expected, "bad_redactions_page1=3") {
				eq(t, row.File+" boxes", s.Evidence["boxesTotal"], float64(3))
			}
			if strings.Contains(row.Expected, "intersecting_chars=64") {
				eq(t, row.File+" characters", s.Evidence["charactersUnder"], float64(64))
			}
		case strings.Contains(row.Expected, "bad_redaction=no"):
			if s != nil {
				t.Errorf("%s: want quiet, got %s %v", row.File, s.Message.Code, s.Evidence)
			}
		}
	}
}

// cleanExceptions are clean-corpus files on which a content family fires
// by design, each with the reason.
var cleanExceptions = map[string]string{
	// Page 3 carries its running header a second time, in white 4 pt text
	// on the white page: text no reader sees, reported as such.
	"pdf-general/pdfcpu/testdata/T6.pdf": "hidden-text.background-colour: white header on a white page",
	// A damaged content stream (the govdocs1 error set) whose garbled
	// operators leave white text on white table cells.
	"pdf-general/format-corpus/govdocs1-error-pdfs/error_set_2/040669.pdf": "hidden-text.background-colour: garbled stream",
	// A map whose label "RO" is white inside a region that is only
	// outlined: white on the bare page as far as the operators say.
	"pdf-general/format-corpus/govdocs1-error-pdfs/error_set_1/176446.pdf": "hidden-text.background-colour: white map label on an unfilled region",
	// Table headings drawn, then their cells filled white a second time
	// over them: the headings are hidden as the operators stand.
	"pdf-general/format-corpus/govdocs1-error-pdfs/error_set_1/195981.pdf": "content-overlay.whiteout: cells refilled over their headings",
	// A DSS validation file (signature not intact) whose later revision
	// adds a text field over the page title: the pattern reported.
	"pdf-signed/esig-dss/validation/pdf-eof.pdf": "annotation-overlays.later-revision: text field added over the title after signing",
	// pyHanko's font-embedding test stamps Japanese text, in a font its
	// second revision adds, onto a page with original text.
	"pdf-general/pyhanko/fontembed.pdf": "font-anomalies.later-revision-font: text stamped by a later revision",
	// pdf.js's incremental-save test redraws its three pages in a second
	// revision, with a second subset of the original's font, and changes
	// each page's number ("21" becomes "31"): both facts are reported.
	"pdf-incremental/pdfjs/doc_3_3_pages.pdf": "font-anomalies.multiple-subsets, numeric-edits.digits-changed: pages redrawn with new numbers by a later revision",
}

// TestContentFamiliesQuietOnCleanCorpus: no content family raises a signal
// above info on the general, incremental and signed corpus, except the
// files listed in cleanExceptions. The count is the false-flag figure of
// docs/families.md.
func TestContentFamiliesQuietOnCleanCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus sweep")
	}
	dir, rows := pdfCorpus(t, "pdf-general", "pdf-incremental", "pdf-signed")
	flagged := map[string][]string{}
	infos := map[string]int{}
	files := 0
	for _, row := range rows {
		r, ok := analyzeFile(t, filepath.Join(dir, row.File))
		if !ok {
			continue
		}
		files++
		for _, id := range contentFamilies {
			if s := r.signal(id); s != nil && report.Severity(s.Severity).Rank() == 0 {
				infos[id+" "+s.Message.Code]++
			}
			if s := r.signal(id); s != nil && report.Severity(s.Severity).Rank() > 0 {
				flagged[id] = append(flagged[id], row.File+" "+s.Message.Code)
				if _, ok := cleanExceptions[row.File]; !ok {
					t.Errorf("%s: %s %s %v", row.File, s.Message.Code, s.Severity, s.Evidence)
				}
			}
		}
	}
	ids := make([]string, 0, len(flagged))
	for id := range flagged {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	for _, id := range ids {
		t.Logf("%s: %d file(s): %v", id, len(flagged[id]), flagged[id])
	}
	t.Logf("%d clean-corpus PDFs analysed; info signals: %v", files, infos)
}

var _ = pdf.Options{}
