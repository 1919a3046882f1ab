package image

import (
	"context"
	"os"
	"sort"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/sniff"
)

// BenchmarkInspectImage walks every image in ../shared/corpus/image once
// per iteration and reports the median and maximum per-file time (the
// issue's target is a median under 1 ms):
//
//	go test -run='^$' -bench=InspectImage -benchmem ./engine/image/
func BenchmarkInspectImage(b *testing.B) {
	type file struct {
		data []byte
		f    sniff.Format
	}
	var files []file
	for _, p := range corpusImages(b) {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if f := sniff.Sniff(data).Format; f.Kind() == sniff.KindImage {
			files = append(files, file{data, f})
		}
	}
	per := make([]time.Duration, len(files))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for k, fl := range files {
			t0 := time.Now()
			if _, err := Analyze(context.Background(), fl.data, fl.f); err != nil {
				b.Fatal(err)
			}
			per[k] += time.Since(t0)
		}
	}
	b.StopTimer()
	sort.Slice(per, func(i, j int) bool { return per[i] < per[j] })
	n := float64(b.N)
	b.ReportMetric(float64(per[len(per)/2].Nanoseconds())/n, "median-ns/file")
	b.ReportMetric(float64(per[len(per)-1].Nanoseconds())/n, "max-ns/file")
	b.ReportMetric(float64(len(files)), "files")
}
