package report

import (
	"sort"
	"strconv"
	"strings"
)

// text is one catalogue entry: a title for a signal's main message and a
// sentence template. Placeholders are {param} names from the message's params.
type text struct {
	Title    string
	Template string
}

// catalogue is the one English catalogue: every message and note code the
// engine emits renders from here. Codes are stable translation keys of shape
// <family>.<variant>; a translator replaces this table, not the engine.
var catalogue = map[string]text{
	// structure-warnings
	"structure-warnings.encrypted-content-not-analysed": {"Encrypted content not analysed", "The document is encrypted, so {skipped} content-dependent families were not run; structure and unencrypted metadata were still analysed."},
	"structure-warnings.unparseable":                    {"No readable structure", "No readable document structure was found, so nothing beyond the format was analysed."},
	"structure-warnings.xref-loop":                      {"Revision chain loops", "The chain of cross-reference sections points back into itself; it was cut after {sections} sections."},
	"structure-warnings.xref-repaired":                  {"Cross-reference data rebuilt", "The cross-reference data was damaged and was rebuilt by scanning the file; {objects} objects were recovered and the revision history may be incomplete."},
	"structure-warnings.xref-entries-repaired":          {"Cross-reference entries corrected", "{entries} cross-reference entries pointed to the wrong place and were located by scanning."},
	"structure-warnings.truncated":                      {"File appears truncated", "The file does not end with an end-of-file marker after its last cross-reference data; it may have been cut short."},
	"structure-warnings.budget-exhausted":               {"Decompression budget exhausted", "Decoding stopped at a decompression limit ({streamLimitBytes} bytes per stream, {budgetBytes} in all); {streams} streams were not decoded in full."},
	"structure-warnings.object-errors":                  {"Unreadable objects", "{count} objects could not be parsed and were skipped."},
	"structure-warnings.stream-errors":                  {"Undecodable streams", "{count} streams could not be decoded."},
	"structure-warnings.page-tree-damaged":              {"Damaged page tree", "The page tree has cycles, missing or invalid nodes; {pages} pages were found by walking it."},
	"structure-warnings.catalog-missing":                {"Document catalogue missing", "The document catalogue could not be found; pages and document-level features were not analysed."},
	"structure-warnings.header-missing":                 {"PDF header missing", "The file has no valid PDF header but contains PDF objects."},
	"structure-warnings.leading-junk":                   {"Data before the header", "{bytes} bytes precede the PDF header."},
	"structure-warnings.trailing-data":                  {"Data after the end", "{bytes} bytes follow the last end-of-file marker."},
	"structure-warnings.analysis-fault":                 {"Analysis fault contained", "An internal check failed on this file and was contained; {families} families may be incomplete."},
	"structure-warnings.deadline-reached":               {"Analysis cut short", "The analysis reached its time budget before finishing; later checks did not run."},

	// producer-fingerprint
	"producer-fingerprint.editor-single-save":     {"Saved by a PDF editor", "The file was written by {editors} PDF editing tool(s) ({editorClass}) and has a single revision."},
	"producer-fingerprint.editor-resaved":         {"Re-saved by a PDF editor", "The file was written by {editors} PDF editing tool(s) ({editorClass}) across {revisions} revisions."},
	"producer-fingerprint.editor-full-page-image": {"PDF editor with full-page images", "The file was written by {editors} PDF editing tool(s) ({editorClass}) and {pages} page(s) consist of a full-page image, a common trace of an edited scan."},
	"producer-fingerprint.authoring-note":         {"", "The producing software is classed as authoring ({origin}); the editing tool appears elsewhere in the metadata."},

	// id-inconsistency
	"id-inconsistency.differs-single-revision": {"Document IDs differ", "The two halves of the file identifier differ in a file with a single revision, which usually means a full rewrite by another tool."},
	"id-inconsistency.original-changed":        {"Permanent identifier changed", "The permanent half of the file identifier changed between revisions ({changes} change(s) across {trailers} trailers), as if revisions of different documents were joined."},
	"id-inconsistency.dropped":                 {"Identifier dropped", "An earlier revision carried a file identifier that a later revision removed."},
	"id-inconsistency.malformed":               {"Malformed identifier", "The file identifier is not a pair of strings."},

	// incremental-updates
	"incremental-updates.appended":        {"Revisions appended", "{appended} revision(s) were appended after the original save; none of them rewrote page content, pages or images."},
	"incremental-updates.content-touched": {"Content changed after the original save", "{appended} revision(s) were appended after the original save; {contentRevisions} of them wrote page content, pages or page images."},

	// active-content
	"active-content.javascript":   {"JavaScript present", "The document carries {total} active element(s), including JavaScript; none of it was run."},
	"active-content.launch":       {"Launch action present", "The document carries {total} active element(s), including an action that launches an external program; nothing was run."},
	"active-content.submit":       {"Form submission or data import", "The document carries {total} active element(s), including actions that submit or import form data; nothing was run."},
	"active-content.rich-media":   {"Rich media present", "The document carries {total} active element(s), including rich media; nothing was played."},
	"active-content.attachments":  {"Attached files", "The document carries {total} active element(s), including {files} attached file(s); none was opened."},
	"active-content.auto-actions": {"Automatic actions", "The document carries {total} active element(s), including actions that run when it is opened or navigated; nothing was run."},
	"active-content.kinds":        {"", "Kinds found: {kinds}."},

	// metadata-inconsistency
	"metadata-inconsistency.dates-out-of-order": {"Modified before created", "The modification date is earlier than the creation date."},
	"metadata-inconsistency.future-date":        {"Date in the future", "A document date lies after the time of analysis."},
	"metadata-inconsistency.producer-mismatch":  {"Info and XMP producers differ", "The producer recorded in the Info dictionary differs from the one in the XMP metadata, as happens when one tool updates only one of them."},
	"metadata-inconsistency.date-mismatch":      {"Info and XMP dates differ", "{fields} date field(s) differ between the Info dictionary and the XMP metadata by more than {toleranceSeconds} seconds."},
	"metadata-inconsistency.history-editor":     {"Editing tool in XMP history", "The XMP editing history names {editors} PDF editing tool(s)."},

	// disclosure signals for formats whose analysers are not yet walked
	"image-structure-anomalies.container-not-walked": {"Image container not walked", "The {format} container is recognised but its structure and metadata are not walked by this engine version; an empty result here is not a clean result."},
	"office-structure-anomalies.package-not-walked":  {"Office package not walked", "The {format} package is recognised but its parts are not walked by this engine version; an empty result here is not a clean result."},
	"office-structure-anomalies.blind-spot":          {"", "Office documents are not rendered: text hidden by colouring it like its background, or by a shape covering it, is not detected."},

	// office families (engine/office)
	// end of office families

	// image families (engine/image)
	// end of image families
}

