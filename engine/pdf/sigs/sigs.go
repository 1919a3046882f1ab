// Package sigs analyses a PDF's signatures and what its appended revisions
// changed: the signature inventory and byte-range coverage, the removed
// signatures, the FieldMDP locks, the classification of every object an
// appended revision wrote, and the three families that report them
// (incremental-updates, signature-coverage, signature-permissions).
//
// It is fed by the document model of engine/pdf (Input: the opened file,
// its catalogue and its page-tree walk) and imports nothing of it, so the
// families of engine/pdf cannot be reached from here. Like the rest of the
// engine it is pure: each fact is computed once, on first need, from the
// bytes the file layer holds.
package sigs

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/report"
)

// maxNestedNodes bounds the walk inside one object's direct children; the
// families of engine/pdf use the same bound.
const maxNestedNodes = 4096

// Input is what the analysis reads of an opened document.
type Input struct {
	File *file.File
	// Catalog is the newest view's catalogue, nil when unreadable.
	Catalog *cos.Dict
	// Pages lists the leaves of the page tree under catalog in the view of
	// revision rev (0: newest), with inherited resources.
	Pages func(catalog *cos.Dict, rev int) []Page
}

// Page is one page of a view as the document model reads it.
type Page struct {
	Ref       cos.Ref // zero when the page is a direct object
	Dict      *cos.Dict
	Resources *cos.Dict
}

// Analysis is the signature and modification analysis of one document.
// Each fact is computed once and shared by the families that read it. Not
// safe for concurrent use.
type Analysis struct{ a *analysis }

// New prepares the analysis of a document; nothing is read until asked.
func New(in Input) *Analysis {
	return &Analysis{&analysis{f: in.File, catalog: in.Catalog, pagesIn: in.Pages}}
}

// Signed reports a signature value in the newest view (document.signed).
func (s *Analysis) Signed() bool { return len(s.a.signatures().sigs) > 0 }

// SignatureFacts lists the signatures with their integrity for the
// document block, in file order.
func (s *Analysis) SignatureFacts() []report.SignatureFact { return s.a.signatureFacts() }

// Signatures counts the signature values of the newest view.
func (s *Analysis) Signatures() int { return len(s.a.signatures().sigs) }

// RevisionChanges classifies what each appended revision wrote, one entry
// per revision 2..n.
func (s *Analysis) RevisionChanges() []RevisionChange { return s.a.revisionChanges() }

// IncrementalUpdates is the incremental-updates family.
func (s *Analysis) IncrementalUpdates() *report.Finding { return s.a.incrementalUpdates() }

// SignatureCoverage is the signature-coverage family.
func (s *Analysis) SignatureCoverage() *report.Finding { return s.a.signatureCoverage() }

// SignaturePermissions is the signature-permissions family.
func (s *Analysis) SignaturePermissions() *report.Finding { return s.a.signaturePermissions() }

// analysis carries what the signature families share. The field names are
// those of engine/pdf's analysis, which these files were written against.
type analysis struct {
	f       *file.File
	catalog *cos.Dict
	pagesIn func(catalog *cos.Dict, rev int) []Page
	changes []RevisionChange
	// sigs, revBytes and kinds are computed once (signatures.go,
	// byterange.go, revisionkinds.go).
	sigs     *sigInventory
	revBytes *revisionBytes
	kinds    []changeKinds
}

// resolve dereferences in the newest view.
func (a *analysis) resolve(o cos.Object) cos.Object { return a.f.Resolve(o) }

func (a *analysis) dict(o cos.Object) *cos.Dict { return cos.DictOf(a.resolve(o)) }

// page is one page of a view, as the classification reads it.
type page struct {
	ref       cos.Ref
	dict      *cos.Dict
	resources *cos.Dict
}

// walkPages lists the pages of revision rev's view under catalog.
func (a *analysis) walkPages(catalog *cos.Dict, rev int) []page {
	if a.pagesIn == nil {
		return nil
	}
	in := a.pagesIn(catalog, rev)
	out := make([]page, len(in))
	for i, p := range in {
		out[i] = page{p.Ref, p.Dict, p.Resources}
	}
	return out
}

// rect reads a rectangle array, normalised so x0<x1 and y0<y1.
func rect(o cos.Object, resolve func(cos.Object) cos.Object) ([4]float64, bool) {
	return cos.Rect(o, resolve)
}

// RangeAnomalies are the byte-range anomaly names signature-coverage
// evidence may carry: the closed vocabulary tests hold reports to.
func RangeAnomalies() []string {
	return []string{rangeMalformed, rangeNotFromStart, rangeOverlap, rangeGap, rangeContentsElse, rangeBeyondEOF, rangeShort, rangeNotRevisionEnd}
}

// Assessments are the revision assessments signature-permissions evidence
// may carry (SPEC.md revisionsAssessed[]).
func Assessments() []string {
	return []string{assessContent, assessStructure, assessAnnotation, assessOpaque, assessLTV, assessPermitted}
}

// ModificationLevels are the modification levels signature-coverage
// evidence may carry, "unknown" included.
func ModificationLevels() []string {
	return append([]string{levelUnknown}, modificationLevels...)
}
