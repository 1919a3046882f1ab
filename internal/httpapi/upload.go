package httpapi

import (
	"bytes"
	"context"
	"errors"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"

	"github.com/doctrust/doctrust/engine/policy"
	"github.com/doctrust/doctrust/internal/metering"
	"github.com/doctrust/doctrust/internal/ratelimit"
)

// Limits on the text parts that travel with an upload.
const (
	maxIssuerBytes = 256
	multipartSlack = 1 << 20 // part headers and text parts around the file
)

// upload is a parsed document request: the file, and for routes that take
// them the issuer and policy sent before it (text parts or headers).
type upload struct {
	data      []byte
	issuer    string
	hasIssuer bool
	policyRaw []byte
	hasPolicy bool
}

// work is one analysis of an upload, run in a worker slot under the
// document's deadline.
type work func(context.Context) (*outcome, error)

// outcome is a finished analysis: the body to send and the risk band the
// usage row records ("" for a listing).
type outcome struct {
	body []byte
	band string
}

// serveDocument is the flow every single-document route shares: identify
// the caller (a presented key must resolve), admit the request before its
// body is read (a pool place, the byte budget, the anonymous window or the
// quota state), read the upload under the size cap and the read deadline,
// let the route validate it and build its work, run the work in a worker
// slot, charge one document once it succeeded, and answer with the body
// and the quota headers. fields says whether the route reads the issuer
// and policy; prepare also gets the caller (an issuer resolves against the
// caller's account).
func (s *Server) serveDocument(w http.ResponseWriter, r *http.Request, route string, fields bool, prepare func(*upload, metering.Caller) (work, error)) {
	rp, ok := s.resolve(w, r)
	if !ok {
		return
	}
	rp.anonMetered = true
	adm, err := s.admit(rp, 1)
	if err != nil {
		rp.error(err)
		return
	}
	defer adm.release()
	leave, err := s.startRead(rp)
	if err != nil {
		closeUnread(w)
		rp.error(err)
		return
	}
	up, err := s.readUpload(w, r, fields)
	leave()
	if err != nil {
		closeUnread(w)
		rp.error(err)
		return
	}
	run, err := prepare(up, rp.caller)
	if err != nil {
		rp.error(err)
		return
	}
	out, err := s.analyse(rp, adm, run)
	if err != nil {
		rp.error(err)
		return
	}
	st, err := s.cfg.Meter.Settle(r.Context(), rp.caller, metering.Use{
		Route: route, Documents: 1, Bytes: int64(len(up.data)), Band: out.band,
	})
	if err != nil {
		rp.error(err)
		return
	}
	rp.setStatus(st)
	rp.raw(http.StatusOK, out.body)
}

// startRead begins the reading of an admitted request's body: the
// client's place in the read gate (429 at once when it has every one),
// then for an anonymous caller the count in its hourly window, made
// before a byte is read so that an upload that never arrives whole (408,
// 400, 413) still costs the allowance it occupied. leave gives the gate's
// place back once the body is read.
func (s *Server) startRead(rp *reply) (leave func(), err error) {
	subject := "ip:" + rp.caller.IP
	if rp.caller.Keyed() {
		subject = "key:" + rp.caller.Key.ID
	}
	leave, ok := s.reads.enter(subject)
	if !ok {
		return nil, tooManyReads(rp.caller.Keyed(), s.reads.max)
	}
	if rp.caller.Keyed() {
		return leave, nil
	}
	ctx := rp.r.Context()
	// Set before the call: a count that reached the store but whose
	// answer was lost still needs a fresh read for the headers.
	rp.anonCounted = true
	win, err := s.cfg.Meter.AdmitAnonymous(ctx, rp.caller)
	var rl *ratelimit.Exceeded
	switch {
	case err == nil:
		rp.window = &win
		return leave, nil
	case errors.Is(err, context.DeadlineExceeded):
		err = analysisTimeout()
	case errors.As(err, &rl):
		err = anonymousLimited(rl, s.cfg.Meter.AnonRule().Limit)
	}
	leave()
	return nil, err
}

// analyse runs one analysis for an admitted caller whose body is read:
// the worker (the place was reserved by admit, so a refused call cost a
// keyed caller nothing; an anonymous one was counted by startRead, a keyed
// one is charged by the caller's Settle once the result is a success),
// then the work under its deadline.
func (s *Server) analyse(rp *reply, adm *admission, run work) (*outcome, error) {
	ctx := rp.r.Context()
	// The request's own deadline (Lambda's, pulled in) running out before
	// the work starts means the document's budget is spent.
	timeout := analysisTimeout()
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return nil, timeout
	}
	if err := adm.slot.Wait(ctx); err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			return nil, timeout
		}
		return nil, err // the client went away while queued
	}
	// The engine's errors carry their SPEC.md code; the reply maps them
	// through the status table like any other. The worker is given back
	// as soon as the analysis ends, not after the charge and the answer:
	// under overload the next analysis in the queue starts while this one
	// is settled. The byte budget is still held until the answer is out.
	defer adm.slot.Release()
	return run(ctx)
}

