package pdf

import (
	"strings"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/producers"
	"github.com/doctrust/doctrust/engine/report"
)

// metadataInconsistencyFamily declares the metadata-inconsistency family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var metadataInconsistencyFamily = declaration{
	ID:      "metadata-inconsistency",
	Order:   90,
	Run:     (*analysis).metadataInconsistency,
	Summary: "Info dictionary and XMP disagree, dates out of order or in the future, editing tools in the XMP history.",
	Evidence: []string{
		"datesOutOfOrder", "futureDates", "infoProducer", "xmpProducer", "dateMismatches",
		"historyEditors[]", "launderedEditors[]", "launderedRevisions", "changedBetweenRevisions",
	},
	Variants: []report.VariantDecl{
		{Code: "dates-out-of-order", Severity: report.Medium, Title: "Modified before created", Text: "The modification date is earlier than the creation date."},
		{Code: "future-date", Severity: report.Medium, Title: "Date in the future", Text: "A document date lies after the time of analysis."},
		{Code: "producer-mismatch", Severity: report.Low, Title: "Info and XMP producers differ", Text: "The producer recorded in the Info dictionary differs from the one in the XMP metadata, as happens when one tool updates only one of them."},
		{Code: "date-mismatch", Severity: report.Low, Title: "Info and XMP dates differ", Text: "{fields#date field differs|date fields differ} between the Info dictionary and the XMP metadata by more than {toleranceSeconds#second|seconds}."},
		{Code: "history-editor", Severity: report.Low, Title: "Editing tool in XMP history", Text: "The XMP editing history names {editors#PDF editing tool|PDF editing tools}."},
		{Code: "editor-laundered", Severity: report.Medium, Title: "Editor's name removed from the metadata", Text: "Revision {namedInRevision} named {editors#PDF editing tool|PDF editing tools} as producer or creator, and revision {clearedInRevision} replaced the name with software that is not an editor, as happens when the original producer is written back after an edit."},
		{Code: "history-changed", Severity: report.Low, Title: "Metadata changed between revisions", Text: "{fields#metadata field|metadata fields} (producer, creator, creation date, or a modification date moving backwards) changed between two revisions that add no signature."},
	},
}

// Tolerances for date comparisons. Writers round and time zones get lost,
// so small differences are not evidence of anything.
const (
	dateTolerance   = 120 * time.Second
	zonelessSlack   = 14 * time.Hour // a date without offset may be any zone's wall clock
	futureTolerance = 24 * time.Hour
)

// metadataInconsistency compares the Info dictionary with the XMP packet,
// checks date order and future dates, reads the XMP editing history, and
// compares the metadata of every revision (history.go).
func (a *analysis) metadataInconsistency() *report.Finding {
	if a.f.Sealed() {
		return nil
	}
	type finding struct {
		sev report.Severity
		msg report.Message
	}
	var found []finding
	ev := map[string]any{}

	created, cOK := a.infoDate("CreationDate")
	modified, mOK := a.infoDate("ModDate")
	xCreated, xcOK := a.xmpDate("CreateDate")
	xModified, xmOK := a.xmpDate("ModifyDate")

	if cOK && mOK && before(modified, created) || xcOK && xmOK && before(xModified, xCreated) {
		found = append(found, finding{report.Medium, report.Msg("metadata-inconsistency.dates-out-of-order")})
		ev["datesOutOfOrder"] = true
	}
	if !a.opt.Now.IsZero() {
		var future []string
		for _, d := range []struct {
			name string
			d    cos.Date
			ok   bool
		}{{"infoCreationDate", created, cOK}, {"infoModDate", modified, mOK}, {"xmpCreateDate", xCreated, xcOK}, {"xmpModifyDate", xModified, xmOK}} {
			if d.ok && d.d.Time.After(a.opt.Now.Add(futureTolerance)) {
				future = append(future, d.name)
			}
		}
		if len(future) > 0 {
			found = append(found, finding{report.Medium, report.Msg("metadata-inconsistency.future-date")})
			ev["futureDates"] = future
		}
	}
	infoProducer, xmpProducer := a.infoText("Producer"), a.xmp.First(nsPDF, "Producer")
	if infoProducer != "" && xmpProducer != "" && normalise(infoProducer) != normalise(xmpProducer) {
		found = append(found, finding{report.Low, report.Msg("metadata-inconsistency.producer-mismatch")})
		ev["infoProducer"] = report.Untrusted(infoProducer)
		ev["xmpProducer"] = report.Untrusted(xmpProducer)
	}
	var mismatched []string
	if cOK && xcOK && datesDiffer(created, xCreated) {
		mismatched = append(mismatched, "creation")
	}
	if mOK && xmOK && datesDiffer(modified, xModified) {
		mismatched = append(mismatched, "modification")
	}
	if len(mismatched) > 0 {
		found = append(found, finding{report.Low, report.Msg("metadata-inconsistency.date-mismatch", "fields", len(mismatched), "toleranceSeconds", int(dateTolerance/time.Second))})
		ev["dateMismatches"] = mismatched
	}
	var historyEditors []producers.Tool
	for _, t := range producers.Identify(a.xmp.All(nsEvt, "softwareAgent")...) {
		if t.Class.IsEditor() {
			historyEditors = append(historyEditors, t)
		}
	}
	if len(historyEditors) > 0 {
		found = append(found, finding{report.Low, report.Msg("metadata-inconsistency.history-editor", "editors", len(historyEditors))})
		report.Capped(ev, "historyEditors", historyEditors)
	}
	h := readHistory(a.metadataHistory())
	if len(h.laundered) > 0 {
		// An editor's name replaced by a non-editor's in a later revision
		// that signs nothing: the trace of putting the original producer
		// back after an edit.
		found = append(found, finding{report.Medium, report.Msg("metadata-inconsistency.editor-laundered",
			"editors", len(h.laundered), "namedInRevision", h.namedIn, "clearedInRevision", h.clearedIn)})
		report.Capped(ev, "launderedEditors", h.laundered)
		ev["launderedRevisions"] = map[string]any{"named": h.namedIn, "cleared": h.clearedIn}
	}
	if len(h.changed) > 0 {
		found = append(found, finding{report.Low, report.Msg("metadata-inconsistency.history-changed", "fields", len(h.changed))})
		ev["changedBetweenRevisions"] = h.changed
	}
	if len(found) == 0 {
		return nil
	}
	vs := make([]report.Variant, len(found))
	for i, f := range found {
		vs[i] = report.Variant{Severity: f.sev, Message: f.msg}
	}
	return report.Compose(report.FamilyMetadataInconsistency, vs, ev)
}

// before reports a strictly earlier date beyond the tolerance.
func before(a, b cos.Date) bool {
	slack := dateTolerance
	if !a.HasZone || !b.HasZone {
		slack += zonelessSlack
	}
	return a.Time.Add(slack).Before(b.Time)
}

func datesDiffer(a, b cos.Date) bool {
	d := a.Time.Sub(b.Time)
	if d < 0 {
		d = -d
	}
	slack := dateTolerance
	if !a.HasZone || !b.HasZone {
		slack += zonelessSlack
	}
	return d > slack
}

func normalise(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
