package paycoord

import "regexp"

// boletoRe matches a run of digits, dots and spaces long enough for a
// 47- or 48-digit digitable line.
var boletoRe = regexp.MustCompile(`\b[0-9][0-9. ]{45,64}[0-9]\b`)

// findBoleto keeps digitable lines whose field check digits hold: bank
// slips (47 digits) and collection slips (48 digits, first digit 8).
func findBoleto(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(boletoRe) {
		d := digits(t.s[m[0]:m[1]])
		var bank string
		switch {
		case len(d) == 47 && bankSlipValid(d):
			bank = d[:3]
		case len(d) == 48 && d[0] == '8' && collectionSlipValid(d):
			bank = d[:4] // segment and value kind, then the payee's code follows
		default:
			continue
		}
		out = append(out, Coord{Kind: Boleto, Country: "BR", BankCode: bank, KeyLast4: last4(d), pos: m[0]})
	}
	return out
}

// bankSlipValid checks the three field check digits (modulo 10) of a bank
// slip's digitable line.
func bankSlipValid(d string) bool {
	return mod10(d[0:9]) == d[9] && mod10(d[10:20]) == d[20] && mod10(d[21:31]) == d[31]
}

// collectionSlipValid checks the four block check digits; the third digit
// chooses modulo 10 (6, 7) or modulo 11 (8, 9).
func collectionSlipValid(d string) bool {
	for b := range 4 {
		block, dv := d[b*12:b*12+11], d[b*12+11]
		switch d[2] {
		case '6', '7':
			if mod10(block) != dv {
				return false
			}
		case '8', '9':
			if v := mod11Collection(block); v != dv && !(v == '0' && dv == '1') {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// mod10 is the FEBRABAN modulo-10 check digit: weights 2,1,2,... from the
// right, digits of each product summed.
func mod10(s string) byte {
	sum, w := 0, 2
	for i := len(s) - 1; i >= 0; i-- {
		p := int(s[i]-'0') * w
		sum += p/10 + p%10
		w = 3 - w
	}
	return byte('0' + (10-sum%10)%10)
}

// mod11Collection is the modulo-11 check digit of collection slips:
// weights 2 to 9 from the right; a remainder of 0 or 1 gives 0.
func mod11Collection(s string) byte {
	sum, w := 0, 2
	for i := len(s) - 1; i >= 0; i-- {
		sum += int(s[i]-'0') * w
		if w++; w > 9 {
			w = 2
		}
	}
	r := sum % 11
	if r <= 1 {
		return '0'
	}
	if r == 10 {
		return '1'
	}
	return byte('0' + 11 - r)
}
