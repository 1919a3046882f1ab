package report

// Error is an error the engine gives its callers, carrying the SPEC.md
// error code it stands for. There are two codes; each package names its
// own error of a code (pdf.ErrDeadline is ErrDeadline.Named("pdf: ...")),
// errors of one code match under errors.Is, and a door learns the code
// with errors.As wherever the error was made. internal/httpapi/errors.go
// stays the one place that gives a code its status.
type Error struct {
	code, text string
}

var (
	// ErrUnreadable: the bytes are not a format the engine reads.
	ErrUnreadable = &Error{code: "not_a_pdf", text: "engine: not a readable format"}
	// ErrDeadline: the document exhausted its time budget.
	ErrDeadline = &Error{code: "analysis_timeout", text: "engine: analysis deadline exceeded"}
)

func (e *Error) Error() string { return e.text }

// Code is the SPEC.md error code.
func (e *Error) Code() string { return e.code }

// Named is an error of e's code with a package's own text.
func (e *Error) Named(text string) *Error { return &Error{code: e.code, text: text} }

// Is matches any error of the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.code == e.code
}
