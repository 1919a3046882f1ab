package engine_test

// Benchmarks over ../shared/corpus (see docs/performance.md). Each benchmark
// iteration is one sweep over its whole file set, so ns/op, B/op and
// allocs/op are per sweep; files/s and MiB/s are the per-file throughput.
//
//	go test -run='^$' -bench=. -benchmem -benchtime=3x ./engine/
//	go test -run TestCostTriageVsFull -v ./engine/

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/sniff"
)

// benchPDFCategories are the corpus categories the PDF benchmarks read:
// ordinary documents, not the hostile set (which measures containment, not
// throughput).
var benchPDFCategories = []string{"pdf-general", "pdf-incremental", "pdf-signed", "pdf-redaction"}

type benchFile struct {
	rel  string // path relative to the corpus root
	data []byte
}

// benchCorpusRoot is ../shared/corpus beside the repository, resolved from
// the package directory; the caller is skipped when it is absent.
func benchCorpusRoot(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "shared", "corpus"))
	if err != nil {
		tb.Fatal(err)
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		tb.Skip("shared corpus not present at " + dir)
	}
	return dir
}

// benchLoad reads every regular file under the named categories (every
// category directory when none are named), sorted by path.
func benchLoad(tb testing.TB, categories ...string) []benchFile {
	tb.Helper()
	root := benchCorpusRoot(tb)
	if len(categories) == 0 {
		ents, err := os.ReadDir(root)
		if err != nil {
			tb.Fatal(err)
		}
		for _, e := range ents {
			if e.IsDir() {
				categories = append(categories, e.Name())
			}
		}
	}
	var files []benchFile
	for _, cat := range categories {
		err := filepath.WalkDir(filepath.Join(root, cat), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() {
				return nil
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			files = append(files, benchFile{rel: filepath.ToSlash(rel), data: data})
			return nil
		})
		if err != nil {
			tb.Fatalf("reading corpus category %s: %v", cat, err)
		}
	}
	if len(files) == 0 {
		tb.Skip("no corpus files in", categories)
	}
	sort.Slice(files, func(i, j int) bool { return files[i].rel < files[j].rel })
	return files
}

func benchTotalBytes(files []benchFile) int64 {
	var n int64
	for _, f := range files {
		n += int64(len(f.data))
	}
	return n
}

// benchRates reports files/s and MiB/s over the timed sweeps, and the size
// of one sweep. The loops use b.N rather than b.Loop: go1.26.8's escape
// analysis crashes (internal compiler error) on a b.Loop body that calls a
// two-result function and switches on errors.Is of the error.
func benchRates(b *testing.B, files int, bytes int64) {
	if secs := b.Elapsed().Seconds(); secs > 0 {
		b.ReportMetric(float64(b.N*files)/secs, "files/s")
		b.ReportMetric(float64(b.N)*float64(bytes)/(1<<20)/secs, "MiB/s")
	}
	b.ReportMetric(float64(files), "files/op")
}

// BenchmarkSniff sniffs every corpus file, all categories.
func BenchmarkSniff(b *testing.B) {
	files := benchLoad(b)
	total := benchTotalBytes(files)
	var unknown int
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		unknown = 0
		for _, f := range files {
			if sniff.Sniff(f.data).Format == sniff.Unknown {
				unknown++
			}
		}
	}
	b.StopTimer()
	benchRates(b, len(files), total)
	b.ReportMetric(float64(unknown), "unknown/op")
}

func BenchmarkInspectPDF(b *testing.B) { benchInspect(b, false, benchPDFCategories...) }

func BenchmarkInspectPDFTriage(b *testing.B) { benchInspect(b, true, benchPDFCategories...) }

// BenchmarkInspectOffice and BenchmarkInspectImages sweep the office and
// image corpus through engine.Inspect, sniffing included. Files the engine
// cannot read (legacy binary Office, JPEG XL ...) are counted as refusals.
func BenchmarkInspectOffice(b *testing.B) { benchInspect(b, false, "office") }

func BenchmarkInspectImages(b *testing.B) { benchInspect(b, false, "image") }

// BenchmarkInspectCorpusPDFs sweeps every file named *.pdf in the corpus,
// pdf-hostile included: the set scripts/bench-batch.sh gives `doctrust
// inspect -`, in one goroutine, so a CPU profile shows the batch's costs.
func BenchmarkInspectCorpusPDFs(b *testing.B) {
	var pdfs []benchFile
	for _, f := range benchLoad(b) {
		if strings.HasSuffix(f.rel, ".pdf") {
			pdfs = append(pdfs, f)
		}
	}
	benchInspectFiles(b, false, pdfs)
}

