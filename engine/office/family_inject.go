package office

import (
	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/report"
)

// carrier is one attacker-authored text and the kind of place it came from.
type carrier struct{ name, text string }

// injectionCarriers lists the carriers SPEC.md item 8 names for Office:
// docProps/* values, comments and hidden runs. Concealed visible text (white
// on white) is not among them, for the same reason as the blind spot.
func (a *analysis) injectionCarriers() []carrier {
	var out []carrier
	for _, p := range a.props.core {
		out = append(out, carrier{"core:" + p.Name, p.Value})
	}
	for _, p := range a.props.app {
		out = append(out, carrier{"app:" + p.Name, p.Value})
	}
	for _, p := range a.props.custom {
		out = append(out, carrier{"custom:" + p.Name, p.Value})
		out = append(out, carrier{"custom-name", p.Name})
	}
	for _, c := range a.comments {
		out = append(out, carrier{"comment", c})
	}
	for _, h := range a.word.hiddenText {
		out = append(out, carrier{"hidden-run", h})
	}
	return out
}

// injectionMarkers reports text addressed to a language model. Field names
// and payloads go only into evidence.fields (both redacted by
// ?redact=payload); the message names counts and nothing else.
func (a *analysis) injectionMarkers() *report.Finding {
	var fields []report.UntrustedField
	cues := map[string]int{}
	tech := map[string]bool{}
	onlySteering := true
	for _, c := range a.injectionCarriers() {
		r := inject.Scan(c.text)
		if !r.Found() {
			continue
		}
		fields = append(fields, report.UntrustedField{Name: report.Untrusted(c.name), Payload: report.Untrusted(c.text)})
		for _, cat := range r.Categories() {
			cues[string(cat)] += r.Cues[cat]
			if cat != inject.Steering {
				onlySteering = false
			}
		}
		for _, t := range r.Techniques {
			tech[t] = true
		}
	}
	if len(fields) == 0 {
		return nil
	}
	cueEv := make(map[string]any, len(cues))
	for _, k := range sortedKeys(cues) {
		cueEv[k] = cues[k]
	}
	ev := map[string]any{"payloadIsUntrusted": true, "cues": cueEv, "techniques": sortedKeys(tech)}
	report.Capped(ev, "fields", fields)
	sev := report.High
	if onlySteering {
		sev = report.Medium
	}
	return &report.Finding{
		Family:   "office-injection-markers",
		Severity: sev,
		Message:  report.Msg("office-injection-markers.found", "count", len(fields), "categories", len(cues)),
		Evidence: ev,
	}
}
