package office

import "github.com/doctrust/doctrust/engine/report"

// variant is one fired check of a family, merged into a single signal.
type variant struct {
	sev report.Severity
	msg report.Message
}

// compose merges a family's variants into one finding: the most severe one
// is the message (first fired wins a tie), the rest become notes in firing
// order, and the finding takes the highest severity.
func compose(family string, vs []variant, ev map[string]any) *report.Finding {
	if len(vs) == 0 {
		return nil
	}
	best := 0
	for i, v := range vs {
		if v.sev.Rank() > vs[best].sev.Rank() {
			best = i
		}
	}
	f := &report.Finding{Family: family, Severity: vs[best].sev, Message: vs[best].msg, Evidence: ev}
	for i, v := range vs {
		if i != best {
			f.Notes = append(f.Notes, v.msg)
		}
	}
	return f
}
