// Package baselines is the issuer-baseline feature around the engine's
// profiles (engine/baseline): training from uploaded files into an
// account's stored profile, listing the account's profiles beside the
// built-in public-specimen ones, deleting, and resolving a slug for an
// inspection (the account's own profile wins over the built-in one).
package baselines

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"time"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/baseline"
	"github.com/doctrust/doctrust/internal/plans"
	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store"
)

// Limits of SPEC.md.
const (
	MaxFiles    = 25 // file parts per training request
	MaxProfiles = 25 // profiles per account
	maxLabel    = 100
)

// TrainRule: 5 training requests an hour per account.
var TrainRule = ratelimit.Rule{Name: "baseline-train", Limit: 5, Window: time.Hour}

// Errors the HTTP layer maps onto SPEC.md's table.
var (
	ErrPlanRequired = errors.New("baselines: the plan does not include baselines") // 403 plan_required
	ErrRejected     = baseline.ErrRejected                                         // 422 profile_rejected
	ErrNotFound     = errors.New("baselines: no such profile of the account")      // 404
	ErrNoUsable     = errors.New("baselines: no file could train")                 // 422 not_a_pdf
	ErrTooMany      = errors.New("baselines: the account holds the most profiles") // 400
)

// Store is the part of store.Store that keeps the accounts' profiles;
// store.Store documents each method. Both backends satisfy it.
type Store interface {
	PutBaseline(ctx context.Context, b store.Baseline, limit int) error
	Baseline(ctx context.Context, accountID, issuer string) (store.Baseline, error)
	Baselines(ctx context.Context, accountID string) ([]store.Baseline, error)
	DeleteBaseline(ctx context.Context, accountID, issuer string) error
}

// Service holds the store, the rate limiter and the built-in profiles.
type Service struct {
	Store   Store
	Plans   plans.Table
	Limiter *ratelimit.Limiter
	// BuiltIn are the public-specimen profiles shipped with the service.
	BuiltIn []*baseline.Profile
	Now     func() time.Time
	// Budget is the decompression budget per training file (0: default).
	Budget int64
}

func (s *Service) now() time.Time {
	if s.Now != nil {
		return s.Now()
	}
	return time.Now()
}

// View is SPEC.md's Baseline profile.
type View struct {
	Issuer                string                      `json:"issuer"`
	Label                 string                      `json:"label"`
	SampleCount           int                         `json:"sampleCount"`
	Source                string                      `json:"source"`
	BuiltIn               bool                        `json:"builtIn"`
	CreatedAt             *time.Time                  `json:"createdAt"`
	UpdatedAt             *time.Time                  `json:"updatedAt"`
	MatchingActive        bool                        `json:"matchingActive"`
	MinSamplesForMatching int                         `json:"minSamplesForMatching"`
	Dimensions            []baseline.DimensionSummary `json:"dimensions"`
}

func view(p *baseline.Profile, source string, created, updated time.Time) View {
	v := View{
		Issuer: p.Issuer, Label: p.Label, SampleCount: p.SampleCount, Source: source,
		BuiltIn: source == baseline.SourcePublicSpecimen, MatchingActive: p.MatchingActive(),
		MinSamplesForMatching: baseline.MinSamplesForMatching, Dimensions: p.Summaries(),
	}
	if !created.IsZero() {
		c, u := created.UTC(), updated.UTC()
		v.CreatedAt, v.UpdatedAt = &c, &u
	}
	return v
}

func decode(b store.Baseline) (*baseline.Profile, error) {
	var p baseline.Profile
	if err := json.Unmarshal(b.Profile, &p); err != nil {
		return nil, fmt.Errorf("baselines: stored profile unreadable: %w", err)
	}
	p.Issuer = b.Issuer
	return &p, nil
}

// List is the account's profiles plus the built-in ones the account has
// not trained its own for, by issuer.
func (s *Service) List(ctx context.Context, accountID string) ([]View, error) {
	own, err := s.Store.Baselines(ctx, accountID)
	if err != nil {
		return nil, err
	}
	out := []View{}
	mine := map[string]bool{}
	for _, b := range own {
		p, err := decode(b)
		if err != nil {
			return nil, err
		}
		mine[b.Issuer] = true
		out = append(out, view(p, baseline.SourceCustomer, b.Created, b.Updated))
	}
	for _, p := range s.BuiltIn {
		if !mine[p.Issuer] {
			out = append(out, view(p, baseline.SourcePublicSpecimen, time.Time{}, time.Time{}))
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Issuer < out[j].Issuer })
	return out, nil
}

// Delete removes the account's own profile. A built-in, unknown or other
// account's slug is ErrNotFound alike.
func (s *Service) Delete(ctx context.Context, accountID, issuer string) error {
	err := s.Store.DeleteBaseline(ctx, accountID, issuer)
	if errors.Is(err, store.ErrNotFound) {
		return ErrNotFound
	}
	return err
}

