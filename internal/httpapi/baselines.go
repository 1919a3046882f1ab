package httpapi

import (
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/baselines"
	"github.com/doctrust/doctrust/internal/store"
)

// maxLabelBytes caps the label part (the service keeps 100 runes of it).
const maxLabelBytes = 1024

// baselineRoutes are session routes (dashboard), served by the accounts
// function in AWS.
func (s *Server) baselineRoutes() {
	s.mux.HandleFunc("GET /api/v1/baselines", s.withSession(s.listBaselines))
	s.mux.HandleFunc("POST /api/v1/baselines", s.withSession(s.trainBaseline))
	s.mux.HandleFunc("DELETE /api/v1/baselines/{issuer}", s.withSession(s.deleteBaseline))
}

func (s *Server) baselineService() (*baselines.Service, error) {
	if s.cfg.Baselines == nil {
		return nil, busyError()
	}
	return s.cfg.Baselines, nil
}

func (s *Server) listBaselines(w http.ResponseWriter, r *http.Request, a store.Account) {
	svc, err := s.baselineService()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	list, err := svc.List(r.Context(), a.ID)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"baselines": list})
}

func (s *Server) deleteBaseline(w http.ResponseWriter, r *http.Request, a store.Account) {
	svc, err := s.baselineService()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	issuer := r.PathValue("issuer")
	if err := svc.Delete(r.Context(), a.ID, issuer); err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"deleted": true, "issuer": issuer})
}

// trainBaseline reads the multipart body part by part: the issuer (and
// optional label) first, then each file, which is described and dropped
// before the next is read, so at most one file is in memory.
func (s *Server) trainBaseline(w http.ResponseWriter, r *http.Request, a store.Account) {
	svc, err := s.baselineService()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.train(w, r, a, svc)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) train(w http.ResponseWriter, r *http.Request, a store.Account, svc *baselines.Service) (*baselines.Result, error) {
	limit := s.uploadCap()
	tooLarge := E(FileTooLarge, "maxMb", s.cfg.MaxUploadMB)
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "multipart/form-data" {
		return nil, E(InvalidRequest, "message", "training takes multipart/form-data: issuer, label, then files")
	}
	total := baselines.MaxFiles*limit + multipartSlack
	if r.ContentLength > total {
		return nil, tooLarge
	}
	// One file is held at a time: its share of the budget of bytes in
	// flight is one upload at the cap.
	giveBack, err := s.budget.Take(limit + multipartSlack)
	if err != nil {
		return nil, busyError()
	}
	defer giveBack()
	r.Body = http.MaxBytesReader(w, r.Body, total)
	mr, err := r.MultipartReader()
	if err != nil {
		return nil, E(NoFile)
	}
	var issuer, label string
	var tr *baselines.Training
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, s.readFault(err, tooLarge, E(InvalidRequest, "message", "the multipart body could not be read"))
		}
		switch part.FormName() {
		case "issuer":
			b, _ := readCapped(part, maxIssuerBytes, -1)
			issuer = strings.TrimSpace(string(b))
			if b == nil || !issuerSlug.MatchString(issuer) {
				return nil, E(InvalidIssuer)
			}
		case "label":
			b, _ := readCapped(part, maxLabelBytes, -1)
			label = strings.TrimSpace(report.Untrusted(string(b)))
		case "file":
			if issuer == "" {
				return nil, E(InvalidRequest, "message", "the issuer part must come before the files")
			}
			if tr == nil {
				if tr, err = svc.Start(r.Context(), a, issuer, label); err != nil {
					return nil, err
				}
			}
			if tr.Received >= baselines.MaxFiles {
				return nil, E(InvalidRequest, "message", "at most 25 files per training request")
			}
			data, err := readCapped(part, limit, -1)
			if err != nil {
				return nil, s.readFault(err, tooLarge, incomplete())
			}
			if data == nil {
				return nil, tooLarge
			}
			if err := s.cfg.Pool.Acquire(r.Context()); err != nil {
				return nil, busyError()
			}
			tr.Add(r.Context(), report.Untrusted(part.FileName()), data)
			s.cfg.Pool.Release()
		}
		part.Close()
	}
	if issuer == "" {
		return nil, E(InvalidRequest, "message", "the issuer part is required")
	}
	if tr == nil {
		return nil, E(NoFile)
	}
	return tr.Finish(r.Context(), a.ID)
}
