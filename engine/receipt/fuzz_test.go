package receipt

import (
	"testing"

	"github.com/doctrust/doctrust/engine/report"
)

// FuzzVerify: Verify never panics on arbitrary report bytes and receipt
// strings, only ever answers one of the documented reasons, and never
// accepts a receipt it did not issue for that secret. Whenever the bytes can
// be signed, the fresh receipt verifies against them and fails with a
// different secret.
func FuzzVerify(f *testing.F) {
	body, rc, err := Attach(fixture(), testSecret, testTime, false)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(body, rc.Version, rc.IssuedAt, rc.EngineVersion, rc.ReportHash, rc.Signature, rc.Redacted)
	f.Add([]byte(`{"engineVersion":"1.34.0"}`), "v1", "2026-01-01T00:00:00.000Z", "1.34.0", "", "", false)
	f.Add([]byte(`{"engineVersion":"1","s":"\ud800\u0041"}`), "v1", "", "", "", "", true)
	f.Add([]byte(`{"a":1e21,"b":[0.5,-0,"\u003c"],"receipt":{}}`), "v2", "x", "y", "z", "w", false)
	f.Add([]byte("{\"\xff\":1}"), "", "", "", "", "", false)
	f.Add([]byte(`[1,2,3]`), "v1", "", "", "", "", false)
	f.Add([]byte(`"\ud83d\ude00"`), "v1", "", "", "", "", false)

	f.Fuzz(func(t *testing.T, reportJSON []byte, version, issuedAt, engineVersion, reportHash, sig string, redacted bool) {
		got := report.Receipt{Version: version, IssuedAt: issuedAt, EngineVersion: engineVersion,
			ReportHash: reportHash, Redacted: redacted, Signature: sig}
		ok, reason := Verify(reportJSON, got, testSecret)
		switch {
		case ok && reason != "":
			t.Fatalf("valid with reason %q", reason)
		case !ok && reason != ReasonBadSignature && reason != ReasonReportMismatch:
			t.Fatalf("unknown reason %q", reason)
		}
		if reason != ReasonBadSignature {
			// The signature verified, so it must be exactly what we compute.
			if want, err := sign(got, testSecret); err != nil || want != sig || version != Version {
				t.Fatalf("accepted a receipt that was not issued: %+v", got)
			}
		}

		issued, err := Sign(reportJSON, testSecret, testTime, redacted)
		if err != nil {
			if _, herr := ReportHash(reportJSON); herr == nil && err.Error() != "receipt: report has no engineVersion string" {
				t.Fatalf("Sign failed on a hashable report: %v", err)
			}
			return
		}
		if ok, reason := Verify(reportJSON, issued, testSecret); !ok {
			t.Fatalf("fresh receipt does not verify: %s", reason)
		}
		if ok, reason := Verify(reportJSON, issued, []byte("other")); ok || reason != ReasonBadSignature {
			t.Fatalf("other secret: %v %s", ok, reason)
		}
	})
}
