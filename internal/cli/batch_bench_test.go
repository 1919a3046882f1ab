package cli

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/corpustest"
)

// BenchmarkBatchCorpusPDFs runs `doctrust inspect -` in process over every
// *.pdf of the corpus (the list scripts/bench-batch.sh times): workers,
// scheduling, collector setting, engine, receipts and printing, so a CPU
// profile shows the whole batch:
//
//	go test -run '^$' -bench BatchCorpusPDFs -benchtime 3x -cpuprofile cpu.prof ./internal/cli/
func BenchmarkBatchCorpusPDFs(b *testing.B) {
	root := corpustest.Root()
	corpustest.Require(b, root)
	var list strings.Builder
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() && strings.HasSuffix(p, ".pdf") {
			list.WriteString(p + "\n")
		}
		return nil
	})
	inspect := Inspect(func() ([]byte, error) { return []byte("bench"), nil })
	b.ResetTimer()
	for range b.N {
		Stdin = strings.NewReader(list.String())
		if code := inspect([]string{"-"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
	b.StopTimer()
	Stdin = os.Stdin
}