// Resolve finds the profile an inspection naming issuer matches against:
// the account's own (accountID empty for an anonymous caller), else the
// built-in one, else none.
func (s *Service) Resolve(ctx context.Context, accountID, issuer string) (*baseline.Profile, string, error) {
	if accountID != "" {
		b, err := s.Store.Baseline(ctx, accountID, issuer)
		switch {
		case err == nil:
			p, err := decode(b)
			return p, baseline.SourceCustomer, err
		case !errors.Is(err, store.ErrNotFound):
			return nil, "", err
		}
	}
	for _, p := range s.BuiltIn {
		if p.Issuer == issuer {
			return p, baseline.SourcePublicSpecimen, nil
		}
	}
	return nil, "", nil
}

// Skipped is a file that did not train, with why.
type Skipped struct {
	Filename string `json:"filename"`
	Reason   string `json:"reason"`
}

// Skip reasons.
const (
	ReasonNotPDF   = "not_a_pdf"
	ReasonUnusable = "unusable_pdf" // encrypted, damaged or without pages
	ReasonTimeout  = "analysis_timeout"
	ReasonEmpty    = "empty"
	// ReasonDuplicate is a file whose bytes equal an earlier file of the
	// same request: counted twice it would make one document look like a
	// habit of the issuer.
	ReasonDuplicate = "duplicate"
)

// Training collects one request's observations as its files arrive, so
// that no file is held longer than its own analysis.
type Training struct {
	s        *Service
	issuer   string
	label    string
	profile  *baseline.Profile
	seen     map[[sha256.Size]byte]bool // the files already read, by digest
	Received int
	Skipped  []Skipped
}

// Start checks the plan and the hourly limit and begins a training of
// issuer (already a valid slug).
func (s *Service) Start(ctx context.Context, a store.Account, issuer, label string) (*Training, error) {
	plan, ok := s.Plans.Get(a.Plan)
	if !ok || !plan.Baselines {
		return nil, ErrPlanRequired
	}
	if err := s.Limiter.Allow(ctx, TrainRule, a.ID); err != nil {
		return nil, err
	}
	if r := []rune(label); len(r) > maxLabel {
		label = string(r[:maxLabel])
	}
	return &Training{s: s, issuer: issuer, label: label, profile: baseline.New(issuer, label)}, nil
}

// Add reads one file; a file that cannot train is listed in Skipped.
func (t *Training) Add(ctx context.Context, filename string, data []byte) {
	t.Received++
	if len(data) == 0 {
		t.Skipped = append(t.Skipped, Skipped{filename, ReasonEmpty})
		return
	}
	sum := sha256.Sum256(data)
	if t.seen[sum] {
		t.Skipped = append(t.Skipped, Skipped{filename, ReasonDuplicate})
		return
	}
	if t.seen == nil {
		t.seen = map[[sha256.Size]byte]bool{}
	}
	t.seen[sum] = true
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	o, err := engine.Observe(ctx, data, t.s.Budget)
	switch {
	case err == nil:
		t.profile.Add(o)
	case errors.Is(err, engine.ErrUnreadable):
		t.Skipped = append(t.Skipped, Skipped{filename, ReasonNotPDF})
	case errors.Is(err, baseline.ErrUnusable):
		t.Skipped = append(t.Skipped, Skipped{filename, ReasonUnusable})
	default:
		t.Skipped = append(t.Skipped, Skipped{filename, ReasonTimeout})
	}
}

// Result is the answer of a finished training.
type Result struct {
	Profile       View      `json:"profile"`
	Merged        bool      `json:"merged"`
	FilesReceived int       `json:"filesReceived"`
	FilesUsed     int       `json:"filesUsed"`
	Skipped       []Skipped `json:"skipped"`
}

// Finish merges the new samples into the account's profile for the issuer
// (or starts one), applies the privacy check to the result and stores it.
// A rejected profile is discarded: the stored one, if any, is unchanged.
func (t *Training) Finish(ctx context.Context, accountID string) (*Result, error) {
	used := t.profile.SampleCount
	if used == 0 {
		return nil, ErrNoUsable
	}
	now := t.s.now().UTC()
	merged := false
	p, created := t.profile, now
	old, err := t.s.Store.Baseline(ctx, accountID, t.issuer)
	switch {
	case err == nil:
		prev, err := decode(old)
		if err != nil {
			return nil, err
		}
		prev.Merge(t.profile)
		p, created, merged = prev, old.Created, true
	case !errors.Is(err, store.ErrNotFound):
		return nil, err
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	body, err := json.Marshal(p)
	if err != nil {
		return nil, err
	}
	err = t.s.Store.PutBaseline(ctx, store.Baseline{AccountID: accountID, Issuer: t.issuer, Profile: body, Created: created, Updated: now}, MaxProfiles)
	if errors.Is(err, store.ErrRefused) {
		return nil, ErrTooMany
	}
	if err != nil {
		return nil, err
	}
	skipped := t.Skipped
	if skipped == nil {
		skipped = []Skipped{}
	}
	return &Result{
		Profile: view(p, baseline.SourceCustomer, created, now), Merged: merged,
		FilesReceived: t.Received, FilesUsed: used, Skipped: skipped,
	}, nil
}
