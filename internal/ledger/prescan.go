package ledger

import (
	"bytes"
	"errors"

	"github.com/jhillyerd/enmime/v2"
)

// Limits of one message, checked by prescan before enmime reads a byte:
// enmime's parse time grows with the square of the MIME nesting depth.
const (
	// MaxMessageBytes bounds the raw message at both doors. Its base64
	// and the JSON around it fit the HTTP door's body cap, API Gateway's
	// 10 MB payload limit; the SES door refuses a larger object unread.
	MaxMessageBytes = 7 << 20
	// maxBoundaries bounds the multipart boundary declarations (and
	// embedded messages), which bound the nesting depth.
	maxBoundaries = 12
	// maxDelimiters bounds the delimiter lines, which bound the parts.
	maxDelimiters = 200
)

// ErrUnparseable is a message the ledger refuses: over a cap, or not MIME
// at all.
var ErrUnparseable = errors.New("ledger: message refused")

var (
	boundaryDecl = []byte("boundary")
	rfc822       = []byte("message/rfc822")
)

// prescan refuses a message whose size, declared multiparts or delimiter
// lines pass the caps. It over-counts (a "boundary" word in a body counts),
// which only ever refuses more.
func prescan(raw []byte) error {
	if len(raw) == 0 || len(raw) > MaxMessageBytes {
		return ErrUnparseable
	}
	if countFold(raw, boundaryDecl, maxBoundaries+1)+countFold(raw, rfc822, maxBoundaries+1) > maxBoundaries {
		return ErrUnparseable
	}
	delims := 0
	for line := range bytes.Lines(raw) {
		if bytes.HasPrefix(line, []byte("--")) {
			if delims++; delims > maxDelimiters {
				return ErrUnparseable
			}
		}
	}
	return nil
}

// countFold counts ASCII case-insensitive occurrences of needle (lower
// case) in b, stopping at limit.
func countFold(b, needle []byte, limit int) int {
	n := 0
	for i := 0; i+len(needle) <= len(b) && n < limit; i++ {
		if lowerEqual(b[i:i+len(needle)], needle) {
			n++
			i += len(needle) - 1
		}
	}
	return n
}

func lowerEqual(a, lower []byte) bool {
	for i := range lower {
		c := a[i]
		if 'A' <= c && c <= 'Z' {
			c += 32
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// newParser is the MIME parser of every message prescan accepted.
func newParser() *enmime.Parser {
	return enmime.NewParser(enmime.MaxStoredPartErrors(20), enmime.DisableCharacterDetection(true))
}
