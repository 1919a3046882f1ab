package engine

import (
	"context"

	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Issuer is a named issuer and the profile the caller resolved for it (nil
// when neither the account nor the built-in set holds one). Resolving is
// I/O, so the caller does it; the engine only matches.
type Issuer struct {
	Slug    string
	Profile *baseline.Profile
	// Source is the tier that answered: baseline.SourceCustomer or
	// baseline.SourcePublicSpecimen.
	Source string
}

// withIssuer runs issuerBlock under its own recovery: a fault while
// matching must not lose the report, so the block then says the slug did
// not resolve and no signal is added.
func (d *Document) withIssuer(ctx context.Context, r *report.Report, opt Options) (rep *report.Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.IssuerBaseline = &report.IssuerBaseline{Requested: opt.Issuer.Slug, Reason: "no_profile"}
			rep, err = r, nil
		}
	}()
	if err := d.issuerBlock(ctx, r, opt.Issuer, opt); err != nil {
		return nil, err
	}
	return r, nil
}

// issuerBlock fills the issuerBaseline block and adds the issuer-mismatch
// signal on a confident deviation. Baselines are a PDF feature: any other
// media is not_applicable. The description comes from the parse the
// report was made from.
func (d *Document) issuerBlock(ctx context.Context, r *report.Report, is *Issuer, opt Options) error {
	switch {
	case r.MediaType != report.MediaPDF:
		r.IssuerBaseline = &report.IssuerBaseline{Requested: is.Slug, Reason: "not_applicable"}
		return nil
	case is.Profile == nil:
		r.IssuerBaseline = &report.IssuerBaseline{Requested: is.Slug, Reason: "no_profile"}
		return nil
	}
	p, err := d.openPDF(ctx, opt.Budget, false)
	if err != nil {
		return err
	}
	desc, err := p.Describe(ctx)
	if err != nil {
		return ErrDeadline
	}
	m := baseline.Match(is.Profile, desc)
	b := &report.IssuerBaseline{
		Requested:            is.Slug,
		Resolved:             true,
		Source:               is.Source,
		SampleCount:          &m.SampleCount,
		MatchingActive:       &m.MatchingActive,
		MismatchedDimensions: m.MismatchedDimensions,
	}
	if m.MatchingActive {
		b.Divergence = &m.Divergence
	}
	r.IssuerBaseline = b
	if m.Finding != nil {
		r.Add(*m.Finding)
		r.Finish()
	}
	return nil
}

// Observe reads one training document's baseline observation. A file that
// is not a PDF is ErrUnreadable; one that cannot train is
// baseline.ErrUnusable (encrypted: its strings are ciphertext; damaged:
// repaired structure says nothing about the writer; no page); the
// deadline is ErrDeadline.
func Observe(ctx context.Context, data []byte, budget int64) (baseline.Observation, error) {
	return Read(data).Observe(ctx, budget)
}

// Observe reads the document's baseline observation. Errors as Observe's.
func (d *Document) Observe(ctx context.Context, budget int64) (o baseline.Observation, err error) {
	defer func() {
		if p := recover(); p != nil {
			o, err = nil, ErrUnreadable
		}
	}()
	if d.Kind() != sniff.KindPDF {
		return nil, ErrUnreadable
	}
	p, err := d.openPDF(ctx, budget, false)
	if err != nil {
		return nil, err
	}
	desc, err := p.Describe(ctx)
	if err != nil {
		return nil, ErrDeadline
	}
	if desc.Encrypted || desc.Damaged || len(desc.Pages) == 0 {
		return nil, baseline.ErrUnusable
	}
	return baseline.Observe(desc), nil
}
