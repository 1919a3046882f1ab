package engine_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/corpustest"
)

// corpusDir is ../shared/corpus beside the repository.
func corpusDir(t testing.TB) string {
	dir, err := filepath.Abs("../../shared/corpus")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Skip("shared corpus not present")
	}
	return dir
}

// manifestExceptions are corpus rows whose stated expectation does not hold
// for the bytes, each with the reason; the tests skip that expectation only.
var manifestExceptions = map[string]string{
	// Named "enc-" as the base of qpdf's encryption tests, but carries no
	// /Encrypt dictionary: the manifest's "encrypted=yes" rests on the name.
	"pdf-general/qpdf/enc-XI-base.pdf":             "not encrypted",
	"pdf-general/qpdf/enc-XI-attachments-base.pdf": "not encrypted",
}

func manifest(t testing.TB) []corpustest.Row { return corpustest.Manifest(t, corpusDir(t)) }

func signal(r *report.Report, id string) *report.Signal {
	for i := range r.Signals {
		if r.Signals[i].ID == id {
			return &r.Signals[i]
		}
	}
	return nil
}

// sweepBudget is each file's deadline in the sweep: far under the service's
// 15 s, so a file that only slows the engine down still fails here. The
// slowest corpus file takes about 0.1 s on a loaded 2-CPU machine.
const sweepBudget = 3 * time.Second

// TestCorpusSweep runs every corpus file through the engine: each gives a
// report or a not-readable error, never a panic, a contained fault, a
// deadline (within sweepBudget) or unbounded allocation. The slowest files
// are logged for docs/performance.md.
func TestCorpusSweep(t *testing.T) {
	dir := corpusDir(t)
	rows := manifest(t)
	if len(rows) < 500 {
		t.Fatalf("manifest lists %d files, expected the full corpus", len(rows))
	}
	var reports, unreadable int
	type took struct {
		file string
		d    time.Duration
	}
	var times []took
	for _, row := range rows {
		data, err := os.ReadFile(filepath.Join(dir, row.File))
		if err != nil {
			t.Errorf("%s: %v", row.File, err)
			continue
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		ctx, cancel := context.WithTimeout(context.Background(), sweepBudget)
		start := time.Now()
		r, err := engine.Inspect(ctx, data, engine.Options{})
		times = append(times, took{row.File, time.Since(start)})
		cancel()
		runtime.ReadMemStats(&after)
		switch {
		case errors.Is(err, engine.ErrUnreadable):
			unreadable++
			if strings.HasPrefix(row.Category, "pdf-") && row.Category != "pdf-hostile" && manifestExceptions[row.File] == "" {
				t.Errorf("%s: a %s file was refused as unreadable", row.File, row.Category)
			}
			continue
		case err != nil:
			t.Errorf("%s: %v", row.File, err)
			continue
		}
		reports++
		if s := signal(r, "structure-warnings"); s != nil {
			for _, c := range s.Evidence["codes"].([]string) {
				if c == "analysis-fault" {
					t.Errorf("%s: an analyser faulted on this file", row.File)
				}
			}
		}
		// Total allocation bounds the peak heap from above.
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<20+16*uint64(len(data)) {
			t.Errorf("%s: allocated %d MB for a %d KB file", row.File, alloc>>20, len(data)>>10)
		}
		if r.Summary.Cost.PhysicalBytes != int64(len(data)) || r.Document.SizeBytes != int64(len(data)) {
			t.Errorf("%s: size %d/%d, want %d", row.File, r.Summary.Cost.PhysicalBytes, r.Document.SizeBytes, len(data))
		}
	}
	t.Logf("%d reports, %d unreadable", reports, unreadable)
	sort.Slice(times, func(i, j int) bool { return times[i].d > times[j].d })
	for _, x := range times[:min(5, len(times))] {
		t.Logf("slow: %v %s", x.d.Round(time.Millisecond), x.file)
	}
}

// TestDeterminism: identical bytes give byte-identical JSON apart from id.
func TestDeterminism(t *testing.T) {
	dir := corpusDir(t)
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	for _, row := range manifest(t) {
		if !strings.HasPrefix(row.Category, "pdf-") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, row.File))
		if err != nil {
			t.Fatal(err)
		}
		var out [2][]byte
		for i := range out {
			r, err := engine.Inspect(context.Background(), data, engine.Options{Now: now})
			if err != nil {
				break
			}
			out[i], _ = json.Marshal(r)
		}
		if !bytes.Equal(out[0], out[1]) {
			t.Errorf("%s: two inspections differ", row.File)
		}
	}
}

