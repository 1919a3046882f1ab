package figures

import "testing"

// TestClassifyCutLabel: a label cut short by a narrow spreadsheet column
// keeps its role when its last word starts the phrase's last word; a cut
// word shorter than four letters, or a word that only starts the same way
// in the middle of the label, does not.
func TestClassifyCutLabel(t *testing.T) {
	for label, want := range map[string]role{
		"total deductions": deductions,
		"total deduc":      deductions,
		"total ded":        total,
		"gross pa":         gross, // "gross" alone is a phrase
		"closing bal":      plain,
		"closing bala":     closing,
		"deduc total":      total,
	} {
		if got := classify(labelWords(label)); got != want {
			t.Errorf("%q: role %d, want %d", label, got, want)
		}
	}
}
