// Package pdf analyses a PDF for the report: the document block, the cost,
// and one file per signal family. A Document (document.go) is the PDF
// opened once through package file (revisions and objects); Analyze,
// Describe, ReadFacts and Text are its readings. The signature and
// modification analysis is package sigs, fed by the Document. Nothing the
// document carries is ever run, opened or followed.
package pdf

import (
	"context"
	"time"

	"github.com/doctrust/doctrust/engine/pdf/cos"
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
var ErrDeadline = report.ErrDeadline.Named("pdf: analysis deadline exceeded")

// analysis is one reading of a Document: what the families share. The
// opened document (a.f, a.catalog, a.info, a.xmp, a.pages ...) is embedded,
// so the family files read it as fields of the analysis.
type analysis struct {
	*Document
	opt Options
	r   *report.Report
	// fullPageImagePages lists 1-based pages whose content paints one image
	// over (almost) the whole page; nil in triage mode.
	fullPageImagePages []int
	// editors caches editorTools (nil: not yet computed).
	editors []producers.Tool
	// toolsFound caches tools once toolsDone.
	toolsFound []producers.Tool
	toolsDone  bool
	// content holds the per-page facts of the content walk.
	content contentFacts
	// startUsed is the budget's use when this reading began.
	startUsed int64
	// uncountedBytes were decoded by this reading but are not part of
	// summary.cost.
	uncountedBytes int64
	faults         []string
	// pageData holds the content streams the interpreter decoded for the
	// page being walked, so a later check of that page reads them without
	// decoding them again.
	pageData map[*cos.Stream][]byte
	// pageBlocks holds the text objects of the page being walked, read
	// from its operators as the interpreter ran them.
	pageBlocks *blockScan
}

// Analyze opens a PDF and inspects it. header is the offset of "%PDF" (-1
// when absent). Its only error is ErrDeadline.
func Analyze(ctx context.Context, data []byte, header int, opt Options) (*report.Report, error) {
	d, err := Open(ctx, data, header, opt.Budget)
	if err != nil {
		return nil, err
	}
	return d.Analyze(ctx, opt)
}

// Analyze inspects the document: the report with its families. opt.Budget
// is ignored (the document's budget was set at Open). Run it as the
// document's first reading when a request wants the report with other
// readings: summary.cost then counts exactly what the inspection decoded,
// as for a document opened for the report alone. Its only error is
// ErrDeadline.
func (d *Document) Analyze(ctx context.Context, opt Options) (*report.Report, error) {
	a := d.reading(opt, d.limit)
	f := a.f
	a.safe("signatures", a.readSigned)
	if !opt.Triage && !f.Encrypted {
		a.safe("content", a.walkContent)
	}
	for _, fam := range families {
		if ctx.Err() != nil {
			return nil, ErrDeadline
		}
		if a.skipped(fam.ID) {
			continue
		}
		fn := fam.Run
		a.safe(string(fam.ID), func() {
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
	a.r.Summary.Cost.ExpandedBytes = d.openCost + f.Budget.Used - a.startUsed - a.uncountedBytes
	a.r.Finish()
	return a.r, nil
}

// skipped applies the mode and encryption rules of the family catalogue.
func (a *analysis) skipped(id report.FamilyID) bool {
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
func (d *Document) resolve(o cos.Object) cos.Object { return d.f.Resolve(o) }

func (d *Document) dict(o cos.Object) *cos.Dict { return cos.DictOf(d.resolve(o)) }
