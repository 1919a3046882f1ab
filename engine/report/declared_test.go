package report

import (
	"os"
	"strings"
	"testing"
)

func TestCheckDeclared(t *testing.T) {
	ok := Signal{ID: string(FamilyHiddenText), Severity: Medium,
		Message:  Msg("hidden-text.invisible"),
		Notes:    []Message{Msg("hidden-text.tiny")},
		Evidence: map[string]any{"invisibleRuns": 2, "pages": []int{1}, "pagesTotal": 1, "corroboration": 1}}
	if got := CheckDeclared(ok); len(got) != 0 {
		t.Fatalf("a declared signal: %v", got)
	}
	cases := map[string]struct {
		edit func(*Signal)
		want string
	}{
		"undeclared message": {func(s *Signal) { s.Message = Msg("hidden-text.glowing") }, "not a declared message"},
		"note as message": {func(s *Signal) {
			s.ID, s.Message, s.Severity = string(FamilyActiveContent), Msg("active-content.kinds"), Low
		}, "not a declared message"},
		"below the range": {func(s *Signal) { s.Severity = Low }, "at low, declared medium to medium"},
		"above the range": {func(s *Signal) { s.Severity = High }, "at high"},
		"another's code":  {func(s *Signal) { s.Message = Msg("font-anomalies.figure-font") }, "not a declared message"},
		"undeclared note": {func(s *Signal) { s.Notes = []Message{Msg("hidden-text.sparkly")} }, "note hidden-text.sparkly"},
		"undeclared key":  {func(s *Signal) { s.Evidence = map[string]any{"secret": 1} }, "evidence key secret"},
	}
	for name, c := range cases {
		s := ok
		c.edit(&s)
		got := strings.Join(CheckDeclared(s), "; ")
		if !strings.Contains(got, c.want) {
			t.Errorf("%s: got %q, want %q", name, got, c.want)
		}
	}
	if got := CheckDeclared(Signal{ID: string(FamilyStructureWarnings), Message: Msg("structure-warnings.truncated")}); got != nil {
		t.Errorf("an undeclared family is not checked: %v", got)
	}
}

// TestEvidenceDocumented: docs/families.md names every evidence key a
// family declares (a capped list by its own name) in the section headed by
// the family's id.
func TestEvidenceDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/families.md")
	if err != nil {
		t.Fatal(err)
	}
	sections := map[string]string{}
	var id string
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "#") {
			id = strings.TrimSpace(strings.TrimLeft(line, "#"))
			continue
		}
		sections[id] += line + "\n"
	}
	for _, fam := range declared {
		sec, ok := sections[string(fam.id)]
		if !ok {
			t.Errorf("docs/families.md has no section headed %s", fam.id)
			continue
		}
		for _, k := range fam.evidence {
			if !strings.Contains(sec, "`"+strings.TrimSuffix(k, "[]")) {
				t.Errorf("docs/families.md, %s: evidence key %s is not documented", fam.id, k)
			}
		}
	}
}
