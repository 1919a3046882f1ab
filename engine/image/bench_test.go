package image

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/internal/perfile"
	"github.com/doctrust/doctrust/engine/sniff"
)

// BenchmarkInspectImage walks every image in ../shared/corpus/image once
// per op. It reports files/s and MiB/s, the median and maximum over the
// files of each file's median time (the target is a median under
// 1 ms), and logs the slowest file:
//
//	go test -run='^$' -bench=InspectImage -benchmem -benchtime=5x -count=3 ./engine/image/
func BenchmarkInspectImage(b *testing.B) {
	var (
		names   []string
		data    [][]byte
		formats []sniff.Format
		total   int64
	)
	root, _ := filepath.Abs("../../../shared/corpus/image")
	for _, p := range corpusImages(b) {
		d, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		if f := sniff.Sniff(d).Format; f.Kind() == sniff.KindImage {
			rel, _ := filepath.Rel(root, p)
			names, data, formats = append(names, rel), append(data, d), append(formats, f)
			total += int64(len(d))
		}
	}
	per := perfile.New(len(names))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for i := range data {
			start := time.Now()
			if _, err := Analyze(context.Background(), data[i], formats[i]); err != nil {
				b.Fatal(err)
			}
			per.Add(i, time.Since(start))
		}
	}
	b.StopTimer()
	perfile.Report(b, names, per, total)
}
