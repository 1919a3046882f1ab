package office

import (
	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/report"
)

// injectionCarriers lists the carriers SPEC.md item 8 names for Office:
// docProps/* values (and custom property names), comments and hidden runs.
// Concealed visible text (white on white) is not among them, for the same
// reason as the blind spot.
func (a *analysis) injectionCarriers() []inject.Carrier {
	var out []inject.Carrier
	for _, p := range a.props.core {
		out = append(out, inject.Carrier{Kind: inject.KindCoreProperty, Name: "core:" + p.Name, Text: p.Value})
	}
	for _, p := range a.props.app {
		out = append(out, inject.Carrier{Kind: inject.KindAppProperty, Name: "app:" + p.Name, Text: p.Value})
	}
	for _, p := range a.props.custom {
		out = append(out, inject.Carrier{Kind: inject.KindCustomProperty, Name: "custom:" + p.Name, Text: p.Value},
			inject.Carrier{Kind: inject.KindCustomProperty, Name: "custom-name", Text: p.Name})
	}
	for _, c := range a.comments {
		out = append(out, inject.Carrier{Kind: inject.KindComment, Name: "comment", Text: c})
	}
	for _, h := range a.word.hiddenText {
		out = append(out, inject.Carrier{Kind: inject.KindHiddenRun, Name: "hidden-run", Text: h})
	}
	return out
}

// injectionMarkers reports text addressed to a language model; the
// detector, the evidence and the severity rules are engine/inject's.
func (a *analysis) injectionMarkers() *report.Finding {
	return inject.Finding(report.FamilyOfficeInjectionMarkers, a.injectionCarriers())
}
