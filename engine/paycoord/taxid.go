package paycoord

import (
	"regexp"
	"strings"
)

var (
	cnpjRe = regexp.MustCompile(`\b([0-9]{2}\.?[0-9]{3}\.?[0-9]{3}/?[0-9]{4}-?[0-9]{2})\b`)
	cpfRe  = regexp.MustCompile(`\b([0-9]{3}\.?[0-9]{3}\.?[0-9]{3}-?[0-9]{2})\b`)
	einRe  = regexp.MustCompile(`\b([0-9]{2})-([0-9]{7})\b`)
	pixRe  = regexp.MustCompile(`(?i)\b(?:pix|chave)\b[^\n]{0,24}?([A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}|\+55[0-9 ()-]{10,16}[0-9]|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9][0-9./-]{9,17}[0-9])`)
)

// findBRTax keeps CNPJ and CPF numbers whose two check digits hold. A
// bare run of digits needs its label: check digits alone pass one random
// number in a hundred.
func findBRTax(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(cnpjRe) {
		raw := sub(t.s, m, 1)
		d := digits(raw)
		if (len(raw) == 14 && !t.labelled(m[0], "cnpj")) || !cnpjValid(d) {
			continue
		}
		out = append(out, Coord{Kind: CNPJ, Country: "BR", TaxID: d, pos: m[0]})
	}
	for _, m := range t.matches(cpfRe) {
		raw := sub(t.s, m, 1)
		d := digits(raw)
		if (len(raw) == 11 && !t.labelled(m[0], "cpf")) || !cpfValid(d) {
			continue
		}
		out = append(out, Coord{Kind: CPF, Country: "BR", TaxID: d, pos: m[0]})
	}
	return out
}

func allSame(d string) bool { return strings.Count(d, d[:1]) == len(d) }

// cnpjValid checks the two modulo-11 check digits of a CNPJ.
func cnpjValid(d string) bool {
	if len(d) != 14 || allSame(d) {
		return false
	}
	w1 := []int{5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	w2 := []int{6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2}
	return taxDigit(d[:12], w1) == d[12] && taxDigit(d[:13], w2) == d[13]
}

// cpfValid checks the two modulo-11 check digits of a CPF.
func cpfValid(d string) bool {
	if len(d) != 11 || allSame(d) {
		return false
	}
	w1 := []int{10, 9, 8, 7, 6, 5, 4, 3, 2}
	w2 := []int{11, 10, 9, 8, 7, 6, 5, 4, 3, 2}
	return taxDigit(d[:9], w1) == d[9] && taxDigit(d[:10], w2) == d[10]
}

func taxDigit(d string, w []int) byte {
	sum := 0
	for i := range w {
		sum += int(d[i]-'0') * w[i]
	}
	r := sum % 11
	if r < 2 {
		return '0'
	}
	return byte('0' + 11 - r)
}

// einInvalidPrefix lists the two-digit prefixes the IRS does not assign.
var einInvalidPrefix = map[string]bool{"00": true, "07": true, "08": true, "09": true, "17": true, "18": true, "19": true, "28": true, "29": true, "49": true, "69": true, "70": true, "78": true, "79": true, "89": true, "96": true, "97": true}

// findEIN keeps a labelled NN-NNNNNNN with an assigned prefix.
func findEIN(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(einRe) {
		p := sub(t.s, m, 1)
		if einInvalidPrefix[p] || !t.labelled(m[0], "ein", "tax id", "tin", "employer identification", "fein") {
			continue
		}
		out = append(out, Coord{Kind: EIN, Country: "US", TaxID: p + "-" + sub(t.s, m, 2), pos: m[0]})
	}
	return out
}

// findPIX keeps the key after a PIX label: e-mail, +55 phone, random
// (EVP) key, CPF or CNPJ. Only its last four characters are kept.
func findPIX(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(pixRe) {
		key := sub(t.s, m, 1)
		if d := digits(key); !strings.ContainsAny(key, "@+abcdef") && !cpfValid(d) && !cnpjValid(d) {
			continue
		}
		out = append(out, Coord{Kind: PIX, Country: "BR", KeyLast4: last4(alnum(key)), pos: m[0]})
	}
	return out
}