// benchInspect runs engine.Inspect over every file of the categories.
// Refusals (ErrUnreadable) and other errors are counted per sweep, as is the
// decompressed volume (summary.cost.expandedBytes) of the reports.
func benchInspect(b *testing.B, triage bool, categories ...string) {
	benchInspectFiles(b, triage, benchLoad(b, categories...))
}

func benchInspectFiles(b *testing.B, triage bool, files []benchFile) {
	total := benchTotalBytes(files)
	ctx := context.Background()
	opt := engine.Options{Triage: triage}
	var refusals, otherErrs int
	var expanded int64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		refusals, otherErrs, expanded = 0, 0, 0
		for _, f := range files {
			rep, err := engine.Inspect(ctx, f.data, opt)
			switch {
			case errors.Is(err, engine.ErrUnreadable):
				refusals++
			case err != nil:
				otherErrs++
			default:
				expanded += rep.Summary.Cost.ExpandedBytes
			}
		}
	}
	b.StopTimer()
	benchRates(b, len(files), total)
	b.ReportMetric(float64(refusals), "refusals/op")
	b.ReportMetric(float64(otherErrs), "errors/op")
	b.ReportMetric(float64(expanded)/(1<<20), "expandedMiB/op")
}

// BenchmarkMetadata lists every corpus image and the PDFs the inspection
// benchmarks read, in process, as POST /metadata does per request.
func BenchmarkMetadata(b *testing.B) {
	files := benchLoad(b, append([]string{"image"}, benchPDFCategories...)...)
	total := benchTotalBytes(files)
	ctx := context.Background()
	var refusals, otherErrs int
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		refusals, otherErrs = 0, 0
		for _, f := range files {
			_, err := engine.Metadata(ctx, f.data, engine.Options{})
			switch {
			case errors.Is(err, engine.ErrUnreadable):
				refusals++
			case err != nil:
				otherErrs++
			}
		}
	}
	b.StopTimer()
	benchRates(b, len(files), total)
	b.ReportMetric(float64(refusals), "refusals/op")
	b.ReportMetric(float64(otherErrs), "errors/op")
}

// TestCostTriageVsFull checks, for every PDF the benchmarks read, that triage
// mode decompresses no more than a full inspection (summary.cost.
// expandedBytes), and logs the aggregate ratio. The aggregate target
// (triage at most 10% of full) is logged, not asserted: it depends on the
// corpus mix, while the per-file invariant does not.
func TestCostTriageVsFull(t *testing.T) {
	files := benchLoad(t, benchPDFCategories...)
	ctx := context.Background()
	type row struct {
		rel           string
		full, triage  int64
		physicalBytes int
	}
	var rows []row
	var fullSum, triageSum int64
	var refused int
	for _, f := range files {
		full, errF := engine.Inspect(ctx, f.data, engine.Options{})
		tri, errT := engine.Inspect(ctx, f.data, engine.Options{Triage: true})
		if (errF == nil) != (errT == nil) {
			t.Errorf("%s: full err=%v, triage err=%v: the modes disagree on readability", f.rel, errF, errT)
			continue
		}
		if errF != nil {
			if !errors.Is(errF, engine.ErrUnreadable) {
				t.Errorf("%s: unexpected error %v", f.rel, errF)
			}
			refused++
			continue
		}
		r := row{rel: f.rel, full: full.Summary.Cost.ExpandedBytes, triage: tri.Summary.Cost.ExpandedBytes, physicalBytes: len(f.data)}
		if r.triage > r.full {
			t.Errorf("%s: triage expandedBytes %d > full %d", f.rel, r.triage, r.full)
		}
		fullSum += r.full
		triageSum += r.triage
		rows = append(rows, r)
	}
	// The files where triage saves the most, for the record.
	sort.Slice(rows, func(i, j int) bool { return rows[i].full-rows[i].triage > rows[j].full-rows[j].triage })
	for i := 0; i < len(rows) && i < 5; i++ {
		r := rows[i]
		t.Logf("largest saving %d: %s full=%d triage=%d (file %d bytes)", i+1, r.rel, r.full, r.triage, r.physicalBytes)
	}
	t.Logf("files: %d inspected, %d refused (ErrUnreadable)", len(rows), refused)
	t.Logf("expandedBytes total: full=%d (%.1f MiB) triage=%d (%.1f MiB)",
		fullSum, float64(fullSum)/(1<<20), triageSum, float64(triageSum)/(1<<20))
	if fullSum > 0 {
		ratio := float64(triageSum) / float64(fullSum)
		verdict := "met"
		if ratio > 0.10 {
			verdict = "NOT met"
		}
		t.Logf("triage/full expandedBytes = %.4f (%.1f%%); aggregate goal <= 10%%: %s", ratio, 100*ratio, verdict)
	}
}
