package sigs

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
)

// BenchmarkIntegrity times the integrity checks alone (hashing every
// signature's range, parsing its CMS, verifying it) over the signed corpus
// files, against opening each file and inventorying its signatures
// (docs/performance.md, "Signatures").
func BenchmarkIntegrity(b *testing.B) {
	var files [][]byte
	filepath.WalkDir("../../../../shared/corpus", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".pdf") {
			if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte("/ByteRange")) {
				files = append(files, data)
			}
		}
		return nil
	})
	if len(files) == 0 {
		b.Skip("corpus absent")
	}
	var open, check time.Duration
	var hashed int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, data := range files {
			start := time.Now()
			f, err := file.Open(context.Background(), data, max(bytes.Index(data, []byte("%PDF")), 0), filters.NewBudget(1<<26))
			if err != nil {
				continue
			}
			a := &analysis{f: f, catalog: cos.DictOf(f.Resolve(f.Trailer().Get("Root")))}
			inv := a.signatures()
			open += time.Since(start)
			start = time.Now()
			a.checkIntegrity(inv)
			check += time.Since(start)
			for _, s := range inv.sigs {
				for j := 1; j < len(s.cov.byteRange); j += 2 {
					hashed += s.cov.byteRange[j]
				}
			}
		}
	}
	b.ReportMetric(float64(len(files)), "files/op")
	b.ReportMetric(float64(open.Nanoseconds())/float64(b.N), "open-ns/op")
	b.ReportMetric(float64(check.Nanoseconds())/float64(b.N), "integrity-ns/op")
	b.ReportMetric(float64(hashed)/float64(b.N)/(1<<20), "MiB-hashed/op")
	b.ReportMetric(float64(hashed)/check.Seconds()/(1<<20), "MiB/s")
}
