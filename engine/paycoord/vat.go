package paycoord

import (
	"regexp"
	"strings"
)

// VAT numbers as suppliers print them: the country prefix, then the number
// in groups separated by spaces, dots or hyphens (`GB 011 8864 19`,
// `DE 136 695 976`, `NL 8057.23.578.B01`, `CHE-123.456.789`). The groups
// are joined and the result must have the country's shape; the key is the
// prefix and the joined number, so every printed form of one number is one
// supplier.
var (
	vatStartRe = regexp.MustCompile(`\b(AT|BE|BG|CY|CZ|DE|DK|EE|EL|ES|FI|FR|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK|XI|GB|CHE)[ .:-]{0,2}([0-9A-Z])`)
	// A UK number printed without its prefix, in HMRC's 3-4-2 grouping.
	ukBareRe = regexp.MustCompile(`(?:^|[^0-9A-Za-z])([0-9]{3}) ([0-9]{4}) ([0-9]{2})(?:$|[^0-9A-Za-z])`)
	abnRe    = regexp.MustCompile(`\b([0-9]{2}) ?([0-9]{3}) ?([0-9]{3}) ?([0-9]{3})\b`)
)

// vatShape is each prefix's number after the prefix, separators removed
// (the European Commission's VIES formats; GB and XI from HMRC; CHE the
// Swiss UID).
var vatShape = map[string]*regexp.Regexp{
	"AT":  regexp.MustCompile(`^U[0-9]{8}$`),
	"BE":  regexp.MustCompile(`^[01][0-9]{9}$`),
	"BG":  regexp.MustCompile(`^[0-9]{9,10}$`),
	"CY":  regexp.MustCompile(`^[0-9]{8}[A-Z]$`),
	"CZ":  regexp.MustCompile(`^[0-9]{8,10}$`),
	"DE":  regexp.MustCompile(`^[0-9]{9}$`),
	"DK":  regexp.MustCompile(`^[0-9]{8}$`),
	"EE":  regexp.MustCompile(`^[0-9]{9}$`),
	"EL":  regexp.MustCompile(`^[0-9]{9}$`),
	"ES":  regexp.MustCompile(`^[0-9A-Z][0-9]{7}[0-9A-Z]$`),
	"FI":  regexp.MustCompile(`^[0-9]{8}$`),
	"FR":  regexp.MustCompile(`^[0-9A-HJ-NP-Z]{2}[0-9]{9}$`),
	"HR":  regexp.MustCompile(`^[0-9]{11}$`),
	"HU":  regexp.MustCompile(`^[0-9]{8}$`),
	"IE":  regexp.MustCompile(`^([0-9]{7}[A-W][A-I]?|[0-9][A-Z+*][0-9]{5}[A-W])$`),
	"IT":  regexp.MustCompile(`^[0-9]{11}$`),
	"LT":  regexp.MustCompile(`^([0-9]{9}|[0-9]{12})$`),
	"LU":  regexp.MustCompile(`^[0-9]{8}$`),
	"LV":  regexp.MustCompile(`^[0-9]{11}$`),
	"MT":  regexp.MustCompile(`^[0-9]{8}$`),
	"NL":  regexp.MustCompile(`^[0-9]{9}B[0-9]{2}$`),
	"PL":  regexp.MustCompile(`^[0-9]{10}$`),
	"PT":  regexp.MustCompile(`^[0-9]{9}$`),
	"RO":  regexp.MustCompile(`^[1-9][0-9]{1,9}$`),
	"SE":  regexp.MustCompile(`^[0-9]{10}01$`),
	"SI":  regexp.MustCompile(`^[0-9]{8}$`),
	"SK":  regexp.MustCompile(`^[0-9]{10}$`),
	"XI":  regexp.MustCompile(`^([0-9]{9}|[0-9]{12}|GD[0-4][0-9]{2}|HA[5-9][0-9]{2})$`),
	"GB":  regexp.MustCompile(`^([0-9]{9}|[0-9]{12}|GD[0-4][0-9]{2}|HA[5-9][0-9]{2})$`),
	"CHE": regexp.MustCompile(`^[0-9]{9}$`),
}

