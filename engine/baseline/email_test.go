package baseline

import (
	"regexp"
	"testing"
)

// emailExpression is the expression hasEmail stands for.
var emailExpression = regexp.MustCompile(`[^\s@<>()]+@[^\s@<>()]+\.[A-Za-z]{2,}`)

var emailCases = []string{
	"", "@", "a@b.cd", "a@b.c", "a@.cd", "@b.cd", "a @b.cd", "a@ b.cd", "x a@b.cd y", "a@b.c1",
	"john.doe@example.co.uk", "(a@b.cd)", "<a@b.cd>", "a@@b.cd", "a@b@c.de", "a@b..cd", "a@b.c.de",
	"Microsoft® Word 2016", "16.0.17928.20114", "é@ü.fr", "a@b.\xffcd", "\xff@\xff.ab", "a\t@b.cd",
	"a@b\n.cd", "a@b.cD", "a@bc.", "a@b.c\x00d", "a@b.cdé",
}

func TestHasEmailAgreesWithExpression(t *testing.T) {
	for _, s := range emailCases {
		if got, want := hasEmail(s), emailExpression.MatchString(s); got != want {
			t.Errorf("hasEmail(%q) = %v, the expression says %v", s, got, want)
		}
	}
}

func FuzzHasEmail(f *testing.F) {
	for _, s := range emailCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := hasEmail(s), emailExpression.MatchString(s); got != want {
			t.Errorf("hasEmail(%q) = %v, the expression says %v", s, got, want)
		}
	})
}
