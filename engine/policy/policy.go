// Package policy parses a caller's verdict policy (the multipart part
// `policy` or the header X-Service-Policy of POST /api/v1/inspect) and
// evaluates it against a finished report into the report's policy block.
//
// It is pure: no clock, no randomness, no I/O, no mutable package state.
//
// The accepted document is a JSON object with only these keys, each optional:
//
//	review    integer 0..101, default 30: a score at or above it gives review
//	reject    integer 0..101, default 70: a score at or above it gives reject
//	rejectOn  array of signal family ids, default []
//	reviewOn  array of signal family ids, default []
//
// Risk scores run 0..100, so a threshold of 101 means "never by score"
// (reject 101 = the score alone never rejects; review 101 requires reject 101
// and means the score alone never asks for review). review must not be
// greater than reject; they may be equal (the score then never gives review).
//
// Everything else is refused with an *Error: input over MaxBytes, text that
// is not exactly one JSON value, a value that is not an object, an unknown
// key (so a typo such as "rejecton" is not silently ignored), a duplicated
// key, null or a wrong type, a number that is not written as an integer
// (30.0 and 3e1 are refused too), a threshold outside 0..101, review above
// reject, and a family list with more than MaxFamilies items or with an item
// that is not a string, is empty, or is longer than MaxFamilyLen characters.
// Family ids the engine does not know are accepted and simply never match.
package policy

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/report"
)

// Limits and defaults of a policy document.
const (
	MaxBytes      = 8 << 10 // 8 KiB
	MaxFamilies   = 64      // items per family list
	MaxFamilyLen  = 64      // characters (Unicode code points) per family id
	MaxThreshold  = 101     // "never by score"
	DefaultReview = 30
	DefaultReject = 70
)

// Verdicts and reasons of the policy block.
const (
	Accept       = "accept"
	Review       = "review"
	Reject       = "reject"
	ReasonScore  = "score"
	ReasonSignal = "signal"
)

// Policy is a parsed verdict policy. Use Default or Parse to build one: the
// zero value has both thresholds at 0 and so rejects everything.
type Policy struct {
	Review   int      `json:"review"`
	Reject   int      `json:"reject"`
	RejectOn []string `json:"rejectOn"`
	ReviewOn []string `json:"reviewOn"`
}

// MarshalJSON writes the policy in the form Parse reads, with nil lists
// written as [].
func (p Policy) MarshalJSON() ([]byte, error) {
	type plain Policy
	q := plain(p)
	if q.RejectOn == nil {
		q.RejectOn = []string{}
	}
	if q.ReviewOn == nil {
		q.ReviewOn = []string{}
	}
	return json.Marshal(q)
}

// Default returns the policy of an empty object {}.
func Default() Policy {
	return Policy{Review: DefaultReview, Reject: DefaultReject, RejectOn: []string{}, ReviewOn: []string{}}
}

// Error is a policy that cannot be used. Message is short English that is
// safe to return to the client (422 invalid_policy): it names at most a key,
// never echoes a value.
type Error struct{ Message string }

func (e *Error) Error() string { return "invalid policy: " + e.Message }

func fail(format string, args ...any) error {
	return &Error{Message: fmt.Sprintf(format, args...)}
}

// Parse reads the caller's policy JSON object. Missing keys take their
// defaults. Empty input is an error (the caller decides whether an empty
// header counts as "no policy"). Errors are *Error.
func Parse(raw []byte) (Policy, error) {
	if len(raw) > MaxBytes {
		return Policy{}, TooLarge()
	}
	if !json.Valid(raw) {
		return Policy{}, fail("policy is not valid JSON")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return Policy{}, fail("policy is not valid JSON")
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return Policy{}, fail("policy must be a JSON object")
	}

	p := Default()
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Policy{}, fail("policy is not valid JSON")
		}
		key, _ := tok.(string) // json.Valid guarantees a string key here
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return Policy{}, fail("policy is not valid JSON")
		}
		switch key {
		case "review", "reject", "rejectOn", "reviewOn":
		default:
			return Policy{}, fail("unknown key %s; allowed keys are review, reject, rejectOn, reviewOn", keyName(key))
		}
		if seen[key] {
			return Policy{}, fail("duplicate key %q", key)
		}
		seen[key] = true
		switch key {
		case "review":
			p.Review, err = threshold(key, val)
		case "reject":
			p.Reject, err = threshold(key, val)
		case "rejectOn":
			p.RejectOn, err = familyList(key, val)
		case "reviewOn":
			p.ReviewOn, err = familyList(key, val)
		}
		if err != nil {
			return Policy{}, err
		}
	}
	if p.Review > p.Reject {
		return Policy{}, fail("review must not be greater than reject")
	}
	return p, nil
}

