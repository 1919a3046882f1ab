package httpapi

import (
	"bytes"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/doctrust/doctrust/internal/pool"
)

// trickle opens a connection that declares a 200 KB upload to path and
// sends it 20 bytes at a time, five times a second (the attack's shape:
// about 100 bytes a second), until the server stops reading or the test
// ends. It returns the connection to read the answer from.
func trickle(t *testing.T, e *env, path string, headers map[string]string) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", strings.TrimPrefix(e.srv.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	var head strings.Builder
	head.WriteString("POST " + path + " HTTP/1.1\r\nHost: x\r\nContent-Type: application/pdf\r\nContent-Length: 200000\r\n")
	for k, v := range headers {
		head.WriteString(k + ": " + v + "\r\n")
	}
	head.WriteString("\r\n%PDF-1.7\n")
	if _, err := conn.Write([]byte(head.String())); err != nil {
		t.Fatal(err)
	}
	go func() {
		chunk := bytes.Repeat([]byte("0"), 20)
		for {
			time.Sleep(200 * time.Millisecond)
			if _, err := conn.Write(chunk); err != nil {
				return
			}
		}
	}()
	return conn
}

// TestSlowUploadEndsAt408AndIsCounted: an upload that keeps under the
// minimum rate past the grace period ends with 408 long before the body
// deadline (it used to hold its place for all 30 s), and the anonymous
// caller's hourly allowance was counted when the read began.
func TestSlowUploadEndsAt408AndIsCounted(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.UploadGrace, c.Meter.AnonPerHour = 300*time.Millisecond, 5 })
	start := time.Now()
	resp, body := readResponse(t, trickle(t, e, "/api/v1/inspect", nil))
	if resp.StatusCode != 408 || body["error"] != "request_timeout" || !strings.Contains(body["message"].(string), "64 KiB/s") {
		t.Fatalf("slow upload: %d %v", resp.StatusCode, body)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("slow upload held its place %v", d)
	}
	if got := resp.Header.Get("RateLimit-Remaining"); got != "4" {
		t.Fatalf("the slow upload was not counted: RateLimit-Remaining %q, want 4", got)
	}
	// An upload at a normal rate is unaffected by the pacing, and the
	// deadline it leaves on the connection does not cut its analysis.
	resp, body, _ = e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), map[string]string{"Content-Type": "application/pdf"})
	if resp.StatusCode != 200 || body["summary"] == nil {
		t.Fatalf("normal upload: %d %v", resp.StatusCode, body)
	}
}

// TestOneAddressTricklingLeavesRoomForOthers is the attack: 20 slow
// connections from one address against the default pool (2 workers, 16
// queued: 18 places). Only ReadsPerClient of them are read; the rest are
// refused 429 at once; a keyed caller is answered while they trickle. It
// used to get 503 busy: the slow uploads held all 18 places for 30 s.
func TestOneAddressTricklingLeavesRoomForOthers(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Pool, c.UploadGrace = pool.New(2, 16), 5*time.Second })
	_, key, _ := signup(t, e, "payer@example.com", "correct horse battery")
	conns := make([]net.Conn, 20)
	for i := range conns {
		conns[i] = trickle(t, e, "/api/v1/inspect", nil)
	}
	var mu sync.Mutex
	codes := map[int]int{}
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() {
			resp, body := readResponse(t, c)
			if resp.StatusCode == 429 && body["error"] != "rate_limited" {
				t.Errorf("refused slow upload: %v", body)
			}
			mu.Lock()
			codes[resp.StatusCode]++
			mu.Unlock()
		})
	}
	until(t, "the surplus slow uploads refused", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return codes[429] == len(conns)-DefaultReadsPerClient
	})
	start := time.Now()
	resp, body, _ := e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)),
		map[string]string{"Content-Type": "application/pdf", "Authorization": "Bearer " + key})
	if resp.StatusCode != 200 || time.Since(start) > 3*time.Second {
		t.Fatalf("keyed caller beside the trickle: %d after %v %v", resp.StatusCode, time.Since(start), body["error"])
	}
	wg.Wait()
	if codes[408] != DefaultReadsPerClient || codes[429] != len(conns)-DefaultReadsPerClient {
		t.Fatalf("slow uploads answered %v", codes)
	}
}

// TestReadGatePerKey: a key may have ReadsPerClient bodies being read; the
// next is refused at once with 429 while another caller from the same
// address is served.
func TestReadGatePerKey(t *testing.T) {
	e := newEnv(t, func(c *Config) { c.Pool, c.ReadsPerClient = pool.New(2, 16), 2 })
	_, key, _ := signup(t, e, "batch@example.com", "correct horse battery")
	auth := map[string]string{"Authorization": "Bearer " + key}
	var slow []net.Conn
	for range 2 {
		slow = append(slow, trickle(t, e, "/api/v1/inspect", auth))
	}
	s := e.srv.Config.Handler.(*Server)
	until(t, "two keyed reads in progress", func() bool {
		s.reads.mu.Lock()
		defer s.reads.mu.Unlock()
		return s.reads.busy["key:"+keyID(t, e, key)] == 2
	})
	start := time.Now()
	resp, body := readResponse(t, trickle(t, e, "/api/v1/inspect", auth))
	if resp.StatusCode != 429 || body["error"] != "rate_limited" || resp.Header.Get("Retry-After") == "" ||
		resp.Header.Get("x-quota-state") == "" || time.Since(start) > 2*time.Second {
		t.Fatalf("third keyed upload: %d %v after %v", resp.StatusCode, body, time.Since(start))
	}
	if !strings.Contains(body["message"].(string), "API key") {
		t.Fatalf("message %q", body["message"])
	}
	resp, _, _ = e.do(t, "POST", "/api/v1/inspect", bytes.NewReader(pdfBytes(t)), map[string]string{"Content-Type": "application/pdf"})
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("anonymous caller from the same address: %d", resp.StatusCode)
	}
	for _, c := range slow {
		c.Close()
	}
	until(t, "the gate empty once the slow uploads ended", func() bool {
		s.reads.mu.Lock()
		defer s.reads.mu.Unlock()
		return len(s.reads.busy) == 0
	})
}

// keyID is the id of a key, as its owner's requests are gated under.
func keyID(t *testing.T, e *env, plaintext string) string {
	t.Helper()
	s := e.srv.Config.Handler.(*Server)
	c, err := s.cfg.Meter.Resolve(t.Context(), "Bearer "+plaintext, "127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	return c.Key.ID
}
