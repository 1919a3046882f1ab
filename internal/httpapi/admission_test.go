package httpapi

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/store"
)

// watchedBody records whether the handler read any of the upload.
type watchedBody struct {
	r     io.Reader
	reads int
}

func (b *watchedBody) Read(p []byte) (int, error) { b.reads++; return b.r.Read(p) }
func (b *watchedBody) Close() error               { return nil }

// direct serves one request through the handler with a body that records
// reads, and returns the status and the decoded error body.
func direct(t *testing.T, e *env, path string, headers map[string]string, body []byte) (*watchedBody, *httptest.ResponseRecorder, map[string]any) {
	t.Helper()
	wb := &watchedBody{r: bytes.NewReader(body)}
	req := httptest.NewRequest("POST", path, nil)
	req.Body, req.ContentLength = wb, int64(len(body))
	req.Header.Set("Content-Type", "application/pdf")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	e.srv.Config.Handler.ServeHTTP(rec, req)
	var m map[string]any
	json.Unmarshal(rec.Body.Bytes(), &m)
	return wb, rec, m
}

// TestRefusedBeforeTheBody: a request the service would refuse whatever
// the document (anonymous window full, quota spent, no place in the pool,
// byte budget spent) is answered without reading a byte of its body.
func TestRefusedBeforeTheBody(t *testing.T) {
	pdf := pdfBytes(t)
	t.Run("anonymous window full", func(t *testing.T) {
		e := newEnv(t, func(c *Config) { c.Meter.AnonPerHour = 1 })
		if wb, rec, _ := direct(t, e, "/api/v1/inspect", nil, pdf); rec.Code != 200 || wb.reads == 0 {
			t.Fatalf("first call %d", rec.Code)
		}
		wb, rec, body := direct(t, e, "/api/v1/inspect", nil, pdf)
		if rec.Code != 429 || body["error"] != "rate_limited" || wb.reads != 0 {
			t.Fatalf("got %d %v after %d reads", rec.Code, body, wb.reads)
		}
	})
	t.Run("quota spent", func(t *testing.T) {
		e := newEnv(t)
		a, h := e.keyed(t, "free")
		if _, err := e.store.Charge(t.Context(), store.Charge{AccountID: a.ID, Month: store.Month(time.Now()), Documents: 25, Limit: 25,
			Usage: store.UsageRecord{ID: "use_fill", AccountID: a.ID, Route: "inspect", At: time.Now(), Documents: 25, Expires: time.Now().Add(time.Hour)}}); err != nil {
			t.Fatal(err)
		}
		for _, route := range []string{"/api/v1/inspect", "/api/v1/metadata"} {
			wb, rec, body := direct(t, e, route, h, pdf)
			if rec.Code != 429 || body["error"] != "quota_exceeded" || wb.reads != 0 {
				t.Fatalf("%s: got %d %v after %d reads", route, rec.Code, body, wb.reads)
			}
			if rec.Header().Get("x-quota-state") != "exhausted" {
				t.Fatalf("%s: headers %v", route, rec.Header())
			}
		}
	})
	t.Run("no place in the pool", func(t *testing.T) {
		e := newEnv(t, func(c *Config) { c.Pool = pool.NewWaiting(1, 0, 50*time.Millisecond, 4) })
		slot, err := e.srv.Config.Handler.(*Server).cfg.Pool.Reserve()
		if err != nil {
			t.Fatal(err)
		}
		defer slot.Release()
		wb, rec, body := direct(t, e, "/api/v1/inspect", nil, pdf)
		if rec.Code != 503 || body["error"] != "busy" || wb.reads != 0 {
			t.Fatalf("got %d %v after %d reads", rec.Code, body, wb.reads)
		}
	})
	t.Run("byte budget spent", func(t *testing.T) {
		e := newEnv(t)
		s := e.srv.Config.Handler.(*Server)
		// Another request holds all but a few bytes of the budget, with
		// places still free in the pool.
		giveBack, err := s.budget.Take(int64(s.cfg.Pool.Places())*(s.uploadCap()+multipartSlack) - 100)
		if err != nil {
			t.Fatal(err)
		}
		defer giveBack()
		wb, rec, body := direct(t, e, "/api/v1/inspect", nil, pdf)
		if rec.Code != 503 || body["error"] != "busy" || wb.reads != 0 {
			t.Fatalf("got %d %v after %d reads", rec.Code, body, wb.reads)
		}
		giveBack()
		if _, rec, _ := direct(t, e, "/api/v1/inspect", nil, pdf); rec.Code != 200 {
			t.Fatalf("budget given back: %d", rec.Code)
		}
		if s.budget.Held() != 0 {
			t.Fatalf("budget still holds %d bytes", s.budget.Held())
		}
	})
}

