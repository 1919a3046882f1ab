//go:build unix

package pdf

import (
	"bytes"
	"context"
	"github.com/doctrust/doctrust/engine/report"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// BenchmarkInjectionShare measures what document-injection-markers adds to
// a full inspect of every ordinary corpus PDF, two ways. family-%: each
// iteration runs Analyze over all of them with the family and again without
// it (removed from the list), and reports the difference relative to the
// inspect without it. direct-%: the family alone (carrier walk and scan) is
// timed per file after the steps Analyze runs before it (document block,
// active-content walk, which loads the annotation objects it reuses), over
// the same inspect. All are CPU time of this process (getrusage), not wall
// time, so other processes on a loaded machine skew them less; the first
// is a difference of two large numbers and the noisier of the two.
//
//	go test -run='^$' -bench=InjectionShare -benchtime=30x -count=5 ./engine/pdf/
func BenchmarkInjectionShare(b *testing.B) {
	root, files := corpusPDFs(b)
	type doc struct {
		data   []byte
		header int
	}
	var docs []doc
	for _, rel := range files {
		if strings.HasPrefix(rel, "pdf-hostile/") {
			continue // containment, not throughput
		}
		data, err := os.ReadFile(filepath.Join(root, rel))
		if err != nil {
			b.Fatal(err)
		}
		if h := bytes.Index(data, []byte("%PDF")); h >= 0 {
			docs = append(docs, doc{data, h})
		}
	}
	with := families
	without := slices.DeleteFunc(slices.Clone(families), func(f *declaration) bool { return f.ID == report.FamilyDocumentInjectionMarkers })
	defer func() { families = with }()
	sweep := func(list []*declaration) time.Duration {
		families = list
		t0 := cpuTime()
		for _, d := range docs {
			Analyze(context.Background(), d.data, d.header, Options{})
		}
		return cpuTime() - t0
	}
	direct := func() time.Duration {
		var d time.Duration
		for _, doc := range docs {
			pd, err := Open(context.Background(), doc.data, doc.header, DefaultBudget)
			if err != nil {
				continue
			}
			a := pd.reading(Options{}, pd.limit)
			a.safe("active-content", func() { a.activeContent() })
			t0 := cpuTime()
			a.safe("family", func() { a.injectionMarkers() })
			d += cpuTime() - t0
		}
		return d
	}
	var on, off, fam time.Duration
	for i := 0; b.Loop(); i++ {
		if i%2 == 0 {
			on += sweep(with)
			off += sweep(without)
		} else {
			off += sweep(without)
			on += sweep(with)
		}
		fam += direct()
	}
	b.ReportMetric(float64(len(docs)), "files")
	b.ReportMetric(float64(on.Nanoseconds())/float64(b.N), "with-cpu-ns/sweep")
	b.ReportMetric(float64(off.Nanoseconds())/float64(b.N), "without-cpu-ns/sweep")
	b.ReportMetric(float64(fam.Nanoseconds())/float64(b.N), "family-cpu-ns/sweep")
	b.ReportMetric(100*float64(on-off)/float64(off), "family-%")
	b.ReportMetric(100*float64(fam)/float64(off), "direct-%")
}

// cpuTime is the user and system CPU time this process has used.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
