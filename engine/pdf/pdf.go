// Package pdf analyses a PDF for the report: the document block, the cost,
// and one file per signal family. It reads the file through package file
// (revisions and objects) and never runs, opens or follows anything the
// document carries.
package pdf

import (
	"context"
	"errors"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/producers"
	"github.com/doctrust/doctrust/engine/report"
)

// DefaultBudget is the decompression allowance of one inspection: the sum
// of bytes all filters may produce. Streams are decoded one at a time and
// dropped, so resident memory stays far below it.
const DefaultBudget = 256 << 20

// Options select what the analysis does.
type Options struct {
	// Triage skips the per-page content walk (SPEC.md ?mode=triage).
	Triage bool
	// Now is the time of analysis, for the future-date check; zero skips it.
	Now time.Time
	// Budget overrides DefaultBudget when positive.
	Budget int64
}

// ErrDeadline is returned when the context ends before the analysis does.
var ErrDeadline = errors.New("pdf: analysis deadline exceeded")

// analysis carries what the families share.
type analysis struct {
	f               *file.File
	opt             Options
	r               *report.Report
	catalog         *cos.Dict
	info            *cos.Dict
	xmp             *XMP
	pages           []page
	pageTreeDamaged bool
	// fullPageImagePages lists 1-based pages whose content paints one image
	// over (almost) the whole page; nil in triage mode.
	fullPageImagePages []int
	// editors caches editorTools (nil: not yet computed).
	editors []producers.Tool
	// content holds the per-page facts of the content walk.
	content contentFacts
	changes []RevisionChange
	// sigs, spans and kinds serve the signature families (signatures.go).
	sigs     *sigInventory
	revBytes *revisionBytes
	kinds    []changeKinds
	// uncountedBytes were decoded but are not part of summary.cost.
	uncountedBytes int64
	faults         []string
}

// Analyze inspects a PDF. header is the offset of "%PDF" (-1 when absent).
// Its only error is ErrDeadline.
func Analyze(ctx context.Context, data []byte, header int, opt Options) (*report.Report, error) {
	a, err := open(ctx, data, header, opt)
	if err != nil {
		return nil, err
	}
	f := a.f
	a.safe("signatures", a.readSigned)
	if !opt.Triage && !f.Encrypted {
		a.safe("content", a.walkContent)
	}
	for _, fam := range families {
		if ctx.Err() != nil {
			return nil, ErrDeadline
		}
		if a.skipped(fam.id) {
			continue
		}
		fn := fam.run
		a.safe(fam.id, func() {
			if fd := fn(a); fd != nil {
				a.r.Add(*fd)
			}
		})
	}
	if ctx.Err() != nil {
		return nil, ErrDeadline
	}
	if fd := a.structureWarnings(); fd != nil {
		a.r.Add(*fd)
	}
	if opt.Triage {
		a.r.Triage = report.NewTriage()
	}
	a.r.Summary.Cost.ExpandedBytes = f.Budget.Used - a.uncountedBytes
	a.r.Finish()
	return a.r, nil
}

// open walks the file's cross-reference chain under the decompression
// budget and reads the document block: the start every reading of a PDF
// shares (Analyze, Describe, ReadFacts). Its only error is ErrDeadline.
func open(ctx context.Context, data []byte, header int, opt Options) (*analysis, error) {
	budget := int64(DefaultBudget)
	if opt.Budget > 0 {
		budget = opt.Budget
	}
	f, err := file.Open(ctx, data, header, filters.NewBudget(budget))
	if err != nil {
		return nil, ErrDeadline
	}
	a := &analysis{f: f, opt: opt, r: report.New(report.MediaPDF, int64(len(data)))}
	a.safe("document", a.readDocument)
	return a, nil
}

// family is one signal family's analyser.
type family struct {
	id  string
	run func(*analysis) *report.Finding
}

// families lists the PDF analysers in this engine version; structure
// warnings run last because they report what the others met.
var families = []family{
	{"producer-fingerprint", (*analysis).producerFingerprint},
	{"id-inconsistency", (*analysis).idInconsistency},
	{"incremental-updates", (*analysis).incrementalUpdates},
	{"active-content", (*analysis).activeContent},
	{"metadata-inconsistency", (*analysis).metadataInconsistency},
	{"signature-coverage", (*analysis).signatureCoverage},
	{"signature-permissions", (*analysis).signaturePermissions},
	{"redaction-exposure", (*analysis).redactionExposure},
	{"hidden-text", (*analysis).hiddenText},
	{"content-overlay", (*analysis).contentOverlay},
	{"annotation-overlays", (*analysis).annotationOverlays},
	{"font-anomalies", (*analysis).fontAnomalies},
	{"numeric-edits", (*analysis).numericEdits},
	{"embedded-image-anomalies", (*analysis).embeddedImageAnomalies},
	{"page-geometry", (*analysis).pageGeometry},
	{"document-injection-markers", (*analysis).injectionMarkers},
}

// skipped applies the mode and encryption rules of the family catalogue.
func (a *analysis) skipped(id string) bool {
	fam, ok := report.LookupFamily(id)
	if !ok {
		return true
	}
	return (a.opt.Triage && fam.TriageSuppressed) || (a.f.Encrypted && fam.ContentDependent)
}

// safe runs one step, containing a panic so one family's failure on a
// hostile file cannot take the report down; the fault is reported.
func (a *analysis) safe(name string, fn func()) {
	defer func() {
		// The panic value is dropped: it may quote document bytes.
		if recover() != nil {
			a.faults = append(a.faults, name)
		}
	}()
	fn()
}

// resolve dereferences in the newest view.
func (a *analysis) resolve(o cos.Object) cos.Object { return a.f.Resolve(o) }

func (a *analysis) dict(o cos.Object) *cos.Dict { return cos.DictOf(a.resolve(o)) }
