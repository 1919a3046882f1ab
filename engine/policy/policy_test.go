package policy

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
)

func TestParseValid(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want Policy
	}{
		{"empty object gives defaults", `{}`, Default()},
		{"whitespace around", " \n{ }\t", Default()},
		{"all keys", `{"review":10,"reject":90,"rejectOn":["redaction-exposure"],"reviewOn":["producer-fingerprint","hidden-text"]}`,
			Policy{Review: 10, Reject: 90, RejectOn: []string{"redaction-exposure"}, ReviewOn: []string{"producer-fingerprint", "hidden-text"}}},
		{"review only", `{"review":50}`, Policy{Review: 50, Reject: 70, RejectOn: []string{}, ReviewOn: []string{}}},
		{"reject only", `{"reject":40}`, Policy{Review: 30, Reject: 40, RejectOn: []string{}, ReviewOn: []string{}}},
		{"equal thresholds", `{"review":50,"reject":50}`, Policy{Review: 50, Reject: 50, RejectOn: []string{}, ReviewOn: []string{}}},
		{"zero thresholds", `{"review":0,"reject":0}`, Policy{Review: 0, Reject: 0, RejectOn: []string{}, ReviewOn: []string{}}},
		{"minus zero is zero", `{"review":-0}`, Policy{Review: 0, Reject: 70, RejectOn: []string{}, ReviewOn: []string{}}},
		{"101 means never by score", `{"review":101,"reject":101}`, Policy{Review: 101, Reject: 101, RejectOn: []string{}, ReviewOn: []string{}}},
		{"reject 101 only", `{"reject":101}`, Policy{Review: 30, Reject: 101, RejectOn: []string{}, ReviewOn: []string{}}},
		{"unknown family ids accepted", `{"rejectOn":["no-such-family","Hidden Text"]}`,
			Policy{Review: 30, Reject: 70, RejectOn: []string{"no-such-family", "Hidden Text"}, ReviewOn: []string{}}},
		{"empty arrays", `{"rejectOn":[],"reviewOn":[]}`, Default()},
		{"64 items of 64 chars", `{"reviewOn":[` + strings.TrimSuffix(strings.Repeat(`"`+strings.Repeat("a", 64)+`",`, 64), ",") + `]}`,
			Policy{Review: 30, Reject: 70, RejectOn: []string{}, ReviewOn: repeat(strings.Repeat("a", 64), 64)}},
		{"64 runes of multibyte text", `{"reviewOn":["` + strings.Repeat("é", 64) + `"]}`,
			Policy{Review: 30, Reject: 70, RejectOn: []string{}, ReviewOn: []string{strings.Repeat("é", 64)}}},
		{"escaped key", `{"r\u0065view":20}`, Policy{Review: 20, Reject: 70, RejectOn: []string{}, ReviewOn: []string{}}},
		{"duplicate items kept", `{"rejectOn":["a","a"]}`, Policy{Review: 30, Reject: 70, RejectOn: []string{"a", "a"}, ReviewOn: []string{}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse([]byte(tt.raw))
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v want %+v", got, tt.want)
			}
		})
	}
}

