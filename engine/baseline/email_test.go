package baseline

import "testing"

func TestEmailAddressRefused(t *testing.T) {
	for s, want := range map[string]bool{
		"a@b.cd":                 true,
		"john.doe@example.co.uk": true,
		"<a@b.cd>":               true,
		"x a@b.cd y":             true,
		"a@b.c":                  false, // a one-letter top-level domain
		"a @b.cd":                false,
		"a@ b.cd":                false,
		"@b.cd":                  false,
		"a@b.c1":                 false,
		"Microsoft® Word 2016":   false,
		"16.0.17928.20114":       false,
	} {
		if got := !acceptableText(s); got != want {
			t.Errorf("%q refused = %v, want %v", s, got, want)
		}
	}
}
