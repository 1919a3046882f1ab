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

// Exceeded is the refusal: 429 rate_limited with retryAfterSeconds.
type Exceeded struct{ RetryAfter int }

func (e *Exceeded) Error() string { return fmt.Sprintf("rate limited, retry after %ds", e.RetryAfter) }

// Limiter applies rules against a store.
type Limiter struct {
	Store store.Store
	Now   func() time.Time
}

// Allow counts one event of subject under rule, or returns *Exceeded when
// the window is full; a refused event is not counted.
func (l *Limiter) Allow(ctx context.Context, rule Rule, subject string) error {
	now := time.Now()
	if l.Now != nil {
		now = l.Now()
	}
	start := now.UTC().Truncate(rule.Window)
	end := start.Add(rule.Window)
	bucket := fmt.Sprintf("%s:%s:%d", rule.Name, subject, start.Unix())
	_, err := l.Store.Hit(ctx, bucket, rule.Limit, end)
	if errors.Is(err, store.ErrRefused) {
		wait := int(end.Sub(now).Round(time.Second) / time.Second)
		return &Exceeded{RetryAfter: max(wait, 1)}
	}
	return err
}
