package report

import "sort"

// Fact is one independent line of evidence that a document was changed
// after it was made. Signals of several families may establish the same
// fact (an editor named by the producer and by the XMP history is one
// fact, not two); corroboration counts facts, never signals.
type Fact string

// The facts of the corroboration table.
const (
	// FactEditorNamed: an editing tool is named as the producer, creator,
	// XMP toolkit or in the XMP history, or edited an embedded image.
	FactEditorNamed Fact = "editor-named"
	// FactMetadataRewritten: the metadata was rewritten after the original
	// save: producer, creator or dates changed between revisions, an
	// editor's name written over.
	FactMetadataRewritten Fact = "metadata-rewritten"
	// FactContentRevised: a later revision rewrote what a page shows (page
	// content, digits, images).
	FactContentRevised Fact = "content-revised"
	// FactTextCovered: text covered by an opaque box, image or annotation,
	// typically with new text on top.
	FactTextCovered Fact = "text-covered"
	// FactFontInconsistent: figures that do not belong to the original
	// typesetting: a font first written by a later revision, mapping
	// digits to other digits, or used only for a few figures; figures
	// written with other text operators than the page's own. The last two
	// usually mark the same retyped figure, so they are one fact.
	FactFontInconsistent Fact = "font-inconsistent"
	// FactPageForeign: a page unlike the rest of the document in its
	// dictionary keys, size and fonts, as a page swapped in from another
	// file is.
	FactPageForeign Fact = "page-foreign"
	// FactWriterMismatch: the producer names a generator while the file's
	// own bytes are another program's (a PDF library rewrote it).
	FactWriterMismatch Fact = "writer-mismatch"
	// FactIssuerDiverges: the file's structure diverges from the named
	// issuer's baseline.
	FactIssuerDiverges Fact = "issuer-diverges"
	// FactRecompressed: an image re-encoded after capture: a library's or
	// an editor's quantisation tables under a camera's EXIF.
	FactRecompressed Fact = "recompressed"
	// FactFiguresDisagree: figures the document's own arithmetic ties
	// together (a running balance, a total, gross to net) do not add up.
	FactFiguresDisagree Fact = "figures-disagree"
	// FactThumbnailStale: the EXIF thumbnail is left from before an edit:
	// of another shape than the image, or larger than it. Independent of
	// the tables: a crop that keeps them still leaves the thumbnail.
	FactThumbnailStale Fact = "thumbnail-stale"
	// FactMetadataStripped: a device's file with its capture metadata
	// removed (the device's own structure kept), or Content Credentials cut
	// out while the XMP that points to them stayed.
	FactMetadataStripped Fact = "metadata-stripped"
)

// corroborationRow says that a family's signal establishes a fact: any
// variant of the family when Codes is empty, otherwise only a signal whose
// message or one of whose notes has one of the codes. A family other
// engineers add, or a new variant, joins the rule with one row here.
type corroborationRow struct {
	Family FamilyID
	Codes  []string
	Fact   Fact
}