// TestManifestExpectations checks the facts MANIFEST.tsv states that this
// engine version reports.
func TestManifestExpectations(t *testing.T) {
	dir := corpusDir(t)
	checked := map[string]int{}
	for _, row := range manifest(t) {
		if !strings.HasPrefix(row.Category, "pdf-") {
			continue
		}
		exp := row.Expected
		has := func(s string) bool { return strings.Contains(exp, s) }
		data, err := os.ReadFile(filepath.Join(dir, row.File))
		if err != nil {
			t.Fatal(err)
		}
		r, err := engine.Inspect(context.Background(), data, engine.Options{})
		if err != nil {
			if !has("hostile=yes") && !has("malformed=yes") && !has("corrupt=yes") && manifestExceptions[row.File] == "" {
				t.Errorf("%s: %v", row.File, err)
			}
			continue
		}
		if has("encrypted=") && !has("encrypted=no") && manifestExceptions[row.File] != "not encrypted" {
			checked["encrypted"]++
			sw := signal(r, "structure-warnings")
			if !r.Document.Encrypted || sw == nil || sw.Evidence["code"] != "encrypted-content-not-analysed" {
				t.Errorf("%s: expected an encrypted report with encrypted-content-not-analysed", row.File)
			}
		}
		if has("javascript=yes") {
			checked["javascript"]++
			if s := signal(r, "active-content"); s == nil || s.Evidence["counts"].(map[string]int)["javascript"] == 0 {
				t.Errorf("%s: JavaScript not reported", row.File)
			}
		}
		if has("embedded_file=yes") && !r.Document.Encrypted {
			checked["embedded_file"]++
			s := signal(r, "active-content")
			if s == nil {
				t.Errorf("%s: attachment not reported", row.File)
			} else if c := s.Evidence["counts"].(map[string]int); c["embeddedFiles"]+c["fileAttachments"] == 0 {
				t.Errorf("%s: attachment not counted: %v", row.File, c)
			}
		}
		if has("incremental=yes") || has("modifications_after_signing=yes") || has("sigs=2") || has("edited=yes") {
			checked["incremental"]++
			if r.Summary.Revisions < 2 || signal(r, "incremental-updates") == nil {
				t.Errorf("%s: expected appended revisions, got %d", row.File, r.Summary.Revisions)
			}
		}
		if (has("wellformed=yes") || has("qpdf_check_exit=0")) && !r.Document.Encrypted {
			checked["clean"]++
			if s := signal(r, "structure-warnings"); s != nil && s.Severity != report.Info {
				t.Errorf("%s: well-formed file has structure warnings %v", row.File, s.Evidence["codes"])
			}
		}
		if has("malformed=yes") && strings.HasPrefix(row.File, "pdf-hostile/pyhanko/minimal-startxref") {
			checked["startxref"]++
			if signal(r, "structure-warnings") == nil {
				t.Errorf("%s: damaged startxref not reported", row.File)
			}
		}
	}
	t.Logf("checked: %v", checked)
	for _, k := range []string{"encrypted", "javascript", "embedded_file", "incremental", "clean", "startxref"} {
		if checked[k] == 0 {
			t.Errorf("no corpus file exercised %q", k)
		}
	}
}
