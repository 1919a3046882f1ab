package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/sigs"
	"github.com/doctrust/doctrust/engine/report"
)

// incrementalUpdatesFamily declares the incremental-updates family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var incrementalUpdatesFamily = declaration{
	ID:      "incremental-updates",
	Order:   30,
	Run:     (*analysis).incrementalUpdates,
	Summary: "Revisions appended after the original save, with what each one wrote and overwrote.",
	Evidence: []string{
		"revisions", "contentRevisions", "changedPerRevision[]",
	},
	Variants: []report.VariantDecl{
		{Code: "appended", Severity: report.Low, Title: "Revisions appended", Text: "{appended#revision was|revisions were} appended after the original save; none of them rewrote page content, pages or images."},
		{Code: "content-touched", Severity: report.Medium, Title: "Content changed after the original save", Text: "{appended#revision was|revisions were} appended after the original save; {contentRevisions} of them wrote page content, pages or page images."},
	},
}

// signatureCoverageFamily declares the signature-coverage family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var signatureCoverageFamily = declaration{
	ID:      "signature-coverage",
	Order:   40,
	Run:     (*analysis).signatureCoverage,
	Summary: "What each signature's byte range covers, whether its digest and signature hold, and what was appended after it.",
	Evidence: []string{
		"signatureCount", "timestampCount", "usageRightsCount", "certified", "dss",
		"emptySignatureFields", "emptySignatureValues", "unsignedRevisions", "contentRevisionsAfter",
		"orphanSignatureValues", "inventoryTruncated", "revisions", "signatures[]",
		"removedSignatures[]",
	},
	Variants: []report.VariantDecl{
		{Code: "integrity-broken", Severity: report.High, Title: "Signature integrity broken", Text: "{signatures#signature|signatures} failed the integrity check ({failures}): the signed bytes or signed attributes are not those the signer's key signed."},
		{Code: "signature-removed", Severity: report.High, Title: "Signature removed", Text: "{removed#signature|signatures} attached in an earlier revision {removed?is|are} no longer attached to the document."},
		{Code: "range-anomaly", Severity: report.High, Title: "Signature byte range anomaly", Text: "{signatures#signature has|signatures have} a byte range that does not cover {signatures?its|their} revision exactly: {anomalies}."},
		{Code: "content-after-signing", Severity: report.High, Title: "Content changed after signing", Text: "{revisions#revision|revisions} appended after a signature changed page content, pages or page images."},
		{Code: "unsigned-changes", Severity: report.Low, Title: "Unsigned changes after the last signature", Text: "{revisions#revision|revisions} appended after the last signature {revisions?is|are} covered by no signature and {revisions?changes|change} more than validation data and metadata."},
		{Code: "usage-rights-anomaly", Severity: report.Low, Title: "Usage-rights signature no longer covers the file", Text: "{signatures#usage-rights signature|usage-rights signatures}, which enable viewer features and vouch for no content, {signatures?has|have} a byte range that does not cover {signatures?its|their} revision exactly or a digest that no longer matches."},
		{Code: "placeholder-values", Severity: report.Low, Title: "Signature fields look signed but are not", Text: "{values#signature value carries|signature values carry} no signature bytes (no signature contents, or only zero bytes): the fields state signer details but nothing was signed."},
		{Code: "timestamp-integrity-broken", Severity: report.Medium, Title: "Signature timestamp broken", Text: "{signatures#signature carries|signatures carry} a signature timestamp that fails its integrity check: the time of signing it would prove is not established."},
		{Code: "certificate-not-valid-at-signing", Severity: report.Medium, Title: "Signer certificate not valid when signed", Text: "{signatures#signature|signatures} {signatures?names|name} a signing time outside the validity period of {signatures?its|their} own signer certificate."},
		{Code: "weak-digest", Severity: report.Low, Title: "Weak digest in a recent signature", Text: "{signatures#signature|signatures} made after 2017 {signatures?uses|use} MD5 or SHA-1 to digest the document."},
		{Code: "integrity-unchecked", Severity: report.Low, Title: "Signature integrity not checked", Text: "The integrity of {signatures#signature|signatures} could not be checked ({reasons})."},
		{Code: "unsigned-fields", Severity: report.Info, Title: "Unsigned signature fields", Text: "{fields#signature field carries|signature fields carry} no signature value: the document is not signed."},
		{Code: "intact", Severity: report.Info, Title: "Signatures cover their revisions", Text: "Signatures and document timestamps cover their revisions ({signatures#signature|signatures}, {timestamps#timestamp|timestamps}); anything appended after them is validation data, metadata or covered by a later signature. Integrity verified (each digest and signature checked with the certificate the signature embeds); the signer's identity was not validated against any trust list."},
	},
}

