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
