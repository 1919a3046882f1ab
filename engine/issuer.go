package engine

import (
	"context"

	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/engine/pdf"
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
func withIssuer(ctx context.Context, r *report.Report, data []byte, opt Options) (rep *report.Report, err error) {
	defer func() {
		if p := recover(); p != nil {
			r.IssuerBaseline = &report.IssuerBaseline{Requested: opt.Issuer.Slug, Reason: "no_profile"}
			rep, err = r, nil
		}
	}()
	if err := issuerBlock(ctx, r, data, sniff.Sniff(data).HeaderOffset, opt.Issuer, opt); err != nil {
		return nil, err
	}
	return r, nil
}

// issuerBlock fills the issuerBaseline block and adds the issuer-mismatch
// signal on a confident deviation. Baselines are a PDF feature: any other
// media is not_applicable.
func issuerBlock(ctx context.Context, r *report.Report, data []byte, header int, is *Issuer, opt Options) error {
	switch {
	case r.MediaType != report.MediaPDF:
		r.IssuerBaseline = &report.IssuerBaseline{Requested: is.Slug, Reason: "not_applicable"}
		return nil
	case is.Profile == nil:
		r.IssuerBaseline = &report.IssuerBaseline{Requested: is.Slug, Reason: "no_profile"}
		return nil
	}
	d, err := pdf.Describe(ctx, data, header, pdf.Options{Budget: opt.Budget})
	if err != nil {
		return ErrDeadline
	}
	m := baseline.Match(is.Profile, d)
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
func Observe(ctx context.Context, data []byte, budget int64) (o baseline.Observation, err error) {
	defer func() {
		if p := recover(); p != nil {
			o, err = nil, ErrUnreadable
		}
	}()
	s := sniff.Sniff(data)
	if s.Format.Kind() != sniff.KindPDF {
		return nil, ErrUnreadable
	}
	d, err := pdf.Describe(ctx, data, s.HeaderOffset, pdf.Options{Budget: budget})
	if err != nil {
		return nil, ErrDeadline
	}
	if d.Encrypted || d.Damaged || len(d.Pages) == 0 {
		return nil, baseline.ErrUnusable
	}
	return baseline.Observe(d), nil
}
