// Package pool bounds concurrent analyses: a fixed number of workers and a
// bounded queue in front of them. A caller that finds the queue full is
// refused at once (the API's 503 busy) instead of waiting without bound.
package pool

import (
	"context"
	"errors"
)

// ErrBusy: every worker is busy and the queue is full.
var ErrBusy = errors.New("pool: all workers busy and queue full")

// Pool admits up to Workers analyses at once and Queue more waiting.
type Pool struct {
	workers chan struct{}
	admit   chan struct{}
}

// New returns a pool; workers is at least 1, queue at least 0.
func New(workers, queue int) *Pool {
	workers = max(1, workers)
	queue = max(0, queue)
	return &Pool{workers: make(chan struct{}, workers), admit: make(chan struct{}, workers+queue)}
}

// Acquire waits for a worker. It fails with ErrBusy when the queue is full,
// and with the context's error if the caller gives up while queued. Every
// successful Acquire must be paired with Release.
func (p *Pool) Acquire(ctx context.Context) error {
	select {
	case p.admit <- struct{}{}:
	default:
		return ErrBusy
	}
	select {
	case p.workers <- struct{}{}:
		return nil
	case <-ctx.Done():
		<-p.admit
		return ctx.Err()
	}
}

// Release frees the worker taken by Acquire.
func (p *Pool) Release() {
	<-p.workers
	<-p.admit
}
