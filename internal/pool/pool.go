// Package pool bounds concurrent analyses: a fixed number of workers and a
// bounded queue in front of them. A caller that finds the queue full is
// refused at once (the API's 503 busy) instead of waiting without bound.
//
// A place is reserved (Reserve) before the request's body is read, so a
// caller that would be refused never costs the upload's bytes, and the
// worker is awaited (Slot.Wait) only once the body is in hand.
package pool

import (
	"context"
	"errors"
	"sync"
)

// ErrBusy: every worker is busy and the queue is full, or the byte budget
// of requests in flight is spent.
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

// Places is how many callers the pool holds at once: workers plus queue.
func (p *Pool) Places() int { return cap(p.admit) }

// Acquire waits for a worker. It fails with ErrBusy when the queue is full,
// and with the context's error if the caller gives up while queued. Every
// successful Acquire must be paired with Release.
func (p *Pool) Acquire(ctx context.Context) error {
	s, err := p.Reserve()
	if err != nil {
		return err
	}
	if err := s.Wait(ctx); err != nil {
		s.Release()
		return err
	}
	return nil
}

// Release frees the worker taken by Acquire.
func (p *Pool) Release() {
	<-p.workers
	<-p.admit
}

// Slot is a place in the pool, reserved without waiting; Wait turns it
// into a worker. Release frees whatever it holds, once.
type Slot struct {
	p       *Pool
	mu      sync.Mutex
	working bool
	done    bool
}

// Reserve takes a place (a worker or the queue) without waiting: ErrBusy
// when none is free.
func (p *Pool) Reserve() (*Slot, error) {
	select {
	case p.admit <- struct{}{}:
		return &Slot{p: p}, nil
	default:
		return nil, ErrBusy
	}
}

// Wait blocks until a worker is free or ctx ends; the place is kept
// either way, so the caller still calls Release.
func (s *Slot) Wait(ctx context.Context) error {
	s.mu.Lock()
	if s.working || s.done {
		s.mu.Unlock()
		return nil
	}
	s.mu.Unlock()
	select {
	case s.p.workers <- struct{}{}:
		s.mu.Lock()
		s.working = true
		s.mu.Unlock()
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release frees the worker (if Wait got one) and the place. Further calls
// do nothing.
func (s *Slot) Release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done {
		return
	}
	s.done = true
	if s.working {
		<-s.p.workers
	}
	<-s.p.admit
}

// Budget bounds the bytes that requests in flight may hold: each request
// takes its share before reading its body and gives it back when done.
type Budget struct {
	mu    sync.Mutex
	total int64
	held  int64
}

// NewBudget returns a budget of total bytes.
func NewBudget(total int64) *Budget { return &Budget{total: total} }

// Take reserves n bytes, or fails with ErrBusy when that would exceed the
// budget. The returned func gives them back; call it once.
func (b *Budget) Take(n int64) (func(), error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if n < 0 || b.held+n > b.total {
		return nil, ErrBusy
	}
	b.held += n
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.held -= n
			b.mu.Unlock()
		})
	}, nil
}

// Held is the bytes taken now.
func (b *Budget) Held() int64 {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.held
}