func repeat(s string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, raw, msg string
	}{
		{"empty input", ``, "policy is not valid JSON"},
		{"whitespace only", `  `, "policy is not valid JSON"},
		{"not JSON", `review=30`, "policy is not valid JSON"},
		{"truncated", `{"review":30`, "policy is not valid JSON"},
		{"trailing data", `{} {}`, "policy is not valid JSON"},
		{"trailing garbage", `{"review":30}x`, "policy is not valid JSON"},
		{"array", `[1,2]`, "policy must be a JSON object"},
		{"string", `"review"`, "policy must be a JSON object"},
		{"null", `null`, "policy must be a JSON object"},
		{"number", `30`, "policy must be a JSON object"},
		{"unknown key typo", `{"rejecton":["hidden-text"]}`, `unknown key "rejecton"; allowed keys are review, reject, rejectOn, reviewOn`},
		{"unknown key case", `{"Review":30}`, `unknown key "Review"; allowed keys are review, reject, rejectOn, reviewOn`},
		{"unknown key not echoed", `{"<script>":1}`, `unknown key (not shown); allowed keys are review, reject, rejectOn, reviewOn`},
		{"long unknown key not echoed", `{"` + strings.Repeat("k", 33) + `":1}`, `unknown key (not shown); allowed keys are review, reject, rejectOn, reviewOn`},
		{"duplicate key", `{"review":30,"review":40}`, `duplicate key "review"`},
		{"duplicate key via escape", `{"reject":80,"rej\u0065ct":90}`, `duplicate key "reject"`},
		{"review string", `{"review":"30"}`, "review must be an integer from 0 to 101"},
		{"review null", `{"review":null}`, "review must be an integer from 0 to 101"},
		{"review bool", `{"review":true}`, "review must be an integer from 0 to 101"},
		{"review fraction", `{"review":30.5}`, "review must be an integer from 0 to 101"},
		{"review 30.0", `{"review":30.0}`, "review must be an integer from 0 to 101"},
		{"review exponent", `{"review":3e1}`, "review must be an integer from 0 to 101"},
		{"review negative", `{"review":-1}`, "review must be an integer from 0 to 101"},
		{"reject 102", `{"reject":102}`, "reject must be an integer from 0 to 101"},
		{"reject huge", `{"reject":123456789012345678901234567890}`, "reject must be an integer from 0 to 101"},
		{"reject object", `{"reject":{}}`, "reject must be an integer from 0 to 101"},
		{"review above reject", `{"review":80,"reject":70}`, "review must not be greater than reject"},
		{"review above default reject", `{"review":71}`, "review must not be greater than reject"},
		{"reject below default review", `{"reject":29}`, "review must not be greater than reject"},
		{"review 101 with default reject", `{"review":101}`, "review must not be greater than reject"},
		{"rejectOn string", `{"rejectOn":"hidden-text"}`, "rejectOn must be an array of signal family ids"},
		{"rejectOn null", `{"rejectOn":null}`, "rejectOn must be an array of signal family ids"},
		{"rejectOn object", `{"rejectOn":{"a":1}}`, "rejectOn must be an array of signal family ids"},
		{"reviewOn number item", `{"reviewOn":[1]}`, "reviewOn items must be strings"},
		{"reviewOn null item", `{"reviewOn":[null]}`, "reviewOn items must be strings"},
		{"reviewOn nested array", `{"reviewOn":[["a"]]}`, "reviewOn items must be strings"},
		{"reviewOn empty item", `{"reviewOn":[""]}`, "reviewOn items must not be empty"},
		{"rejectOn long item", `{"rejectOn":["` + strings.Repeat("a", 65) + `"]}`, "rejectOn items must be at most 64 characters"},
		{"rejectOn 65 items", `{"rejectOn":[` + strings.TrimSuffix(strings.Repeat(`"a",`, 65), ",") + `]}`, "rejectOn must have at most 64 items"},
		{"over 8 KiB", `{"rejectOn":["a"]` + strings.Repeat(" ", MaxBytes) + `}`, "policy must be at most 8192 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := Parse([]byte(tt.raw))
			if err == nil {
				t.Fatalf("no error, got %+v", p)
			}
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %T is not *policy.Error", err)
			}
			if pe.Message != tt.msg {
				t.Fatalf("message %q, want %q", pe.Message, tt.msg)
			}
			if err.Error() != "invalid policy: "+tt.msg {
				t.Fatalf("Error() = %q", err.Error())
			}
			if !reflect.DeepEqual(p, Policy{}) {
				t.Fatalf("non-zero policy with error: %+v", p)
			}
		})
	}
}

// Exactly 8 KiB is accepted; one byte more is not.
func TestParseSizeBoundary(t *testing.T) {
	body := `{"review":1}`
	raw := body[:len(body)-1] + strings.Repeat(" ", MaxBytes-len(body)) + "}"
	if len(raw) != MaxBytes {
		t.Fatal(len(raw))
	}
	if _, err := Parse([]byte(raw)); err != nil {
		t.Fatalf("8192 bytes refused: %v", err)
	}
	if _, err := Parse([]byte(raw + " ")); err == nil {
		t.Fatal("8193 bytes accepted")
	}
}

