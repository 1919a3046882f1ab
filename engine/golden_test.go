package engine_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/baselines"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/corpus_golden.tsv from the engine's current output")

// goldenFile pins what every corpus file gives in every mode, so a change
// meant to keep output unchanged (a refactor) is proven byte-identical, and
// a deliberate change shows which files moved. After a deliberate change:
//
//	go test ./engine -run TestCorpusGolden -update
//
// and list the changed lines in the commit.
const goldenFile = "testdata/corpus_golden.tsv"

// goldenNow is the fixed time of analysis, so the future-date check does
// not move with the clock.
var goldenNow = time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)

// goldenTextBytes bounds the ledger's text reading as the ledger does.
const goldenTextBytes = 64 << 10

// TestCorpusGolden runs every corpus file through each entry point a
// request reaches (inspect, triage, metadata, and for PDFs the issuer
// baseline with each built-in profile, the ledger's text and the
// baseline's training observation) and compares one line per file and mode
// with testdata/corpus_golden.tsv: the band, score and signals for reading
// the diff, and the SHA-256 of the whole output for byte identity.
func TestCorpusGolden(t *testing.T) {
	dir := corpusDir(t)
	rows := manifest(t)
	builtIn := baselines.BuiltIn()
	if len(builtIn) == 0 {
		t.Fatal("no built-in issuer profile to run the issuer path with")
	}
	var lines []string
	add := func(file, mode, rest string) {
		lines = append(lines, file+"\t"+mode+"\t"+rest)
	}
	ctx := context.Background()
	for _, row := range rows {
		data, err := os.ReadFile(filepath.Join(dir, row.File))
		if err != nil {
			t.Fatalf("%s: %v", row.File, err)
		}
		plain := engine.Options{Now: goldenNow}
		r, err := engine.Inspect(ctx, data, plain)
		add(row.File, "inspect", reportLine(r, err))
		triage := plain
		triage.Triage = true
		r, err = engine.Inspect(ctx, data, triage)
		add(row.File, "triage", reportLine(r, err))
		m, err := engine.Metadata(ctx, data, plain)
		add(row.File, "metadata", jsonLine(m, err))
		if !strings.HasPrefix(row.Category, "pdf-") {
			continue
		}
		for _, p := range builtIn {
			opt := plain
			opt.Issuer = &engine.Issuer{Slug: p.Issuer, Profile: p, Source: "public-specimen"}
			r, err = engine.Inspect(ctx, data, opt)
			add(row.File, "issuer:"+p.Issuer, reportLine(r, err))
		}
		text, err := engine.Text(ctx, data, goldenTextBytes)
		add(row.File, "text", jsonLine(text, err))
		o, err := engine.Observe(ctx, data, 0)
		add(row.File, "observe", jsonLine(o, err))
	}
	sort.Strings(lines)
	got := strings.Join(lines, "\n") + "\n"
	if *updateGolden {
		if err := os.WriteFile(goldenFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %d lines to %s", len(lines), goldenFile)
		return
	}
	wantBytes, err := os.ReadFile(goldenFile)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	want := strings.Split(strings.TrimSuffix(string(wantBytes), "\n"), "\n")
	diffGolden(t, want, lines)
}

// reportLine is band, score, the signals as id=severity(code) and the hash
// of the report's JSON without id and receipt (which the caller assigns).
func reportLine(r *report.Report, err error) string {
	if err != nil {
		return "error\t-\t-\t" + err.Error()
	}
	c := *r
	c.ID, c.Receipt = "", nil
	b, err := json.Marshal(&c)
	if err != nil {
		return "error\t-\t-\tmarshal: " + err.Error()
	}
	sigs := make([]string, 0, len(r.Signals))
	for _, s := range r.Signals {
		sigs = append(sigs, fmt.Sprintf("%s=%s(%s)", s.ID, s.Severity, s.Message.Code))
	}
	list := strings.Join(sigs, ",")
	if list == "" {
		list = "-"
	}
	return string(r.Summary.RiskBand) + "\t" + strconv.Itoa(r.Summary.RiskScore) + "\t" + list + "\t" + digest(b)
}

// jsonLine is the hash of any other output's JSON.
func jsonLine(v any, err error) string {
	if err != nil {
		return "error\t-\t-\t" + err.Error()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return "error\t-\t-\tmarshal: " + err.Error()
	}
	return "-\t-\t-\t" + digest(b)
}

func digest(b []byte) string {
	h := sha256.Sum256(b)
	// 80 bits: enough to tell outputs apart, short enough to read a diff.
	return hex.EncodeToString(h[:10])
}

// diffGolden reports the lines that changed, keyed by file and mode, so a
// failure reads as the list of files that moved.
func diffGolden(t *testing.T, want, got []string) {
	t.Helper()
	key := func(l string) string {
		f := strings.SplitN(l, "\t", 3)
		if len(f) < 2 {
			return l
		}
		return f[0] + "\t" + f[1]
	}
	wm := map[string]string{}
	for _, l := range want {
		wm[key(l)] = l
	}
	gm := map[string]string{}
	for _, l := range got {
		gm[key(l)] = l
	}
	var diffs []string
	for k, g := range gm {
		if w, ok := wm[k]; !ok {
			diffs = append(diffs, "new:  "+g)
		} else if w != g {
			diffs = append(diffs, "was:  "+w+"\nnow:  "+g)
		}
	}
	for k, w := range wm {
		if _, ok := gm[k]; !ok {
			diffs = append(diffs, "gone: "+w)
		}
	}
	sort.Strings(diffs)
	for i, d := range diffs {
		if i == 40 {
			t.Errorf("... and %d more", len(diffs)-i)
			break
		}
		t.Error(d)
	}
	if len(diffs) > 0 {
		t.Logf("%d of %d lines differ from %s; after a deliberate change run with -update", len(diffs), len(got), goldenFile)
	}
}
