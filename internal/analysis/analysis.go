// Package analysis is the one pipeline every door into the engine uses (the
// HTTP API, the Lambda functions, the CLI): it runs the engine under the
// per-document deadline, assigns the report id, evaluates the caller's
// policy on the unredacted report, applies redaction and timing, and signs
// the receipt. The engine stays pure; the id, the clock and the secret live
// here.
package analysis

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/engine/compare"
	"github.com/doctrust/doctrust/engine/metadata"
	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/engine/receipt"
	"github.com/doctrust/doctrust/engine/report"
)

// DefaultDeadline is the per-document budget of SPEC.md (15 000 ms).
const DefaultDeadline = 15 * time.Second

// Errors the doors map onto SPEC.md's table.
var (
	ErrUnreadable = engine.ErrUnreadable // 422 not_a_pdf
	ErrDeadline   = engine.ErrDeadline   // 422 analysis_timeout
)

// Request is one inspection.
type Request struct {
	Data   []byte
	Triage bool
	Redact bool
	Timing bool
	Policy *policy.Policy
	// Issuer names an issuer baseline (already validated as a slug; the
	// door drops it in triage mode).
	Issuer string
	// Baselines resolves Issuer to a profile (the caller's account first,
	// then the built-in set); nil resolves nothing, so the block answers
	// no_profile.
	Baselines Resolver
}

// Resolver finds the baseline profile for an issuer slug and the tier that
// answered (baseline.SourceCustomer or baseline.SourcePublicSpecimen); a
// nil profile and no error means there is none.
type Resolver func(ctx context.Context, issuer string) (*baseline.Profile, string, error)

// Pipeline holds what the engine must not: the secret, the clock, the ids.
type Pipeline struct {
	Secret   []byte
	Deadline time.Duration
	// Now and NewID default to the wall clock and a random UUID.
	Now   func() time.Time
	NewID func() string
}

// Result is a finished inspection: the body to send and the report in it.
type Result struct {
	Body   []byte
	Report *report.Report
	// Unredacted is the report the policy saw (same as Report unless
	// redaction was asked for); usage accounting reads its band.
	Unredacted *report.Report
}

func (p *Pipeline) deadline() time.Duration {
	if p.Deadline > 0 {
		return p.Deadline
	}
	return DefaultDeadline
}

func (p *Pipeline) now() time.Time {
	if p.Now != nil {
		return p.Now()
	}
	return time.Now()
}

// NewReportID returns "insp_" and a random (version 4) UUID. It is formed
// here rather than by a UUID library, whose network-address support would
// add the net package's start-up to every CLI run.
func NewReportID() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40 // version 4
	u[8] = u[8]&0x3f | 0x80 // RFC 4122 variant
	return fmt.Sprintf("insp_%x-%x-%x-%x-%x", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}

// Inspect runs one request through the engine and the report transforms.
func (p *Pipeline) Inspect(ctx context.Context, req Request) (*Result, error) {
	ctx, cancel := context.WithTimeout(ctx, p.deadline())
	defer cancel()
	start := p.now()
	opt := engine.Options{Triage: req.Triage, Now: start}
	if req.Issuer != "" {
		opt.Issuer = &engine.Issuer{Slug: req.Issuer}
		if req.Baselines != nil {
			p, source, err := req.Baselines(ctx, req.Issuer)
			if err != nil {
				return nil, errors.Join(errors.New("analysis: resolving the issuer baseline"), err)
			}
			opt.Issuer.Profile, opt.Issuer.Source = p, source
		}
	}
	rep, err := engine.Inspect(ctx, req.Data, opt)
	if err != nil {
		return nil, err
	}
	if p.NewID != nil {
		rep.ID = p.NewID()
	} else {
		rep.ID = NewReportID()
	}
	if req.Policy != nil {
		pb := req.Policy.Evaluate(rep)
		rep.Policy = &pb
	}
	out := rep
	if req.Redact {
		out = rep.Redacted()
	}
	if req.Timing {
		out.Timing = &report.TimingBlock{ElapsedMs: p.now().Sub(start).Milliseconds()}
	}
	body, rc, err := receipt.Attach(out, p.Secret, p.now(), req.Redact)
	if err != nil {
		return nil, errors.Join(errors.New("analysis: signing the receipt"), err)
	}
	out.Receipt = &rc
	return &Result{Body: body, Report: out, Unredacted: rep}, nil
}

// Compare relates two PDFs under a deadline of two documents and returns
// the CompareReport's JSON body.
func (p *Pipeline) Compare(ctx context.Context, original, candidate []byte) ([]byte, *compare.Report, error) {
	return p.CompareRedacting(ctx, original, candidate, false)
}

// CompareRedacting is Compare with ?redact=payload applied when redact is
// set: the strings of either file that carry an injection cue are replaced
// (compare.Report.Redact).
func (p *Pipeline) CompareRedacting(ctx context.Context, original, candidate []byte, redact bool) ([]byte, *compare.Report, error) {
	deadline := p.Deadline
	if deadline <= 0 {
		deadline = DefaultDeadline
	}
	ctx, cancel := context.WithTimeout(ctx, 2*deadline)
	defer cancel()
	rep, err := engine.Compare(ctx, original, candidate)
	if err != nil {
		return nil, nil, err
	}
	if redact {
		rep.Redact()
	}
	body, err := json.Marshal(rep)
	if err != nil {
		return nil, nil, err
	}
	return body, rep, nil
}

// Listing is a finished metadata listing: the body to send and the report
// in it.
type Listing struct {
	Body   []byte
	Report *metadata.Report
}

// Metadata lists one document's metadata under the per-document deadline.
// The listing is deterministic: it carries no id, receipt or time, so
// identical bytes give an identical body.
func (p *Pipeline) Metadata(ctx context.Context, data []byte) (*Listing, error) {
	return p.MetadataRedacting(ctx, data, false)
}

// MetadataRedacting is Metadata with ?redact=payload applied when redact
// is set: listed strings that carry an injection cue are replaced
// (metadata.Report.Redact).
func (p *Pipeline) MetadataRedacting(ctx context.Context, data []byte, redact bool) (*Listing, error) {
	ctx, cancel := context.WithTimeout(ctx, p.deadline())
	defer cancel()
	rep, err := engine.Metadata(ctx, data, engine.Options{})
	if err != nil {
		return nil, err
	}
	if redact {
		rep.Redact()
	}
	// Values are shown as written, so <, > and & stay themselves rather
	// than growing sixfold into \u003c escapes: the listing's caps then
	// bound the body too (the body is application/json, never HTML).
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rep); err != nil {
		return nil, errors.Join(errors.New("analysis: encoding the listing"), err)
	}
	return &Listing{Body: bytes.TrimSuffix(buf.Bytes(), []byte("\n")), Report: rep}, nil
}
