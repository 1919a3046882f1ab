// Package receipt signs inspection reports and verifies their receipts
// (SPEC.md "Receipt" and POST /api/v1/receipt/verify; DESIGN.md "Receipts").
//
// Scheme v1:
//
//	reportHash = lowercase hex SHA-256 of the RFC 8785 (JCS) canonical JSON
//	             of the report object without its top-level "receipt" key
//	signature  = lowercase hex HMAC-SHA256(secret, JCS canonical JSON of
//	             {"version","issuedAt","engineVersion","reportHash","redacted"})
//
// so the signed bytes are, keys sorted as JCS requires:
//
//	{"engineVersion":"1.34.0","issuedAt":"2026-01-02T03:04:05.678Z","redacted":false,"reportHash":"<hex>","version":"v1"}
//
// issuedAt is RFC 3339 in UTC with exactly three fractional digits (the time
// is truncated, not rounded, to the millisecond).
//
// Because the hash is taken over the canonical form, key order, whitespace,
// string escapes and number spelling (0.5 / 5e-1, 1e21 / 1e+21 /
// 1000000000000000000000) do not matter, but every key and value does.
// RFC 8785 requires I-JSON, so a report is refused (Sign: error; Verify:
// report_mismatch) when it is not exactly one JSON object, is not valid
// UTF-8, has a duplicated key in any object, escapes a lone UTF-16
// surrogate, or has a number outside the IEEE-754 double range. As in
// RFC 8785, numbers are compared as doubles: integers beyond 2^53 that round
// to the same double are not told apart (the engine emits none).
//
// The package is pure: no clock (the caller passes issuedAt), no randomness,
// no I/O, no package state.
package receipt

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"time"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/report"
)

// Version is the receipt scheme implemented here.
const Version = "v1"

// TimeLayout is the form of issuedAt (always UTC).
const TimeLayout = "2006-01-02T15:04:05.000Z"

// Reasons Verify gives for an invalid receipt, as /receipt/verify returns them.
const (
	// ReasonBadSignature: the HMAC over the receipt fields does not verify
	// (receipt never issued by this secret, or one of its fields changed),
	// or the receipt's version is not v1.
	ReasonBadSignature = "bad_signature"
	// ReasonReportMismatch: the receipt is genuine but the report sent is
	// not the one it was issued for (or is not a canonicalisable JSON object).
	ReasonReportMismatch = "report_mismatch"
)

// receiptKey is the top-level report key the hash leaves out.
const receiptKey = "receipt"

// FormatTime formats t as a receipt's issuedAt.
func FormatTime(t time.Time) string {
	return t.UTC().Format(TimeLayout)
}

// Sign computes the receipt for a marshalled report: the JSON bytes the
// client will receive, with or without a top-level receipt key (a receipt
// key present is ignored). engineVersion is read from the report's own
// top-level "engineVersion" string, which must be present. Sign fails on an
// empty secret and on a report that cannot be canonicalised (see the
// package comment).
func Sign(reportJSON []byte, secret []byte, issuedAt time.Time, redacted bool) (report.Receipt, error) {
	if len(secret) == 0 {
		return report.Receipt{}, errors.New("receipt: empty secret")
	}
	canon, engineVersion, err := canonicalReport(reportJSON)
	if err != nil {
		return report.Receipt{}, err
	}
	if engineVersion == nil {
		return report.Receipt{}, errors.New("receipt: report has no engineVersion string")
	}
	sum := sha256.Sum256(canon)
	rc := report.Receipt{
		Version:       Version,
		IssuedAt:      FormatTime(issuedAt),
		EngineVersion: *engineVersion,
		ReportHash:    hex.EncodeToString(sum[:]),
		Redacted:      redacted,
	}
	rc.Signature, err = sign(rc, secret)
	if err != nil {
		return report.Receipt{}, err
	}
	return rc, nil
}

// Attach marshals r with its Receipt cleared (r itself is not modified),
// signs the bytes and returns the final response body: the report's own
// field order followed by "receipt" as the last key, exactly as the API
// writes it (and as json.Marshal writes the report with the receipt set),
// plus the receipt. The receipt's engineVersion is r.EngineVersion.
func Attach(r *report.Report, secret []byte, issuedAt time.Time, redacted bool) ([]byte, report.Receipt, error) {
	if r == nil {
		return nil, report.Receipt{}, errors.New("receipt: nil report")
	}
	c := *r
	c.Receipt = nil
	body, err := json.Marshal(&c)
	if err != nil {
		return nil, report.Receipt{}, err
	}
	rc, err := Sign(body, secret, issuedAt, redacted)
	if err != nil {
		return nil, report.Receipt{}, err
	}
	// body is a compact object ending in '}' and holding at least "id":
	// the receipt goes in place of that brace, as the last key.
	out := append(body[:len(body)-1], `,"receipt":`...)
	sig, err := json.Marshal(rc)
	if err != nil {
		return nil, report.Receipt{}, err
	}
	out = append(out, sig...)
	return append(out, '}'), rc, nil
}

// Verify implements POST /receipt/verify. reportJSON is the report exactly
// as received (a top-level receipt key is optional and ignored), rc the
// receipt object. It returns (true, ""), or (false, ReasonBadSignature) when
// the receipt's HMAC does not verify under secret (checked first, without
// looking at the report), or (false, ReasonReportMismatch) when the receipt
// is genuine but the report's hash differs, including when reportJSON is
// not a JSON object that can be canonicalised.
func Verify(reportJSON []byte, rc report.Receipt, secret []byte) (valid bool, reason string) {
	if len(secret) == 0 || rc.Version != Version ||
		!utf8.ValidString(rc.IssuedAt) || !utf8.ValidString(rc.EngineVersion) || !utf8.ValidString(rc.ReportHash) {
		return false, ReasonBadSignature
	}
	want, err := sign(rc, secret)
	if err != nil || !hmac.Equal([]byte(want), []byte(rc.Signature)) {
		return false, ReasonBadSignature
	}
	h, err := ReportHash(reportJSON)
	if err != nil || subtle.ConstantTimeCompare([]byte(h), []byte(rc.ReportHash)) != 1 {
		return false, ReasonReportMismatch
	}
	return true, ""
}

// ReportHash returns the lowercase hex SHA-256 of the canonical form of a
// report without its top-level receipt key.
func ReportHash(reportJSON []byte) (string, error) {
	canon, _, err := canonicalReport(reportJSON)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(canon)
	return hex.EncodeToString(sum[:]), nil
}

// sign returns the receipt's signature under secret.
func sign(rc report.Receipt, secret []byte) (string, error) {
	b, err := signature(rc)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, secret)
	m.Write(b)
	return hex.EncodeToString(m.Sum(nil)), nil
}
