// Command buildbaselines rebuilds the built-in public-specimen profiles
// (internal/baselines/builtin/*.json) from the test corpus, following
// internal/baselines.Specimens. Run from the repository root:
//
//	go run ./scripts/buildbaselines [-corpus ../shared/corpus]
//
// The output is deterministic; internal/baselines' tests check that the
// shipped files equal a rebuild whenever the corpus is present.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/doctrust/doctrust/internal/baselines"
)

func main() {
	corpus := flag.String("corpus", "../shared/corpus", "corpus root (MANIFEST.tsv)")
	out := flag.String("out", "internal/baselines/builtin", "output folder")
	flag.Parse()
	for _, sp := range baselines.Specimens {
		p, err := sp.Build(context.Background(), *corpus)
		if err != nil {
			fmt.Fprintln(os.Stderr, "buildbaselines:", err)
			os.Exit(1)
		}
		body, err := baselines.Encode(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "buildbaselines:", err)
			os.Exit(1)
		}
		path := filepath.Join(*out, sp.Issuer+".json")
		if err := os.WriteFile(path, body, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "buildbaselines:", err)
			os.Exit(1)
		}
		fmt.Printf("%s: %d samples\n", path, p.SampleCount)
	}
}