// corroboration is the one table of which signals are independent evidence
// of editing. Facts that are not in it (active content, signatures,
// injection markers, structure warnings, geometry differences a genuine
// file shows) never corroborate. docs/scoring.md documents the table.
var corroboration = []corroborationRow{
	{Family: FamilyProducerFingerprint, Codes: []string{
		"producer-fingerprint.editor-single-save", "producer-fingerprint.editor-resaved",
		"producer-fingerprint.editor-full-page-image", "producer-fingerprint.drawing-tool-document",
	}, Fact: FactEditorNamed},
	// The writer mismatch is a fact of its own: the Info dictionary names
	// no editor (the rewriter kept it), the file's bytes do.
	{Family: FamilyProducerFingerprint, Codes: []string{"producer-fingerprint.writer-mismatch"}, Fact: FactWriterMismatch},
	{Family: FamilyMetadataInconsistency, Codes: []string{"metadata-inconsistency.history-editor"}, Fact: FactEditorNamed},
	{Family: FamilyEmbeddedImageAnomalies, Codes: []string{"embedded-image-anomalies.editor-metadata"}, Fact: FactEditorNamed},
	{Family: FamilyImageEditingSoftware, Fact: FactEditorNamed},

	// Info and XMP disagreeing (producer-mismatch, date-mismatch) is left
	// out: it is mostly the by-product of the editor already named
	// stamping only one of them, or a generator's own quirk.
	{Family: FamilyMetadataInconsistency, Codes: []string{
		"metadata-inconsistency.editor-laundered", "metadata-inconsistency.history-changed",
	}, Fact: FactMetadataRewritten},
	{Family: FamilyOfficeMetadataAnomalies, Fact: FactMetadataRewritten},
	// An EXIF size that no longer matches the image, or a make without a
	// model, is what any export or resize leaves (the editor is already
	// named when there is one); only dates that contradict each other
	// are a rewrite of their own.
	{Family: FamilyImageMetadataInconsistency, Codes: []string{
		"image-metadata-inconsistency.modify-before-capture", "image-metadata-inconsistency.xmp-date-mismatch",
	}, Fact: FactMetadataRewritten},

	{Family: FamilyIncrementalUpdates, Codes: []string{"incremental-updates.content-touched"}, Fact: FactContentRevised},
	{Family: FamilyNumericEdits, Codes: []string{"numeric-edits.digits-changed"}, Fact: FactContentRevised},
	{Family: FamilyEmbeddedImageAnomalies, Codes: []string{"embedded-image-anomalies.replaced"}, Fact: FactContentRevised},

	{Family: FamilyContentOverlay, Fact: FactTextCovered},
	// annotation-overlays.editor-tool needs an editor named to fire at all,
	// so it would count the editor twice: only the later-revision cover is
	// a fact of its own.
	{Family: FamilyAnnotationOverlays, Codes: []string{"annotation-overlays.later-revision", "annotation-overlays.opaque-cover"}, Fact: FactTextCovered},

	{Family: FamilyFontAnomalies, Codes: []string{
		"font-anomalies.later-revision-font", "font-anomalies.digit-tounicode", "font-anomalies.figure-font",
	}, Fact: FactFontInconsistent},
	{Family: FamilyNumericEdits, Codes: []string{"numeric-edits.text-pattern"}, Fact: FactFontInconsistent},

	{Family: FamilyPageGeometry, Codes: []string{"page-geometry.foreign-page"}, Fact: FactPageForeign},

	{Family: FamilyIssuerMismatch, Fact: FactIssuerDiverges},
	// A figure that breaks the document's own sums is evidence about the
	// content itself, independent of how the file was written.
	{Family: FamilyFigureArithmetic, Fact: FactFiguresDisagree},

	{Family: FamilyImageCompressionHistory, Fact: FactRecompressed},
	// A thumbnail larger than its image is also a quirk of some cameras
	// (FLIR), so alone it stays low; beside a re-encode it is the second
	// trace of a resize or crop (issue 34).
	{Family: FamilyImageThumbnailMismatch, Codes: []string{
		"image-thumbnail-mismatch.aspect-ratio", "image-thumbnail-mismatch.larger-than-image",
	}, Fact: FactThumbnailStale},
	// A file with no metadata at all is what every library and messenger
	// writes: only removal that left the device's or the manifest's
	// traces is a fact.
	{Family: FamilyImageMetadataStripped, Codes: []string{
		"image-metadata-stripped.device-structure-kept", "image-metadata-stripped.c2pa-manifest-removed",
	}, Fact: FactMetadataStripped},
}

// Corroboration parameters: from corroborateMin independent facts on, the
// score gains corroborationPoints once. Two low signals (20) that agree
// reach 40, elevated; the SPEC.md clamp still keeps a report without a
// high signal at 69 or below.
const (
	corroborateMin      = 2
	corroborationPoints = 20
)

// factsOf returns the facts one signal establishes, in table order. Info
// signals establish none: they are context, never evidence.
func factsOf(s Signal) []Fact {
	if s.Severity.Rank() == 0 {
		return nil
	}
	var out []Fact
	for _, row := range corroboration {
		if string(row.Family) != s.ID || !matchesCodes(s, row.Codes) {
			continue
		}
		dup := false
		for _, f := range out {
			dup = dup || f == row.Fact
		}
		if !dup {
			out = append(out, row.Fact)
		}
	}
	return out
}

func matchesCodes(s Signal, codes []string) bool {
	if len(codes) == 0 {
		return true
	}
	for _, c := range codes {
		if s.Message.Code == c {
			return true
		}
		for _, n := range s.Notes {
			if n.Code == c {
				return true
			}
		}
	}
	return false
}

// Corroborated returns the distinct facts the signals establish (sorted)
// and whether they are enough to corroborate one another.
func Corroborated(signals []Signal) (facts []Fact, ok bool) {
	seen := map[Fact]bool{}
	for _, s := range signals {
		for _, f := range factsOf(s) {
			if !seen[f] {
				seen[f] = true
				facts = append(facts, f)
			}
		}
	}
	sort.Slice(facts, func(i, j int) bool { return facts[i] < facts[j] })
	return facts, len(facts) >= corroborateMin
}

// annotateCorroboration marks every signal that took part in a
// corroboration with evidence.corroboration: the signal's own facts, every
// fact of the report, and the families that established them, so the
// report shows which signals agreed and why the score is what it is. A
// note would break the rule that a signal's notes are its own family's
// variants; evidence is additive (SPEC.md). Earlier marking is removed
// first, so Finish stays idempotent when a later step (an issuer
// comparison) adds a signal.
func annotateCorroboration(signals []Signal) {
	facts, ok := Corroborated(signals)
	var families []string
	if ok {
		for _, s := range signals {
			if len(factsOf(s)) > 0 {
				families = append(families, s.ID)
			}
		}
		sort.Strings(families)
	}
	for i := range signals {
		s := &signals[i]
		if s.Evidence != nil {
			delete(s.Evidence, "corroboration")
		}
		own := factsOf(*s)
		if !ok || len(own) == 0 {
			continue
		}
		if s.Evidence == nil {
			s.Evidence = map[string]any{}
		}
		s.Evidence["corroboration"] = map[string]any{
			"facts":    factNames(own),
			"agreeing": factNames(facts),
			"families": families,
			"points":   corroborationPoints,
		}
	}
}

func factNames(fs []Fact) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}
