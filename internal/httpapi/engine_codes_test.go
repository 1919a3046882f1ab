package httpapi

import (
	"errors"
	"fmt"
	"net/http"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/compare"
	"github.com/doctrust/doctrust/engine/image"
	"github.com/doctrust/doctrust/engine/metadata"
	"github.com/doctrust/doctrust/engine/office"
	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/internal/analysis"
)

// TestEngineErrorCodes: every error the engine's packages make carries
// a SPEC.md code this package's status table knows, and the code agrees
// with what the status table answers for it (not_a_pdf for the unreadable
// errors, analysis_timeout with its timeoutMs for the deadline ones).
func TestEngineErrorCodes(t *testing.T) {
	for _, err := range []error{
		engine.ErrUnreadable, engine.ErrDeadline, pdf.ErrDeadline, image.ErrDeadline, office.ErrDeadline,
		compare.ErrNotPDF, compare.ErrDeadline, metadata.ErrUnreadable, metadata.ErrDeadline,
	} {
		var e *report.Error
		if !errors.As(err, &e) {
			t.Errorf("%q carries no code", err)
			continue
		}
		if _, ok := statuses[Code(e.Code())]; !ok {
			t.Errorf("%q: code %q is not in the status table", err, e.Code())
		}
		want := ""
		switch {
		case errors.Is(err, analysis.ErrUnreadable):
			want = string(NotAPDF)
		case errors.Is(err, analysis.ErrDeadline):
			want = string(AnalysisTimeout)
		}
		if e.Code() != want {
			t.Errorf("%q: code %q, want %q", err, e.Code(), want)
		}
		// Wrapped as a pipeline may wrap it, the error reaches the body
		// through the table alone.
		got := apiError(fmt.Errorf("inspect: %w", err))
		if string(got.Code) != want || got.Status() != http.StatusUnprocessableEntity {
			t.Errorf("%q answers %s %d, want %s 422", err, got.Code, got.Status(), want)
		}
		if _, ok := got.Fields["timeoutMs"]; ok != (want == string(AnalysisTimeout)) {
			t.Errorf("%q: fields %v", err, got.Fields)
		}
	}
}
