package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/sigs"
	"github.com/doctrust/doctrust/engine/report"
)

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
