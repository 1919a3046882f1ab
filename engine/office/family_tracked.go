package office

import (
	"sort"

	"github.com/doctrust/doctrust/engine/report"
)

// officeTrackedChangesFamily declares the family (report.Declaration).
var officeTrackedChangesFamily = declaration{
	ID:      "office-tracked-changes",
	Order:   50,
	Run:     (*analysis).trackedChanges,
	Summary: "Insertions, deletions and moves still recorded in the package.",
	Evidence: []string{
		"payloadIsUntrusted", "recovered", "insertions", "deletions", "movesFrom", "movesTo",
		"formattingChanges", "authors[]",
	},
	Variants: []report.VariantDecl{
		{Code: "deletions", Severity: report.Medium, Title: "Tracked deletions recorded", Text: "The document records {deletions#deletion|deletions}, {insertions#insertion|insertions}, {moves#move mark|move marks} and {formatting#formatting change|formatting changes} by {authors#author|authors}; the deleted text is still in the file."},
		{Code: "insertions", Severity: report.Low, Title: "Tracked insertions recorded", Text: "The document records {insertions#insertion|insertions}, {moves#move mark|move marks} and {formatting#formatting change|formatting changes} by {authors#author|authors}."},
		{Code: "formatting", Severity: report.Info, Title: "Tracked formatting changes", Text: "The document records {formatting#formatting change|formatting changes} by {authors#author|authors}."},
	},
}

// trackedChanges reports revision marks still recorded in a package (Word's
// tracked changes, a shared workbook's revision log): the previous wording
// survives in the file even when the view hides it.
// Deletions are medium because they return text someone removed; the
// recovered deleted text and the authors are attacker-authored.
func (a *analysis) trackedChanges() *report.Finding {
	w := a.word.plus(a.xl.revisionMarks)
	if w.total() == 0 {
		return nil
	}
	authors := make([]string, 0, len(w.authors))
	for n := range w.authors {
		authors = append(authors, report.Untrusted(n))
	}
	sort.Strings(authors)
	ev := map[string]any{
		"payloadIsUntrusted": true,
		"insertions":         w.ins,
		"deletions":          w.del,
		"movesFrom":          w.moveFrom,
		"movesTo":            w.moveTo,
		"formattingChanges":  w.formatting,
		"recovered":          joinUntrusted(w.deletedText),
		"authorsTotal":       len(authors),
	}
	if len(authors) > report.MaxArray {
		authors = authors[:report.MaxArray]
	}
	ev["authors"] = authors
	ev["authorsTruncated"] = len(w.authors) > report.MaxArray
	f := &report.Finding{Family: report.FamilyOfficeTrackedChanges, Evidence: ev}
	moves := w.moveFrom + w.moveTo
	params := []any{"insertions", w.ins, "deletions", w.del, "moves", moves, "formatting", w.formatting, "authors", len(w.authors)}
	switch {
	case w.del > 0:
		f.Severity = report.Medium
		f.Message = report.Msg("office-tracked-changes.deletions", params...)
	case w.ins > 0 || moves > 0:
		f.Severity = report.Low
		f.Message = report.Msg("office-tracked-changes.insertions", params...)
	default:
		f.Severity = report.Info
		f.Message = report.Msg("office-tracked-changes.formatting", params...)
	}
	return f
}
