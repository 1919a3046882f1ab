package cli

import (
	"fmt"
	"sync/atomic"

	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/engine/report"
)

// exitGate is the status of a run whose check said no: some file reached
// the --fail-on band or a policy's verdict was reject (inspect), or the
// receipt is not valid (verify). A pipeline stops on it; 1 to 4 still
// mean the run itself could not finish and win over it.
const exitGate = 5

// bandRank orders the bands for --fail-on.
var bandRank = map[report.Band]int{report.BandLow: 1, report.BandElevated: 2, report.BandHigh: 3}

// gate watches a run's reports for what fails a pipeline. It is shared by
// a batch's workers.
type gate struct {
	failOn report.Band // "" when --fail-on is not set
	failed atomic.Bool
}

func newGate(failOn string) (*gate, error) {
	if failOn == "" {
		return &gate{}, nil
	}
	b := report.Band(failOn)
	if bandRank[b] == 0 {
		return nil, fmt.Errorf("--fail-on must be low, elevated or high, not %q", failOn)
	}
	return &gate{failOn: b}, nil
}

// see reads one report, as the policy saw it (redaction changes neither
// its band nor its verdict).
func (g *gate) see(r *report.Report) {
	if r == nil {
		return
	}
	if g.failOn != "" && bandRank[r.Summary.RiskBand] >= bandRank[g.failOn] {
		g.failed.Store(true)
	}
	if r.Policy != nil && r.Policy.Verdict == policy.Reject {
		g.failed.Store(true)
	}
}

// exit is the run's status: code when the run itself failed, else 5 when
// the gate did.
func (g *gate) exit(code int) int {
	if code == 0 && g.failed.Load() {
		return exitGate
	}
	return code
}
