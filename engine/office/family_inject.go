package office

import (
	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/report"
)

// officeInjectionMarkersFamily declares the family (report.Declaration).
var officeInjectionMarkersFamily = declaration{
	ID:      "office-injection-markers",
	Order:   60,
	Run:     (*analysis).injectionMarkers,
	Summary: "Text addressed to a language model in document properties, comments and hidden runs.",
	Evidence: []string{
		"payloadIsUntrusted", "fields[]", "fieldKinds[]", "cues", "techniques", "carrierKinds",
		"directiveFields", "carriersScanned", "carriersTruncated",
	},
	Variants: []report.VariantDecl{
		{Code: "hidden-directive", Severity: report.High, Title: "Hidden instructions for a language model", Text: "{fields#document property, comment or hidden-run field|document property, comment or hidden-run fields} {fields?holds|hold} text addressed to a language model; at least one, in {kind~}, gives it an instruction where a reader does not see it, or hides it by obfuscation ({categories#cue category|cue categories}, {techniques#obfuscation technique|obfuscation techniques})."},
		{Code: "directive", Severity: report.Medium, Title: "Instructions for a language model", Text: "{fields#document property, comment or hidden-run field|document property, comment or hidden-run fields} {fields?holds|hold} text addressed to a language model; the instructions sit in carriers a reader can open, such as a comment (first in {kind~}; {categories#cue category|cue categories})."},
		{Code: "cues", Severity: report.Low, UpTo: report.Medium, Title: "Language-model cue words", Text: "{fields#document property, comment or hidden-run field|document property, comment or hidden-run fields} {fields?holds|hold} words aimed at a language model without an instruction a model would follow (first in {kind~}; {categories#cue category|cue categories}, {techniques#obfuscation technique|obfuscation techniques})."},
		{Code: "categories", Text: "Cue categories: {categories}."},
		{Code: "techniques", Text: "Obfuscation undone: {techniques}."},
	},
}

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
