package paycoord

import "testing"

// Tax ids in the forms suppliers print them. The footers are shaped after
// real invoices' (a UK software vendor's "VAT Reg. No. GB724594615", a
// furniture maker's "VAT Reg. No. GB 706 8175 27", a publisher's "VAT reg.
// no. GB 574205546", French "N° TVA intracommunautaire", German
// "USt-IdNr.", Dutch "BTW-nummer", Swiss "MWST", Australian "ABN"); the
// numbers are the or made up, except the ATO's published example
// ABN and a public company's EIN.
func TestTaxIDForms(t *testing.T) {
	cases := []struct {
		name, text string
		want       Coord // zero: none
	}{
		// issue 36's three forms of one UK number: one key
		{"uk reg", "Calder & Finch Ltd, 4 Mill Lane, Leeds LS1 4AB\nVAT reg. GB 011886419\nInvoice INV-20431",
			Coord{Kind: GBVAT, Country: "GB", TaxID: "GB011886419"}},
		{"uk no spaced", "Registered in England No. 08123456  VAT No: GB 011 8864 19",
			Coord{Kind: GBVAT, Country: "GB", TaxID: "GB011886419"}},
		{"uk registration number", "VAT Registration Number: GB011886419", Coord{Kind: GBVAT, Country: "GB", TaxID: "GB011886419"}},
		{"uk reg no dotted", "Savoir Beds Limited, Registered in England No. 3395749\nVAT Reg. No. GB 706 8175 27<br>",
			Coord{Kind: GBVAT, Country: "GB", TaxID: "GB706817527"}},
		{"uk compact after address", "Thames Valley Park\nReading Berkshire RG6 1WG\nUK\nVAT Reg. No. GB724594615\n\nSold To",
			Coord{Kind: GBVAT, Country: "GB", TaxID: "GB724594615"}},
		{"uk without prefix", "VAT Registration No. 011 8864 19", Coord{Kind: GBVAT, Country: "GB", TaxID: "GB011886419"}},
		{"uk branch 12 digits", "VAT No. GB 011 8864 19 001", Coord{Kind: GBVAT, Country: "GB", TaxID: "GB011886419001"}},
		{"uk government department", "VAT No: GBGD001", Coord{Kind: GBVAT, Country: "GB", TaxID: "GBGD001"}},
		{"northern ireland", "VAT: XI 174 9189 64", Coord{Kind: EUVAT, Country: "XI", TaxID: "XI174918964"}},
		{"de spaced", "USt-IdNr.: DE 136 695 976 · Steuernummer 143/123/45678", Coord{Kind: EUVAT, Country: "DE", TaxID: "DE136695976"}},
		{"fr intracom", "N° TVA intracommunautaire : FR 40 303 265 045", Coord{Kind: EUVAT, Country: "FR", TaxID: "FR40303265045"}},
		{"nl dotted", "KvK 12345678 BTW-nummer: NL 8057.23.578.B01", Coord{Kind: EUVAT, Country: "NL", TaxID: "NL805723578B01"}},
		{"it partita iva", "P.IVA IT 01234567890", Coord{Kind: EUVAT, Country: "IT", TaxID: "IT01234567890"}},
		{"at uid", "UID-Nr.: ATU 12345678", Coord{Kind: EUVAT, Country: "AT", TaxID: "ATU12345678"}},
		{"ch uid", "MWST-Nr. CHE-116.281.710 MWST", Coord{Kind: CHUID, Country: "CH", TaxID: "CHE116281710"}},
		{"abn", "Tax Invoice  ABN 51 824 753 556", Coord{Kind: ABN, Country: "AU", TaxID: "51824753556"}},
		{"ein federal tax id", "Federal Tax ID: 91-1144442", Coord{Kind: EIN, Country: "US", TaxID: "91-1144442"}},

		{"uk no label", "Company No. 011 8864 19", Coord{}},
		{"vat rate not an id", "VAT 20% on 1,234.00 GB 2026", Coord{}},
		{"de wrong length", "USt-IdNr.: DE 136 695 97", Coord{}},
		{"abn bad check", "ABN 51 824 753 557", Coord{}},
		{"word after number not joined", "VAT DE136695976 IBAN", Coord{Kind: EUVAT, Country: "DE", TaxID: "DE136695976"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Extract(c.text)
			if c.want == (Coord{}) {
				if len(r.TaxIDs) != 0 {
					t.Fatalf("found %+v", r.TaxIDs)
				}
				return
			}
			if len(r.TaxIDs) != 1 || r.TaxIDs[0] != c.want {
				t.Fatalf("got %+v, want %+v", r.TaxIDs, c.want)
			}
		})
	}
}

func FuzzVATGroups(f *testing.F) {
	for _, s := range []string{"VAT No: GB 011 8864 19", "BTW-nummer: NL 8057.23.578.B01", "MWST-Nr. CHE-116.281.710 MWST",
		"VAT Registration No. 011 8864 19", "ABN 51 824 753 556", "VAT Reg. No. GB 706 8175 27<br>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range Extract(s).TaxIDs {
			if len(c.TaxID) > 20 {
				t.Fatalf("tax id longer than any shape: %+v", c)
			}
		}
	})
}