// vatLabels are the words that stand before a VAT number on invoices, in
// the languages of the prefixes above.
var vatLabels = []string{"vat", "ust", "tva", "iva", "btw", "mwst", "moms", "nif", "p.iva", "uid",
	"nip", "cif", "dph", "pvm", "alv", "kmkr", "ddv", "afm", "mva", "pdv", "dic", "tax reg", "gst"}

// maxVATGroups bounds the groups one number may be printed in.
const maxVATGroups = 6

// findVAT keeps a labelled VAT number of the prefixes above. Checksums are
// not verified (they differ per country): the label and the shape are.
func findVAT(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(vatStartRe) {
		if !t.labelled(m[0], vatLabels...) {
			continue
		}
		cc := sub(t.s, m, 1)
		number, ok := joinGroups(t.s[m[4]:], vatShape[cc])
		if !ok {
			continue
		}
		c := Coord{Kind: EUVAT, Country: cc, TaxID: cc + number, pos: m[0]}
		switch cc {
		case "GB":
			c.Kind = GBVAT
		case "CHE":
			c.Kind, c.Country = CHUID, "CH"
		}
		out = append(out, c)
	}
	return out
}

// joinGroups reads the groups of a number at the start of s (letters,
// digits, + and *, separated by one space, dot or hyphen) and returns the
// longest run of whole groups whose concatenation has the shape, so a word
// after the number (`DE136695976 IBAN ...`) is never taken into it.
func joinGroups(s string, shape *regexp.Regexp) (string, bool) {
	if len(s) > 40 {
		s = s[:40]
	}
	var joined strings.Builder
	best := ""
	i := 0
	for groups := 0; groups < maxVATGroups && i < len(s); groups++ {
		j := i
		for j < len(s) && isVATChar(s[j]) {
			j++
		}
		if j == i {
			break
		}
		joined.WriteString(s[i:j])
		if shape.MatchString(joined.String()) {
			best = joined.String()
		}
		if j >= len(s) || !strings.ContainsRune(" .-", rune(s[j])) || j+1 >= len(s) || !isVATChar(s[j+1]) {
			break
		}
		i = j + 1
	}
	return best, best != ""
}

func isVATChar(c byte) bool {
	return '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || c == '+' || c == '*'
}

// findUKVAT keeps a UK number printed without its prefix: `VAT
// Registration No. 011 8864 19`, the grouping HMRC uses, after a VAT label.
func findUKVAT(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(ukBareRe) {
		at := m[2]
		if !t.labelled(at, "vat") || precededByPrefix(t.s[:at]) {
			continue
		}
		out = append(out, Coord{Kind: GBVAT, Country: "GB", TaxID: "GB" + sub(t.s, m, 1) + sub(t.s, m, 2) + sub(t.s, m, 3), pos: at})
	}
	return out
}

// precededByPrefix: the digits follow a GB or XI prefix, which findVAT
// reads.
func precededByPrefix(before string) bool {
	b := strings.TrimRight(before, " .:-")
	return strings.HasSuffix(b, "GB") || strings.HasSuffix(b, "XI")
}

// findABN keeps an Australian Business Number after its label when its
// check (weights 10,1,3,...,19 after subtracting 1 from the first digit,
// modulo 89) holds.
func findABN(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(abnRe) {
		if !t.labelled(m[0], "abn", "australian business number") {
			continue
		}
		d := digits(t.s[m[0]:m[1]])
		if !abnValid(d) {
			continue
		}
		out = append(out, Coord{Kind: ABN, Country: "AU", TaxID: d, pos: m[0]})
	}
	return out
}

func abnValid(d string) bool {
	if len(d) != 11 || d[0] == '0' {
		return false
	}
	w := []int{10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19}
	sum := 0
	for i := range w {
		v := int(d[i] - '0')
		if i == 0 {
			v--
		}
		sum += v * w[i]
	}
	return sum%89 == 0
}
