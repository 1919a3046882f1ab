package figures

import (
	"slices"
	"testing"
)

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

// TestClassifyIndex: the index gives what trying every phrase in order at
// every word gives, on each phrase alone, after another word, before one,
// joined with the next phrase, and cut short.
func TestClassifyIndex(t *testing.T) {
	naive := func(words []string) role {
		if len(words) == 0 || len(words) > 12 {
			return plain
		}
		for _, p := range phrases {
			for i := range words {
				if phraseAt(words, i, p.words) {
					return p.role
				}
			}
		}
		return plain
	}
	for k, p := range phrases {
		next := phrases[(k+1)%len(phrases)].words
		last := p.words[len(p.words)-1]
		cut := append(slices.Clone(p.words[:len(p.words)-1]), last[:max(1, len(last)-2)])
		for _, words := range [][]string{p.words, append([]string{"net"}, p.words...),
			append(slices.Clone(p.words), "eur"), append(slices.Clone(p.words), next...), cut} {
			if got, want := classify(words), naive(words); got != want {
				t.Errorf("%q: role %d, want %d", words, got, want)
			}
		}
	}
}
