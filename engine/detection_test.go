package engine_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/report"
)

// detectionDir holds the forged and genuine fixtures made with real tools
// (scripts/fixtures/*) and one TSV manifest per area that lists them.
const detectionDir = "testdata/detection"

// detectionRow is one fixture of a manifest: a genuine file that must stay
// low, or a forgery that must reach at least elevated. A row marked
// measured is counted in the tables but not asserted on its own: the
// goal is a rate over a class, and docs/detection.md reports it.
type detectionRow struct {
	manifest, file, kind, method, tool, original string
	asserted                                     bool
}

// readDetectionRows reads every testdata/detection/*.tsv. Columns:
// file, kind (genuine|forged), method, tool (the generator of a genuine
// file, the editing tool of a forgery), original (the genuine file a
// forgery was made from, "-" for none), check (assert|measure).
func readDetectionRows(t *testing.T) []detectionRow {
	t.Helper()
	manifests, err := filepath.Glob(filepath.Join(detectionDir, "*.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var rows []detectionRow
	for _, m := range manifests {
		fh, err := os.Open(m)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for line := 1; sc.Scan(); line++ {
			text := sc.Text()
			if text == "" || strings.HasPrefix(text, "#") || strings.HasPrefix(text, "file\t") {
				continue
			}
			f := strings.Split(text, "\t")
			if len(f) != 6 || (f[1] != "genuine" && f[1] != "forged") || (f[5] != "assert" && f[5] != "measure") {
				t.Fatalf("%s:%d: want 6 columns file, kind, method, tool, original, check", m, line)
			}
			rows = append(rows, detectionRow{
				manifest: filepath.Base(m), file: f[0], kind: f[1], method: f[2], tool: f[3],
				original: f[4], asserted: f[5] == "assert",
			})
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return rows
}

// TestDetectionFixtures holds the engine to the forgery classes of
// docs/detection.md: every asserted genuine file stays low and every
// asserted forgery reaches elevated or high on a plain inspect. It logs the
// caught/total table per method and the alert rate per generator, the
// figures docs/detection.md quotes (go test -run TestDetectionFixtures -v).
func TestDetectionFixtures(t *testing.T) {
	rows := readDetectionRows(t)
	if len(rows) == 0 {
		t.Skip("no detection fixtures yet")
	}
	type tally struct{ hit, total int }
	methods, generators := map[string]*tally{}, map[string]*tally{}
	count := func(m map[string]*tally, k string, hit bool) {
		if m[k] == nil {
			m[k] = &tally{}
		}
		m[k].total++
		if hit {
			m[k].hit++
		}
	}
	for _, row := range rows {
		data, err := os.ReadFile(filepath.Join(detectionDir, row.file))
		if err != nil {
			t.Fatalf("%s: %v", row.manifest, err)
		}
		if row.original != "-" {
			if _, err := os.Stat(filepath.Join(detectionDir, row.original)); err != nil {
				t.Errorf("%s: %s names an original that is not there: %v", row.manifest, row.file, err)
			}
		}
		// Now lies after the day the fixtures were made (their dates are
		// real), so no genuine file reads as dated in the future.
		rep, err := engine.Inspect(context.Background(), data, engine.Options{Now: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Errorf("%s: %s: %v", row.manifest, row.file, err)
			continue
		}
		band := rep.Summary.RiskBand
		alert := band != report.BandLow
		switch row.kind {
		case "genuine":
			count(generators, row.tool, alert)
			if alert && row.asserted {
				t.Errorf("genuine %s (%s) is %s: %s", row.file, row.tool, band, signalList(rep))
			}
		case "forged":
			count(methods, row.method, alert)
			if !alert && row.asserted {
				t.Errorf("forgery %s (%s by %s) is low: %s", row.file, row.method, row.tool, signalList(rep))
			}
		}
	}
	logTally := func(title string, m map[string]*tally) {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		t.Logf("%s", title)
		for _, k := range keys {
			t.Logf("  %-40s %d / %d", k, m[k].hit, m[k].total)
		}
	}
	logTally("forgeries caught (elevated or high) / total, by method:", methods)
	logTally("genuine files alerting (above low) / total, by generator:", generators)
}

// signalList names a report's signals for a failure message.
func signalList(r *report.Report) string {
	var b strings.Builder
	fmt.Fprintf(&b, "score %d:", r.Summary.RiskScore)
	for _, s := range r.Signals {
		fmt.Fprintf(&b, " %s=%s(%s)", s.ID, s.Severity, s.Message.Code)
	}
	return b.String()
}
