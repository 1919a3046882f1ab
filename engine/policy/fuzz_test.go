package policy

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
)

// FuzzParse: Parse never panics, every error is a *Error, a success is within
// the documented bounds, and re-marshalling a parsed policy parses back to
// the same policy.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		``, `{}`, `[]`, `null`, `{"review":30,"reject":70}`,
		`{"review":101,"reject":101,"rejectOn":["hidden-text"],"reviewOn":["a","b"]}`,
		`{"rejecton":[]}`, `{"review":30,"review":30}`, `{"review":3e1}`, `{"review":-0}`,
		`{"reviewOn":["\ud800"]}`, `{"rejectOn":["\u00e9\u00e9"]}`, `{"reject":1e999}`,
		`{"reviewOn":[""]}`, `{} x`, "{\"rejectOn\":[\"\xff\"]}",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		p, err := Parse(raw)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) || pe.Message == "" {
				t.Fatalf("error %v (%T) is not a *policy.Error with a message", err, err)
			}
			return
		}
		if p.Review < 0 || p.Reject > MaxThreshold || p.Review > p.Reject {
			t.Fatalf("out of bounds: %+v", p)
		}
		if p.RejectOn == nil || p.ReviewOn == nil || len(p.RejectOn) > MaxFamilies || len(p.ReviewOn) > MaxFamilies {
			t.Fatalf("bad lists: %+v", p)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Parse(b)
		if err != nil {
			t.Fatalf("re-parse of %s: %v", b, err)
		}
		if !reflect.DeepEqual(p, q) {
			t.Fatalf("round trip: %+v != %+v", p, q)
		}
		blk := p.Evaluate(&report.Report{Signals: []report.Signal{{ID: "hidden-text", Severity: report.High}}})
		if blk.TriggeredBy == nil {
			t.Fatal("nil triggeredBy")
		}
	})
}
