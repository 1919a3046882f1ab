package baseline

import (
	"math"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/report"
)

// ConsistencyThreshold: a dimension is stable, and so able to produce a
// mismatch, when at least this share of the training samples showed its
// most common value. A dimension the issuer itself varies on (several
// producers, many page sizes) never flags.
const ConsistencyThreshold = 0.8

// FlagDivergence is the divergence at and above which a mismatch is a
// confident deviation and raises an issuer-mismatch signal. A different
// producer alone (weight 6 of 29) reaches it, and so does a rewrite by
// another program that keeps the Producer (header, object order and
// syntax: 6 of 29); one structural dimension alone (weight 1) does not.
const FlagDivergence = 0.2

// mediumDivergence raises the signal from low to medium.
const mediumDivergence = 0.5

// Result is the outcome of matching one document against a profile.
type Result struct {
	SampleCount    int
	MatchingActive bool
	// Divergence is the weighted share of stable dimensions whose value the
	// training samples never showed, 0..1; 0 while matching is inactive.
	Divergence           float64
	MismatchedDimensions []string
	// Finding is the issuer-mismatch signal, nil unless the deviation is
	// confident.
	Finding *report.Finding
}

// Match compares a document's description with a profile. Below
// MinSamplesForMatching every dimension is unknown and nothing is flagged.
func Match(p *Profile, d *pdf.Description) Result {
	res := Result{SampleCount: p.SampleCount, MatchingActive: p.MatchingActive(), MismatchedDimensions: []string{}}
	if !res.MatchingActive {
		return res
	}
	o := Observe(d)
	var total, off float64
	type diff struct {
		Dimension string `json:"dimension"`
		Expected  any    `json:"expected"`
		Observed  any    `json:"observed"`
	}
	var diffs []diff
	for _, dim := range dimensions {
		top, n := p.top(dim.name)
		if float64(n)/float64(p.SampleCount) < ConsistencyThreshold {
			continue
		}
		total += dim.weight
		if p.Counts[dim.name][o[dim.name]] > 0 {
			continue
		}
		off += dim.weight
		res.MismatchedDimensions = append(res.MismatchedDimensions, dim.name)
		diffs = append(diffs, diff{dim.name, evidenceValue(dim.kind, top), evidenceValue(dim.kind, o[dim.name])})
	}
	if total > 0 {
		res.Divergence = math.Round(off/total*1000) / 1000
	}
	if res.Divergence < FlagDivergence {
		return res
	}
	sev := report.Low
	if res.Divergence >= mediumDivergence {
		sev = report.Medium
	}
	ev := map[string]any{
		"issuer":               p.Issuer,
		"sampleCount":          p.SampleCount,
		"divergence":           res.Divergence,
		"mismatchedDimensions": res.MismatchedDimensions,
	}
	report.Capped(ev, "differences", diffs)
	res.Finding = &report.Finding{
		Family:   report.FamilyIssuerMismatch,
		Severity: sev,
		Message: report.Msg("issuer-mismatch.diverges",
			"dimensions", len(res.MismatchedDimensions),
			"samples", p.SampleCount,
			"divergencePercent", int(math.Round(res.Divergence*100))),
		Evidence: ev,
	}
	return res
}

// evidenceValue types booleans and counts; text values are the document's
// or the training documents' own and go through report.Untrusted.
func evidenceValue(k valueKind, v string) any {
	if k == text {
		return report.Untrusted(v)
	}
	return typed(k, v)
}
