package report

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// text is one catalogue entry: a title for a signal's main message and a
// sentence template. Placeholders are {param} names from the message's params.
type text struct {
	Title    string
	Template string
}

// entry is one row of the catalogue as written: a code and its text.
type entry struct {
	Code, Title, Template string
}

// catalogue is the one English catalogue: every message and note code the
// engine emits renders from here. Codes are stable translation keys of shape
// <family>.<variant>; a translator replaces this table, not the engine. The
// PDF families' texts are written in their declarations in engine/pdf, each
// beside the analyser that emits it, and generated into pdfCatalogue; the
// rest are written below. texts indexes it on first use, and
// TestCatalogueCodesUnique stands in for the compiler's check of duplicate
// map keys.
var catalogue = slices.Concat(pdfCatalogue, []entry{
	// structure-warnings
	{"structure-warnings.encrypted-content-not-analysed", "Encrypted content not analysed", "The document is encrypted, so {skipped#content-dependent family was|content-dependent families were} not run; structure and unencrypted metadata were still analysed."},
	{"structure-warnings.encrypted-opened", "Opened with the empty password", "The empty user password opened the standard security handler ({keyBits}-bit key): metadata, object streams, signatures and annotations were decrypted and analysed."},
	{"structure-warnings.encrypted-opened-owner", "Opened with the empty owner password", "The owner password of the standard security handler is empty, so the document opened without a password ({keyBits}-bit key): metadata, object streams, signatures and annotations were decrypted and analysed."},
	{"structure-warnings.encrypted-password-required", "Password required", "The standard security handler needs a password that was not supplied: strings, XMP and object streams stay encrypted and were not read; structure, revisions and /ID were analysed."},
	{"structure-warnings.encrypted-public-key", "Encrypted for named recipients", "The document is encrypted for named recipients (public-key security handler): strings, XMP and object streams stay encrypted and were not read; structure, revisions and /ID were analysed."},
	{"structure-warnings.encrypted-unsupported", "Unknown security handler", "The security handler is not one this engine opens: strings, XMP and object streams stay encrypted and were not read; structure, revisions and /ID were analysed."},
	{"structure-warnings.encrypted-malformed", "Malformed encryption dictionary", "The encryption dictionary is missing or malformed, so the document could not be opened: strings, XMP and object streams stay encrypted and were not read."},
	{"structure-warnings.unparseable", "No readable structure", "No readable document structure was found, so nothing beyond the format was analysed."},
	{"structure-warnings.xref-loop", "Revision chain loops", "The chain of cross-reference sections points back into itself; it was cut after {sections#section|sections}."},
	{"structure-warnings.xref-repaired", "Cross-reference data rebuilt", "The cross-reference data was damaged and was rebuilt by scanning the file; {objects#object was|objects were} recovered and the revision history may be incomplete."},
	{"structure-warnings.xref-entries-repaired", "Cross-reference entries corrected", "{entries#cross-reference entry|cross-reference entries} pointed to the wrong place and {entries?was|were} located by scanning."},
	{"structure-warnings.xref-entries-capped", "Cross-reference data cut short", "The cross-reference data lists more objects than a file of this size can hold; reading stopped after {entries#entry|entries}, so objects listed later were not analysed."},
	{"structure-warnings.truncated", "File appears truncated", "The file does not end with an end-of-file marker after its last cross-reference data; it may have been cut short."},
	{"structure-warnings.budget-exhausted", "Decompression budget exhausted", "Decoding stopped at a decompression limit ({streamLimitBytes#byte|bytes} per stream, {budgetBytes} in all); {streams#stream was|streams were} not decoded in full."},
	{"structure-warnings.object-errors", "Unreadable objects", "{count#object|objects} could not be parsed and {count?was|were} skipped."},
	{"structure-warnings.stream-errors", "Undecodable streams", "{count#stream|streams} could not be decoded."},
	{"structure-warnings.page-tree-damaged", "Damaged page tree", "The page tree has cycles, missing or invalid nodes; {pages#page was|pages were} found by walking it."},
	{"structure-warnings.catalog-missing", "Document catalogue missing", "The document catalogue could not be found; pages and document-level features were not analysed."},
	{"structure-warnings.header-missing", "PDF header missing", "The file has no valid PDF header but contains PDF syntax (objects or a cross-reference pointer)."},
	{"structure-warnings.leading-junk", "Data before the header", "{bytes#byte precedes|bytes precede} the PDF header."},
	{"structure-warnings.trailing-data", "Data after the end", "{bytes#byte follows|bytes follow} the last end-of-file marker."},
	{"structure-warnings.analysis-fault", "Analysis fault contained", "An internal check failed on this file and was contained; {families#family|families} may be incomplete."},
	{"structure-warnings.deadline-reached", "Analysis cut short", "The analysis reached its time budget before finishing; later checks did not run."},

	// compare findings (engine/compare)
	{"compare.identical-bytes", "Identical files", "The two files are byte for byte identical."},
	{"compare.revisions-appended", "Revisions appended to the original", "The candidate is the original with {revisions#revision|revisions} appended ({bytes#byte|bytes})."},
	{"compare.bytes-appended-without-revision", "Bytes appended without a revision", "The longer file is the shorter one followed by {bytes#byte|bytes} that form no readable revision."},
	{"compare.candidate-is-earlier-version", "Candidate is an earlier version", "The candidate is an earlier state of the original: the original has {revisions#more revision|more revisions} ({bytes#byte|bytes}) than the candidate."},
	{"compare.content-touched", "Content changed after the shorter file", "{revisions#of the added revision|of the added revisions} replaced page, content or image objects after the shorter file was complete."},
	{"compare.rewritten", "File rewritten", "The candidate is not the original with revisions appended: the file was rewritten, so only its structure and metadata can be compared."},
	{"compare.same-document-resaved", "Same document, re-saved", "The permanent half of the file identifier is the same in both files, as when one document is saved again."},
	{"compare.different-document", "Different document identifiers", "Both halves of the file identifier differ: the files were created as different documents or the identifier was replaced."},
	{"compare.id-absent", "No identifier to compare", "At least one file has no usable file identifier, so their lineage cannot be read from it."},
	{"compare.page-count-changed", "Page count differs", "The original has {original#page|pages} and the candidate {candidate}."},
	{"compare.page-geometry-changed", "Page geometry differs", "{pages#page|pages} {pages?differs|differ} in media box, crop box or rotation."},
	{"compare.fonts-added", "Fonts added", "The candidate uses {fonts#font|fonts} the original does not use at all."},
	{"compare.fonts-removed", "Fonts removed", "The original uses {fonts#font|fonts} the candidate does not use at all."},
	{"compare.font-subsets-changed", "Font subsets differ", "{fonts#font subset|font subsets} in the candidate {fonts?carries|carry} other subset tags of fonts the original uses, as when a file is re-saved."},
	{"compare.metadata-changed", "Metadata differs", "Between the files, {info#Info field|Info fields} and {xmp#XMP property|XMP properties} differ."},
	{"compare.producer-changed", "Producing software differs", "The files name different producing or creating software."},
	{"compare.structure-changed", "Object structure differs", "The original holds {original#object|objects} and the candidate {candidate}, or their cross-reference styles differ."},
	// end of compare findings
	// injection-marker families (engine/inject, engine/office)
	{"office-injection-markers.hidden-directive", "Hidden instructions for a language model", "{fields#document property, comment or hidden-run field|document property, comment or hidden-run fields} {fields?holds|hold} text addressed to a language model; at least one, in {kind~}, gives it an instruction where a reader does not see it, or hides it by obfuscation ({categories#cue category|cue categories}, {techniques#obfuscation technique|obfuscation techniques})."},
	{"office-injection-markers.directive", "Instructions for a language model", "{fields#document property, comment or hidden-run field|document property, comment or hidden-run fields} {fields?holds|hold} text addressed to a language model; the instructions sit in carriers a reader can open, such as a comment (first in {kind~}; {categories#cue category|cue categories})."},
	{"office-injection-markers.cues", "Language-model cue words", "{fields#document property, comment or hidden-run field|document property, comment or hidden-run fields} {fields?holds|hold} words aimed at a language model without an instruction a model would follow (first in {kind~}; {categories#cue category|cue categories}, {techniques#obfuscation technique|obfuscation techniques})."},
	{"office-injection-markers.categories", "", "Cue categories: {categories}."},
	{"office-injection-markers.techniques", "", "Obfuscation undone: {techniques}."},
	// end of injection-marker families

	// issuer baselines (engine/baseline)
	{"issuer-mismatch.diverges", "Structure diverges from the issuer baseline", "{dimensions#structural dimension|structural dimensions} that {dimensions?was|were} stable across the issuer's {samples#training document|training documents} {dimensions?shows|show} a value none of them had (divergence {divergencePercent}%)."},
	// end of issuer baselines

	// disclosure signals for formats whose analysers are not yet walked
	{"image-structure-anomalies.container-not-walked", "Image container not walked", "The {format} container is recognised but its structure and metadata are not walked by this engine version; an empty result here is not a clean result."},
	{"office-structure-anomalies.package-not-walked", "Office package not walked", "The {format} package is recognised but its parts are not walked by this engine version; an empty result here is not a clean result."},
	{"office-structure-anomalies.blind-spot", "", "Office documents are not rendered: text hidden by colouring it like its background, or by a shape covering it, is not detected."},

	// office families (engine/office)
	{"office-macros.enabled-no-macros", "Macro-enabled format without macros", "The package uses the macro-enabled {format} format but carries no macro parts."},
	{"office-macros.disguised", "Macros in a macro-free format", "The package declares the macro-free {format} format yet carries {parts#macro part|macro parts}; nothing was run."},
	{"office-macros.vba", "VBA macros present", "The package carries {parts#VBA project|VBA projects} with {modules#module stream|module streams}; nothing was run."},
	{"office-macros.vba-autoexec", "Macros that run on open and reach the system", "The document carries VBA macros with {autoexec#entry point|entry points} that run when it opens or closes and {keywords#keyword|keywords} used to start programs, fetch or write files, call Windows or hide code, in {modules#module|modules}; nothing was run."},
	{"office-macros.xlm-auto-open", "", "{names#defined name (Auto_Open, Auto_Close) runs|defined names (Auto_Open, Auto_Close) run} the Excel 4 macros automatically when the workbook opens or closes: the macros are set to auto-open."},
	{"office-macros.xlm", "Excel 4 macro sheets present", "The package carries {sheets#Excel 4 (XLM) macro sheet|Excel 4 (XLM) macro sheets}; nothing was run."},

	{"office-external-links.dde", "DDE link present", "The document carries {count#DDE field or link|DDE fields or links}, which can start a program when links update, among {total#external link|external links}; nothing was followed."},
	{"office-external-links.remote-template", "Remote template", "The document attaches {count#template|templates} fetched from outside the package, among {total#external link|external links}; nothing was fetched."},
	{"office-external-links.ole-link", "Linked OLE object", "The document links {count#OLE object|OLE objects} outside the package, among {total#external link|external links}; nothing was fetched."},
	{"office-external-links.remote-content", "Remote content", "The document references {count#remote resource|remote resources} such as images, frames or external workbooks, among {total#external link|external links}; nothing was fetched."},

	{"office-embedded-objects.activex", "ActiveX controls present", "The package embeds {activex#ActiveX control part|ActiveX control parts}, {ole#OLE object|OLE objects}, {packages#embedded package|embedded packages} and {fonts#font|fonts}; none was opened."},
	{"office-embedded-objects.executable", "Embedded program", "The document embeds {executables#packaged file|packaged files} with a program's or script's extension among {ole#OLE object|OLE objects}; none was opened."},
	{"office-embedded-objects.equation-editor", "Equation Editor object", "The document embeds {count#Equation Editor 3.0 object|Equation Editor 3.0 objects} among {ole#OLE object|OLE objects}: the component the CVE-2017-11882 and CVE-2018-0802 exploits run through; none was opened."},
	{"office-embedded-objects.ole", "Embedded OLE objects", "The package embeds {ole#OLE object|OLE objects}, {packages#embedded package|embedded packages} and {fonts#font|fonts}; none was opened."},
	{"office-embedded-objects.package", "Embedded packages", "The package embeds {packages#package|packages} such as documents or workbooks, and {fonts#font|fonts}; none was opened."},
	{"office-embedded-objects.fonts", "Embedded fonts", "The package embeds {fonts#font|fonts}."},

	{"office-hidden-content.hidden-runs", "Hidden text runs", "{count#run of text is|runs of text are} marked hidden and {count?does|do} not show in the document's normal view."},
	{"office-hidden-content.very-hidden-sheets", "Very hidden sheets", "{count#sheet is|sheets are} very hidden: {count?it cannot|they cannot} be unhidden from the spreadsheet's interface."},
	{"office-hidden-content.hidden-sheets", "Hidden sheets", "{count#sheet is|sheets are} hidden."},
	{"office-hidden-content.hidden-cells", "Values in hidden rows or columns", "{count#cell holds|cells hold} values in hidden rows ({rowCells}) or hidden columns ({columnCells})."},
	{"office-hidden-content.hidden-rows-in-table", "Rows of figures hidden inside a table", "{rows#hidden row holding figures sits|hidden rows holding figures sit} between visible rows of figures, as when lines are taken out of a statement or list."},
	{"office-hidden-content.hidden-slides", "Hidden slides", "{count#slide is|slides are} hidden from the slide show."},

	{"office-tracked-changes.deletions", "Tracked deletions recorded", "The document records {deletions#deletion|deletions}, {insertions#insertion|insertions}, {moves#move mark|move marks} and {formatting#formatting change|formatting changes} by {authors#author|authors}; the deleted text is still in the file."},
	{"office-tracked-changes.insertions", "Tracked insertions recorded", "The document records {insertions#insertion|insertions}, {moves#move mark|move marks} and {formatting#formatting change|formatting changes} by {authors#author|authors}."},
	{"office-tracked-changes.formatting", "Tracked formatting changes", "The document records {formatting#formatting change|formatting changes} by {authors#author|authors}."},

	{"office-metadata-anomalies.dates-out-of-order", "Modified before created", "The recorded modification date is earlier than the creation date."},
	{"office-metadata-anomalies.future-date", "Date in the future", "{dates#document date lies|document dates lie} after the time of analysis."},
	{"office-metadata-anomalies.editing-time", "Editing time exceeds elapsed time", "The recorded editing time ({minutes#minute|minutes}) exceeds the time between creation and last save ({spanMinutes#minute|minutes})."},
	{"office-metadata-anomalies.saves-without-editing", "Saves without editing time", "The document records {saves#save|saves} but no editing time."},
	{"office-metadata-anomalies.author-single-revision", "Author and last editor differ", "The recorded author and last editor differ although the document records a single save."},
	{"office-metadata-anomalies.application-mismatch", "Application claim contradicts the package", "The properties name {claimed@} application but the package is {package@} document."},
	{"office-metadata-anomalies.template-elsewhere", "Template from elsewhere", "The properties name a template by a path or address outside the usual local templates."},
	{"office-metadata-anomalies.image-edited", "Embedded image edited", "{images#embedded image carries|embedded images carry} metadata naming an image editor."},
	{"office-metadata-anomalies.library-resave", "Saved again by a library", "The application claim names {tool}, which writes its name on every save, over properties that record an earlier author and history: the document was opened and saved again by that library."},
	{"office-metadata-anomalies.other-application-resave", "Saved again by another application", "{application} saved this document last, but its properties keep the traces of another application that made it (its template, or a history {application} did not count)."},
	{"office-metadata-anomalies.lxml-rewrite", "Document body rewritten by a library", "The main part was written back by an XML library (as python-docx and python-pptx do) after the application named in the properties saved the package."},
	{"office-metadata-anomalies.tool-last-modified", "Last saved by a program", "The last editor recorded is {tool}, a program, while the author is someone else: the document was changed by software after it was written."},
	{"office-metadata-anomalies.saves-exceed-span", "More saves than elapsed minutes", "The document records {saves#save|saves} in the {spanMinutes#minute|minutes} between creation and last save."},

	{"office-structure-anomalies.package-walked", "Office package walked", "The {format} package's {parts#part was|parts were} walked; no structural anomaly was found."},
	{"office-structure-anomalies.package-unreadable", "Package not readable as a ZIP", "The package's ZIP structure could not be read (or declares more than {maxEntries#entry|entries}); its parts were not analysed."},
	{"office-structure-anomalies.entries-capped", "Package entries cut short", "The package lists more than {maxEntries#entry|entries}, far more than a document needs; only the first {maxEntries#entry was|entries were} read, so the parts listed after them were not analysed."},
	{"office-structure-anomalies.zip-ambiguous", "Ambiguous ZIP entries", "The archive holds {duplicates#duplicate entry name|duplicate entry names} and {mismatches#entry|entries} whose local header disagrees with the central directory, so different readers can see different content."},
	{"office-structure-anomalies.path-tricks", "Unsafe entry names", "{count#entry name is|entry names are} absolute, {count?climbs|climb} out of the archive or {count?uses|use} backslashes or drive letters."},
	{"office-structure-anomalies.extra-data", "Data outside the archive", "{leadingBytes#byte precedes|bytes precede} and {trailingBytes#byte follows|bytes follow} the ZIP archive."},
	{"office-structure-anomalies.encrypted-entries", "Encrypted ZIP entries", "{count#ZIP entry is|ZIP entries are} encrypted and {count?was|were} not analysed."},
	{"office-structure-anomalies.expansion-limit", "Expansion limit reached", "{parts#part was|parts were} cut at the decompression limits ({partLimitBytes#byte|bytes} per part, or the package budget), as a zip bomb would be."},
	{"office-structure-anomalies.unreadable-parts", "Undecodable parts", "{count#part|parts} could not be decompressed."},
	{"office-structure-anomalies.malformed-xml", "Malformed or oversized XML", "{count#XML part was|XML parts were} malformed or exceeded the walk limits (nesting deeper than {maxDepth} or too many tokens) and {count?was|were} read only in part."},
	{"office-structure-anomalies.content-types-missing", "Content types missing", "The package has no [Content_Types].xml part."},
	{"office-structure-anomalies.undeclared-parts", "Undeclared parts", "{count#part has|parts have} no content type declared."},
	{"office-structure-anomalies.content-type-mismatch", "Content types lie about parts", "{count#part|parts} do not match the content type declared for them."},
	{"office-structure-anomalies.missing-targets", "Missing relationship targets", "{count#relationship target names a part|relationship targets name parts} that the package does not hold."},
	{"office-structure-anomalies.unusual-parts", "Unusual extra parts", "{count#part|parts} sit outside the folders Office applications write."},
	{"office-structure-anomalies.compound-walked", "Compound file walked", "The {format} compound file's {streams#stream was|streams were} walked; no structural anomaly was found."},
	{"office-structure-anomalies.compound-damaged", "Compound file damaged", "The compound file's header, allocation chains or directory are damaged ({count#kind of damage|kinds of damage}: truncation, loops, crossing chains or directory cycles); what could be read was analysed."},
	{"office-structure-anomalies.records-damaged", "Record streams read in part", "{count#stream|streams} (property sets, workbook, slide or VBA records) {count?stops|stop} early or {count?declares|declare} lengths past {count?its|their} end; {count?it was|they were} read only in part."},
	{"office-structure-anomalies.encrypted-legacy", "Encrypted document not analysed", "The {format} document is password-protected ({method} encryption of its records), so its content was not analysed."},
	{"office-structure-anomalies.default-password", "", "The package is encrypted with Excel's built-in default password (VelvetSweatshop), which Office applications open without asking; it was decrypted in memory and analysed."},
	{"office-structure-anomalies.binary-not-covered", "", "In binary Office files, Word text hidden by a style rather than by direct formatting, and the authors of Word's tracked changes, are not decoded; macros, embedded objects, links, DDE fields, sheet, row, column and slide visibility, properties, Word's hidden runs and tracked changes, and comments are."},
	{"office-structure-anomalies.encrypted-package", "Encrypted package not analysed", "The {format} document is password-protected (an encrypted package inside a compound file), so its content was not analysed."},
	// end of office families

	// image families (engine/image)
	{"image-structure-anomalies.truncated", "Image truncated", "The {format} container ends before its structure does; {count#structural defect was|structural defects were} recorded."},
	{"image-structure-anomalies.bad-checksum", "Image checksum mismatch", "{count#structural defect|structural defects} in the {format} container, including chunks whose checksum does not match their content."},
	{"image-structure-anomalies.broken-structure", "Broken image structure", "{count#structural defect|structural defects} in the {format} container: markers, chunks or boxes that do not parse."},
	{"image-structure-anomalies.exif-refused", "EXIF block refused", "The EXIF block of the {format} file failed the bounds checks and was not decoded ({count#defect|defects})."},
	{"image-editing-software.editor-named", "Image editing software", "The metadata names {tools#image editing tool|image editing tools} in {sources#place|places}."},
	{"image-editing-software.edited-capture", "Camera image passed through an editor", "The metadata names a capture device and {tools#image editing tool|image editing tools} in {sources#place|places}."},
	{"image-editing-software.exported-capture", "Camera image exported by software", "The metadata names a capture device and {tools#editing or conversion tool|editing or conversion tools}; cameras do not write {format} files, so this is an export made by that software."},
	{"image-metadata-inconsistency.modify-before-capture", "Modified before captured", "The EXIF modification date is earlier than the capture date ({checks#inconsistency|inconsistencies} found)."},
	{"image-metadata-inconsistency.xmp-date-mismatch", "EXIF and XMP dates differ", "The XMP capture or creation date differs from the EXIF capture date by more than a minute ({checks#inconsistency|inconsistencies} found)."},
	{"image-metadata-inconsistency.make-without-model", "Camera make without model", "The EXIF names a camera maker but no model ({checks#inconsistency|inconsistencies} found)."},
	{"image-metadata-inconsistency.dimension-mismatch", "EXIF dimensions differ from the image", "The image size recorded in EXIF differs from the frame's size, as after a crop or resize ({checks#inconsistency|inconsistencies} found)."},
	{"image-thumbnail-mismatch.aspect-ratio", "Thumbnail shape differs", "The embedded thumbnail is {thumbnailWidth}x{thumbnailHeight} while the image is {width}x{height}: their shapes disagree, as when the image was cropped and the old thumbnail kept."},
	{"image-thumbnail-mismatch.larger-than-image", "Thumbnail larger than the image", "The embedded thumbnail is {thumbnailWidth}x{thumbnailHeight} while the image is only {width}x{height}: the thumbnail was made from a larger picture, as when the image was cropped or replaced and the old thumbnail kept."},
	{"image-compression-history.editor-tables-with-camera-exif", "Editor re-compression of a camera image", "The JPEG was written by an editor (estimated quality {quality}) while its EXIF names a camera."},
	{"image-compression-history.standard-tables-with-camera-exif", "Library re-compression of a camera image", "The JPEG uses the standard library quantisation tables at quality {quality} while its EXIF names a camera; camera firmware usually writes tables of its own."},
	{"image-compression-history.recompressed-after-capture", "Camera image re-encoded after capture", "The JPEG uses the standard library quantisation tables at quality {quality} while its EXIF thumbnail kept a camera's own tables: the image was decoded and written again by software after capture, and the camera's metadata carried over."},
	{"image-trailing-data.trailing-bytes", "Data after the image", "{bytes#byte follows|bytes follow} the end of the image."},
	{"image-trailing-data.appended-archive", "File appended to the image", "{bytes#byte follows|bytes follow} the end of the image, containing {kind@} file."},
	{"image-generative-markers.declared-synthetic", "Declared as synthetic", "The image's metadata declares it algorithmically generated or composited ({carriers#carrier|carriers})."},
	{"image-generative-markers.generator-metadata", "Image generator metadata", "The image carries metadata written by an image generator ({carriers#carrier|carriers})."},
	{"image-metadata-stripped.no-capture-metadata", "No capture metadata", "The {format} file carries no EXIF, XMP, IPTC or C2PA metadata, as when metadata is stripped by an export, a messenger or on purpose."},
	{"image-metadata-stripped.device-structure-kept", "Capture metadata removed from a device file", "The {format} file carries no EXIF, XMP, IPTC or C2PA metadata, yet {traces#trace|traces} of the device that wrote it {traces?remains|remain} (its own quantisation tables, a multi-picture index): the metadata was removed without re-encoding the image."},
	{"image-metadata-stripped.c2pa-manifest-removed", "Content Credentials removed", "The XMP of the {format} file points to a C2PA manifest inside the file, but the file holds none: software that kept the XMP and dropped the manifest wrote this file after the credentials were made."},
	{"image-location-present.gps-present", "Location present", "The image carries GPS coordinates ({carriers#carrier|carriers}); this is a privacy fact, not a risk signal."},
	// end of image families
})

