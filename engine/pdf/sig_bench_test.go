package pdf

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// BenchmarkSignatures times, over the signed corpus (pdf-signed), a full
// inspection of each file and, apart, what the signature work adds to it:
// the inventory, signature-coverage and signature-permissions run last, on
// an analysis where every other step has run, so objects the other
// families read anyway are already parsed (marginal cost, sig-%). cold-%
// is the same work on a fresh analysis that has only the per-revision
// counts incremental-updates computes: an upper bound that also pays for
// parsing the signature and form objects. One op is one sweep.
func BenchmarkSignatures(b *testing.B) {
	root := "../../../shared/corpus/pdf-signed"
	var files [][]byte
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(strings.ToLower(p), ".pdf") {
			if data, err := os.ReadFile(p); err == nil {
				files = append(files, data)
			}
		}
		return nil
	})
	if len(files) == 0 {
		b.Skip("corpus absent")
	}
	ctx := context.Background()
	var inspect, sig, cold time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, data := range files {
			header := max(bytes.Index(data, []byte("%PDF")), 0)
			start := time.Now()
			if _, err := Analyze(ctx, data, header, Options{}); err != nil {
				b.Fatal(err)
			}
			inspect += time.Since(start)

			a := benchAnalysis(b, data, header)
			a.walkContent()
			for _, fam := range families {
				if !strings.HasPrefix(string(fam.ID), "signature-") {
					fam.Run(a)
				}
			}
			sig += timeSignatures(a)

			a = benchAnalysis(b, data, header)
			a.catalog = a.dict(a.f.Trailer().Get("Root"))
			a.revisionChanges()
			cold += timeSignatures(a)
		}
	}
	b.ReportMetric(float64(len(files)), "files/op")
	b.ReportMetric(float64(inspect.Nanoseconds())/float64(b.N), "inspect-ns/op")
	b.ReportMetric(float64(sig.Nanoseconds())/float64(b.N), "sig-ns/op")
	b.ReportMetric(100*float64(sig)/float64(inspect), "sig-%")
	b.ReportMetric(100*float64(cold)/float64(inspect), "cold-%")
}

func benchAnalysis(b *testing.B, data []byte, header int) *analysis {
	d, err := Open(context.Background(), data, header, DefaultBudget)
	if err != nil {
		b.Fatal(err)
	}
	return d.reading(Options{}, d.limit)
}

// timeSignatures runs the signature steps of Analyze and times them.
func timeSignatures(a *analysis) time.Duration {
	start := time.Now()
	a.readSigned()
	a.signatureCoverage()
	a.signaturePermissions()
	return time.Since(start)
}
