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
	id:      "incremental-updates",
	order:   30,
	run:     (*analysis).incrementalUpdates,
	summary: "Revisions appended after the original save, with what each one wrote and overwrote.",
	evidence: []string{
		"revisions", "contentRevisions", "changedPerRevision[]",
	},
	variants: []variant{
		{code: "appended", severity: report.Low, title: "Revisions appended", text: "{appended#revision was|revisions were} appended after the original save; none of them rewrote page content, pages or images."},
		{code: "content-touched", severity: report.Medium, title: "Content changed after the original save", text: "{appended#revision was|revisions were} appended after the original save; {contentRevisions} of them wrote page content, pages or page images."},
	},
}

// signatureCoverageFamily declares the signature-coverage family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var signatureCoverageFamily = declaration{
	id:      "signature-coverage",
	order:   40,
	run:     (*analysis).signatureCoverage,
	summary: "What each signature's byte range covers and what was appended after it.",
	evidence: []string{
		"signatureCount", "timestampCount", "usageRightsCount", "certified", "dss",
		"emptySignatureFields", "emptySignatureValues", "unsignedRevisions", "contentRevisionsAfter",
		"orphanSignatureValues", "inventoryTruncated", "revisions", "signatures[]",
		"removedSignatures[]",
	},
	variants: []variant{
		{code: "signature-removed", severity: report.High, title: "Signature removed", text: "{removed#signature|signatures} attached in an earlier revision {removed?is|are} no longer attached to the document."},
		{code: "range-anomaly", severity: report.High, title: "Signature byte range anomaly", text: "{signatures#signature has|signatures have} a byte range that does not cover {signatures?its|their} revision exactly: {anomalies}."},
		{code: "content-after-signing", severity: report.High, title: "Content changed after signing", text: "{revisions#revision|revisions} appended after a signature changed page content, pages or page images."},
		{code: "unsigned-changes", severity: report.Low, title: "Unsigned changes after the last signature", text: "{revisions#revision|revisions} appended after the last signature {revisions?is|are} covered by no signature and {revisions?changes|change} more than validation data and metadata."},
		{code: "usage-rights-anomaly", severity: report.Low, title: "Usage-rights signature no longer covers the file", text: "{signatures#usage-rights signature|usage-rights signatures}, which enable viewer features and vouch for no content, have a byte range that does not cover their revision exactly."},
		{code: "placeholder-values", severity: report.Low, title: "Signature fields look signed but are not", text: "{values#signature value carries|signature values carry} no signature bytes (no /Contents, or only zero bytes): the fields state signer details but nothing was signed."},
		{code: "unsigned-fields", severity: report.Info, title: "Unsigned signature fields", text: "{fields#signature field carries|signature fields carry} no signature value: the document is not signed."},
		{code: "intact", severity: report.Info, title: "Signatures cover their revisions", text: "Signatures and document timestamps cover their revisions ({signatures#signature|signatures}, {timestamps#timestamp|timestamps}); anything appended after them is validation data, metadata or covered by a later signature. Signatures were not validated cryptographically."},
	},
}

// signaturePermissionsFamily declares the signature-permissions family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var signaturePermissionsFamily = declaration{
	id:               "signature-permissions",
	order:            50,
	run:              (*analysis).signaturePermissions,
	summary:          "Revisions after a certification signature assessed against its DocMDP permissions.",
	triageSuppressed: true,
	evidence: []string{
		"assessment", "p", "certificationObject", "certifiedRevision", "firstBreakRevision",
		"revisionsAssessed[]", "lockPermissionBreaks", "lockedFieldChanges[]",
	},
	variants: []variant{
		{code: "certification-broken", severity: report.High, title: "Certification permissions broken", text: "{broken} of the {assessed#revision|revisions} appended after the certification signature made changes its permissions (P={p}) do not allow."},
		{code: "lock-permissions-broken", severity: report.Medium, title: "Changes forbidden by a signature's field lock", text: "{signatures#approval signature locks|approval signatures lock} the document at permission level P={p} through {signatures?its|their} field lock, and {revisions#revision|revisions} appended after {signatures?it|them} made changes that level does not allow (form filling included when P=1)."},
		{code: "locked-field-changed", severity: report.High, title: "Locked form field changed", text: "{fields#form field|form fields} locked by a signature {fields?was|were} changed by a later revision ({changes#change|changes})."},
		{code: "unclassified-changes", severity: report.Medium, title: "Changes after certification not classified", text: "{opaque} of the {assessed#revision|revisions} appended after the certification signature changed objects this analysis cannot classify, so whether its permissions (P={p}) allow them is unknown."},
		{code: "permitted", severity: report.Info, title: "Certified document within its permissions", text: "The document is certified (P={p}); the {assessed#revision|revisions} appended after the certification made only changes it permits."},
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

// readSigned sets document.signed: any signature value in the newest view.
// It runs as a step of its own so that a fault in the inventory leaves the
// rest of the document block intact.
func (a *analysis) readSigned() {
	a.r.Document.Signed = a.signatureAnalysis().Signed()
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
