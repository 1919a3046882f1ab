package office

import (
	"strings"

	"github.com/doctrust/doctrust/engine/report"
)

// officeMetadataAnomaliesFamily declares the family (report.Declaration).
var officeMetadataAnomaliesFamily = declaration{
	ID:      "office-metadata-anomalies",
	Order:   70,
	Run:     (*analysis).metadataAnomalies,
	Summary: "Editing time, save count, dates and application claims that contradict each other.",
	Evidence: []string{
		"datesOutOfOrder", "futureDates", "editingMinutes", "spanMinutes", "saveCount",
		"authorDiffersSingleRevision", "applicationClaim", "packageKind", "template",
		"editedImages[]", "imagesWalked", "resaveTrace", "resavedBy", "mainPartRewrittenBy",
		"lastModifiedByTool", "editEvidence[]",
	},
	Variants: []report.VariantDecl{
		{Code: "dates-out-of-order", Severity: report.Medium, Title: "Modified before created", Text: "The recorded modification date is earlier than the creation date."},
		{Code: "future-date", Severity: report.Low, Title: "Date in the future", Text: "{dates#document date lies|document dates lie} after the time of analysis."},
		{Code: "editing-time", Severity: report.Low, Title: "Editing time exceeds elapsed time", Text: "The recorded editing time ({minutes#minute|minutes}) exceeds the time between creation and last save ({spanMinutes#minute|minutes})."},
		{Code: "saves-without-editing", Severity: report.Low, Title: "Saves without editing time", Text: "The document records {saves#save|saves} but no editing time."},
		{Code: "author-single-revision", Severity: report.Low, Title: "Author and last editor differ", Text: "The recorded author and last editor differ although the document records a single save."},
		{Code: "application-mismatch", Severity: report.Medium, Title: "Application claim contradicts the package", Text: "The properties name {claimed@} application but the package is {package@} document."},
		{Code: "template-elsewhere", Severity: report.Low, Title: "Template from elsewhere", Text: "The properties name a template by a path or address outside the usual local templates."},
		{Code: "image-edited", Severity: report.Low, Title: "Embedded image edited", Text: "{images#embedded image carries|embedded images carry} metadata naming an image editor."},
		{Code: "library-resave", Severity: report.Medium, Title: "Saved again by a library", Text: "The application claim names {tool}, which writes its name on every save, over properties that record an earlier author and history: the document was opened and saved again by that library."},
		{Code: "other-application-resave", Severity: report.Low, UpTo: report.Medium, Title: "Saved again by another application", Text: "{application} saved this document last, but its properties keep the traces of another application that made it (its template, or a history {application} did not count). Filling in a template made elsewhere leaves the same traces."},
		{Code: "resave-with-edits", Text: "The content also shows an edit of its own ({evidence}), so the later save changed the document rather than only filling it in."},
		{Code: "lxml-rewrite", Severity: report.Low, Title: "Document body rewritten by a library", Text: "The main part was written back by an XML library (as python-docx and python-pptx do) after the application named in the properties saved the package."},
		{Code: "tool-last-modified", Severity: report.Medium, Title: "Last saved by a program", Text: "The last editor recorded is {tool}, a program, while the author is someone else: the document was changed by software after it was written."},
		{Code: "saves-exceed-span", Severity: report.Low, Title: "More saves than elapsed minutes", Text: "The document records {saves#save|saves} in the {spanMinutes#minute|minutes} between creation and last save."},
	},
}

// appFamily maps an app.xml Application claim to the kind of package that
// application writes, "" when the claim names none of the three.
func appFamily(app string) string {
	a := strings.ToLower(app)
	switch {
	case strings.Contains(a, "excel"), strings.Contains(a, "spreadsheet"), strings.Contains(a, "calc"):
		return "xl"
	case strings.Contains(a, "powerpoint"), strings.Contains(a, "impress"), strings.Contains(a, "presentation"):
		return "ppt"
	case strings.Contains(a, "word"), strings.Contains(a, "writer"):
		return "word"
	}
	return ""
}

