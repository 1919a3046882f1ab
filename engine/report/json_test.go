package report

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"testing"
)

// The report is encoded by encoding/json (a hand-written encoder, held to
// it byte for byte, stood here until issue 29). These tests pin the bytes
// of a report with every block, so a changed tag, key order or escape
// shows; engine's TestCorpusGolden pins every corpus report.

var update = flag.Bool("update", false, "rewrite testdata/full_report.json")

// evidence holds the value shapes analysers store, and the strings and
// floats encoding/json writes in its own ways.
func evidence() map[string]any {
	return map[string]any{
		"string": "<a href=\"x\">&amp;</a>\u2028\u2029\x00\x1f\x7f\ufffdé", "invalid": "a\xffb",
		"int": 42, "int64": int64(-1 << 62), "uint8": uint8(200),
		"floats":  []float64{0, math.Copysign(0, -1), 0.1, 1e-7, 1e20, 1e21, 123456789.125, -1.5e-10},
		"float32": float32(0.1), "bool": true, "nil": nil,
		"strings": []string{"a", "b"}, "empty": []string{}, "nilSlice": []string(nil),
		"map":  map[string]any{"z": 1, "a": []any{1, "x", nil}, "<key>": "html key", "é": 2},
		"kind": Kind("page"),
		"box": struct {
			X      float64 `json:"x"`
			Y      float64 `json:"y,omitempty"`
			Hidden int     `json:"-"`
		}{X: 1.5},
	}
}

// fullReport has every block present and every nullable field set.
func fullReport() *Report {
	r := New(MediaImage, 12345)
	r.ID = "insp_0000"
	r.EngineVersion = "0.0.0-test" // the pinned bytes outlive a version bump
	r.Summary.Cost.ExpandedBytes = 999
	r.Signals = []Signal{
		{ID: "a", Severity: High, Title: "T<", Detail: "D&", Message: Msg("a.b", "n", 1, "k", Kind("page"), "f", 0.5, "b", true, "i", int64(9)),
			Notes: []Message{Msg("a.c"), {Code: "a.d"}}, Evidence: evidence()},
		{ID: "b", Severity: Info, Message: Message{Code: "b.c", Params: map[string]any{}}, Notes: []Message{}, Evidence: map[string]any{}},
		{ID: "c"},
	}
	r.Finish()
	w, h, q, sc, em, pc := 1, 2, 3, 4, 5, 6
	macros, active := true, false
	div := 0.375
	r.Document.Producer, r.Document.Creator = Str("prod"), Str("crea\u2028tor")
	r.Document.CreationDate, r.Document.ModDate = Str("2020-01-01T00:00:00Z"), Str("x")
	r.Document.Encrypted, r.Document.Signed, r.Document.Pages = true, true, 7
	r.Document.Signatures = []SignatureFact{
		{Kind: "approval", Revision: 1, SubFilter: "ETSI.CAdES.detached", Integrity: "verified", SignerCN: "Ann <b>"},
		{Kind: "timestamp", Revision: 2, Integrity: "unreadable", IntegrityReason: "cms-malformed"},
	}
	r.Document.SignaturesTotal = 2
	r.Image = &ImageBlock{Format: "jpeg", Walked: true, Width: &w, Height: &h, CameraMake: Str("Canon"), CameraModel: Str("EOS"),
		MetadataContainers: []string{"exif", "xmp"}, JPEGQuality: &q, Encoder: Str("libjpeg")}
	r.Office = &OfficeBlock{Format: "docx", Application: Str("Word"), AppVersion: Str("16.0"), LastModifiedBy: Str("me"),
		SaveCount: &sc, EditingMinutes: &em, PartCount: &pc, Macros: &macros}
	r.IssuerBaseline = &IssuerBaseline{Requested: "acme", Resolved: true, Reason: "r", Source: "customer", SampleCount: &sc,
		MatchingActive: &active, Divergence: &div, MismatchedDimensions: []string{"producers"}}
	r.Policy = &PolicyBlock{Verdict: "review", RiskScore: 70, Thresholds: Thresholds{Review: 30, Reject: 90}, Reason: "signal", TriggeredBy: []string{"a"}}
	r.Triage = &TriageBlock{SuppressedFamilies: []string{"hidden-text"}, Guidance: "g"}
	r.Timing = &TimingBlock{ElapsedMs: 12}
	r.Receipt = &Receipt{Version: "v1", IssuedAt: "2026-01-01T00:00:00.000Z", EngineVersion: "0.0.0-test", ReportHash: "ab", Redacted: true, Signature: "cd"}
	return r
}

func TestReportJSONPinned(t *testing.T) {
	got, err := json.Marshal(fullReport())
	if err != nil {
		t.Fatal(err)
	}
	const path = "testdata/full_report.json"
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("report JSON changed (go test -run TestReportJSONPinned -update ./engine/report/ after a deliberate change)\n got %s\nwant %s", got, want)
	}
}

// TestReportJSONNonFinite: a NaN or infinite float in evidence fails the
// encoding rather than writing something a client cannot read.
func TestReportJSONNonFinite(t *testing.T) {
	for _, v := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := New(MediaPDF, 1)
		r.Signals = []Signal{{ID: "a", Evidence: map[string]any{"v": []any{v}}}}
		if _, err := json.Marshal(r); err == nil {
			t.Errorf("%v encoded", v)
		}
	}
}