// texts indexes the catalogue by code.
var texts = sync.OnceValue(func() map[string]text {
	m := make(map[string]text, len(catalogue))
	for _, e := range catalogue {
		m[e.Code] = text{e.Title, e.Template}
	}
	return m
})

// Title renders a message's title. Notes have no title.
func Title(m Message) string {
	if t, ok := texts()[m.Code]; ok && t.Title != "" {
		return t.Title
	}
	return m.Code
}

// Render renders one message or note as an English sentence.
func Render(m Message) string {
	t, ok := texts()[m.Code]
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
	_, ok := texts()[code]
	return ok
}

// Codes lists every catalogue code, sorted (for docs and tests).
func Codes() []string {
	out := make([]string, 0, len(catalogue))
	for _, e := range catalogue {
		out = append(out, e.Code)
	}
	sort.Strings(out)
	return out
}

// TemplateOf returns a code's raw template (for docs).
func TemplateOf(code string) (title, template string) {
	t := texts()[code]
	return t.Title, t.Template
}

// interpolate fills a template's placeholders from params:
//
//	{n}              the value
//	{n#one|other}    the number and the noun phrase its count takes: "1 page", "2 pages"
//	{n?one|other}    the form alone, chosen by the count: a verb ("is|are") or a phrase
//	{n@}             a text value after "a" or "an", chosen by sound: "an Excel", "a Word"
//	{n~}             a kind name as people say it: "hidden-annotation" is "a hidden annotation"
//
// A count of exactly 1 takes the first form; 0 and everything else the
// second, as English does ("0 pages").
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
		b.WriteString(placeholder(tpl[i+1:i+j], params, tpl[i:i+j+1]))
		tpl = tpl[i+j+1:]
	}
}

