package engine_test

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine"
)

// comparePairs builds, from every incremental corpus file with more than
// one %%EOF, the pair (its first save, the whole file): the extends case
// /compare exists for.
func comparePairs(tb testing.TB) [][2][]byte {
	var pairs [][2][]byte
	for _, f := range benchLoad(tb, "pdf-incremental", "pdf-signed") {
		i := bytes.Index(f.data, []byte("%%EOF"))
		if i < 0 || bytes.Count(f.data, []byte("%%EOF")) < 2 {
			continue
		}
		pairs = append(pairs, [2][]byte{f.data[:i+5], f.data})
	}
	if len(pairs) == 0 {
		tb.Skip("no incremental corpus files")
	}
	return pairs
}

// BenchmarkCompareVsInspect sweeps the pairs once per op, timing a
// comparison and, apart, a full inspection of both files; it reports the
// comparison's cost as a share of the two inspections (goal: under 2x).
func BenchmarkCompareVsInspect(b *testing.B) {
	pairs := comparePairs(b)
	ctx := context.Background()
	var cmp, insp time.Duration
	for b.Loop() {
		for _, p := range pairs {
			start := time.Now()
			if _, err := engine.Compare(ctx, p[0], p[1]); err != nil {
				b.Fatal(err)
			}
			cmp += time.Since(start)
			start = time.Now()
			for _, d := range p {
				if _, err := engine.Inspect(ctx, d, engine.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			insp += time.Since(start)
		}
	}
	b.ReportMetric(float64(len(pairs)), "pairs")
	b.ReportMetric(float64(cmp)/float64(insp), "compare/inspect-both")
}
