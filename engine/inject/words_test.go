package inject

import (
	"slices"
	"strings"
	"testing"
)

// TestPlainWordsAreTheirOwnLexing: words' shortcut must give what the
// lexer gives, for every plain alternative of the lexicon and every
// word of the fixed sets.
func TestPlainWordsAreTheirOwnLexing(t *testing.T) {
	var plain []string
	for _, l := range [][]def{english, portuguese, spanish, french, german} {
		for _, d := range l {
			for _, f := range strings.Fields(d.pattern) {
				for _, a := range strings.Split(strings.TrimLeft(f, "^!~"), "|") {
					plain = append(plain, strings.TrimSuffix(a, "*"))
				}
			}
		}
	}
	t0 := lex()
	for _, s := range []wordSet{t0.leadIn, t0.conjunctions, t0.modals, t0.secondPerson, t0.mentionWords} {
		for _, w := range s {
			plain = append(plain, w)
		}
	}
	n := 0
	for _, a := range plain {
		if !plainWord(a) {
			continue
		}
		n++
		if got := lexWords(a); !slices.Equal(got, []string{a}) {
			t.Errorf("%q lexes to %q", a, got)
		}
	}
	if n < 500 {
		t.Fatalf("only %d plain words checked", n)
	}
}
