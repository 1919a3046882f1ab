package pool

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestBusyWhenQueueFull(t *testing.T) {
	p := New(1, 1)
	ctx := context.Background()
	if err := p.Acquire(ctx); err != nil {
		t.Fatal(err)
	}
	queued := make(chan error, 1)
	go func() { queued <- p.Acquire(ctx) }()
	// Wait until the second caller holds the queue place.
	for i := 0; len(p.admit) < 2 && i < 1000; i++ {
		time.Sleep(time.Millisecond)
	}
	if err := p.Acquire(ctx); !errors.Is(err, ErrBusy) {
		t.Fatalf("third caller: %v, want ErrBusy", err)
	}
	p.Release()
	if err := <-queued; err != nil {
		t.Fatalf("queued caller: %v", err)
	}
	p.Release()
	if len(p.admit) != 0 || len(p.workers) != 0 {
		t.Fatal("pool not empty after releases")
	}
}

func TestQueuedCallerGivesUp(t *testing.T) {
	p := New(1, 4)
	p.Acquire(context.Background())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if err := p.Acquire(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("%v", err)
	}
	if len(p.admit) != 1 {
		t.Fatal("a caller that gave up kept its queue place")
	}
}

func TestReservedPlaceCountsBeforeWorker(t *testing.T) {
	p := New(1, 0)
	s, err := p.Reserve()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Reserve(); !errors.Is(err, ErrBusy) {
		t.Fatalf("second reserve: %v, want ErrBusy", err)
	}
	if err := s.Wait(context.Background()); err != nil {
		t.Fatal(err)
	}
	s.Release()
	s.Release() // a second release is harmless
	if len(p.admit) != 0 || len(p.workers) != 0 {
		t.Fatal("pool not empty after release")
	}
}

func TestBudget(t *testing.T) {
	b := NewBudget(10)
	give, err := b.Take(7)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Take(4); !errors.Is(err, ErrBusy) {
		t.Fatalf("over budget: %v", err)
	}
	give()
	give()
	if b.Held() != 0 {
		t.Fatalf("held %d after give back", b.Held())
	}
	if _, err := b.Take(10); err != nil {
		t.Fatal(err)
	}
}

// waitFor polls cond for up to 10 s: a state the test waits for, never a
// timing it asserts.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("gave up waiting")
		}
	}
}

func TestAdmitWaitsForAFreedPlace(t *testing.T) {
	p := NewWaiting(1, 1, time.Hour, 2)
	a, _ := p.Reserve()
	b, _ := p.Reserve()
	got := make(chan *Slot)
	go func() {
		s, err := p.Admit(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- s
	}()
	waitFor(t, func() bool { return p.Waiting() == 1 })
	b.Release()
	s := <-got
	if p.Waiting() != 0 || len(p.admit) != 2 {
		t.Fatalf("waiting %d, places taken %d", p.Waiting(), len(p.admit))
	}
	s.Release()
	a.Release()
	if len(p.admit) != 0 {
		t.Fatal("places left taken")
	}
}

func TestAdmitGivesUp(t *testing.T) {
	p := NewWaiting(1, 0, 20*time.Millisecond, 1)
	held, _ := p.Reserve()
	defer held.Release()
	if _, err := p.Admit(context.Background()); !errors.Is(err, ErrBusy) {
		t.Fatalf("wait ended: %v, want ErrBusy", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := p.Admit(ctx); !errors.Is(err, context.Canceled) {
		t.Fatalf("caller gone: %v, want its context's error", err)
	}
	if p.Waiting() != 0 || len(p.admit) != 1 {
		t.Fatalf("waiting %d, places taken %d", p.Waiting(), len(p.admit))
	}
}

func TestAdmitRoomFull(t *testing.T) {
	p := NewWaiting(1, 0, time.Hour, 1)
	held, _ := p.Reserve()
	defer held.Release()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { _, err := p.Admit(ctx); done <- err }()
	waitFor(t, func() bool { return p.Waiting() == 1 })
	// The wait is an hour: returning at all is a refusal at once.
	if _, err := p.Admit(context.Background()); !errors.Is(err, ErrBusy) {
		t.Fatalf("beyond the room: %v", err)
	}
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	if p.Waiting() != 0 {
		t.Fatal("room not empty")
	}
}

func TestNoWaitingRoom(t *testing.T) {
	for _, p := range []*Pool{NewWaiting(1, 0, 0, 8), NewWaiting(1, 0, time.Hour, 0)} {
		held, _ := p.Reserve()
		if _, err := p.Admit(context.Background()); !errors.Is(err, ErrBusy) {
			t.Fatalf("no room: %v", err)
		}
		held.Release()
	}
}

func TestDefaultWaitingRoom(t *testing.T) {
	p := New(2, 16)
	if p.wait != AdmissionWait || cap(p.waiting) != WaitersPerPlace*18 {
		t.Fatalf("wait %v, room %d", p.wait, cap(p.waiting))
	}
}
