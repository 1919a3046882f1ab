package figures

import "testing"

func TestParseAmount(t *testing.T) {
	for _, c := range []struct {
		in   string
		want string // "" when no amount
	}{
		{"1,234.56", "1234.56"},
		{"1.234,56", "1234.56"},
		{"1 234,56", "1234.56"},
		{"1\u202f234,56", "1234.56"},
		{"1'234.56", "1234.56"},
		{"12,34,567.89", "1234567.89"},
		{"£1,234.56", "1234.56"},
		{"1.234,56 €", "1234.56"},
		{"EUR 12.00", "12.00"},
		{"12.00 USD", "12.00"},
		{"-50.00", "-50.00"},
		{"−50.00", "-50.00"},
		{"50.00-", "-50.00"},
		{"(1,050.25)", "-1050.25"},
		{"1,050.25 CR", "1050.25"},
		{"1,050.25 DR", "-1050.25"},
		{"1,050.25DR", "-1050.25"},
		{"0.50", "0.50"},
		{"1,234", ""},      // no decimals: a count
		{"12.05.2024", ""}, // a date
		{"1.234.56", ""},   // the decimal mark cannot also group
		{"1,23.45", ""},    // a broken group
		{"007.50", ""},     // a code
		{"12:30", ""},      // a time
		{"ABCR", ""},       // a word
		{"", ""},           // nothing
		{"1,234.567", ""},  // three decimals are not money here
		{"99999999999999999.99", ""},
	} {
		a, ok := ParseAmount(c.in)
		got := ""
		if ok {
			got = a.String()
		}
		if got != c.want {
			t.Errorf("ParseAmount(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestParseNumber(t *testing.T) {
	for _, c := range []struct {
		in   string
		dec  byte
		want string
	}{
		{"3", '.', "3"}, {"2.5", '.', "2.5"}, {"0,25", ',', "0.25"}, {"1,5", '.', ""}, {"x", '.', ""}, {"1.", '.', ""},
	} {
		a, ok := ParseNumber(c.in, c.dec)
		got := ""
		if ok {
			got = a.String()
		}
		if got != c.want {
			t.Errorf("ParseNumber(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzParseAmount(f *testing.F) {
	for _, s := range []string{"1,234.56", "1.234,56 €", "(12.00)", "1 234,56 CR", "EUR -3.50", "12,34,567.89"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		a, ok := ParseAmount(s)
		if ok && a.Scale != 2 {
			t.Fatalf("%q: scale %d", s, a.Scale)
		}
		if ok {
			// The plain form reads back to the same value.
			b, ok2 := ParseAmount(a.String())
			if !ok2 || b != a {
				t.Fatalf("%q -> %s does not read back (%v)", s, a.String(), b)
			}
		}
	})
}
