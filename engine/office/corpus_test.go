package office

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// legacyOrODF are the formats corpusOffice leaves to corpusOther: the
// binary, binary-workbook and OpenDocument files (and the OOXML set stays
// what it was before they were read, so its benchmark compares).
func legacyOrODF(f sniff.Format) bool {
	switch f {
	case sniff.DOC, sniff.XLS, sniff.PPT, sniff.XLSB, sniff.ODT, sniff.ODS, sniff.ODP:
		return true
	}
	return false
}

// corpusOther returns the corpus files of the legacyOrODF formats.
func corpusOther(tb testing.TB) (names []string, data [][]byte, formats []sniff.Format) {
	dir, _ := filepath.Abs("../../../shared/corpus/office")
	if _, err := os.Stat(dir); err != nil {
		tb.Skip("shared corpus not present")
	}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		if f := sniff.Sniff(b).Format; legacyOrODF(f) {
			rel, _ := filepath.Rel(dir, p)
			names, data, formats = append(names, rel), append(data, b), append(formats, f)
		}
		return nil
	})
	return names, data, formats
}

// corpusOffice returns the corpus OOXML files the sniffer recognises.
func corpusOffice(tb testing.TB) (names []string, data [][]byte, formats []sniff.Format) {
	dir, _ := filepath.Abs("../../../shared/corpus/office")
	if _, err := os.Stat(dir); err != nil {
		tb.Skip("shared corpus not present")
	}
	var all []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all = append(all, p)
		}
		return nil
	})
	sort.Strings(all)
	for _, p := range all {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		f := sniff.Sniff(b).Format
		if f.Kind() != sniff.KindOffice || legacyOrODF(f) {
			continue
		}
		rel, _ := filepath.Rel(dir, p)
		names, data, formats = append(names, rel), append(data, b), append(formats, f)
	}
	return names, data, formats
}

// TestCorpusSweep: every corpus Office file gives a report with the
// blind-spot note, deterministically, and the families stay quiet where the
// manifest expects a clean file.
func TestCorpusSweep(t *testing.T) {
	names, data, formats := corpusOffice(t)
	if len(names) < 50 {
		t.Fatalf("only %d corpus Office files", len(names))
	}
	for i, name := range names {
		r, err := Analyze(context.Background(), data[i], formats[i], Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checkInvariants(t, name, r)
		again, _ := Analyze(context.Background(), data[i], formats[i], Options{})
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Errorf("%s: report not deterministic", name)
		}
		if testing.Verbose() {
			var ids []string
			for _, s := range r.Signals {
				ids = append(ids, s.ID+":"+string(s.Severity)+":"+s.Message.Code)
				for _, n := range s.Notes {
					ids = append(ids, "  +"+n.Code)
				}
			}
			t.Logf("%-90s %s", name, strings.Join(ids, " "))
		}
	}
}

// checkInvariants holds for every Office report.
func checkInvariants(t testing.TB, name string, r *report.Report) {
	t.Helper()
	if r.Office == nil || r.MediaType != report.MediaOffice {
		t.Fatalf("%s: no office block", name)
	}
	var st *report.Signal
	for i := range r.Signals {
		if r.Signals[i].ID == "office-structure-anomalies" {
			st = &r.Signals[i]
		}
	}
	if st == nil {
		t.Fatalf("%s: no office-structure-anomalies signal", name)
	}
	if last := st.Notes[len(st.Notes)-1]; last.Code != "office-structure-anomalies.blind-spot" {
		t.Fatalf("%s: blind-spot note missing", name)
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}
