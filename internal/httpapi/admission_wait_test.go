package httpapi

import (
	"bytes"
	"context"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/pool"
)

// heldHit holds the first count of an anonymous window (the first
// anonymous request's, made with its worker taken and its body read)
// until released; later counts pass.
type heldHit struct {
	metering.Store
	once             sync.Once
	entered, release chan struct{}
}

func (h *heldHit) Hit(ctx context.Context, bucket string, limit int, expires time.Time) (int, error) {
	h.once.Do(func() {
		close(h.entered)
		<-h.release
	})
	return h.Store.Hit(ctx, bucket, limit, expires)
}

// until polls cond for up to 10 s: a condition the test waits to become
// true, never a timing it asserts.
func until(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("gave up waiting: %s", what)
		}
	}
}

// TestSecondRequestWaitsForThePlace: with one worker and no queue, a
// request arriving while the first is in progress waits for its place,
// its body unread and no share of the byte budget taken, and is served
// when the first finishes within the wait (it used to be refused at once).
func TestSecondRequestWaitsForThePlace(t *testing.T) {
	hc := &heldHit{entered: make(chan struct{}), release: make(chan struct{})}
	var p *pool.Pool
	e := newEnv(t, func(c *Config) {
		p = pool.New(1, 0)
		c.Pool = p
		hc.Store = c.Meter.Store
		c.Meter.Store = hc
	})
	s := e.srv.Config.Handler.(*Server)
	pdf := pdfBytes(t)
	first := make(chan int)
	go func() {
		_, rec, _ := direct(t, e, "/api/v1/inspect", nil, pdf)
		first <- rec.Code
	}()
	<-hc.entered
	type answer struct {
		code  int
		reads int
	}
	second := make(chan answer)
	go func() {
		wb, rec, _ := direct(t, e, "/api/v1/inspect", nil, pdf)
		second <- answer{rec.Code, wb.reads}
	}()
	until(t, "the second request in the waiting room", func() bool {
		select {
		case a := <-second:
			t.Fatalf("second request answered %d while the first was in progress", a.code)
		default:
		}
		return p.Waiting() == 1
	})
	if held := s.budget.Held(); held != int64(len(pdf)) {
		t.Fatalf("budget holds %d bytes while one request is admitted and one waits, want %d", held, len(pdf))
	}
	close(hc.release)
	if code := <-first; code != 200 {
		t.Fatalf("first request: %d", code)
	}
	if a := <-second; a.code != 200 || a.reads == 0 {
		t.Fatalf("second request: %d after %d reads, want 200", a.code, a.reads)
	}
	if p.Waiting() != 0 || s.budget.Held() != 0 {
		t.Fatalf("after both: %d waiting, %d bytes held", p.Waiting(), s.budget.Held())
	}
}

// TestWaitEndsInBusy: a request still without a place when the wait ends
// gets SPEC.md's 503 busy, body and Retry-After unchanged, and its body
// was never read.
func TestWaitEndsInBusy(t *testing.T) {
	const wait = 150 * time.Millisecond
	p := pool.NewWaiting(1, 0, wait, 4)
	e := newEnv(t, func(c *Config) { c.Pool = p })
	slot, err := p.Reserve()
	if err != nil {
		t.Fatal(err)
	}
	defer slot.Release()
	start := time.Now()
	wb, rec, body := direct(t, e, "/api/v1/inspect", nil, pdfBytes(t))
	if d := time.Since(start); d < wait {
		t.Fatalf("refused after %v, before the wait of %v ended", d, wait)
	}
	if rec.Code != 503 || body["error"] != "busy" || body["retryAfterSeconds"] != float64(busyRetryAfter) ||
		rec.Header().Get("Retry-After") != "5" || wb.reads != 0 {
		t.Fatalf("got %d %v %v after %d reads", rec.Code, body, rec.Header(), wb.reads)
	}
	if !bytes.Equal(bytes.TrimSpace(rec.Body.Bytes()), bytes.TrimSpace(busyBody())) {
		t.Fatalf("body %q, want busy's %q", rec.Body.Bytes(), busyBody())
	}
	if p.Waiting() != 0 {
		t.Fatalf("%d still waiting", p.Waiting())
	}
}