// TestBudgetIsTheCapTimesThePlaces: the default budget admits one upload
// at the cap for each place of the pool, no more.
func TestBudgetIsTheCapTimesThePlaces(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Pool = pool.New(2, 3) })
	s := e.srv.Config.Handler.(*Server)
	share := s.uploadCap() + multipartSlack
	for i := range 5 {
		if _, err := s.budget.Take(share); err != nil {
			t.Fatalf("upload %d at the cap refused", i+1)
		}
	}
	if _, err := s.budget.Take(1); err == nil {
		t.Fatal("budget larger than places x cap")
	}
}

// rawRequest opens a connection, sends headers declaring length bytes and
// then the body bytes, and hands the connection to more.
func rawRequest(t *testing.T, e *env, length int, body string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	head := "POST /api/v1/inspect HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: " +
		itoa(length) + "\r\n\r\n"
	if _, err := conn.Write([]byte(head + body)); err != nil {
		t.Fatal(err)
	}
	return conn
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

func readResponse(t *testing.T, conn net.Conn) (*http.Response, map[string]any) {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var m map[string]any
	json.NewDecoder(resp.Body).Decode(&m)
	return resp, m
}

// TestClientFaultsAreNotServerFaults: an upload cut short is 400, one that
// stops arriving is 408 after the read deadline; neither is a 500 or an
// ERROR line.
func TestClientFaultsAreNotServerFaults(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.BodyReadTimeout, c.Pool = 300*time.Millisecond, pool.New(1, 4) })
	conn := rawRequest(t, e, 1000, "%PDF-1.7\n")
	conn.(*net.TCPConn).CloseWrite()
	resp, body := readResponse(t, conn)
	if resp.StatusCode != 400 || body["error"] != "invalid_request" {
		t.Fatalf("cut short: %d %v", resp.StatusCode, body)
	}
	conn = rawRequest(t, e, 1000, "%PDF-1.7\n")
	start := time.Now()
	resp, body = readResponse(t, conn)
	if resp.StatusCode != 408 || body["error"] != "request_timeout" {
		t.Fatalf("stalled: %d %v", resp.StatusCode, body)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("stalled body held its place %v", d)
	}
	// A client that gives up while its request waits for a worker.
	e.pool = e.srv.Config.Handler.(*Server).cfg.Pool
	busy, _ := e.pool.Reserve()
	busy.Wait(t.Context())
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(100*time.Millisecond, cancel)
	req := httptest.NewRequestWithContext(ctx, "POST", "/api/v1/inspect", strings.NewReader("%PDF-1.7\n"))
	rec := httptest.NewRecorder()
	e.srv.Config.Handler.ServeHTTP(rec, req)
	busy.Release()
	if rec.Code != 400 {
		t.Fatalf("client gone while queued: %d", rec.Code)
	}
	time.Sleep(50 * time.Millisecond)
	logs := e.logs.String()
	if strings.Contains(logs, `"level":"ERROR"`) || strings.Contains(logs, `"status":500`) {
		t.Fatalf("a client fault logged as a server fault: %s", logs)
	}
	if s := e.srv.Config.Handler.(*Server); s.budget.Held() != 0 {
		t.Fatalf("budget holds %d after the faults", s.budget.Held())
	}
}

// outageStore is a store whose every read fails as a paused or stopped
// DynamoDB does once its deadline passed.
type outageStore struct{ metering.Store }

