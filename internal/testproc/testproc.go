// Package testproc holds what the packages running real helper servers
// for tests share (ddblocal for DynamoDB Local, stripemock for
// stripe-mock): finding the repository root where `make tools` installs
// them, keeping a bounded copy of a server's output, and never letting a
// server outlive the test binary.
package testproc

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
)

// RepoRoot walks up from the working directory (a package folder under
// `go test`) to the folder holding go.mod.
func RepoRoot() (string, bool) {
	dir, err := os.Getwd()
	if err != nil {
		return "", false
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

// LimitedBuffer keeps the first Max bytes written to it: enough to
// explain a failed start-up without holding a chatty log in memory.
type LimitedBuffer struct {
	Max int
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *LimitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if room := b.Max - b.buf.Len(); room > 0 {
		b.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (b *LimitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
