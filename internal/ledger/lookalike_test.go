package ledger

import "testing"

func TestLookalike(t *testing.T) {
	for _, c := range []struct {
		newDomain, known, want string
	}{
		{"calderfinch-co.uk", "calderfinch.co.uk", "punctuation"},
		{"calder-finch.co.uk", "calderfinch.co.uk", "punctuation"},
		{"ca1derfinch.co.uk", "calderfinch.co.uk", "homoglyph"},
		{"calderfinch.co.uk", "caldefrinch.co.uk", "edit-distance"},
		{"cаlderfinch.co.uk", "calderfinch.co.uk", "homoglyph"}, // Cyrillic а
		{"calderfinch.com", "calderfinch.co.uk", "other-suffix"},
		{"calderflnch.co.uk", "calderfinch.co.uk", "homoglyph"},
		{"calderfinch.co", "calderfinch.co.uk", "other-suffix"},
		{"caldernfinch.co.uk", "calderfinch.co.uk", "edit-distance"},
		{"rnicrosoft.com", "microsoft.com", "homoglyph"},
		{"northwind-traders.com", "northwindtrader.com", "edit-distance"},

		{"mail.calderfinch.co.uk", "calderfinch.co.uk", ""}, // one owner
		{"calderfinch.co.uk", "calderfinch.co.uk", ""},
		{"acme.com", "acne.com", ""},    // short names differ by a letter all the time
		{"abbott.com", "abbey.com", ""}, // two edits on short names
		{"gmail.com", "calderfinch.co.uk", ""},
		{"bank-of-nowhere.com", "bankofsomewhere.com", ""},
		{"not a domain", "calderfinch.co.uk", ""},
	} {
		if got := lookalike(c.newDomain, c.known); got != c.want {
			t.Errorf("lookalike(%q, %q) = %q, want %q", c.newDomain, c.known, got, c.want)
		}
	}
	// An internationalised name arrives in its ASCII (punycode) form.
	if got := lookalike("xn--clderfinch-zqi.co.uk", "calderfinch.co.uk"); got != "homoglyph" {
		t.Errorf("punycode: %q", got)
	}
}

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"abc", "abc", 0}, {"abc", "acb", 1}, {"abc", "ab", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}} {
		if got := distance(c.a, c.b); got != c.want {
			t.Errorf("distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
