package office

import "github.com/doctrust/doctrust/engine/report"

// officeHiddenContentFamily declares the family (report.Declaration).
var officeHiddenContentFamily = declaration{
	ID:      "office-hidden-content",
	Order:   40,
	Run:     (*analysis).hiddenContent,
	Summary: "Hidden runs, sheets, rows, columns and slides holding content.",
	Evidence: []string{
		"payloadIsUntrusted", "recovered", "hiddenRuns", "hiddenSheets", "veryHiddenSheets",
		"hiddenRowCells", "hiddenColumnCells", "hiddenSlides", "hiddenTableRows",
	},
	Variants: []report.VariantDecl{
		{Code: "hidden-runs", Severity: report.Medium, Title: "Hidden text runs", Text: "{count#run of text is|runs of text are} marked hidden and {count?does|do} not show in the document's normal view."},
		{Code: "very-hidden-sheets", Severity: report.Medium, Title: "Very hidden sheets", Text: "{count#sheet is|sheets are} very hidden: {count?it cannot|they cannot} be unhidden from the spreadsheet's interface."},
		{Code: "hidden-sheets", Severity: report.Low, Title: "Hidden sheets", Text: "{count#sheet is|sheets are} hidden."},
		{Code: "hidden-cells", Severity: report.Low, Title: "Values in hidden rows or columns", Text: "{count#cell holds|cells hold} values in hidden rows ({rowCells}) or hidden columns ({columnCells})."},
		{Code: "hidden-rows-in-table", Severity: report.Medium, Title: "Rows of figures hidden inside a table", Text: "{rows#hidden row holding figures sits|hidden rows holding figures sit} between visible rows of figures, as when lines are taken out of a statement or list."},
		{Code: "hidden-slides", Severity: report.Low, Title: "Hidden slides", Text: "{count#slide is|slides are} hidden from the slide show."},
	},
}

// hiddenContent reports content kept in the file but not shown: hidden Word
// runs, hidden and very hidden sheets, cells holding values in hidden rows
// or columns, hidden slides. The recovered text is attacker-authored.
// Severity follows how deliberate the hiding is: veryHidden sheets cannot be
// unhidden from Excel's interface, hidden runs sit inside visible prose and
// hidden rows of figures sit inside a visible list of figures, so those are
// medium; the rest is low.
func (a *analysis) hiddenContent() *report.Finding {
	w, x, p := &a.word, &a.xl, &a.ppt
	total := w.hiddenRuns + x.hiddenSheets + x.veryHiddenSheets + x.hiddenRowCells + x.hiddenColCells + p.hiddenSlides
	if total == 0 {
		return nil
	}
	var recovered []string
	recovered = append(recovered, w.hiddenText...)
	recovered = append(recovered, x.recovered...)
	recovered = append(recovered, p.recovered...)
	ev := map[string]any{
		"payloadIsUntrusted": true,
		"recovered":          joinUntrusted(recovered),
		"hiddenRuns":         w.hiddenRuns,
		"hiddenSheets":       x.hiddenSheets,
		"veryHiddenSheets":   x.veryHiddenSheets,
		"hiddenRowCells":     x.hiddenRowCells,
		"hiddenColumnCells":  x.hiddenColCells,
		"hiddenSlides":       p.hiddenSlides,
		"hiddenTableRows":    x.hiddenTableRows,
	}
	f := &report.Finding{Family: report.FamilyOfficeHiddenContent, Evidence: ev, Severity: report.Low}
	var msgs []report.Message
	if w.hiddenRuns > 0 {
		f.Severity = report.Medium
		msgs = append(msgs, report.Msg("office-hidden-content.hidden-runs", "count", w.hiddenRuns))
	}
	if x.veryHiddenSheets > 0 {
		f.Severity = report.Medium
		msgs = append(msgs, report.Msg("office-hidden-content.very-hidden-sheets", "count", x.veryHiddenSheets))
	}
	// Rows of figures hidden between visible rows of figures are lines
	// taken out of a list (a statement's transactions, a payslip's
	// deductions) while the totals may still count them: medium, as
	// deliberate as a hidden run.
	if x.hiddenTableRows > 0 {
		f.Severity = report.Medium
		msgs = append(msgs, report.Msg("office-hidden-content.hidden-rows-in-table", "rows", x.hiddenTableRows))
	}
	if x.hiddenSheets > 0 {
		msgs = append(msgs, report.Msg("office-hidden-content.hidden-sheets", "count", x.hiddenSheets))
	}
	if n := x.hiddenRowCells + x.hiddenColCells; n > 0 {
		msgs = append(msgs, report.Msg("office-hidden-content.hidden-cells", "count", n, "rowCells", x.hiddenRowCells, "columnCells", x.hiddenColCells))
	}
	if p.hiddenSlides > 0 {
		msgs = append(msgs, report.Msg("office-hidden-content.hidden-slides", "count", p.hiddenSlides))
	}
	f.Message, f.Notes = msgs[0], msgs[1:]
	return f
}
