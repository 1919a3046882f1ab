// Package ratelimit is the service's one kind of rate limiter: a fixed
// window counted in the store, so a limit holds across every Lambda
// instance and across `doctrust serve` restarts. Each limiter (anonymous
// inspections, receipt verification, and the account limiters of
// DESIGN.md) is a Rule.
package ratelimit

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/doctrust/doctrust/internal/store"
)

// Rule is one limiter: at most Limit events per Window per subject.
type Rule struct {
	Name   string // distinguishes limiters sharing the store, e.g. "anon"
	Limit  int
	Window time.Duration
}

// Window is a subject's state under a rule, as RateLimit headers tell it:
// the limit, what is left of it, and the time until the window ends.
type Window struct {
	Limit, Remaining int
	Reset            time.Duration
}

// Peek reads subject's window under rule without counting anything.
func (l *Limiter) Peek(ctx context.Context, rule Rule, subject string) (Window, error) {
	bucket, now, end := l.window(rule, subject)
	n, err := l.Store.Count(ctx, bucket)
	if err != nil {
		return Window{}, err
	}
	return Window{Limit: rule.Limit, Remaining: max(0, rule.Limit-n), Reset: end.Sub(now)}, nil
}

// Exceeded is the refusal: 429 rate_limited with retryAfterSeconds.
type Exceeded struct{ RetryAfter int }

func (e *Exceeded) Error() string { return fmt.Sprintf("rate limited, retry after %ds", e.RetryAfter) }

// Store is the part of store.Store a limiter uses; store.Store documents
// each method. Both backends satisfy it.
type Store interface {
	Hit(ctx context.Context, bucket string, limit int, expires time.Time) (int, error)
	Count(ctx context.Context, bucket string) (int, error)
}

// Limiter applies rules against a store.
type Limiter struct {
	Store Store
	Now   func() time.Time
}

// window names the current window of subject under rule.
func (l *Limiter) window(rule Rule, subject string) (bucket string, now, end time.Time) {
	now = time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	start := now.UTC().Truncate(rule.Window)
	end = start.Add(rule.Window)
	return fmt.Sprintf("%s:%s:%d", rule.Name, subject, start.Unix()), now, end
}

func exceeded(now, end time.Time) *Exceeded {
	wait := int(end.Sub(now).Round(time.Second) / time.Second)
	return &Exceeded{RetryAfter: max(wait, 1)}
}

// Allow counts one event of subject under rule, or returns *Exceeded when
// the window is full; a refused event is not counted.
func (l *Limiter) Allow(ctx context.Context, rule Rule, subject string) error {
	_, err := l.Take(ctx, rule, subject)
	return err
}

// Take is Allow that also returns the window as the count left it, so an
// answer can tell it without reading the store again.
func (l *Limiter) Take(ctx context.Context, rule Rule, subject string) (Window, error) {
	bucket, now, end := l.window(rule, subject)
	n, err := l.Store.Hit(ctx, bucket, rule.Limit, end)
	if errors.Is(err, store.ErrRefused) {
		return Window{}, exceeded(now, end)
	}
	if err != nil {
		return Window{}, err
	}
	return Window{Limit: rule.Limit, Remaining: max(0, rule.Limit-n), Reset: end.Sub(now)}, nil
}

// Check returns *Exceeded when subject's window under rule is full,
// without counting: for limits on outcomes (failed logins) that are
// counted with Allow only once the outcome is known.
func (l *Limiter) Check(ctx context.Context, rule Rule, subject string) error {
	bucket, now, end := l.window(rule, subject)
	n, err := l.Store.Count(ctx, bucket)
	if err != nil {
		return err
	}
	if n >= rule.Limit {
		return exceeded(now, end)
	}
	return nil
}
