package report

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

func sig(id string, s Severity) Signal { return Signal{ID: id, Severity: s} }

func TestScoreAndBand(t *testing.T) {
	cases := []struct {
		name  string
		sigs  []Signal
		score int
		band  Band
		count int
	}{
		{"clean", nil, 0, BandLow, 0},
		{"info only", []Signal{sig("a", Info), sig("b", Info)}, 0, BandLow, 0},
		{"two lows", []Signal{sig("a", Low), sig("b", Low)}, 20, BandLow, 2},
		{"three lows", []Signal{sig("a", Low), sig("b", Low), sig("c", Low)}, 30, BandElevated, 3},
		{"one medium", []Signal{sig("a", Medium)}, 30, BandElevated, 1},
		{"mediums clamp to 69 without a high", []Signal{sig("a", Medium), sig("b", Medium), sig("c", Medium)}, 69, BandElevated, 3},
		{"one high", []Signal{sig("a", High)}, 70, BandHigh, 1},
		{"capped at 100", []Signal{sig("a", High), sig("b", High)}, 100, BandHigh, 2},
	}
	for _, c := range cases {
		score, band, count := Score(c.sigs)
		if score != c.score || band != c.band || count != c.count {
			t.Errorf("%s: got %d %s %d, want %d %s %d", c.name, score, band, count, c.score, c.band, c.count)
		}
	}
	for s := 0; s <= 100; s++ {
		b := BandOf(s)
		want := BandLow
		if s >= 70 {
			want = BandHigh
		} else if s >= 30 {
			want = BandElevated
		}
		if b != want {
			t.Fatalf("BandOf(%d) = %s", s, b)
		}
	}
}

func TestFinishOrdersAndKeepsOnePerFamily(t *testing.T) {
	r := New(MediaPDF, 1000)
	r.Signals = []Signal{sig("b-low", Low), sig("z-high", High), sig("a-low", Low), sig("m-info", Info), sig("z-high", Medium)}
	r.Summary.Cost.ExpandedBytes = 1234
	r.Finish()
	var ids []string
	for _, s := range r.Signals {
		ids = append(ids, s.ID+":"+string(s.Severity))
	}
	if got := strings.Join(ids, ","); got != "z-high:high,a-low:low,b-low:low,m-info:info" {
		t.Fatalf("order %s", got)
	}
	if r.Summary.RiskScore != 90 || r.Summary.RiskBand != BandHigh || r.Summary.SignalCount != 3 {
		t.Fatalf("summary %+v", r.Summary)
	}
	if r.Summary.Cost.ExpansionRatio != 1.234 || r.Summary.Cost.PhysicalBytes != 1000 {
		t.Fatalf("cost %+v", r.Summary.Cost)
	}
	r.Finish() // idempotent
	if len(r.Signals) != 4 || r.Summary.RiskScore != 90 {
		t.Fatal("Finish is not idempotent")
	}
}

func TestReportJSONShape(t *testing.T) {
	r := New(MediaPDF, 10)
	r.Finish()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, absent := range []string{`"image"`, `"office"`, `"issuerBaseline"`, `"policy"`, `"triage"`, `"timing"`, `"receipt"`, `"notes"`} {
		if strings.Contains(s, absent) {
			t.Errorf("optional block %s present on a plain report: %s", absent, s)
		}
	}
	for _, present := range []string{`"signals":[]`, `"producer":null`, `"safeForAutomatedAdverseDecision":false`, `"disclaimer":"`, `"engineVersion":"1.40.0"`} {
		if !strings.Contains(s, present) {
			t.Errorf("missing %s in %s", present, s)
		}
	}
	keys := regexp.MustCompile(`^\{"id":.*"engineVersion":.*"mediaType":.*"summary":.*"signals":.*"document":.*"usageCaution":.*"disclaimer":`)
	if !keys.MatchString(s) {
		t.Errorf("key order wrong: %s", s)
	}
}

