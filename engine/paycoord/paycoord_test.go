package paycoord

import (
	"strings"
	"testing"
)

func TestExtract(t *testing.T) {
	cases := []struct {
		name, text string
		want       []Coord
	}{
		{"iban spaced", "Please pay to IBAN DE89 3704 0044 0532 0130 00 by Friday",
			[]Coord{{Kind: IBAN, Country: "DE", BankCode: "37040044", AccountLast4: "3000"}}},
		{"iban after a VAT number", "USt-IdNr. DE136695976 IBAN DE89 3704 0044 0532 0130 00",
			[]Coord{{Kind: IBAN, Country: "DE", BankCode: "37040044", AccountLast4: "3000"}, {Kind: EUVAT, Country: "DE", TaxID: "DE136695976"}}},
		{"iban compact GB", "IBAN: GB29NWBK60161331926819",
			[]Coord{{Kind: IBAN, Country: "GB", BankCode: "NWBK", Branch: "601613", AccountLast4: "6819"}}},
		{"iban bad checksum", "IBAN DE88 3704 0044 0532 0130 00", nil},
		{"bic", "SWIFT/BIC: DEUTDEFF500", []Coord{{Kind: BIC, Country: "DE", BankCode: "DEUTDEFF500"}}},
		{"bic unlabelled", "INVOICES PAYABLE", nil},
		{"aba", "Routing number 021000021, Account 123456789012",
			[]Coord{{Kind: ABA, Country: "US", BankCode: "021000021", AccountLast4: "9012"}}},
		{"aba bad checksum", "Routing 021000022", nil},
		{"uk", "Sort code 20-00-00 Account number 55779911",
			[]Coord{{Kind: UK, Country: "GB", BankCode: "200000", AccountLast4: "9911"}}},
		{"br bank", "Banco 341 Agência 1234 Conta corrente 12345-6",
			[]Coord{{Kind: BRBank, Country: "BR", BankCode: "341", Branch: "1234", AccountLast4: "3456"}}},
		{"boleto", "Linha digitável: 00190.00009 01234.567004 00000.000000 1 23450000010000",
			nil}, // filled below from a computed line
		{"pix email", "Chave PIX: financeiro@fornecedor.com.br",
			[]Coord{{Kind: PIX, Country: "BR", KeyLast4: "OMBR"}}},
		{"cnpj", "CNPJ 11.222.333/0001-81", []Coord{{Kind: CNPJ, Country: "BR", TaxID: "11222333000181"}}},
		{"cnpj bad", "CNPJ 11.222.333/0001-82", nil},
		{"cpf", "CPF: 529.982.247-25", []Coord{{Kind: CPF, Country: "BR", TaxID: "52998224725"}}},
		{"vat", "USt-IdNr.: DE136695976", []Coord{{Kind: EUVAT, Country: "DE", TaxID: "DE136695976"}}},
		{"ein", "EIN: 12-3456789", []Coord{{Kind: EIN, Country: "US", TaxID: "12-3456789"}}},
		{"ein bad prefix", "EIN: 00-3456789", nil},
	}
	for i := range cases {
		if cases[i].name == "boleto" {
			cases[i].text, cases[i].want = boletoCase()
		}
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Extract(c.text)
			got := append(append([]Coord{}, r.Accounts...), r.TaxIDs...)
			if len(got) != len(c.want) {
				t.Fatalf("got %+v, want %+v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("got %+v, want %+v", got[i], c.want[i])
				}
			}
		})
	}
}

// boletoCase builds a bank-slip line with correct field check digits.
func boletoCase() (string, []Coord) {
	f1, f2, f3 := "001900000", "0123456700", "0000000000"
	line := f1[:5] + "." + f1[5:] + string(mod10(f1)) + " " + f2[:5] + "." + f2[5:] + string(mod10(f2)) + " " +
		f3[:5] + "." + f3[5:] + string(mod10(f3)) + " 1 23450000010000"
	return "Linha digitável: " + line, []Coord{{Kind: Boleto, Country: "BR", BankCode: "001", KeyLast4: "0000"}}
}

func TestBoletoBadDigit(t *testing.T) {
	text, _ := boletoCase()
	bad := strings.Replace(text, "00190.", "00191.", 1)
	if r := Extract(bad); len(r.Accounts) != 0 {
		t.Fatalf("bad check digit accepted: %+v", r)
	}
}

func TestStableIgnoresBoletoAmount(t *testing.T) {
	a := Coord{Kind: Boleto, BankCode: "001", KeyLast4: "1000"}
	b := Coord{Kind: Boleto, BankCode: "001", KeyLast4: "2000"}
	if a.Stable() != b.Stable() {
		t.Fatal("a boleto's amount changed its stable form")
	}
}

func TestNoFullAccountInResult(t *testing.T) {
	r := Extract("IBAN DE89 3704 0044 0532 0130 00, Routing 021000021 Account 123456789012")
	for _, c := range r.Accounts {
		for _, v := range []string{c.BankCode, c.Branch, c.AccountLast4, c.KeyLast4} {
			if strings.Contains(v, "0532013000") || strings.Contains(v, "123456789012") {
				t.Fatalf("full account stored: %+v", c)
			}
		}
	}
}

func FuzzExtract(f *testing.F) {
	f.Add("IBAN DE89 3704 0044 0532 0130 00 BIC DEUTDEFF CNPJ 11.222.333/0001-81")
	f.Add("Routing 021000021 Account 1234 Sort code 20-00-00 Account 55779911")
	f.Add("Banco 341 Agência 1234 Conta 12345-6 Chave PIX +55 11 99999-0000")
	f.Fuzz(func(t *testing.T, s string) {
		r := Extract(s)
		if len(r.Accounts) > maxCoord || len(r.TaxIDs) > maxCoord {
			t.Fatal("over the cap")
		}
		for _, c := range r.Accounts {
			if len(c.AccountLast4) > 4 || len(c.KeyLast4) > 4 {
				t.Fatalf("more than four kept: %+v", c)
			}
		}
	})
}
