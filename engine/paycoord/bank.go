package paycoord

import "regexp"

var (
	bicRe = regexp.MustCompile(`\b([A-Z]{4}[A-Z]{2}[A-Z0-9]{2}(?:[A-Z0-9]{3})?)\b`)
	// abaRe is a nine-digit routing number; the account is looked for
	// after it.
	abaRe     = regexp.MustCompile(`\b([0-9]{9})\b`)
	accountRe = regexp.MustCompile(`(?i)(?:account|acct|a/c|conta|c/c|cc)[^0-9\n]{0,24}([0-9][0-9 -]{3,20}[0-9X](?:-[0-9Xx])?)`)
	sortRe    = regexp.MustCompile(`\b([0-9]{2})[- ]?([0-9]{2})[- ]?([0-9]{2})\b`)
	brBankRe  = regexp.MustCompile(`(?i)\bbanco\b[^0-9\n]{0,16}([0-9]{3})\b`)
	brAgRe    = regexp.MustCompile(`(?i)\b(?:ag[êe]ncia|ag\.?)[^0-9\n]{0,8}([0-9]{4})(?:-[0-9Xx])?\b`)
)

// findBIC keeps a BIC only after a BIC or SWIFT label: eight or eleven
// capitals are too common in invoice text otherwise.
func findBIC(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(bicRe) {
		if !t.labelled(m[0], "bic", "swift") {
			continue
		}
		v := sub(t.s, m, 1)
		out = append(out, Coord{Kind: BIC, Country: v[4:6], BankCode: v, pos: m[0]})
	}
	return out
}

// findABA keeps a labelled nine-digit number whose ABA checksum holds,
// with the account that follows it.
func findABA(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(abaRe) {
		v := sub(t.s, m, 1)
		if !t.labelled(m[0], "routing", "aba", "rtn", "transit") || !abaValid(v) {
			continue
		}
		out = append(out, Coord{Kind: ABA, Country: "US", BankCode: v, AccountLast4: t.accountAfter(m[1]), pos: m[0]})
	}
	return out
}

// abaValid is the 3-7-1 weighted checksum with a known Federal Reserve
// prefix.
func abaValid(v string) bool {
	p := int(v[0]-'0')*10 + int(v[1]-'0')
	if !(p <= 12 || (21 <= p && p <= 32) || (61 <= p && p <= 72) || p == 80) {
		return false
	}
	w := [9]int{3, 7, 1, 3, 7, 1, 3, 7, 1}
	sum := 0
	for i := range 9 {
		sum += w[i] * int(v[i]-'0')
	}
	return sum%10 == 0
}

// accountAfter returns the last four of the first labelled account within
// 160 bytes after pos, or "".
func (t *text) accountAfter(pos int) string {
	end := min(pos+160, len(t.s))
	m := accountRe.FindStringSubmatchIndex(t.s[pos:end])
	if m == nil {
		return ""
	}
	return last4(alnum(sub(t.s[pos:end], m, 1)))
}

// findUK keeps a sort code after its label, with the account after it.
func findUK(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(sortRe) {
		if !t.labelled(m[0], "sort code", "sort-code", "sortcode") {
			continue
		}
		code := sub(t.s, m, 1) + sub(t.s, m, 2) + sub(t.s, m, 3)
		out = append(out, Coord{Kind: UK, Country: "GB", BankCode: code, AccountLast4: t.accountAfter(m[1]), pos: m[0]})
	}
	return out
}

// findBR reads "Banco 341 Agência 1234 Conta 12345-6": a bank code, then a
// branch and an account within a line or two.
func findBR(t *text) []Coord {
	var out []Coord
	for _, m := range t.matches(brBankRe) {
		end := min(m[1]+160, len(t.s))
		rest := t.s[m[1]:end]
		ag := brAgRe.FindStringSubmatchIndex(rest)
		if ag == nil {
			continue
		}
		acct := t.accountAfter(m[1] + ag[1])
		if acct == "" {
			continue
		}
		out = append(out, Coord{Kind: BRBank, Country: "BR", BankCode: sub(t.s, m, 1), Branch: sub(rest, ag, 1), AccountLast4: acct, pos: m[0]})
	}
	return out
}
