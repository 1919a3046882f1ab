package pdf

import (
	"testing"

	"github.com/doctrust/doctrust/engine/report"
)

// TestRunListMatchesCatalogue: the run list (generated from the
// declarations) runs every PDF family of the catalogue once, and nothing
// else, apart from the two that run elsewhere: structure-warnings (after
// the list, it reports what the others met) and issuer-mismatch
// (engine/baseline, on an issuer-named inspection). A PDF row written by
// hand into the catalogue without a declaration fails here.
func TestRunListMatchesCatalogue(t *testing.T) {
	elsewhere := map[report.FamilyID]bool{report.FamilyStructureWarnings: true, report.FamilyIssuerMismatch: true}
	run := map[report.FamilyID]int{}
	for _, fam := range families {
		run[fam.ID]++
		row, ok := report.LookupFamily(fam.ID)
		switch {
		case !ok:
			t.Errorf("%s runs but has no catalogue row", fam.ID)
		case row.Media != report.MediaPDF || elsewhere[fam.ID]:
			t.Errorf("%s runs in the PDF list but is catalogued for %q", fam.ID, row.Media)
		}
		if run[fam.ID] > 1 {
			t.Errorf("%s runs twice", fam.ID)
		}
	}
	for _, row := range report.Families() {
		if row.Media == report.MediaPDF && !elsewhere[row.ID] && run[row.ID] == 0 {
			t.Errorf("%s is a PDF family of the catalogue that never runs", row.ID)
		}
	}
}
