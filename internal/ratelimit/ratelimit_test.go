package ratelimit_test

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/ratelimit"
	"github.com/doctrust/doctrust/internal/store/sqlite"
)

func TestWindow(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 59, 30, 0, time.UTC)
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "db"), func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := &ratelimit.Limiter{Store: s, Now: func() time.Time { return now }}
	rule := ratelimit.Rule{Name: "anon", Limit: 2, Window: time.Hour}
	for range 2 {
		if err := l.Allow(t.Context(), rule, "203.0.113.1"); err != nil {
			t.Fatal(err)
		}
	}
	err = l.Allow(t.Context(), rule, "203.0.113.1")
	var ex *ratelimit.Exceeded
	if !errors.As(err, &ex) || ex.RetryAfter != 30 {
		t.Fatalf("third call = %v; want Exceeded with 30 s to the window's end", err)
	}
	if err := l.Allow(t.Context(), rule, "203.0.113.2"); err != nil {
		t.Fatalf("another subject: %v", err)
	}
	if err := l.Allow(t.Context(), ratelimit.Rule{Name: "verify", Limit: 2, Window: time.Hour}, "203.0.113.1"); err != nil {
		t.Fatalf("another rule: %v", err)
	}
	now = now.Add(31 * time.Second) // the next hour
	if err := l.Allow(t.Context(), rule, "203.0.113.1"); err != nil {
		t.Fatalf("next window: %v", err)
	}
}

func TestCheckDoesNotCount(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "db"), func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := &ratelimit.Limiter{Store: s, Now: func() time.Time { return now }}
	rule := ratelimit.Rule{Name: "fail", Limit: 2, Window: 15 * time.Minute}
	for range 5 {
		if err := l.Check(t.Context(), rule, "a@example.com"); err != nil {
			t.Fatal(err)
		}
	}
	l.Allow(t.Context(), rule, "a@example.com")
	l.Allow(t.Context(), rule, "a@example.com")
	var ex *ratelimit.Exceeded
	if err := l.Check(t.Context(), rule, "a@example.com"); !errors.As(err, &ex) || ex.RetryAfter != 900 {
		t.Fatalf("Check on a full window = %v", err)
	}
}

// TestTakeTellsTheWindowItLeft: the window Take returns is the one a
// read right after it sees, so an answer can skip that read.
func TestTakeTellsTheWindowItLeft(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 15, 0, 0, time.UTC)
	s, err := sqlite.Open(filepath.Join(t.TempDir(), "db"), func() time.Time { return now })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	l := &ratelimit.Limiter{Store: s, Now: func() time.Time { return now }}
	rule := ratelimit.Rule{Name: "anon", Limit: 3, Window: time.Hour}
	for want := 2; want >= 0; want-- {
		w, err := l.Take(t.Context(), rule, "203.0.113.1")
		peek, perr := l.Peek(t.Context(), rule, "203.0.113.1")
		if err != nil || perr != nil || w != peek || w.Remaining != want || w.Limit != 3 || w.Reset != 45*time.Minute {
			t.Fatalf("Take %+v %v, Peek %+v %v; want %d left", w, err, peek, perr, want)
		}
	}
	var ex *ratelimit.Exceeded
	if _, err := l.Take(t.Context(), rule, "203.0.113.1"); !errors.As(err, &ex) {
		t.Fatalf("past the limit: %v", err)
	}
}