// metadataAnomalies reports document properties that contradict each other
// or the package. Each check is a fact that an honest save by the named
// application would not produce; each has benign explanations too (copied
// properties, converters, clock skew), hence low and medium severities.
func (a *analysis) metadataAnomalies() *report.Finding {
	pr := &a.props
	ev := map[string]any{}
	var vs []report.Variant
	add := func(s report.Severity, m report.Message) { vs = append(vs, report.Variant{Severity: s, Message: m}) }
	rev, hasRev := intProp(pr.core, "revision")
	total, hasTotal := intProp(pr.app, "TotalTime")
	created, hasCreated := dateProp(pr.core, "created")
	modified, hasModified := dateProp(pr.core, "modified")

	if hasCreated && hasModified && modified.Before(created.Add(-60e9)) {
		ev["datesOutOfOrder"] = true
		add(report.Medium, report.Msg("office-metadata-anomalies.dates-out-of-order"))
	}
	if !a.opt.Now.IsZero() {
		future := 0
		for _, t := range []struct {
			ok bool
			at int64
		}{{hasCreated, created.Unix()}, {hasModified, modified.Unix()}} {
			if t.ok && t.at > a.opt.Now.Unix()+86400 {
				future++
			}
		}
		if future > 0 {
			ev["futureDates"] = future
			add(report.Low, report.Msg("office-metadata-anomalies.future-date", "dates", future))
		}
	}
	// Editing time: Word counts minutes with the document open, so more
	// minutes than elapsed between creation and last save is impossible
	// for one honest history; many saves with no editing time at all is a
	// generator or a property rewrite.
	if hasTotal && hasCreated && hasModified && !modified.Before(created) {
		span := int(modified.Sub(created).Minutes())
		if total > span+60 {
			ev["editingMinutes"], ev["spanMinutes"] = total, span
			add(report.Low, report.Msg("office-metadata-anomalies.editing-time", "minutes", total, "spanMinutes", span))
		}
	}
	if hasTotal && hasRev && total == 0 && rev >= 10 {
		ev["editingMinutes"], ev["saveCount"] = total, rev
		add(report.Low, report.Msg("office-metadata-anomalies.saves-without-editing", "saves", rev))
	}
	if c, m := pr.creator(), pr.lastModBy(); hasRev && rev == 1 && c != "" && m != "" && !strings.EqualFold(c, m) {
		ev["authorDiffersSingleRevision"] = true
		add(report.Low, report.Msg("office-metadata-anomalies.author-single-revision"))
	}
	if claim := appFamily(pr.application()); claim != "" && a.kind != "" && claim != a.kind {
		ev["applicationClaim"] = claim
		ev["packageKind"] = a.kind
		add(report.Medium, report.Msg("office-metadata-anomalies.application-mismatch", "claimed", report.Kind(claim), "package", report.Kind(a.kind)))
	}
	if t := first(pr.app, "Template"); strings.ContainsAny(t, `/\`) || strings.Contains(t, ":") {
		ev["template"] = report.Untrusted(t)
		add(report.Low, report.Msg("office-metadata-anomalies.template-elsewhere"))
	}
	// Saved again by something else than what made it. openpyxl stamps
	// its name over the Application; LibreOffice leaves Word's template or
	// restarts the save counter; python-docx and its kin leave lxml's
	// declaration on the parts they rewrote.
	if lib := stampingLibrary(pr.application()); lib != "" && pr.priorHistory() {
		ev["resavedBy"] = lib
		add(report.Medium, report.Msg("office-metadata-anomalies.library-resave", "tool", report.Kind(lib)))
	}
	// Another application saving last is how templates are filled in, so
	// the trace alone is low; it rises only beside an edit the content
	// itself shows.
	if why := a.libreOfficeOverOther(); why != "" {
		ev["resavedBy"] = "LibreOffice"
		ev["resaveTrace"] = why
		m := report.Msg("office-metadata-anomalies.other-application-resave", "application", report.Kind("LibreOffice"))
		if edits := a.contentEdits(ev["datesOutOfOrder"] == true || ev["futureDates"] != nil); len(edits) > 0 {
			ev["editEvidence"] = edits
			add(report.Medium, m)
			add(report.Info, report.Msg("office-metadata-anomalies.resave-with-edits", "evidence", report.Kind(strings.Join(edits, ", "))))
		} else {
			add(report.Low, m)
		}
	}
	if a.lxmlRewrite() {
		ev["mainPartRewrittenBy"] = "lxml"
		add(report.Low, report.Msg("office-metadata-anomalies.lxml-rewrite"))
	}
	if tool, c := toolNamed(pr.lastModBy()), pr.creator(); tool != "" && c != "" && toolNamed(c) != tool {
		ev["lastModifiedByTool"] = tool
		add(report.Medium, report.Msg("office-metadata-anomalies.tool-last-modified", "tool", report.Kind(tool)))
	}
	// More saves than minutes between creation and the last save: the
	// counter or the dates were written by hand.
	if hasRev && hasCreated && hasModified && rev >= 5 && !modified.Before(created) {
		if span := int(modified.Sub(created).Minutes()); rev > span+2 {
			ev["saveCount"], ev["spanMinutes"] = rev, span
			add(report.Low, report.Msg("office-metadata-anomalies.saves-exceed-span", "saves", rev, "spanMinutes", span))
		}
	}
	if a.kind != "" {
		if edited, walked := a.editedImages(); len(edited) > 0 {
			ev["imagesWalked"] = walked
			report.Capped(ev, "editedImages", edited)
			add(report.Low, report.Msg("office-metadata-anomalies.image-edited", "images", len(edited)))
		}
	}
	return report.Compose(report.FamilyOfficeMetadataAnomalies, vs, ev)
}

// contentEdits lists the edits a package shows on its content, apart from
// the properties: text kept as a tracked deletion or move, content hidden
// inside what shows, or dates that contradict each other. Each is what an
// edit leaves and a plain fill-in of a template does not.
func (a *analysis) contentEdits(datesContradict bool) []string {
	var out []string
	if m := a.word.plus(a.xl.revisionMarks); m.del+m.moveFrom > 0 {
		out = append(out, "tracked deletions")
	}
	if a.word.hiddenRuns > 0 || a.xl.hiddenTableRows > 0 || a.xl.veryHiddenSheets > 0 {
		out = append(out, "hidden content")
	}
	if datesContradict {
		out = append(out, "dates that contradict each other")
	}
	return out
}