func TestParamsRefuseStrings(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a plain string parameter was accepted")
		}
	}()
	Msg("structure-warnings.truncated", "who", "attacker text")
}

func TestParamsAcceptKinds(t *testing.T) {
	m := Msg("image-structure-anomalies.container-not-walked", "format", Kind("tiff"))
	if got := Render(m); !strings.Contains(got, "The tiff container") {
		t.Fatal(got)
	}
}

// TestEveryCodeRenders: every template's placeholders are filled when the
// parameters are given, and titles exist for every non-note code.
func TestEveryCodeRenders(t *testing.T) {
	ph := regexp.MustCompile(`\{(\w+)(?:[#?@~][^}]*)?\}`)
	for _, code := range Codes() {
		title, tpl := TemplateOf(code)
		if !strings.HasPrefix(code, strings.SplitN(code, ".", 2)[0]+".") || !strings.Contains(code, ".") {
			t.Errorf("code %s is not <family>.<variant>", code)
		}
		// compare.<id> are /compare's findings (engine/compare), not a family.
		if _, ok := LookupFamily(FamilyID(strings.SplitN(code, ".", 2)[0])); !ok && !strings.HasPrefix(code, "compare.") {
			t.Errorf("code %s names no catalogued family", code)
		}
		kv := []any{}
		for _, m := range ph.FindAllStringSubmatch(tpl, -1) {
			kv = append(kv, m[1], 7)
		}
		out := Render(Msg(code, kv...))
		if strings.ContainsAny(out, "{}") || out == "" {
			t.Errorf("%s renders as %q", code, out)
		}
		_ = title
	}
}

func TestUntrusted(t *testing.T) {
	in := "ok\x00\x1b[31m\u202Eevil\u2066x\u2069" + strings.Repeat("é", 300) + "\xff"
	out := Untrusted(in)
	if strings.ContainsAny(out, "\x00\x1b\u202E\u2066\u2069") {
		t.Fatalf("control or bidi characters kept: %q", out)
	}
	if n := utf8.RuneCountInString(out); n != MaxUntrustedRunes {
		t.Fatalf("length %d runes", n)
	}
	if !utf8.ValidString(Untrusted("a\xffb")) || Untrusted("a\xffb") != "a\uFFFDb" {
		t.Fatalf("invalid UTF-8 not replaced: %q", Untrusted("a\xffb"))
	}
}

func TestCapped(t *testing.T) {
	ev := map[string]any{}
	list := make([]int, 120)
	Capped(ev, "objects", list)
	if len(ev["objects"].([]int)) != MaxArray || ev["objectsTotal"] != 120 || ev["objectsTruncated"] != true {
		t.Fatalf("%v", ev)
	}
	ev = map[string]any{}
	Capped[int](ev, "none", nil)
	if b, _ := json.Marshal(ev); string(b) != `{"none":[],"noneTotal":0,"noneTruncated":false}` {
		t.Fatalf("%s", b)
	}
}

func TestTriageAndEncryptedLists(t *testing.T) {
	tri := NewTriage()
	// SPEC.md's eight page-content families, and figure-arithmetic, which
	// reads the same walk (docs/decisions.md).
	if tri.ContentAnalysed || len(tri.SuppressedFamilies) != 9 {
		t.Fatalf("triage block %+v", tri)
	}
	if len(EncryptedSkipped()) != 7 {
		t.Fatalf("encrypted skips %v", EncryptedSkipped())
	}
	if len(Families()) != 36 {
		t.Fatalf("%d families", len(Families()))
	}
}

// TestCatalogueCodesUnique does for the catalogue slice what the compiler
// did for the map literal it replaced: a code written twice is an error,
// not a silent override.
func TestCatalogueCodesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range catalogue {
		if seen[e.Code] {
			t.Errorf("code %s is in the catalogue twice", e.Code)
		}
		seen[e.Code] = true
	}
}
