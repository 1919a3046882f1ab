package office

import (
	"context"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/internal/perfile"
)

// BenchmarkInspectOffice analyses every corpus Office file once per op. It
// reports files/s and MiB/s, the median and maximum over the files of each
// file's median time (goal: a median under 5 ms), and logs the slowest
// file:
//
//	go test -run='^$' -bench=InspectOffice -benchmem -benchtime=5x -count=3 ./engine/office/
func BenchmarkInspectOffice(b *testing.B) {
	names, data, formats := corpusOffice(b)
	var total int64
	for _, d := range data {
		total += int64(len(d))
	}
	per := perfile.New(len(names))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range data {
			start := time.Now()
			if _, err := Analyze(context.Background(), data[i], formats[i], Options{}); err != nil {
				b.Fatal(err)
			}
			per.Add(i, time.Since(start))
		}
	}
	b.StopTimer()
	perfile.Report(b, names, per, total)
}