func TestMarshalRoundTrip(t *testing.T) {
	b, err := json.Marshal(Policy{Review: 5, Reject: 6})
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != `{"review":5,"reject":6,"rejectOn":[],"reviewOn":[]}` {
		t.Fatalf("marshal: %s", b)
	}
	p, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p, Policy{Review: 5, Reject: 6, RejectOn: []string{}, ReviewOn: []string{}}) {
		t.Fatalf("%+v", p)
	}
}

func sig(id string, sev report.Severity) report.Signal {
	return report.Signal{ID: id, Severity: sev, Evidence: map[string]any{}}
}

func rep(score int, sigs ...report.Signal) *report.Report {
	r := report.New(report.MediaPDF, 100)
	r.Signals = append(r.Signals, sigs...)
	r.Summary.RiskScore = score // deliberately not recomputed from signals
	return r
}

func pol(review, reject int, rejectOn, reviewOn []string) Policy {
	if rejectOn == nil {
		rejectOn = []string{}
	}
	if reviewOn == nil {
		reviewOn = []string{}
	}
	return Policy{Review: review, Reject: reject, RejectOn: rejectOn, ReviewOn: reviewOn}
}

func TestEvaluate(t *testing.T) {
	l := func(s ...string) []string { return append([]string{}, s...) }
	tests := []struct {
		name    string
		p       Policy
		r       *report.Report
		verdict string
		reason  string
		by      []string
	}{
		{"score below review accepts", Default(), rep(29), Accept, ReasonScore, l()},
		{"score at review reviews", Default(), rep(30), Review, ReasonScore, l()},
		{"score between reviews", Default(), rep(69), Review, ReasonScore, l()},
		{"score at reject rejects", Default(), rep(70), Reject, ReasonScore, l()},
		{"score 100 rejects", Default(), rep(100), Reject, ReasonScore, l()},
		{"score 0 with zero thresholds rejects", pol(0, 0, nil, nil), rep(0), Reject, ReasonScore, l()},
		{"101 never by score", pol(101, 101, nil, nil), rep(100), Accept, ReasonScore, l()},
		{"reject 101 still reviews", pol(30, 101, nil, nil), rep(100), Review, ReasonScore, l()},
		{"equal thresholds skip review", pol(50, 50, nil, nil), rep(50), Reject, ReasonScore, l()},
		{"equal thresholds below", pol(50, 50, nil, nil), rep(49), Accept, ReasonScore, l()},

		{"rejectOn forces reject on low score", pol(30, 70, l("hidden-text"), nil),
			rep(10, sig("hidden-text", report.Low)), Reject, ReasonSignal, l("hidden-text")},
		{"rejectOn ignores info signal", pol(30, 70, l("id-inconsistency"), nil),
			rep(0, sig("id-inconsistency", report.Info)), Accept, ReasonScore, l()},
		{"rejectOn ignores unknown severity", pol(30, 70, l("hidden-text"), nil),
			rep(0, sig("hidden-text", "critical")), Accept, ReasonScore, l()},
		{"rejectOn absent family", pol(30, 70, l("hidden-text"), nil),
			rep(40, sig("font-anomalies", report.Medium)), Review, ReasonScore, l()},
		{"rejectOn unknown id never matches", pol(30, 70, l("no-such-family"), nil),
			rep(10, sig("hidden-text", report.High)), Accept, ReasonScore, l()},
		{"rejectOn several matches sorted unique", pol(30, 70, l("numeric-edits", "hidden-text", "numeric-edits", "font-anomalies"), nil),
			rep(80, sig("numeric-edits", report.High), sig("hidden-text", report.Low), sig("font-anomalies", report.Info)),
			Reject, ReasonSignal, l("hidden-text", "numeric-edits")},
		{"rejectOn beats reviewOn", pol(30, 70, l("hidden-text"), l("font-anomalies")),
			rep(20, sig("hidden-text", report.Low), sig("font-anomalies", report.Low)), Reject, ReasonSignal, l("hidden-text")},
		{"rejectOn on score reject reports signal", pol(30, 70, l("hidden-text"), nil),
			rep(90, sig("hidden-text", report.High)), Reject, ReasonSignal, l("hidden-text")},
		{"rejectOn beats reject 101", pol(101, 101, l("hidden-text"), nil),
			rep(10, sig("hidden-text", report.Low)), Reject, ReasonSignal, l("hidden-text")},

		{"reviewOn raises accept", pol(30, 70, nil, l("producer-fingerprint")),
			rep(10, sig("producer-fingerprint", report.Low)), Review, ReasonSignal, l("producer-fingerprint")},
		{"reviewOn on score review gives reason signal", pol(30, 70, nil, l("producer-fingerprint")),
			rep(40, sig("producer-fingerprint", report.Medium)), Review, ReasonSignal, l("producer-fingerprint")},
		{"reviewOn does not lower score reject", pol(30, 70, nil, l("producer-fingerprint")),
			rep(80, sig("producer-fingerprint", report.High)), Reject, ReasonScore, l()},
		{"reviewOn ignores info", pol(30, 70, nil, l("id-inconsistency")),
			rep(0, sig("id-inconsistency", report.Info)), Accept, ReasonScore, l()},
		{"reviewOn with review 101", pol(101, 101, nil, l("active-content")),
			rep(95, sig("active-content", report.High)), Review, ReasonSignal, l("active-content")},
		{"reviewOn several sorted", pol(30, 70, nil, l("z-family", "a-family", "m-family")),
			rep(0, sig("z-family", report.Low), sig("m-family", report.Medium), sig("a-family", report.Info)),
			Review, ReasonSignal, l("m-family", "z-family")},
		{"family in both lists rejects", pol(30, 70, l("hidden-text"), l("hidden-text")),
			rep(0, sig("hidden-text", report.Low)), Reject, ReasonSignal, l("hidden-text")},

		{"nil report", Default(), nil, Accept, ReasonScore, l()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var before string
			if tt.r != nil {
				b, _ := json.Marshal(tt.r)
				before = string(b)
			}
			got := tt.p.Evaluate(tt.r)
			want := report.PolicyBlock{
				Verdict:     tt.verdict,
				Reason:      tt.reason,
				TriggeredBy: tt.by,
				Thresholds:  report.Thresholds{Review: tt.p.Review, Reject: tt.p.Reject},
			}
			if tt.r != nil {
				want.RiskScore = tt.r.Summary.RiskScore
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %+v\nwant %+v", got, want)
			}
			if got.TriggeredBy == nil {
				t.Fatal("triggeredBy is nil")
			}
			if tt.r != nil {
				after, _ := json.Marshal(tt.r)
				if string(after) != before {
					t.Fatal("Evaluate changed the report")
				}
			}
		})
	}
}

