package paycoord

import "regexp"

// ibanStart finds where an IBAN may begin; ibanRe, anchored there,
// takes a country code, check digits and up to 32 more characters in
// groups of up to four, spaced or not. Every start is tried, so a match
// that swallowed the start of a real IBAN (a VAT number just before it)
// does not hide it.
var (
	ibanStart = regexp.MustCompile(`\b[A-Z]{2}[0-9]{2}`)
	ibanRe    = regexp.MustCompile(`^[A-Z]{2}[0-9]{2}(?:[ ]?[A-Z0-9]{1,4}){3,8}\b`)
)

// ibanLen is the IBAN length of the countries whose bank and branch
// positions are known here; other countries are accepted at 15 to 34
// characters, their bank code being the first four BBAN characters.
var ibanLen = map[string]int{
	"AT": 20, "BE": 16, "BR": 29, "CH": 21, "DE": 22, "DK": 18, "ES": 24, "FI": 18,
	"FR": 27, "GB": 22, "IE": 22, "IT": 27, "LU": 20, "NL": 18, "NO": 15, "PL": 28,
	"PT": 25, "SE": 24,
}

// ibanBank gives the bank code and branch positions inside the BBAN.
var ibanBank = map[string][4]int{ // bank from, to, branch from, to
	"AT": {0, 5, 0, 0}, "BE": {0, 3, 0, 0}, "BR": {0, 8, 8, 13}, "CH": {0, 5, 0, 0},
	"DE": {0, 8, 0, 0}, "DK": {0, 4, 0, 0}, "ES": {0, 4, 4, 8}, "FI": {0, 3, 0, 0},
	"FR": {0, 5, 5, 10}, "GB": {0, 4, 4, 10}, "IE": {0, 4, 4, 10}, "IT": {1, 6, 6, 11},
	"LU": {0, 3, 0, 0}, "NL": {0, 4, 0, 0}, "NO": {0, 4, 0, 0}, "PL": {0, 8, 0, 0},
	"PT": {0, 4, 4, 8}, "SE": {0, 3, 0, 0},
}

func findIBAN(t *text) []Coord {
	var out []Coord
	taken := 0
	for _, st := range ibanStart.FindAllStringIndex(t.s, 8*maxCoord) {
		if st[0] < taken {
			continue
		}
		rest := t.s[st[0]:min(len(t.s), st[0]+48)]
		m := ibanRe.FindStringIndex(rest)
		if m == nil {
			continue
		}
		raw := alnum(rest[:m[1]])
		// A longer match may run into the next word: try the country's
		// length first, then every shorter length.
		for n := len(raw); n >= 15; n-- {
			iban := raw[:n]
			if want, ok := ibanLen[iban[:2]]; ok && n != want {
				continue
			}
			if !ibanValid(iban) {
				continue
			}
			out = append(out, ibanCoord(iban, st[0]))
			taken = st[0] + m[1]
			break
		}
	}
	return out
}

// ibanValid checks the length and the ISO 13616 mod-97 checksum.
func ibanValid(iban string) bool {
	if len(iban) < 15 || len(iban) > 34 {
		return false
	}
	rearranged := iban[4:] + iban[:4]
	rem := 0
	for i := 0; i < len(rearranged); i++ {
		c := rearranged[i]
		switch {
		case '0' <= c && c <= '9':
			rem = (rem*10 + int(c-'0')) % 97
		case 'A' <= c && c <= 'Z':
			rem = (rem*100 + int(c-'A'+10)) % 97
		default:
			return false
		}
	}
	return rem == 1
}

func ibanCoord(iban string, pos int) Coord {
	cc, bban := iban[:2], iban[4:]
	c := Coord{Kind: IBAN, Country: cc, AccountLast4: last4(iban), pos: pos}
	if p, ok := ibanBank[cc]; ok && len(bban) >= p[3] {
		c.BankCode = bban[p[0]:p[1]]
		if p[3] > 0 {
			c.Branch = bban[p[2]:p[3]]
		}
	} else {
		c.BankCode = bban[:4]
	}
	return c
}
