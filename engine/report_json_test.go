package engine_test

// Cost of encoding a report: report.AppendJSON against encoding/json's
// reflection (docs/performance.md, "Report JSON without reflection").
//
//	go test -run='^$' -bench=ReportJSON -benchmem ./engine/
//	DOCTRUST_MEASURE=1 go test -run=TestReportJSONCold -v ./engine/

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/receipt"
	"github.com/doctrust/doctrust/engine/report"
)

// typicalReportFile is an edited PDF whose report (about 3 KB) carries the
// common evidence shapes: producer tools, per-revision blocks, counts.
const typicalReportFile = "pdf-general/pdfjs/doc_actions.pdf"

func typicalReport(tb testing.TB) *report.Report {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join(benchCorpusRoot(tb), typicalReportFile))
	if err != nil {
		tb.Fatal(err)
	}
	r, err := engine.Inspect(context.Background(), data, engine.Options{})
	if err != nil {
		tb.Fatal(err)
	}
	return r
}

// BenchmarkReportJSON encodes the typical report warm: by hand, by
// encoding/json's reflection, and by json.Marshal through MarshalJSON
// (which re-validates the bytes, hence receipt.Attach calls AppendJSON).
func BenchmarkReportJSON(b *testing.B) {
	r := typicalReport(b)
	want, err := json.Marshal((*plainReport)(r))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("hand", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(want)))
		var out []byte
		for b.Loop() {
			out, _ = r.AppendJSON(out[:0])
		}
		if !bytes.Equal(out, want) {
			b.Fatal("output differs from encoding/json")
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(want)))
		for b.Loop() {
			json.Marshal((*plainReport)(r))
		}
	})
	b.Run("json.Marshal-via-MarshalJSON", func(b *testing.B) {
		b.ReportAllocs()
		b.SetBytes(int64(len(want)))
		for b.Loop() {
			json.Marshal(r)
		}
	})
}

// coldEnv makes TestReportJSONCold a child that times one first encoding.
const coldEnv = "DOCTRUST_JSON_COLD"

// coldModes are what a child times on its first call: the hand encoder,
// encoding/json's reflection, json.Marshal through MarshalJSON (the hand
// encoder plus encoding/json's check of its output), and the whole of
// receipt.Attach (which also decodes and canonicalises the body for the
// hash).
var coldModes = []string{"hand", "encoding-json", "json.Marshal", "receipt.Attach"}

// TestReportJSONCold measures the first encoding of the typical report in
// fresh processes (this test binary run again per sample), the cost a
// short-lived `doctrust inspect` or a cold Lambda pays. It logs, asserts
// nothing, and runs only when asked.
func TestReportJSONCold(t *testing.T) {
	if mode := os.Getenv(coldEnv); mode != "" {
		coldChild(t, mode)
		return
	}
	if os.Getenv("DOCTRUST_MEASURE") == "" {
		t.Skip("a measurement: DOCTRUST_MEASURE=1 go test -run=TestReportJSONCold -v ./engine/")
	}
	typicalReport(t) // skips without the corpus
	const runs = 15
	samples := map[string][]time.Duration{}
	for range runs {
		for _, mode := range coldModes {
			cmd := exec.Command(os.Args[0], "-test.run=^TestReportJSONCold$", "-test.count=1")
			cmd.Env = append(os.Environ(), coldEnv+"="+mode)
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%s: %v\n%s", mode, err, out)
			}
			_, after, ok := strings.Cut(string(out), "cold-ns=")
			ns, err := strconv.ParseInt(strings.Fields(after + " ")[0], 10, 64)
			if !ok || err != nil {
				t.Fatalf("%s: no cold-ns in %q", mode, out)
			}
			samples[mode] = append(samples[mode], time.Duration(ns))
		}
	}
	for _, mode := range coldModes {
		s := samples[mode]
		slices.Sort(s)
		t.Logf("%-15s first call in a fresh process, %d runs: min %v, median %v, max %v", mode, runs, s[0], s[len(s)/2], s[len(s)-1])
	}
}

func coldChild(t *testing.T, mode string) {
	r := typicalReport(t)
	var err error
	start := time.Now()
	switch mode {
	case "hand":
		_, err = r.AppendJSON(nil)
	case "encoding-json":
		_, err = json.Marshal((*plainReport)(r))
	case "json.Marshal":
		_, err = json.Marshal(r)
	case "receipt.Attach":
		_, _, err = receipt.Attach(r, []byte("secret"), time.Unix(0, 0), false)
	default:
		t.Fatalf("unknown mode %q", mode)
	}
	d := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("cold-ns=%d\n", d.Nanoseconds())
}
