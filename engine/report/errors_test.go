package report

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorCodes(t *testing.T) {
	named := ErrDeadline.Named("pdf: analysis deadline exceeded")
	if named.Error() != "pdf: analysis deadline exceeded" || named.Code() != "analysis_timeout" {
		t.Fatalf("named %q %q", named, named.Code())
	}
	wrapped := fmt.Errorf("reading: %w", named)
	if !errors.Is(wrapped, ErrDeadline) || errors.Is(wrapped, ErrUnreadable) {
		t.Error("errors.Is does not go by code")
	}
	var e *Error
	if !errors.As(wrapped, &e) || e.Code() != "analysis_timeout" {
		t.Error("errors.As finds no code")
	}
	if errors.Is(errors.New("engine: analysis deadline exceeded"), ErrDeadline) {
		t.Error("a plain error with the same text matched")
	}
	if ErrUnreadable.Code() != "not_a_pdf" {
		t.Errorf("unreadable code %q", ErrUnreadable.Code())
	}
}
