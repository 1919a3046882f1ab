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
