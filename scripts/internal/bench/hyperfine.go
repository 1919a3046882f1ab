package bench

import (
	"encoding/json"
	"fmt"
	"os"
	"time"
)

// Timing is one command of a hyperfine run (--export-json).
type Timing struct {
	Median    time.Duration
	Runs      int
	NonZero   int // runs that exited non-zero (hyperfine -i times them too)
	ExitCodes []int
}

// ReadHyperfine reads the file hyperfine --export-json wrote, by command
// name (the -n given, else the command line).
func ReadHyperfine(path string) (map[string]Timing, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var doc struct {
		Results []struct {
			Command   string    `json:"command"`
			Median    float64   `json:"median"`
			Times     []float64 `json:"times"`
			ExitCodes []*int    `json:"exit_codes"`
		} `json:"results"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	out := make(map[string]Timing, len(doc.Results))
	for _, r := range doc.Results {
		t := Timing{Median: time.Duration(r.Median * float64(time.Second)), Runs: len(r.Times)}
		for _, c := range r.ExitCodes {
			// hyperfine writes null for a run killed by a signal.
			code := -1
			if c != nil {
				code = *c
			}
			t.ExitCodes = append(t.ExitCodes, code)
			if code != 0 {
				t.NonZero++
			}
		}
		out[r.Command] = t
	}
	return out, nil
}
