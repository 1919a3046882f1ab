package baselines

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/baseline"
)

// TestTrainingCountsAFileOnce: the same bytes sent twice in one training
// are one sample, and the second is listed as skipped, duplicate.
func TestTrainingCountsAFileOnce(t *testing.T) {
	dir := filepath.Join("..", "..", "engine", "testdata", "detection", "traces")
	a, err := os.ReadFile(filepath.Join(dir, "genuine-gs-statement-1.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "genuine-cr-invoice-1.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	tr := &Training{s: &Service{}, issuer: "acme", profile: baseline.New("acme", "")}
	for _, f := range []struct {
		name string
		data []byte
	}{{"jan.pdf", a}, {"jan-copy.pdf", a}, {"feb.pdf", b}, {"jan-again.pdf", a}} {
		tr.Add(t.Context(), f.name, f.data)
	}
	if tr.Received != 4 || tr.profile.SampleCount != 2 {
		t.Fatalf("received %d, samples %d; want 4 and 2", tr.Received, tr.profile.SampleCount)
	}
	want := []Skipped{{"jan-copy.pdf", ReasonDuplicate}, {"jan-again.pdf", ReasonDuplicate}}
	if len(tr.Skipped) != 2 || tr.Skipped[0] != want[0] || tr.Skipped[1] != want[1] {
		t.Fatalf("skipped %+v, want %+v", tr.Skipped, want)
	}
}