func (outageStore) Count(context.Context, string) (int, error) {
	return 0, fmt.Errorf("%w: dial tcp: connection refused", store.ErrUnavailable)
}

func (outageStore) KeyByHash(context.Context, string) (store.APIKey, error) {
	return store.APIKey{}, fmt.Errorf("%w: operation error DynamoDB: GetItem, context deadline exceeded", store.ErrUnavailable)
}

// TestStoreOutageIs503: an unreachable store answers 503
// store_unavailable with Retry-After, logged as a warning, and the body
// is not read.
func TestStoreOutageIs503(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Meter.Store = outageStore{c.Meter.Store} })
	for _, h := range []map[string]string{nil, {"Authorization": "Bearer svc_" + strings.Repeat("a", 40)}} {
		wb, rec, body := direct(t, e, "/api/v1/inspect", h, pdfBytes(t))
		if rec.Code != 503 || body["error"] != "store_unavailable" || body["retryAfterSeconds"] != float64(StoreRetryAfter) ||
			rec.Header().Get("Retry-After") != itoa(StoreRetryAfter) || wb.reads != 0 {
			t.Fatalf("got %d %v %v after %d reads", rec.Code, body, rec.Header(), wb.reads)
		}
	}
	logs := e.logs.String()
	if strings.Contains(logs, `"level":"ERROR"`) || !strings.Contains(logs, `"level":"WARN"`) {
		t.Fatalf("log: %s", logs)
	}
}

// heldUsage holds the recording of a use until released.
type heldUsage struct {
	metering.Store
	entered, release chan struct{}
}

func (h *heldUsage) RecordUsage(ctx context.Context, u store.UsageRecord) error {
	h.entered <- struct{}{}
	<-h.release
	return h.Store.RecordUsage(ctx, u)
}

// TestWorkerFreedWhenTheAnalysisEnds: the worker is given back once the
// analysis is done, while the call is still being charged, so the next
// analysis need not wait for the store.
func TestWorkerFreedWhenTheAnalysisEnds(t *testing.T) {
	hu := &heldUsage{entered: make(chan struct{}), release: make(chan struct{})}
	e := newEnv(t, func(c *Config) {
		c.Pool = pool.New(1, 0)
		hu.Store = c.Meter.Store
		c.Meter.Store = hu
	})
	done := make(chan int)
	go func() {
		_, rec, _ := direct(t, e, "/api/v1/inspect", nil, pdfBytes(t))
		done <- rec.Code
	}()
	<-hu.entered
	slot, err := e.srv.Config.Handler.(*Server).cfg.Pool.Reserve()
	close(hu.release)
	if err != nil {
		t.Fatalf("the only worker is still held while the call is charged: %v", err)
	}
	slot.Release()
	if code := <-done; code != 200 {
		t.Fatalf("status %d", code)
	}
}

// BenchmarkBusyRefusal is the server's side of one anonymous 503 busy,
// the answer a client retrying at once gets thousands of times a second
// under overload: `go test -bench BusyRefusal -benchmem ./internal/httpapi/`.
func BenchmarkBusyRefusal(b *testing.B) {
	// No waiting room: the refusal measured is the one a request beyond
	// the room gets at once.
	e := newEnv(b, func(c *Config) { c.Pool = pool.NewWaiting(1, 0, 0, 0) })
	h := e.srv.Config.Handler
	slot, err := h.(*Server).cfg.Pool.Reserve()
	if err != nil {
		b.Fatal(err)
	}
	defer slot.Release()
	body := bytes.Repeat([]byte("%PDF-1.7\n"), 200)
	b.ReportAllocs()
	b.SetParallelism(25) // 50 clients on 2 cores, as make loadfault's overload
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			req := httptest.NewRequest("POST", "/api/v1/inspect?mode=triage", bytes.NewReader(body))
			req.Header.Set("Content-Type", "application/pdf")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusServiceUnavailable {
				b.Fatalf("status %d", rec.Code)
			}
		}
	})
}
