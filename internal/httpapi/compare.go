package httpapi

import (
	"context"
	"errors"
	"io"
	"mime"
	"net/http"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/metering"
)

// compare serves POST /api/v1/compare: two PDFs in the multipart parts
// original and candidate, a key required, metered as two documents once
// the comparison succeeded. It shares the worker pool, admission and
// deadline handling of the single-document routes (analyse).
func (s *Server) compare(w http.ResponseWriter, r *http.Request) {
	rp, ok := s.resolve(w, r)
	if !ok {
		return
	}
	if !rp.caller.Keyed() {
		rp.error(metering.ErrInvalidKey)
		return
	}
	adm, err := s.admit(rp, 2)
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
	original, candidate, err := s.readPair(w, r)
	leave()
	if err != nil {
		closeUnread(w)
		rp.error(err)
		return
	}
	out, err := s.analyse(rp, adm, func(ctx context.Context) (*outcome, error) {
		body, _, err := s.cfg.Pipeline.CompareRedacting(ctx, original, candidate, r.URL.Query().Get("redact") == "payload")
		if err != nil {
			return nil, CompareRefused(err)
		}
		return &outcome{body: body}, nil
	})
	if err != nil {
		rp.error(err)
		return
	}
	st, err := s.cfg.Meter.Settle(r.Context(), rp.caller, metering.Use{
		Route: "compare", Documents: 2, Bytes: int64(len(original) + len(candidate)),
	})
	if err != nil {
		rp.error(err)
		return
	}
	rp.setStatus(st)
	rp.raw(http.StatusOK, out.body)
}

// CompareRefused words a comparison's not_a_pdf for what compare takes:
// two PDFs, where inspect also reads Office files and images. Any other
// error is returned as it is.
func CompareRefused(err error) error {
	if errors.Is(err, report.ErrUnreadable) {
		return E(NotAPDF, "message", "Compare takes two PDFs (original and candidate); at least one of the files sent is not a PDF. "+
			"Office files and images can be inspected one at a time with /api/v1/inspect.")
	}
	return err
}

// readPair reads the two file parts of a compare request, each within the
// upload cap while streaming. Other parts are skipped; either file
// missing is no_file.
func (s *Server) readPair(w http.ResponseWriter, r *http.Request) (original, candidate []byte, err error) {
	limit := s.uploadCap()
	tooLarge := E(FileTooLarge, "maxMb", s.cfg.MaxUploadMB)
	defer s.paceBody(w, r)()
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		return nil, nil, E(NoFile)
	}
	if r.ContentLength > 2*limit+multipartSlack {
		return nil, nil, tooLarge
	}
	r.Body = http.MaxBytesReader(w, r.Body, 2*limit+multipartSlack)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, nil, E(NoFile)
	}
	for original == nil || candidate == nil {
		part, err := mr.NextPart()
		switch {
		case err == io.EOF:
			return nil, nil, E(NoFile)
		case err != nil:
			return nil, nil, s.readFault(err, tooLarge, E(NoFile))
		}
		var dst *[]byte
		switch part.FormName() {
		case "original":
			dst = &original
		case "candidate":
			dst = &candidate
		default:
			part.Close()
			continue
		}
		data, err := readCapped(part, limit, -1)
		switch {
		case err != nil:
			return nil, nil, s.readFault(err, tooLarge, E(NoFile))
		case data == nil:
			return nil, nil, tooLarge
		case len(data) == 0:
			return nil, nil, E(NoFile)
		}
		*dst = data
	}
	return original, candidate, nil
}
