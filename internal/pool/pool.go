// Package pool bounds concurrent analyses: a fixed number of workers and a
// bounded queue in front of them. A caller that finds the queue full is
// refused (the API's 503 busy) instead of waiting without bound.
//
// A place is reserved (Reserve, or Admit with its bounded wait) before the
// request's body is read, so a caller that would be refused never costs
// the upload's bytes, and the worker is awaited (Slot.Wait) only once the
// body is in hand.
package pool

import (
	"context"
	"errors"
	"sync"
	"time"
)

// The waiting room of Admit. A refusal is not free: a client that retries
// at once turns every refusal into another request, and under a 25x
// overload the server answered some 3,300 of them a second on the cores
// the analyses needed (docs/reliability.md). A caller that finds no place
// therefore waits for one, its body unread, for a bounded time.
const (
	// AdmissionWait is how long Admit waits for a place: well inside the
	// 15 s analysis deadline, and long enough that a full pool of the
	// corpus's slow documents (p99 35 ms, docs/performance.md) drains
	// several times over: with the defaults (2 workers, 18 places, 72
	// waiters) the last waiter's place comes after about 90 x 35 ms / 2
	// = 1.6 s. It also bounds the refusals a waiting room can produce to
	// its size every 2 s.
	AdmissionWait = 2 * time.Second
	// WaitersPerPlace sizes the waiting room from the pool: four callers
	// waiting for each place (workers + queue). A waiter holds a
	// goroutine and its connection's buffers (some 20 KB), never its
	// upload, so the default room of 72 costs under 2 MB.
	WaitersPerPlace = 4
)

// ErrBusy: every worker is busy and the queue is full, or the byte budget
// of requests in flight is spent.
var ErrBusy = errors.New("pool: all workers busy and queue full")

// Pool admits up to Workers analyses at once and Queue more waiting.
type Pool struct {
	workers chan struct{}
	admit   chan struct{}
	// waiting holds a token for each caller in Admit's waiting room.
	waiting chan struct{}
	wait    time.Duration
}

// New returns a pool with the default waiting room (AdmissionWait,
// WaitersPerPlace); workers is at least 1, queue at least 0.
func New(workers, queue int) *Pool {
	workers = max(1, workers)
	queue = max(0, queue)
	return NewWaiting(workers, queue, AdmissionWait, WaitersPerPlace*(workers+queue))
}

// NewWaiting returns a pool whose Admit waits up to wait for a place, with
// at most waiters callers waiting at once; a zero wait or room refuses at
// once, as Reserve does.
func NewWaiting(workers, queue int, wait time.Duration, waiters int) *Pool {
	workers = max(1, workers)
	queue = max(0, queue)
	if wait <= 0 {
		waiters = 0
	}
	return &Pool{workers: make(chan struct{}, workers), admit: make(chan struct{}, workers+queue),
		waiting: make(chan struct{}, max(0, waiters)), wait: wait}
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

// Admit takes a place like Reserve, but when none is free it waits in the
// waiting room for up to the pool's wait: ErrBusy when the room is full
// (at once) or the wait ends without a place, the context's error when the
// caller gives up first. Waiters get places in the order they came: a
// freed place passes straight to the longest-blocked sender on the
// channel, so a newcomer cannot take it from them.
func (p *Pool) Admit(ctx context.Context) (*Slot, error) {
	select {
	case p.admit <- struct{}{}:
		return &Slot{p: p}, nil
	default:
	}
	select {
	case p.waiting <- struct{}{}:
	default:
		return nil, ErrBusy
	}
	defer func() { <-p.waiting }()
	t := time.NewTimer(p.wait)
	defer t.Stop()
	select {
	case p.admit <- struct{}{}:
		return &Slot{p: p}, nil
	case <-t.C:
		return nil, ErrBusy
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Waiting is how many callers are in Admit's waiting room now.
func (p *Pool) Waiting() int { return len(p.waiting) }

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