// Title renders a message's title. Notes have no title.
func Title(m Message) string {
	if t, ok := catalogue[m.Code]; ok && t.Title != "" {
		return t.Title
	}
	return m.Code
}

// Render renders one message or note as an English sentence.
func Render(m Message) string {
	t, ok := catalogue[m.Code]
	if !ok {
		return m.Code
	}
	return interpolate(t.Template, m.Params)
}

// Detail concatenates the message paragraph and its notes.
func Detail(m Message, notes []Message) string {
	parts := []string{Render(m)}
	for _, n := range notes {
		parts = append(parts, Render(n))
	}
	return strings.Join(parts, " ")
}

// HasCode reports whether the catalogue knows a code (used by tests).
func HasCode(code string) bool {
	_, ok := catalogue[code]
	return ok
}

// Codes lists every catalogue code, sorted (for docs and tests).
func Codes() []string {
	out := make([]string, 0, len(catalogue))
	for c := range catalogue {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// TemplateOf returns a code's raw template (for docs).
func TemplateOf(code string) (title, template string) {
	t := catalogue[code]
	return t.Title, t.Template
}

func interpolate(tpl string, params map[string]any) string {
	if !strings.Contains(tpl, "{") {
		return tpl
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			return b.String()
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			b.WriteString(tpl)
			return b.String()
		}
		b.WriteString(tpl[:i])
		name := tpl[i+1 : i+j]
		if v, ok := params[name]; ok {
			b.WriteString(formatParam(v))
		} else {
			b.WriteString(tpl[i : i+j+1])
		}
		tpl = tpl[i+j+1:]
	}
}

func formatParam(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return ""
}