// signaturePermissionsFamily declares the signature-permissions family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var signaturePermissionsFamily = declaration{
	ID:               "signature-permissions",
	Order:            50,
	Run:              (*analysis).signaturePermissions,
	Summary:          "Revisions after a certification signature assessed against its DocMDP permissions; fields changed after a signature that does not permit it.",
	TriageSuppressed: true,
	Evidence: []string{
		"assessment", "p", "certificationObject", "certifiedRevision", "firstBreakRevision",
		"revisionsAssessed[]", "lockPermissionBreaks", "lockedFieldChanges[]", "unpermittedFills[]",
	},
	Variants: []report.VariantDecl{
		{Code: "certification-broken", Severity: report.High, Title: "Certification permissions broken", Text: "{broken} of the {assessed#revision|revisions} appended after the certification signature made changes its permissions (P={p}) do not allow."},
		{Code: "lock-permissions-broken", Severity: report.Medium, Title: "Changes forbidden by a signature's field lock", Text: "{signatures#approval signature locks|approval signatures lock} the document at permission level P={p} through {signatures?its|their} field lock, and {revisions#revision|revisions} appended after {signatures?it|them} made changes that level does not allow (form filling included when P=1)."},
		{Code: "locked-field-changed", Severity: report.High, Title: "Locked form field changed", Text: "{fields#form field|form fields} locked by a signature {fields?was|were} changed by a later revision ({changes#change|changes})."},
		{Code: "unpermitted-fill", Severity: report.Medium, Title: "Form filled in after an approval signature", Text: "{fields#form field was|form fields were} filled in after an approval signature that permits no changes (no certification allowing form filling, no field lock leaving {fields?it|them} free); the fields are named in the evidence."},
		{Code: "unclassified-changes", Severity: report.Medium, Title: "Changes after certification not classified", Text: "{opaque} of the {assessed#revision|revisions} appended after the certification signature changed objects this analysis cannot classify, so whether its permissions (P={p}) allow them is unknown."},
		{Code: "permitted", Severity: report.Info, Title: "Certified document within its permissions", Text: "The document is certified (P={p}); the {assessed#revision|revisions} appended after the certification made only changes it permits."},
	},
}

// RevisionChange is what one appended revision wrote (engine/pdf/sigs).
type RevisionChange = sigs.RevisionChange

// signatureAnalysis is the document's signature and modification analysis
// (engine/pdf/sigs), fed by the opened file, catalogue and page-tree walk
// and shared by every reading of the document.
func (d *Document) signatureAnalysis() *sigs.Analysis {
	if d.sig == nil {
		d.sig = sigs.New(sigs.Input{File: d.f, Catalog: d.catalog, Pages: d.viewPages})
	}
	return d.sig
}

// viewPages lists the pages of revision rev's view for engine/pdf/sigs.
func (d *Document) viewPages(catalog *cos.Dict, rev int) []sigs.Page {
	pages, _ := walkPages(d.f, catalog, rev)
	out := make([]sigs.Page, len(pages))
	for i, p := range pages {
		out[i] = sigs.Page{Ref: p.ref, Dict: p.dict, Resources: p.resources}
	}
	return out
}

// readSigned sets document.signed (any signature value in the newest view)
// and document.signatures, each with its integrity.
// It runs as a step of its own so that a fault in the inventory leaves the
// rest of the document block intact.
func (a *analysis) readSigned() {
	sa := a.signatureAnalysis()
	a.r.Document.Signed = sa.Signed()
	facts := sa.SignatureFacts()
	a.r.Document.SignaturesTotal = len(facts)
	if len(facts) > report.MaxArray {
		facts, a.r.Document.SignaturesTruncated = facts[:report.MaxArray], true
	}
	a.r.Document.Signatures = facts
}

// revisionChanges classifies what each appended revision wrote.
func (a *analysis) revisionChanges() []RevisionChange {
	return a.signatureAnalysis().RevisionChanges()
}

// The signature families run from the run list in pdf.go like the others.

func (a *analysis) incrementalUpdates() *report.Finding {
	return a.signatureAnalysis().IncrementalUpdates()
}

func (a *analysis) signatureCoverage() *report.Finding {
	return a.signatureAnalysis().SignatureCoverage()
}

func (a *analysis) signaturePermissions() *report.Finding {
	return a.signatureAnalysis().SignaturePermissions()
}
