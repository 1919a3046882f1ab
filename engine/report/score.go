package report

import "math"

// Band is the summary risk band.
type Band string

const (
	BandLow      Band = "low"
	BandElevated Band = "elevated"
	BandHigh     Band = "high"
)

// Severity weights: each signal adds its severity's points, independent
// facts of editing that agree add a corroboration bonus, the sum is capped
// at 100, and without a high-severity signal it is clamped to 69 so the high
// band stays reserved for reports with at least one high signal (SPEC.md).
// docs/scoring.md explains the choice; changing these changes EngineVersion.
const (
	pointsLow    = 10
	pointsMedium = 30
	pointsHigh   = 70
	maxScore     = 100
	clampNoHigh  = 69
)

// Points returns the score contribution of one signal of severity s.
func Points(s Severity) int {
	switch s {
	case Low:
		return pointsLow
	case Medium:
		return pointsMedium
	case High:
		return pointsHigh
	}
	return 0
}

// BandOf maps a score to its band: low under 30, elevated 30-69, high 70 up.
func BandOf(score int) Band {
	switch {
	case score >= 70:
		return BandHigh
	case score >= 30:
		return BandElevated
	}
	return BandLow
}

// Score computes riskScore, riskBand and signalCount from the signals.
// Independent facts of editing that agree (corroboration.go) add
// corroborationPoints once, before the cap and the clamp.
func Score(signals []Signal) (score int, band Band, count int) {
	hasHigh := false
	for _, s := range signals {
		score += Points(s.Severity)
		if s.Severity.Rank() > 0 {
			count++
		}
		if s.Severity == High {
			hasHigh = true
		}
	}
	if _, ok := Corroborated(signals); ok {
		score += corroborationPoints
	}
	score = min(score, maxScore)
	if !hasHigh {
		score = min(score, clampNoHigh)
	}
	return score, BandOf(score), count
}

// Finish orders the signals, keeps one per family (the most severe; the
// analysers already merge variants, so a second one is a bug that must not
// reach the contract), and fills the summary. It is the last step of every
// analyser and is idempotent.
func (r *Report) Finish() {
	sortSignals(r.Signals)
	seen := make(map[string]bool, len(r.Signals))
	kept := r.Signals[:0]
	for _, s := range r.Signals {
		if seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		kept = append(kept, s)
	}
	r.Signals = kept
	annotateCorroboration(r.Signals)
	r.Summary.RiskScore, r.Summary.RiskBand, r.Summary.SignalCount = Score(r.Signals)
	r.Summary.Revisions = r.Document.Revisions
	c := &r.Summary.Cost
	c.PhysicalBytes = r.Document.SizeBytes
	if c.PhysicalBytes > 0 {
		c.ExpansionRatio = math.Round(float64(c.ExpandedBytes)/float64(c.PhysicalBytes)*1000) / 1000
	} else {
		c.ExpansionRatio = 0
	}
}

// Add appends a finding's signal.
func (r *Report) Add(f Finding) {
	r.Signals = append(r.Signals, f.Signal())
}

// Has reports whether a family already produced a signal.
func (r *Report) Has(family string) bool {
	for _, s := range r.Signals {
		if s.ID == family {
			return true
		}
	}
	return false
}
