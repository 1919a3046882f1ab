package office

import (
	"context"
	"sort"
	"testing"
	"time"
)

// BenchmarkInspectOffice analyses every corpus Office file once per op and
// reports the median per-file time (goal: under 5 ms).
func BenchmarkInspectOffice(b *testing.B) {
	names, data, formats := corpusOffice(b)
	var total int64
	for _, d := range data {
		total += int64(len(d))
	}
	b.SetBytes(total)
	per := make([][]time.Duration, len(names))
	b.ResetTimer()
	for b.Loop() {
		for i := range data {
			start := time.Now()
			if _, err := Analyze(context.Background(), data[i], formats[i], Options{}); err != nil {
				b.Fatal(err)
			}
			per[i] = append(per[i], time.Since(start))
		}
	}
	b.StopTimer()
	med := make([]time.Duration, len(per))
	for i, ds := range per {
		sort.Slice(ds, func(a, c int) bool { return ds[a] < ds[c] })
		med[i] = ds[len(ds)/2]
	}
	sort.Slice(med, func(a, c int) bool { return med[a] < med[c] })
	b.ReportMetric(float64(med[len(med)/2].Microseconds())/1000, "median-ms/file")
	b.ReportMetric(float64(med[len(med)-1].Microseconds())/1000, "max-ms/file")
	b.ReportMetric(float64(len(names)), "files")
}