// riskScore is copied, never recomputed: a report whose signals would score
// differently keeps its own summary score.
func TestEvaluateCopiesScore(t *testing.T) {
	r := rep(12, sig("hidden-text", report.High))
	b := Default().Evaluate(r)
	if b.RiskScore != 12 || b.Verdict != Accept {
		t.Fatalf("%+v", b)
	}
}

func TestPolicyBlockJSON(t *testing.T) {
	b, err := json.Marshal(Default().Evaluate(rep(5)))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"verdict":"accept","riskScore":5,"thresholds":{"review":30,"reject":70},"reason":"score","triggeredBy":[]}`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
	p, err := Parse([]byte(`{"reviewOn":["producer-fingerprint"],"review":101,"reject":101}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(p.Evaluate(rep(69, sig("producer-fingerprint", report.Medium))))
	want = `{"verdict":"review","riskScore":69,"thresholds":{"review":101,"reject":101},"reason":"signal","triggeredBy":["producer-fingerprint"]}`
	if string(b) != want {
		t.Fatalf("got %s\nwant %s", b, want)
	}
}

// TriggeredBy never aliases the policy's own lists.
func TestEvaluateNoAliasing(t *testing.T) {
	p := pol(30, 70, []string{"hidden-text"}, nil)
	b := p.Evaluate(rep(0, sig("hidden-text", report.High)))
	b.TriggeredBy[0] = "changed"
	if p.RejectOn[0] != "hidden-text" {
		t.Fatal("triggeredBy aliases RejectOn")
	}
}
