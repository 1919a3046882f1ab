// Package perfile is what the per-format corpus benchmarks (engine/office,
// engine/image) share: each file is timed on every sweep, and the sweep is
// summarised as throughput plus the per-file medians, naming the slowest
// file so a regression points at its cause.
package perfile

import (
	"sort"
	"testing"
	"time"
)

// Times holds, per file, the duration of each timed sweep.
type Times [][]time.Duration

// New returns room for n files.
func New(n int) Times { return make(Times, n) }

// Add records one timing of file i.
func (t Times) Add(i int, d time.Duration) { t[i] = append(t[i], d) }

// Report reports files/s and MiB/s over b's timed loop (as
// engine/bench_test.go does for PDFs), the median and maximum of the
// per-file medians, and logs the slowest file by name. total is the bytes
// of one sweep.
func Report(b *testing.B, names []string, t Times, total int64) {
	b.Helper()
	if secs := b.Elapsed().Seconds(); secs > 0 {
		b.ReportMetric(float64(b.N*len(names))/secs, "files/s")
		b.ReportMetric(float64(b.N)*float64(total)/(1<<20)/secs, "MiB/s")
	}
	med := make([]time.Duration, len(t))
	slowest := 0
	for i, ds := range t {
		if len(ds) == 0 {
			continue
		}
		sort.Slice(ds, func(a, c int) bool { return ds[a] < ds[c] })
		med[i] = ds[len(ds)/2]
		if med[i] > med[slowest] {
			slowest = i
		}
	}
	if len(med) == 0 {
		return
	}
	b.Logf("slowest file: %s (%.3f ms median)", names[slowest], ms(med[slowest]))
	sort.Slice(med, func(a, c int) bool { return med[a] < med[c] })
	b.ReportMetric(ms(med[len(med)/2]), "median-ms/file")
	b.ReportMetric(ms(med[len(med)-1]), "max-ms/file")
	b.ReportMetric(float64(len(names)), "files")
}

func ms(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