// readUpload reads a multipart form (text parts before the file part) or a
// raw body. The size cap is enforced while streaming, so an oversized body
// is never buffered whole. With fields, the issuer and policy are read
// (parts or headers) and validated as soon as they arrive; without, text
// parts are skipped.
func (s *Server) readUpload(w http.ResponseWriter, r *http.Request, fields bool) (*upload, error) {
	limit := s.uploadCap()
	tooLarge := E(FileTooLarge, "maxMb", s.cfg.MaxUploadMB)
	up := &upload{}
	defer s.paceBody(w, r)()
	mediaType, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if mediaType != "multipart/form-data" {
		if fields {
			if v := r.Header.Get("X-Service-Issuer"); v != "" {
				up.issuer, up.hasIssuer = v, true
			}
			if v := r.Header.Get("X-Service-Policy"); v != "" {
				up.policyRaw, up.hasPolicy = []byte(v), true
			}
			if err := checkIssuer(up, r); err != nil {
				return nil, err
			}
		}
		if r.ContentLength > limit {
			return nil, tooLarge
		}
		data, err := readCapped(r.Body, limit, r.ContentLength)
		if err != nil {
			return nil, s.readFault(err, tooLarge, incomplete())
		}
		if data == nil {
			return nil, tooLarge
		}
		if len(data) == 0 {
			return nil, E(NoFile)
		}
		up.data = data
		return up, nil
	}
	if r.ContentLength > limit+multipartSlack {
		return nil, tooLarge
	}
	r.Body = http.MaxBytesReader(w, r.Body, limit+multipartSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, E(NoFile)
	}
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return nil, E(NoFile)
		}
		if err != nil {
			return nil, s.readFault(err, tooLarge, E(NoFile))
		}
		switch name := part.FormName(); {
		case name == "issuer" && fields:
			b, _ := readCapped(part, maxIssuerBytes, -1)
			if b == nil && r.URL.Query().Get("mode") != "triage" {
				return nil, E(InvalidIssuer) // too long to be a slug
			}
			up.issuer, up.hasIssuer = strings.TrimSpace(string(b)), true
			if err := checkIssuer(up, r); err != nil {
				return nil, err
			}
		case name == "policy" && fields:
			b, _ := readCapped(part, policy.MaxBytes, -1)
			if b == nil {
				return nil, E(InvalidPolicy, "message", policy.TooLarge().Message)
			}
			up.policyRaw, up.hasPolicy = b, true
		case name == "file":
			data, err := readCapped(part, limit, r.ContentLength)
			if err != nil {
				return nil, s.readFault(err, tooLarge, E(NoFile))
			}
			if data == nil {
				return nil, tooLarge
			}
			up.data = data
			if fields {
				// SPEC.md puts the text parts first; one sent after the
				// file would be silently ignored, so it is refused. The
				// rest of the body is the closing boundary, already sent.
				if err := afterFile(mr); err != nil {
					return nil, err
				}
			}
			return up, nil
		}
		part.Close()
	}
}

// afterFile reads the parts after the file part: an issuer or policy
// there is refused with a message saying where it belongs; other parts
// are skipped as before the file.
func afterFile(mr *multipart.Reader) error {
	for {
		part, err := mr.NextPart()
		if err != nil {
			return nil // the end, or a body cut short after the file: the file is whole
		}
		switch part.FormName() {
		case "issuer":
			return E(InvalidIssuer, "message", `The "issuer" part came after the "file" part, where it would be ignored. Send the issuer and policy parts before the file part.`)
		case "policy":
			return E(InvalidPolicy, "message", `The "policy" part came after the "file" part, where it would be ignored. Send the issuer and policy parts before the file part.`)
		}
		part.Close()
	}
}

// readCapped reads at most limit bytes; it returns nil data (and no error)
// when the source holds more, without reading past limit+1. hint, the
// request's declared length (-1: unknown), sizes the buffer once, so an
// upload costs its own size rather than the doublings of a growing buffer.
func readCapped(r io.Reader, limit, hint int64) ([]byte, error) {
	var buf bytes.Buffer
	if hint > 0 {
		// ReadFrom wants MinRead bytes free before each read: without
		// them the last read would double the buffer.
		buf.Grow(int(min(hint, limit)) + bytes.MinRead + 1)
	}
	n, err := io.Copy(&buf, io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, nil
	}
	if n == 0 {
		return []byte{}, nil // empty, which callers tell apart from too large
	}
	return buf.Bytes(), nil
}
