package corpustest

import "testing"

// TestCorpusPresent is the one place a run states whether the corpus is
// there: it skips with Note in a clone without it, and fails in CI.
func TestCorpusPresent(t *testing.T) {
	root := Root()
	if root == "" {
		t.Fatal("no go.mod above the test's folder")
	}
	Require(t, root)
	if rows := Manifest(t, root); len(rows) == 0 {
		t.Fatal("the corpus manifest lists no file")
	}
}

func TestRequireSkipsOutsideCI(t *testing.T) {
	t.Setenv("CI", "")
	ran := false
	t.Run("absent", func(t *testing.T) {
		defer func() { ran = true }()
		Require(t, "/nonexistent/corpus")
		t.Error("Require did not stop the test")
	})
	if !ran {
		t.Fatal("subtest did not run")
	}
}
