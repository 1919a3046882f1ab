package httpapi

import (
	_ "embed"
	"net/http"
)

// openAPI is the OpenAPI 3.1 description of every route (version 1.0.0,
// SPEC.md's interface version). TestOpenAPIMatchesHandlers validates real
// responses against it, so it stays true.
//
//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the embedded description.
func OpenAPI() []byte { return openAPI }

func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "public, max-age=300")
	writeRaw(w, http.StatusOK, openAPI)
}
