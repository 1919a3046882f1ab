package sigs

import "github.com/doctrust/doctrust/engine/report"

// incrementalUpdates reports revisions appended after the original save,
// with what each wrote and overwrote (SPEC.md's changedPerRevision).
// Appends that change what a page shows are medium; others (signing, form
// filling, annotations, metadata) are low.
func (a *analysis) incrementalUpdates() *report.Finding {
	changes := a.revisionChanges()
	if len(changes) == 0 {
		return nil
	}
	contentRevisions := 0
	per := make([]map[string]any, 0, len(changes))
	for _, ch := range changes {
		if ch.ContentTouched() {
			contentRevisions++
		}
		per = append(per, ch.Evidence())
	}
	ev := map[string]any{"revisions": len(a.f.Revisions), "contentRevisions": contentRevisions}
	report.Capped(ev, "changedPerRevision", per)
	fd := &report.Finding{Family: report.FamilyIncrementalUpdates, Evidence: ev}
	if contentRevisions > 0 {
		fd.Severity = report.Medium
		fd.Message = report.Msg("incremental-updates.content-touched", "appended", len(changes), "contentRevisions", contentRevisions)
	} else {
		fd.Severity = report.Low
		fd.Message = report.Msg("incremental-updates.appended", "appended", len(changes))
	}
	return fd
}