// TestWaitingRoomFullAndClientGone: beyond the waiting room a request is
// refused at once; a waiter whose request context ends (the client went
// away, seen by HTTP/2 and by Lambda's deadline) leaves the room at once
// with 400, nothing logged as a server fault.
func TestWaitingRoomFullAndClientGone(t *testing.T) {
	p := pool.NewWaiting(1, 0, time.Hour, 1)
	e := newEnv(t, func(c *Config) { c.Pool = p })
	slot, err := p.Reserve()
	if err != nil {
		t.Fatal(err)
	}
	defer slot.Release()
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	gone := make(chan int)
	go func() { gone <- inspectWithin(ctx, e).Code }()
	until(t, "the first waiter in the room", func() bool { return p.Waiting() == 1 })
	// The wait is an hour: an answer at all means a refusal at once.
	wb, rec, body := direct(t, e, "/api/v1/inspect", nil, pdfBytes(t))
	if rec.Code != 503 || body["error"] != "busy" || rec.Header().Get("Retry-After") != "5" || wb.reads != 0 {
		t.Fatalf("beyond the room: %d %v after %d reads", rec.Code, body, wb.reads)
	}
	cancel()
	if code := <-gone; code != 400 {
		t.Fatalf("waiter whose client went away: %d, want 400", code)
	}
	if p.Waiting() != 0 {
		t.Fatalf("%d still waiting after the client left", p.Waiting())
	}
	logs := e.logs.String()
	if strings.Contains(logs, `"level":"ERROR"`) || strings.Contains(logs, `"status":500`) {
		t.Fatalf("a client leaving the waiting room logged as a server fault: %s", logs)
	}
}

// TestWaiterOfAClosedConnection: over HTTP/1.1 a server that has not read
// the body cannot see its client close, so such a waiter leaves when the
// wait ends: the room empties and the place it never took stays free.
func TestWaiterOfAClosedConnection(t *testing.T) {
	p := pool.NewWaiting(1, 0, 200*time.Millisecond, 4)
	e := newEnv(t, func(c *Config) { c.Pool = p })
	slot, err := p.Reserve()
	if err != nil {
		t.Fatal(err)
	}
	conn := rawRequest(t, e, 9, "%PDF-1.7\n")
	until(t, "the raw request in the room", func() bool { return p.Waiting() == 1 })
	conn.Close()
	until(t, "the room to empty", func() bool { return p.Waiting() == 0 })
	slot.Release()
	if s, err := p.Reserve(); err != nil {
		t.Fatalf("the place is not free after the waiter left: %v", err)
	} else {
		s.Release()
	}
}

// TestWaitCutByTheRequestDeadline: a request whose own deadline (Lambda's,
// pulled in) ends while it waits for a place gets the analysis timeout, as
// one whose deadline ends in the queue does, and leaves the room.
func TestWaitCutByTheRequestDeadline(t *testing.T) {
	p := pool.NewWaiting(1, 0, time.Hour, 1)
	e := newEnv(t, func(c *Config) { c.Pool = p })
	slot, err := p.Reserve()
	if err != nil {
		t.Fatal(err)
	}
	defer slot.Release()
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	rec := inspectWithin(ctx, e)
	if rec.Code != 422 || !strings.Contains(rec.Body.String(), `"analysis_timeout"`) {
		t.Fatalf("got %d %s", rec.Code, rec.Body.String())
	}
	if p.Waiting() != 0 {
		t.Fatalf("%d still waiting", p.Waiting())
	}
}

// inspectWithin serves a one-line PDF upload whose request context is ctx
// (a client that may go away, a deadline pulled in).
func inspectWithin(ctx context.Context, e *env) *httptest.ResponseRecorder {
	req := httptest.NewRequestWithContext(ctx, "POST", "/api/v1/inspect", strings.NewReader("%PDF-1.7\n"))
	req.Header.Set("Content-Type", "application/pdf")
	rec := httptest.NewRecorder()
	e.srv.Config.Handler.ServeHTTP(rec, req)
	return rec
}

// TestOverTheLimitNotKeptWaiting: a caller over its own limit is told so at
// once, even when every place is taken: it does not wait for a place it
// could not use, nor get a busy answer that would only send it back.
func TestOverTheLimitNotKeptWaiting(t *testing.T) {
	p := pool.NewWaiting(1, 0, time.Hour, 4)
	e := newEnv(t, func(c *Config) {
		c.Pool = p
		c.Meter.AnonPerHour = 1
	})
	pdf := pdfBytes(t)
	if _, rec, _ := direct(t, e, "/api/v1/inspect", nil, pdf); rec.Code != 200 {
		t.Fatalf("first call %d", rec.Code)
	}
	slot, err := p.Reserve()
	if err != nil {
		t.Fatal(err)
	}
	defer slot.Release()
	// The wait is an hour: an answer at all means one given at once.
	wb, rec, body := direct(t, e, "/api/v1/inspect", nil, pdf)
	if rec.Code != 429 || body["error"] != "rate_limited" || wb.reads != 0 || p.Waiting() != 0 {
		t.Fatalf("got %d %v after %d reads, %d waiting", rec.Code, body, wb.reads, p.Waiting())
	}
}
