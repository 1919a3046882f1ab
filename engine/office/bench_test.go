package office

import (
	"context"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/internal/perfile"
	"github.com/doctrust/doctrust/engine/sniff"
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

// BenchmarkInspectLegacy is BenchmarkInspectOffice for the binary (.doc,
// .xls, .ppt), binary-workbook (.xlsb) and OpenDocument corpus files, each
// through its own walker:
//
//	go test -run='^$' -bench=InspectLegacy -benchmem -benchtime=5x -count=3 ./engine/office/
func BenchmarkInspectLegacy(b *testing.B) {
	names, data, formats := corpusOther(b)
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
			var err error
			switch formats[i] {
			case sniff.DOC, sniff.XLS, sniff.PPT:
				_, err = AnalyzeLegacy(context.Background(), data[i], formats[i], Options{})
			case sniff.ODT, sniff.ODS, sniff.ODP:
				_, err = AnalyzeODF(context.Background(), data[i], formats[i], Options{})
			default:
				_, err = Analyze(context.Background(), data[i], formats[i], Options{})
			}
			if err != nil {
				b.Fatal(err)
			}
			per.Add(i, time.Since(start))
		}
	}
	b.StopTimer()
	perfile.Report(b, names, per, total)
}

// BenchmarkDefaultPassword measures opening an agile-encrypted workbook
// with Excel's default password (100 000 SHA-512 rounds, then AES):
//
//	go test -run='^$' -bench=DefaultPassword -benchtime=5x ./engine/office/
func BenchmarkDefaultPassword(b *testing.B) {
	data := readTestdata(b, "legacy/default-password-invoice.xlsx")
	b.ReportAllocs()
	for b.Loop() {
		if DecryptDefault(data, 0) == nil {
			b.Fatal("not decrypted")
		}
	}
}
