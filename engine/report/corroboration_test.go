package report

import (
	"reflect"
	"testing"
)

func coded(id string, s Severity, code string, notes ...string) Signal {
	sg := Signal{ID: id, Severity: s, Message: Message{Code: code}, Evidence: map[string]any{}}
	for _, n := range notes {
		sg.Notes = append(sg.Notes, Message{Code: n})
	}
	return sg
}

func TestCorroborationScore(t *testing.T) {
	editor := coded("producer-fingerprint", Low, "producer-fingerprint.editor-single-save")
	history := coded("metadata-inconsistency", Low, "metadata-inconsistency.history-editor")
	laundered := coded("metadata-inconsistency", Medium, "metadata-inconsistency.dates-out-of-order", "metadata-inconsistency.editor-laundered")
	mismatch := coded("metadata-inconsistency", Low, "metadata-inconsistency.producer-mismatch")
	content := coded("incremental-updates", Medium, "incremental-updates.content-touched")
	appended := coded("incremental-updates", Low, "incremental-updates.appended")
	font := coded("font-anomalies", Low, "font-anomalies.later-revision-font")
	subsets := coded("font-anomalies", Low, "font-anomalies.multiple-subsets")
	active := coded("active-content", Low, "active-content.javascript")
	high := coded("content-overlay", High, "content-overlay.retyped-later-revision")
	infoEditor := coded("producer-fingerprint", Info, "producer-fingerprint.editor-single-save")
	cases := []struct {
		name  string
		sigs  []Signal
		score int
		band  Band
		facts []Fact
	}{
		{"one fact alone stays low", []Signal{editor}, 10, BandLow, []Fact{FactEditorNamed}},
		{"two signals of one fact do not corroborate", []Signal{editor, history}, 20, BandLow, []Fact{FactEditorNamed}},
		{"two independent lows reach elevated", []Signal{editor, font}, 40, BandElevated, []Fact{FactEditorNamed, FactFontInconsistent}},
		{"a variant outside the table does not count", []Signal{editor, subsets}, 20, BandLow, []Fact{FactEditorNamed}},
		{"an appended revision alone is no fact", []Signal{editor, appended}, 20, BandLow, []Fact{FactEditorNamed}},
		{"families outside the table never corroborate", []Signal{editor, active}, 20, BandLow, []Fact{FactEditorNamed}},
		{"Info and XMP disagreeing is no fact of its own", []Signal{editor, mismatch}, 20, BandLow, []Fact{FactEditorNamed}},
		{"a note's code counts", []Signal{editor, laundered}, 60, BandElevated, []Fact{FactEditorNamed, FactMetadataRewritten}},
		{"info signals are no evidence", []Signal{infoEditor, font}, 10, BandLow, []Fact{FactFontInconsistent}},
		{"three facts still clamp to 69 without a high", []Signal{editor, laundered, content}, 69, BandElevated,
			[]Fact{FactContentRevised, FactEditorNamed, FactMetadataRewritten}},
		{"a high signal with corroboration", []Signal{high, editor}, 100, BandHigh, []Fact{FactEditorNamed, FactTextCovered}},
	}
	for _, c := range cases {
		score, band, _ := Score(c.sigs)
		facts, _ := Corroborated(c.sigs)
		if score != c.score || band != c.band || !reflect.DeepEqual(facts, c.facts) {
			t.Errorf("%s: got %d %s %v, want %d %s %v", c.name, score, band, facts, c.score, c.band, c.facts)
		}
	}
}

// TestCorroborationVisible: the signals that agreed carry
// evidence.corroboration, the others do not, and Finish run again (after an
// issuer signal is added) gives the same marking.
func TestCorroborationVisible(t *testing.T) {
	r := New(MediaPDF, 100)
	r.Add(Finding{Family: FamilyProducerFingerprint, Severity: Low, Message: Msg("producer-fingerprint.editor-single-save", "editors", 1, "editorClass", Kind("modification-library"))})
	r.Add(Finding{Family: FamilyActiveContent, Severity: Low, Message: Msg("active-content.javascript", "total", 1)})
	r.Finish()
	if _, marked := r.Signals[1].Evidence["corroboration"]; r.Summary.RiskScore != 20 || marked {
		t.Fatalf("one fact: score %d, evidence %v", r.Summary.RiskScore, r.Signals[1].Evidence)
	}
	r.Add(Finding{Family: FamilyMetadataInconsistency, Severity: Low, Message: Msg("metadata-inconsistency.history-changed", "fields", 1)})
	r.Finish()
	r.Finish()
	if r.Summary.RiskScore != 50 || r.Summary.RiskBand != BandElevated {
		t.Fatalf("score %d %s, want 50 elevated", r.Summary.RiskScore, r.Summary.RiskBand)
	}
	for _, s := range r.Signals {
		c, marked := s.Evidence["corroboration"].(map[string]any)
		if want := s.ID != "active-content"; marked != want {
			t.Errorf("%s: marked %v, want %v", s.ID, marked, want)
		}
		if !marked {
			continue
		}
		if !reflect.DeepEqual(c["families"], []string{"metadata-inconsistency", "producer-fingerprint"}) ||
			!reflect.DeepEqual(c["agreeing"], []string{"editor-named", "metadata-rewritten"}) || c["points"] != 20 {
			t.Errorf("%s: corroboration evidence %v", s.ID, c)
		}
	}
	// A signal that no longer corroborates loses the marking.
	r.Signals = r.Signals[:0]
	r.Add(Finding{Family: FamilyProducerFingerprint, Severity: Low, Message: Msg("producer-fingerprint.editor-single-save", "editors", 1, "editorClass", Kind("modification-library")),
		Evidence: map[string]any{"corroboration": "stale"}})
	r.Finish()
	if _, marked := r.Signals[0].Evidence["corroboration"]; marked {
		t.Errorf("stale marking kept: %v", r.Signals[0].Evidence)
	}
}

// TestCorroborationTableNamesFamilies keeps the table in step with the
// family and message catalogues.
func TestCorroborationTableNamesFamilies(t *testing.T) {
	codes := map[string]bool{}
	for _, c := range Codes() {
		codes[c] = true
	}
	for _, row := range corroboration {
		if _, ok := LookupFamily(row.Family); !ok {
			t.Errorf("row names unknown family %s", row.Family)
		}
		for _, c := range row.Codes {
			if !codes[c] {
				t.Errorf("row %s names unknown code %s", row.Family, c)
			}
		}
	}
}
