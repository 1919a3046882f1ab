package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/doctrust/doctrust/internal/analysis"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/pool"
	"github.com/doctrust/doctrust/internal/ratelimit"
)

// DefaultBodyReadTimeout bounds the reading of one request body: a client
// whose upload stops arriving, or trickles, frees its place after this
// long with 408 request_timeout. 10 MB in 30 s needs under 3 Mbit/s.
const DefaultBodyReadTimeout = 30 * time.Second

// busyRetryAfter is SPEC.md's retryAfterSeconds of 503 busy.
const busyRetryAfter = 5

// busyError is SPEC.md's 503 busy.
func busyError() *Error {
	return &Error{Code: Busy, Fields: map[string]any{"retryAfterSeconds": busyRetryAfter}, RetryAfter: busyRetryAfter}
}

// busyBody is busy's error body, encoded once: under overload nearly
// every answer is this one, and encoding the same map thousands of times
// a second took CPU from the analyses.
var busyBody = sync.OnceValue(func() []byte {
	_, body := Body(busyError())
	b, err := json.Marshal(body)
	if err != nil {
		panic(err) // a map of strings and an int always encodes
	}
	return b
})

// isBusy: e is busyError()'s refusal, whose body is busyBody.
func isBusy(e *Error) bool {
	return e.Code == Busy && e.RetryAfter == busyRetryAfter && len(e.Fields) == 1 && e.Fields["retryAfterSeconds"] == busyRetryAfter
}

// admission is what a document request holds from before its body is
// read until its answer is written: a place in the worker pool and its
// share of the byte budget of requests in flight.
type admission struct {
	slot     *pool.Slot
	giveBack func()
}

func (a *admission) release() {
	a.giveBack()
	a.slot.Release()
}

// admit decides everything that does not need the document, before a byte
// of the body is read: the anonymous window or the quota state (429,
// nothing counted), then a place in the pool (when none is free, a bounded
// wait for one in the pool's waiting room, then 503 busy), then the
// request's share of the byte budget (503 busy when spent). The caller's
// own limit comes first: a caller over it learns so at once rather than
// after a wait for a place it could not use, and a busy answer would only
// send it back to be refused again. A refused request's body is never
// read; the server closes it.
func (s *Server) admit(rp *reply, docs int) (*admission, error) {
	// The request's own deadline (Lambda's, pulled in) already spent:
	// the document's budget is, so no store call is started for it.
	if errors.Is(rp.r.Context().Err(), context.DeadlineExceeded) {
		return nil, analysisTimeout()
	}
	st, err := s.cfg.Meter.Precheck(rp.r.Context(), rp.caller, docs)
	var qe *metering.QuotaExceeded
	if rp.caller.Keyed() && (err == nil || errors.As(err, &qe)) {
		rp.setStatus(st)
	}
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) && errors.Is(rp.r.Context().Err(), context.DeadlineExceeded) {
			return nil, analysisTimeout()
		}
		var rl *ratelimit.Exceeded
		if !rp.caller.Keyed() && errors.As(err, &rl) {
			return nil, anonymousLimited(rl, s.cfg.Meter.AnonRule().Limit)
		}
		return nil, err
	}
	slot, err := s.cfg.Pool.Admit(rp.r.Context())
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return nil, analysisTimeout()
	case errors.Is(err, context.Canceled):
		return nil, err // the client went away while it waited
	case err != nil:
		return nil, busyError()
	}
	// The bytes are taken only now that the place is: a waiter holds no
	// share of the budget, and the budget's 503 stays exact.
	giveBack, err := s.budget.Take(s.uploadShare(rp.r, docs))
	if err != nil {
		slot.Release()
		return nil, busyError()
	}
	return &admission{slot: slot, giveBack: giveBack}, nil
}

// analysisTimeout is SPEC.md's 422 of a document whose budget is spent.
func analysisTimeout() *Error {
	return E(AnalysisTimeout, "timeoutMs", analysis.DefaultDeadline.Milliseconds())
}

// uploadShare is the most a request of docs documents may hold: its
// declared length when it has one, else every file at the cap.
func (s *Server) uploadShare(r *http.Request, docs int) int64 {
	most := int64(docs)*s.uploadCap() + multipartSlack
	if r.ContentLength >= 0 && r.ContentLength < most {
		return r.ContentLength
	}
	return most
}

func (s *Server) uploadCap() int64 { return int64(s.cfg.MaxUploadMB) << 20 }

// readFault maps an error reading the body: over the cap is the route's
// 413, a read deadline passed or the minimum rate missed is 408, anything else the client caused (a
// disconnect, a body shorter than its length) is 400 with orElse. None is
// a server fault.
func (s *Server) readFault(err error, tooLarge, orElse *Error) *Error {
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		return tooLarge
	case errors.As(err, new(errTooSlow)):
		return s.tooSlow()
	case errors.Is(err, os.ErrDeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return E(RequestTimeout, "timeoutSeconds", int(s.cfg.BodyReadTimeout/time.Second))
	}
	return orElse
}

// incomplete is the 400 of an upload that ended before it was whole.
func incomplete() *Error {
	return E(InvalidRequest, "message", "the upload ended before it was complete")
}
