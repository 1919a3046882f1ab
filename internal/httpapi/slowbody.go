package httpapi

import (
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"sync"
	"time"
)

// Slow bodies (docs/reliability.md, "Slow uploads"). A place in the pool
// is held from before the body is read until the answer, so a client that
// trickles its upload holds one for as long as the read may last: 18
// connections from one address sending 20 bytes a second once held every
// place for the whole body deadline, and every other caller got 503 busy.
// Two rules end that: an upload must keep up a minimum rate after a grace
// period (else 408), and one client may have only a few bodies being read
// at once (else 429 at once).
const (
	// DefaultMinUploadRate is the slowest average an upload may keep
	// after DefaultUploadGrace: 64 KiB/s, a tenth of the rate the 30 s
	// body deadline already asks of a 10 MB file.
	DefaultMinUploadRate = 64 << 10
	// DefaultUploadGrace is the start of an upload during which the rate
	// is not asked (connection set-up, a slow first burst): a file up to
	// 192 KiB may take the whole of it.
	DefaultUploadGrace = 3 * time.Second
	// DefaultReadsPerClient is how many bodies one anonymous address, or
	// one key, may have being read at once. A client whose uploads arrive
	// at normal speed rarely has more than one or two in that phase; the
	// rest of a batch waits for a place or a worker, not here.
	DefaultReadsPerClient = 4
	// readGateRetryAfter is the retryAfterSeconds of the gate's 429.
	readGateRetryAfter = 5
)

// errTooSlow is a read that the minimum-rate deadline cut: the client
// sent too little too slowly, a timeout of its own making.
type errTooSlow struct{}

func (errTooSlow) Error() string   { return "upload slower than the minimum rate" }
func (errTooSlow) Timeout() bool   { return true }
func (errTooSlow) Temporary() bool { return false }

var _ net.Error = errTooSlow{}

// pacedBody moves the connection's read deadline as the upload arrives:
// the next bytes are due when the average since the start, less the grace
// period, would fall under the minimum rate, and never later than the
// body deadline. Where the connection takes no deadline (Lambda, whose
// body is in memory already) it only passes reads through.
type pacedBody struct {
	io.ReadCloser
	rc    *http.ResponseController
	start time.Time
	hard  time.Time
	grace time.Duration
	rate  float64 // bytes per second
	n     int64
	off   bool
	paced bool // the deadline set last was the rate's, not the body deadline
}

func (p *pacedBody) Read(b []byte) (int, error) {
	if !p.off {
		due := p.start.Add(p.grace + time.Duration(float64(p.n)/p.rate*float64(time.Second)))
		p.paced = due.Before(p.hard)
		if !p.paced {
			due = p.hard
		}
		if err := p.rc.SetReadDeadline(due); err != nil {
			p.off = true
		}
	}
	n, err := p.ReadCloser.Read(b)
	p.n += int64(n)
	if err == io.EOF && !p.off {
		// At the body's end the server starts reading the connection
		// in the background; a rate deadline passing there would fail
		// that read and cancel the request during its analysis.
		p.rc.SetReadDeadline(p.hard)
	}
	var ne net.Error
	if err != nil && p.paced && (errors.Is(err, os.ErrDeadlineExceeded) || errors.As(err, &ne) && ne.Timeout()) {
		return n, errTooSlow{}
	}
	return n, err
}

// paceBody puts the body deadline and the minimum rate on reading r's
// body. The returned func, called once the body is read, puts back the
// plain body deadline: a rate deadline left on the connection would
// cancel the request when it passed during the analysis.
func (s *Server) paceBody(w http.ResponseWriter, r *http.Request) func() {
	rc := http.NewResponseController(w)
	now := time.Now()
	hard := now.Add(s.cfg.BodyReadTimeout)
	if rc.SetReadDeadline(hard) != nil {
		return func() {} // no connection to pace: the body is in memory
	}
	p := &pacedBody{ReadCloser: r.Body, rc: rc, start: now, hard: hard, grace: s.cfg.UploadGrace, rate: float64(s.cfg.MinUploadRate)}
	r.Body = p
	return func() {
		if !p.off {
			rc.SetReadDeadline(hard)
		}
	}
}

// closeUnread answers a request whose body is left unread (the gate's
// refusal, 408, 413, a body cut short) on a connection closed after the
// answer. Otherwise Go's server reads up to 256 KB of the rest, to keep
// the connection, before it writes the answer, with no deadline of its
// own: a trickling client would keep its refusal, and the connection's
// goroutine, waiting that long. (A read deadline moved up instead would,
// when the rest is already buffered, fail the server's background read
// and cancel the context of the connection's next request.)
func closeUnread(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
}

// readGate counts the bodies being read per client: an anonymous caller
// is its address, a keyed one its key. It lives in the process; on Lambda
// API Gateway has the whole body before the function runs, so nothing
// trickles there (docs/reliability.md).
type readGate struct {
	mu   sync.Mutex
	max  int
	busy map[string]int
}

// enter takes one of subject's reads, or says false when it has max.
func (g *readGate) enter(subject string) (leave func(), ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.busy[subject] >= g.max {
		return nil, false
	}
	g.busy[subject]++
	var once sync.Once
	return func() {
		once.Do(func() {
			g.mu.Lock()
			defer g.mu.Unlock()
			if g.busy[subject]--; g.busy[subject] == 0 {
				delete(g.busy, subject)
			}
		})
	}, true
}

// tooManyReads is the gate's refusal: 429 rate_limited, at once.
func tooManyReads(keyed bool, max int) *Error {
	who := "this address"
	if keyed {
		who = "this API key"
	}
	return &Error{Code: RateLimited, RetryAfter: readGateRetryAfter, Fields: map[string]any{
		"retryAfterSeconds": readGateRetryAfter,
		"message": "Uploads from " + who + " are already being received " + strconv.Itoa(max) +
			" at a time, the most allowed. Send the next one when one of them has arrived.",
	}}
}

// tooSlow is the 408 of an upload that fell under the minimum rate.
func (s *Server) tooSlow() *Error {
	return E(RequestTimeout, "timeoutSeconds", int(s.cfg.BodyReadTimeout/time.Second),
		"message", "The upload arrived slower than "+strconv.Itoa(s.cfg.MinUploadRate>>10)+
			" KiB/s and was not read. Send it again over a steadier connection.")
}
