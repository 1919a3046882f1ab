package pdf

import "testing"

// x-ray's text filters, with the answers x-ray's Python gives.
func TestRedactedText(t *testing.T) {
	for s, want := range map[string]bool{
		"":                             false,
		"   ":                          false,
		"XXXX":                         false, // one repeated character
		"----":                         false, // no letter or digit
		"REDACTED":                     false,
		"Redacted And  Publicly Filed": false,
		"NAME   REDACTED":              false,
		"confidentialconfidential":     false,
		"Privileged":                   false,
		"privilegedx":                  true, // an "x" is left
		"re re":                        true, // the space between is left
		"John Smith":                   true,
		"123-45-6789":                  true,
		"redacted John":                true,
	} {
		if got := redactedText(s); got != want {
			t.Errorf("redactedText(%q) = %v, want %v", s, got, want)
		}
	}
}

func TestAllDates(t *testing.T) {
	for _, c := range []struct {
		texts []string
		want  bool
	}{
		{nil, false},
		{[]string{"1/2/23", "01/02/2023", "31-12-99"}, true},
		{[]string{"3/4/20231/2/23"}, true}, // two dates back to back
		{[]string{"1/2/23", "Smith"}, false},
		{[]string{"1/2/2"}, false},     // a year of one digit
		{[]string{"41/5/2023"}, false}, // "4" is left
		{[]string{"1/2/23 "}, false},   // the space is left
		{[]string{"١/٢/٢٣"}, false},    // ASCII digits only
	} {
		if got := allDates(c.texts); got != c.want {
			t.Errorf("allDates(%q) = %v, want %v", c.texts, got, c.want)
		}
	}
}
