// Package engine is the one door to analysis: bytes and options in, an
// InspectionReport out. It is pure: no I/O, no clock (the caller passes the
// time of analysis), no randomness (the caller assigns the report id), no
// global state, and no goroutine outlives a call.
package engine

import (
	"context"
	"errors"
	"time"

	"github.com/doctrust/doctrust/engine/compare"
	"github.com/doctrust/doctrust/engine/image"
	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/office"
	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// The engine's only errors. Everything else, a hostile file included, is a
// report (with structure warnings when the file is damaged).
var (
	// ErrUnreadable: the bytes are not a format the engine reads (the API's
	// 422 not_a_pdf). Every package's unreadable error wraps it.
	ErrUnreadable = report.ErrUnreadable
	// ErrDeadline: the document exhausted its time budget (the API's 422
	// analysis_timeout). Every package's deadline error wraps it.
	ErrDeadline = report.ErrDeadline
)

// Prepare builds the read-only tables the engine otherwise builds on first
// use (the injection lexicon, a few milliseconds). A one-shot process calls
// it on a goroutine of its own while it reads its file; a server calls it
// at start so no request pays for it. The tables never change once built.
func Prepare() { inject.Prepare() }

// Compare relates a candidate PDF to an original (POST /api/v1/compare).
// Either file not being a PDF is ErrUnreadable; the deadline is ErrDeadline.
func Compare(ctx context.Context, original, candidate []byte) (rep *compare.Report, err error) {
	defer func() {
		// The PDF reader contains its faults per step; this is the last
		// line, and a comparison that faulted has nothing true to say.
		if p := recover(); p != nil {
			rep, err = nil, ErrUnreadable
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, ErrDeadline
	}
	r, err := compare.Compare(ctx, original, candidate, compare.Options{})
	switch {
	case errors.Is(err, compare.ErrNotPDF):
		return nil, ErrUnreadable
	case err != nil:
		return nil, ErrDeadline
	}
	return r, nil
}

// Options select the analysis mode.
type Options struct {
	// Triage skips the per-page content walk of PDFs (?mode=triage).
	Triage bool
	// Now is the time of analysis, used only to flag dates in the future.
	// The zero value skips that check.
	Now time.Time
	// Budget is the decompression budget in bytes; 0 means the default.
	Budget int64
	// Issuer, when set, asks for the issuerBaseline block (SPEC.md).
	Issuer *Issuer
}

// Inspect analyses one document. The context carries the deadline; the
// engine checks it as it goes and returns ErrDeadline when it passes.
func Inspect(ctx context.Context, data []byte, opt Options) (*report.Report, error) {
	return Read(data).Inspect(ctx, opt)
}

// Inspect analyses the document, with the issuerBaseline block when
// opt.Issuer is set (from the same parse). Errors as Inspect's.
func (d *Document) Inspect(ctx context.Context, opt Options) (rep *report.Report, err error) {
	defer func() {
		if err == nil && rep != nil && opt.Issuer != nil {
			rep, err = d.withIssuer(ctx, rep, opt)
		}
	}()
	defer func() {
		// Analysers contain their own faults; this is the last line, so a
		// bug can never turn a hostile file into a crash.
		if p := recover(); p != nil {
			rep, err = faultReport(d.Kind(), len(d.data)), nil
		}
	}()
	if err := ctx.Err(); err != nil {
		return nil, ErrDeadline
	}
	data, s := d.data, d.sniff
	switch s.Format.Kind() {
	case sniff.KindPDF:
		p, err := d.openPDF(ctx, opt.Budget, true)
		if err != nil {
			return nil, err
		}
		r, err := p.Analyze(ctx, pdf.Options{Triage: opt.Triage, Now: opt.Now})
		if err != nil {
			return nil, ErrDeadline
		}
		return r, nil
	case sniff.KindOffice:
		return officeReport(ctx, data, s.Format, opt)
	case sniff.KindImage:
		return imageReport(ctx, data, s.Format)
	}
	if office.IsEncryptedPackage(data) {
		// A password-protected docx/xlsx/pptx/xlsb is a compound file,
		// not a ZIP: reported as encrypted Office, not refused, and
		// analysed when Excel's default password opens it.
		r, err := office.AnalyzeEncryptedPackage(ctx, data, office.Options{Now: opt.Now, Budget: opt.Budget})
		if err != nil {
			return nil, ErrDeadline
		}
		return r, nil
	}
	return nil, ErrUnreadable
}

// officeReport walks an Office package (engine/office); the blind-spot
// disclosure of SPEC.md item 7 is part of every report it returns.
func officeReport(ctx context.Context, data []byte, f sniff.Format, opt Options) (*report.Report, error) {
	analyse := office.Analyze
	switch f {
	case sniff.DOC, sniff.XLS, sniff.PPT:
		analyse = office.AnalyzeLegacy
	case sniff.ODT, sniff.ODS, sniff.ODP:
		analyse = office.AnalyzeODF
	}
	r, err := analyse(ctx, data, f, office.Options{Now: opt.Now, Budget: opt.Budget})
	if err != nil {
		return nil, ErrDeadline
	}
	return r, nil
}

// imageReport hands the image to engine/image, which walks JPEG, PNG, WebP
// and ISOBMFF and gives TIFF, GIF and BMP the container-not-walked
// disclosure (SPEC.md item 2), so an empty result is never mistaken for a
// clean one.
func imageReport(ctx context.Context, data []byte, f sniff.Format) (*report.Report, error) {
	r, err := image.Analyze(ctx, data, f)
	if err != nil {
		return nil, ErrDeadline
	}
	return r, nil
}

// faultReport is the report of last resort when analysis panicked outside
// the analysers' own containment.
// The panic value is never shown: it may quote document bytes.
func faultReport(kind sniff.Kind, size int) *report.Report {
	media := report.MediaPDF
	switch kind {
	case sniff.KindOffice:
		media = report.MediaOffice
	case sniff.KindImage:
		media = report.MediaImage
	}
	r := report.New(media, int64(size))
	r.Add(report.Finding{
		Family:   report.FamilyStructureWarnings,
		Severity: report.Low,
		Message:  report.Msg("structure-warnings.analysis-fault", "families", 0),
		Evidence: map[string]any{"code": "analysis-fault"},
	})
	r.Finish()
	return r
}
