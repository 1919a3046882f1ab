package cli

import (
	"os"
	"runtime/debug"
)

// A batch allocates fast against a small live heap: the documents in
// flight, about 6 MB over the corpus PDFs. At Go's default (GOGC=100) it
// collects every few megabytes, 65 times over the corpus's 421 PDFs, and
// each collection stops every worker twice and turns on write barriers
// while it marks; on a busy machine a stop waits for a worker's thread to
// be scheduled again. At 800 the heap may grow to nine times the live data
// and the same run collects 6 times, for about 15% less CPU than at 400
// (docs/performance.md, batch).
//
// The memory limit bounds that growth when the live data is large: the
// collector runs sooner as the heap nears it, so the heap stays under
// batchMemoryPerWorker a worker unless the documents in flight need more
// (a document needs at most about 64 MB and four times its size,
// docs/decisions.md).
const (
	batchGCPercent       = 800
	batchMemoryPerWorker = 256 << 20
)

// batchGC sets the collector for one batch of jobs workers and returns
// what puts it back. GOGC or GOMEMLIMIT in the environment is the user's
// choice and is left alone.
func batchGC(jobs int) (restore func()) {
	var undo []func()
	if os.Getenv("GOGC") == "" {
		old := debug.SetGCPercent(batchGCPercent)
		undo = append(undo, func() { debug.SetGCPercent(old) })
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		old := debug.SetMemoryLimit(int64(jobs) * batchMemoryPerWorker)
		undo = append(undo, func() { debug.SetMemoryLimit(old) })
	}
	return func() {
		for _, u := range undo {
			u()
		}
	}
}