func placeholder(spec string, params map[string]any, asWritten string) string {
	name, forms, op := spec, "", byte(0)
	if k := strings.IndexAny(spec, "#?@~"); k > 0 {
		name, op, forms = spec[:k], spec[k], spec[k+1:]
	}
	v, ok := params[name]
	if !ok {
		return asWritten
	}
	value := formatParam(v)
	switch op {
	case '#', '?':
		one, other, _ := strings.Cut(forms, "|")
		form := other
		if value == "1" {
			form = one
		}
		if op == '?' {
			return form
		}
		return value + " " + form
	case '@':
		return Article(value) + " " + value
	case '~':
		if label, ok := kindLabels[value]; ok {
			return label
		}
		return strings.ReplaceAll(value, "-", " ")
	}
	return value
}

// kindLabels are the words a person uses for the kind names the engine
// passes as parameters ({kind~}); a kind not listed reads with its hyphens
// as spaces.
var kindLabels = map[string]string{
	"info":              "the Info dictionary",
	"info-key":          "the name of an Info key",
	"xmp":               "the XMP metadata",
	"annotation":        "an annotation",
	"hidden-annotation": "a hidden annotation",
	"embedded-file":     "an attachment",
	"core-property":     "the core properties",
	"app-property":      "the application properties",
	"custom-property":   "a custom property",
	"comment":           "a comment",
	"hidden-run":        "a hidden run",
}

// Article is "a" or "an" for a word, by its sound: "an Excel", "an XLM",
// "a Word", "a user", "a one-page".
func Article(word string) string {
	w := strings.TrimLeft(word, "\"'(")
	if w == "" {
		return "a"
	}
	lower := strings.ToLower(w)
	for _, p := range []string{"one", "once", "uni", "use", "usu", "uti", "eu", "ewe"} {
		if strings.HasPrefix(lower, p) {
			return "a"
		}
	}
	for _, p := range []string{"hour", "honest", "honour", "heir"} {
		if strings.HasPrefix(lower, p) {
			return "an"
		}
	}
	// An abbreviation is read letter by letter: "an SVG", "an HTML", "a PDF".
	if len(w) > 1 && w[1] >= 'A' && w[1] <= 'Z' && w[0] >= 'A' && w[0] <= 'Z' {
		if strings.IndexByte("AEFHILMNORSX", w[0]) >= 0 {
			return "an"
		}
		return "a"
	}
	if strings.IndexByte("aeiou", lower[0]) >= 0 {
		return "an"
	}
	return "a"
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
