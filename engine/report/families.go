package report

import "slices"

// FamilyID is a signal family's id, the report's signal id. Every id is a
// constant, so a family is named in code by its constant and a misspelt id
// does not compile; the catalogue gives each its row. The PDF families'
// constants are generated from their declarations in engine/pdf
// (families_pdf_gen.go); the others are written here.
type FamilyID string

// The families declared here, in catalogue order.
const (
	FamilyStructureWarnings          FamilyID = "structure-warnings"
	FamilyIssuerMismatch             FamilyID = "issuer-mismatch"
	FamilyOfficeMacros               FamilyID = "office-macros"
	FamilyOfficeExternalLinks        FamilyID = "office-external-links"
	FamilyOfficeEmbeddedObjects      FamilyID = "office-embedded-objects"
	FamilyOfficeHiddenContent        FamilyID = "office-hidden-content"
	FamilyOfficeTrackedChanges       FamilyID = "office-tracked-changes"
	FamilyOfficeInjectionMarkers     FamilyID = "office-injection-markers"
	FamilyOfficeMetadataAnomalies    FamilyID = "office-metadata-anomalies"
	FamilyOfficeStructureAnomalies   FamilyID = "office-structure-anomalies"
	FamilyImageStructureAnomalies    FamilyID = "image-structure-anomalies"
	FamilyImageEditingSoftware       FamilyID = "image-editing-software"
	FamilyImageMetadataInconsistency FamilyID = "image-metadata-inconsistency"
	FamilyImageThumbnailMismatch     FamilyID = "image-thumbnail-mismatch"
	FamilyImageCompressionHistory    FamilyID = "image-compression-history"
	FamilyImageTrailingData          FamilyID = "image-trailing-data"
	FamilyImageGenerativeMarkers     FamilyID = "image-generative-markers"
	FamilyImageMetadataStripped      FamilyID = "image-metadata-stripped"
	FamilyImageLocationPresent       FamilyID = "image-location-present"
)

// Family is one row of the family catalogue: the single place that says which
// families exist, which media they apply to, and which modes skip them.
type Family struct {
	ID    FamilyID
	Media MediaType // "" for families any media may raise
	// ContentDependent families read encrypted page content or strings and
	// are skipped on an encrypted PDF (DESIGN.md lists six).
	ContentDependent bool
	// TriageSuppressed families need the per-page content walk and are
	// skipped in triage mode (DESIGN.md lists eight).
	TriageSuppressed bool
	// Summary is the one-line English description used in docs/families.md.
	Summary string
}

// families is the catalogue: the structure warnings every medium raises,
// the PDF families as engine/pdf declares them (in their declared order,
// which the triage block's and the encrypted-file warning's lists follow),
// then the rest.
var families = slices.Concat([]Family{
	{ID: FamilyStructureWarnings, Summary: "The file is malformed, repaired, truncated, encrypted or exhausted its parsing budget: what was and was not analysed."},
}, pdfFamilies, []Family{
	{ID: FamilyIssuerMismatch, Media: MediaPDF, Summary: "The file's structure diverges from the named issuer's baseline."},

	{ID: FamilyOfficeMacros, Media: MediaOffice, Summary: "VBA projects and macro-enabled content types."},
	{ID: FamilyOfficeExternalLinks, Media: MediaOffice, Summary: "Remote templates, OLE links, remote images, DDE fields and external workbook links."},
	{ID: FamilyOfficeEmbeddedObjects, Media: MediaOffice, Summary: "OLE objects, embedded packages, ActiveX controls and embedded fonts."},
	{ID: FamilyOfficeHiddenContent, Media: MediaOffice, Summary: "Hidden runs, sheets, rows, columns and slides holding content."},
	{ID: FamilyOfficeTrackedChanges, Media: MediaOffice, Summary: "Insertions, deletions and moves still recorded in the package."},
	{ID: FamilyOfficeInjectionMarkers, Media: MediaOffice, Summary: "Text addressed to a language model in document properties, comments and hidden runs."},
	{ID: FamilyOfficeMetadataAnomalies, Media: MediaOffice, Summary: "Editing time, save count, dates and application claims that contradict each other."},
	{ID: FamilyOfficeStructureAnomalies, Media: MediaOffice, Summary: "Undeclared parts, lying content types, missing targets and zip anomalies; the package walk's limits."},

	{ID: FamilyImageStructureAnomalies, Media: MediaImage, Summary: "Truncation, bad checksums, broken markers, containers that are not walked."},
	{ID: FamilyImageEditingSoftware, Media: MediaImage, Summary: "Editing software named in EXIF, XMP or Photoshop resources."},
	{ID: FamilyImageMetadataInconsistency, Media: MediaImage, Summary: "Capture and modification dates or dimensions that disagree."},
	{ID: FamilyImageThumbnailMismatch, Media: MediaImage, Summary: "An embedded thumbnail inconsistent with the main image."},
	{ID: FamilyImageCompressionHistory, Media: MediaImage, Summary: "Quantisation tables that do not match the claimed camera; recompression traces."},
	{ID: FamilyImageTrailingData, Media: MediaImage, Summary: "Bytes after the end of the image, such as an appended archive."},
	{ID: FamilyImageGenerativeMarkers, Media: MediaImage, Summary: "C2PA, IPTC or generator text declaring synthetic or AI-generated content."},
	{ID: FamilyImageMetadataStripped, Media: MediaImage, Summary: "A photo-like file with no capture metadata at all."},
	{ID: FamilyImageLocationPresent, Media: MediaImage, Summary: "GPS coordinates are present (a privacy fact, not a fraud risk)."},
})

// Families returns a copy of the catalogue.
func Families() []Family {
	return append([]Family(nil), families...)
}

// LookupFamily returns the catalogue row for id.
func LookupFamily(id FamilyID) (Family, bool) {
	for _, f := range families {
		if f.ID == id {
			return f, true
		}
	}
	return Family{}, false
}

// TriageSuppressed lists the families triage mode skips, in catalogue order.
func TriageSuppressed() []string {
	var out []string
	for _, f := range families {
		if f.TriageSuppressed {
			out = append(out, string(f.ID))
		}
	}
	return out
}

// EncryptedSkipped lists the content-dependent families an encrypted PDF skips.
func EncryptedSkipped() []string {
	var out []string
	for _, f := range families {
		if f.ContentDependent {
			out = append(out, string(f.ID))
		}
	}
	return out
}

// TriageGuidance is the constant guidance of the triage block.
const TriageGuidance = "Triage mode analysed structure, metadata, signatures and presence flags only; " +
	"page content was not walked, so the suppressed families were not run. " +
	"A quiet triage report is not a clean document: run a full inspection before relying on it."

// NewTriage returns the triage block for a triage-mode PDF report.
func NewTriage() *TriageBlock {
	return &TriageBlock{
		ContentAnalysed:    false,
		SuppressedFamilies: TriageSuppressed(),
		Guidance:           TriageGuidance,
	}
}
