package compare

import (
	"sort"

	"github.com/doctrust/doctrust/engine/report"
)

// Finding is one fact of a comparison with its severity. Its texts come
// from the one English catalogue (engine/report/messages.go, codes
// compare.<id>); params hold numbers only.
type Finding struct {
	ID       string          `json:"id"`
	Severity report.Severity `json:"severity"`
	Title    string          `json:"title"`
	Detail   string          `json:"detail"`
	Message  report.Message  `json:"message"`
}

// severities is the one table of finding ids and their severities (an
// array, so no map is built at process start; TestSeverityIDsUnique).
var severities = [...]struct {
	id  string
	sev report.Severity
}{
	{"identical-bytes", report.Info},
	{"revisions-appended", report.Low},
	{"bytes-appended-without-revision", report.Low},
	{"candidate-is-earlier-version", report.Medium},
	{"content-touched", report.Medium},
	{"rewritten", report.Info},
	{"same-document-resaved", report.Info},
	{"different-document", report.Medium},
	{"id-absent", report.Info},
	{"page-count-changed", report.Medium},
	{"page-geometry-changed", report.Low},
	{"fonts-added", report.Medium},
	{"fonts-removed", report.Low},
	{"font-subsets-changed", report.Info},
	{"metadata-changed", report.Low},
	{"producer-changed", report.Low},
	{"structure-changed", report.Info},
	{"figures-changed", report.Medium},
	{"words-changed", report.Low},
	{"signature-integrity-changed", report.High},
}

// Severity returns a finding id's severity (for docs and tests).
func Severity(id string) (report.Severity, bool) {
	for _, e := range severities {
		if e.id == id {
			return e.sev, true
		}
	}
	return "", false
}

// IDs lists every finding id, sorted.
func IDs() []string {
	out := make([]string, 0, len(severities))
	for _, e := range severities {
		out = append(out, e.id)
	}
	sort.Strings(out)
	return out
}

func find(id string, kv ...any) Finding {
	m := report.Msg("compare."+id, kv...)
	sev, _ := Severity(id)
	return Finding{ID: id, Severity: sev, Title: report.Title(m), Detail: report.Render(m), Message: m}
}

func (r *Report) add(f Finding) { r.Findings = append(r.Findings, f) }

// sortFindings orders most severe first, then by id, like report signals.
func (r *Report) sortFindings() {
	sort.SliceStable(r.Findings, func(i, j int) bool {
		a, b := r.Findings[i], r.Findings[j]
		if a.Severity.Rank() != b.Severity.Rank() {
			return a.Severity.Rank() > b.Severity.Rank()
		}
		return a.ID < b.ID
	})
}
