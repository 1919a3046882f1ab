// Package paycoord finds payment coordinates in document text: IBAN, BIC,
// US routing and account, UK sort code and account, Brazilian bank,
// branch and account, boleto digitable lines, PIX keys and beneficiary tax
// ids. Every candidate with a check digit is kept only when it verifies.
// What it returns is the stored form of the supplier ledger: bank code,
// branch, the last four digits of an account or payment key and the tax
// id; never a full account number.
package paycoord

import (
	"sort"
	"strings"
)

// Kind names a coordinate kind.
type Kind string

// Coordinate kinds.
const (
	IBAN     Kind = "iban"
	BIC      Kind = "bic"
	ABA      Kind = "us-aba"
	UK       Kind = "uk-sort-code"
	BRBank   Kind = "br-bank"
	Boleto   Kind = "boleto"
	PIX      Kind = "pix"
	CNPJ     Kind = "cnpj"
	CPF      Kind = "cpf"
	EUVAT    Kind = "eu-vat"
	EIN      Kind = "us-ein"
	GBVAT    Kind = "gb-vat"
	CHUID    Kind = "ch-uid"
	ABN      Kind = "au-abn"
	maxCoord      = 50
	// MaxText bounds the text one call reads.
	MaxText = 1 << 20
)

// Coord is one payment coordinate in its stored form.
type Coord struct {
	Kind Kind `json:"kind"`
	// Country is the ISO 3166 code when the kind tells it.
	Country  string `json:"country,omitempty"`
	BankCode string `json:"bankCode,omitempty"`
	Branch   string `json:"branch,omitempty"`
	// AccountLast4 is the last four digits or characters of the account.
	AccountLast4 string `json:"accountLast4,omitempty"`
	// KeyLast4 is the last four characters of a payment key (PIX key,
	// boleto line).
	KeyLast4 string `json:"keyLast4,omitempty"`
	// TaxID is a beneficiary tax id, normalised (digits, VAT with its
	// country prefix).
	TaxID string `json:"taxId,omitempty"`
	pos   int
}

// Stable is the part of a coordinate that identifies where money goes; a
// change of it is a change of coordinates. A boleto line carries amount
// and due date, so only its bank counts.
func (c Coord) Stable() string {
	switch c.Kind {
	case Boleto:
		return string(c.Kind) + "|" + c.BankCode
	case BIC:
		return ""
	}
	return strings.Join([]string{string(c.Kind), c.Country, c.BankCode, c.Branch, c.AccountLast4, c.KeyLast4, c.TaxID}, "|")
}

// Result is what one text yields.
type Result struct {
	// Accounts are the coordinates money is paid to (every kind but the
	// tax ids), in text order.
	Accounts []Coord `json:"accounts"`
	// TaxIDs are tax ids in text order; the first is taken as the
	// beneficiary's.
	TaxIDs []Coord `json:"taxIds"`
}

// Beneficiary returns the first tax id, or "".
func (r Result) Beneficiary() string {
	if len(r.TaxIDs) == 0 {
		return ""
	}
	return r.TaxIDs[0].TaxID
}

// Empty reports a text with no coordinate and no tax id.
func (r Result) Empty() bool { return len(r.Accounts) == 0 && len(r.TaxIDs) == 0 }

// Extract finds the coordinates in text (at most MaxText bytes are read).
func Extract(text string) Result {
	if len(text) > MaxText {
		text = text[:MaxText]
	}
	t := newText(text)
	var all []Coord
	for _, find := range finders {
		all = append(all, find(t)...)
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].pos < all[j].pos })
	var r Result
	seen := map[Coord]bool{}
	for _, c := range all {
		c.pos = 0
		if seen[c] {
			continue
		}
		seen[c] = true
		switch c.Kind {
		case CNPJ, CPF, EUVAT, EIN, GBVAT, CHUID, ABN:
			if len(r.TaxIDs) < maxCoord {
				r.TaxIDs = append(r.TaxIDs, c)
			}
		default:
			if len(r.Accounts) < maxCoord {
				r.Accounts = append(r.Accounts, c)
			}
		}
	}
	return r
}

var finders = []func(*text) []Coord{
	findIBAN, findBIC, findABA, findUK, findBR, findBoleto, findPIX, findBRTax, findVAT, findUKVAT, findEIN, findABN,
}

// last4 returns the last four characters of s.
func last4(s string) string {
	if len(s) <= 4 {
		return s
	}
	return s[len(s)-4:]
}