// keyName quotes an unknown key for an error message when it looks like a
// plausible key name (short, ASCII letters, digits, '-' and '_'); anything
// else is not echoed.
func keyName(k string) string {
	if k == "" || len(k) > 32 {
		return "(not shown)"
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return "(not shown)"
		}
	}
	return strconv.Quote(k)
}

// threshold reads an integer literal in 0..MaxThreshold.
func threshold(key string, val json.RawMessage) (int, error) {
	bad := fail("%s must be an integer from 0 to %d", key, MaxThreshold)
	s := string(val)
	if s == "" || !isIntLiteral(s) {
		return 0, bad
	}
	if len(s) > 5 { // beyond any value in range; avoids overflow
		return 0, bad
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || n > MaxThreshold {
		return 0, bad
	}
	return n, nil
}

// isIntLiteral reports whether s is a JSON number without fraction or
// exponent. s is already a valid JSON value.
func isIntLiteral(s string) bool {
	if s[0] == '-' {
		s = s[1:]
	}
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// familyList reads an array of family ids.
func familyList(key string, val json.RawMessage) ([]string, error) {
	if len(val) == 0 || val[0] != '[' {
		return nil, fail("%s must be an array of signal family ids", key)
	}
	var items []any
	if err := json.Unmarshal(val, &items); err != nil {
		return nil, fail("%s must be an array of signal family ids", key)
	}
	if len(items) > MaxFamilies {
		return nil, fail("%s must have at most %d items", key, MaxFamilies)
	}
	out := make([]string, 0, len(items))
	for _, it := range items {
		s, ok := it.(string)
		if !ok {
			return nil, fail("%s items must be strings", key)
		}
		if s == "" {
			return nil, fail("%s items must not be empty", key)
		}
		if utf8.RuneCountInString(s) > MaxFamilyLen {
			return nil, fail("%s items must be at most %d characters", key, MaxFamilyLen)
		}
		out = append(out, s)
	}
	return out, nil
}

// Evaluate computes the policy block for a finished report. It reads only
// r.Summary.RiskScore and the signals' ids and severities, never changes r
// and never recomputes the score.
//
//  1. A rejectOn family present as a signal above info: reject, reason
//     signal, triggeredBy = those families (sorted, unique).
//  2. Otherwise the score verdict: score >= reject gives reject, score >=
//     review gives review, else accept.
//  3. A reviewOn family present above info raises accept or review to review
//     with reason signal and triggeredBy = those families; a score verdict of
//     reject stays reject with reason score (reviewOn only means "at least
//     review").
//  4. Otherwise reason score, triggeredBy [].
func (p Policy) Evaluate(r *report.Report) report.PolicyBlock {
	var score int
	var signals []report.Signal
	if r != nil {
		score = r.Summary.RiskScore
		signals = r.Signals
	}
	block := report.PolicyBlock{
		RiskScore:   score,
		Thresholds:  report.Thresholds{Review: p.Review, Reject: p.Reject},
		Reason:      ReasonScore,
		TriggeredBy: []string{},
	}
	if hits := present(signals, p.RejectOn); len(hits) > 0 {
		block.Verdict, block.Reason, block.TriggeredBy = Reject, ReasonSignal, hits
		return block
	}
	switch {
	case score >= p.Reject:
		block.Verdict = Reject
	case score >= p.Review:
		block.Verdict = Review
	default:
		block.Verdict = Accept
	}
	if block.Verdict != Reject {
		if hits := present(signals, p.ReviewOn); len(hits) > 0 {
			block.Verdict, block.Reason, block.TriggeredBy = Review, ReasonSignal, hits
		}
	}
	return block
}

// present returns the families of list that appear as a signal with severity
// above info, sorted and without duplicates (never nil).
func present(signals []report.Signal, list []string) []string {
	hits := []string{}
	if len(list) == 0 {
		return hits
	}
	for _, s := range signals {
		if s.Severity.Rank() == 0 || !slices.Contains(list, s.ID) {
			continue
		}
		if !slices.Contains(hits, s.ID) {
			hits = append(hits, s.ID)
		}
	}
	slices.Sort(hits)
	return hits
}

// TooLarge is the error for a policy over MaxBytes; a door that stops
// reading at the cap returns it without handing Parse the oversized input.
func TooLarge() *Error {
	return &Error{Message: fmt.Sprintf("policy must be at most %d bytes", MaxBytes)}
}
