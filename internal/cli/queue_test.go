package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestJobQueueLargestFirst: the waiting files start largest first, equal
// sizes in the order found, and a closed queue still hands out what it
// holds.
func TestJobQueueLargestFirst(t *testing.T) {
	q := newJobQueue()
	for i, size := range []int64{10, 300, 0, 300, 7, 5000} {
		q.push(batchJob{seq: i, size: size})
	}
	q.close()
	var got []int
	for j, ok := q.pop(); ok; j, ok = q.pop() {
		got = append(got, j.seq)
	}
	if fmt.Sprint(got) != "[5 1 3 0 4 2]" {
		t.Errorf("order %v, want [5 1 3 0 4 2]", got)
	}
}

// TestBatchOrderWithSizes: files of very different sizes, started largest
// first, still print in the order found, the same for one worker and many.
func TestBatchOrderWithSizes(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 40 {
		title := strings.Repeat("x", (i*37)%11*500)
		p := filepath.Join(dir, fmt.Sprintf("f%02d.pdf", i))
		if err := os.WriteFile(p, onePagePDF(title), 0o644); err != nil {
			t.Fatal(err)
		}
		want = append(want, p)
	}
	_, one, _ := runBatch(t, "", Metadata, "--jobs", "1", dir)
	_, many, _ := runBatch(t, "", Metadata, "--jobs", "5", dir)
	if one != many {
		t.Errorf("1 worker and 5 workers differ")
	}
	rs := records(t, many)
	if len(rs) != len(want) {
		t.Fatalf("%d records", len(rs))
	}
	for i, r := range rs {
		if r.Path != want[i] || r.Report == nil {
			t.Errorf("record %d: %s, want %s", i, r.Path, want[i])
		}
	}
}
