package report

import "slices"

// FamilyID is a signal family's id, the report's signal id. Every id is a
// constant, so a family is named in code by its constant and a misspelt id
// does not compile; the catalogue gives each its row. The constants of the
// families engine/pdf, engine/office and engine/image declare are generated
// (families_gen.go, Declaration); the two below are written here.
type FamilyID string

// The families that run outside the declaring packages: structure warnings
// for every medium, issuer mismatch in engine/baseline.
const (
	FamilyStructureWarnings FamilyID = "structure-warnings"
	FamilyIssuerMismatch    FamilyID = "issuer-mismatch"
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
// the declared PDF families (in their declared order, which the triage
// block's and the encrypted-file warning's lists follow), issuer mismatch,
// then the declared Office and image families.
var families = slices.Concat([]Family{
	{ID: FamilyStructureWarnings, Summary: "The file is malformed, repaired, truncated, encrypted or exhausted its parsing budget: what was and was not analysed."},
}, pdfFamilies, []Family{
	{ID: FamilyIssuerMismatch, Media: MediaPDF, Summary: "The file's structure diverges from the named issuer's baseline."},
}, officeFamilies, imageFamilies)

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
