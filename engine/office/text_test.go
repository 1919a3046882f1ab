package office

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/paycoord"
)

// TestTextCarriesPaymentCoordinates: an IBAN split across Word runs, in a
// footer, in an Excel shared string or inline cell, or on a slide is read
// whole; shared-string indexes are not read as numbers.
func TestTextCarriesPaymentCoordinates(t *testing.T) {
	ctx := context.Background()
	footer := entry{"word/footer1.xml", `<w:ftr ` + nsW + `><w:p><w:r><w:t>USt-IdNr. DE136695976</w:t></w:r></w:p></w:ftr>`}
	doc := docx(t, ctDocx, `<w:p><w:r><w:t>Bank</w:t></w:r><w:r><w:tab/><w:t>IBAN DE89 3704 </w:t></w:r><w:r><w:t>0044 0532 0130 00</w:t></w:r></w:p>`, footer)
	sheet := xlsx(t, `<sheet name="Invoice" r:id="rId1"/>`,
		`<sheetData><row><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>IBAN GB29 NWBK 6016 1331 9268 19</t></is></c><c r="C1"><v>4711</v></c></row></sheetData>`)
	slides := pptx(t, `<p:sld xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree><p:sp><p:txBody><a:p><a:r><a:t>IBAN DE89 3704 0044 0532 0130 00</a:t></a:r></a:p></p:txBody></p:sp></p:spTree></p:cSld></p:sld>`)
	for name, c := range map[string]struct {
		data []byte
		last []string // the accounts' last four, in order
		text []string
	}{
		"docx": {doc, []string{"3000"}, []string{"Bank\tIBAN DE89 3704 0044 0532 0130 00\n", "DE136695976"}},
		"xlsx": {sheet, []string{"6819"}, []string{"hidden payroll\n", "4711\n"}},
		"pptx": {slides, []string{"3000"}, nil},
	} {
		text := Text(ctx, c.data, 1<<16)
		for _, want := range c.text {
			if !strings.Contains(text, want) {
				t.Errorf("%s: %q lacks %q", name, text, want)
			}
		}
		if name == "xlsx" && strings.Contains(text, "0\n") {
			t.Errorf("xlsx: a shared-string index was read: %q", text)
		}
		got := paycoord.Extract(text)
		var last []string
		for _, a := range got.Accounts {
			if a.AccountLast4 != "" {
				last = append(last, a.AccountLast4)
			}
		}
		if strings.Join(last, ",") != strings.Join(c.last, ",") {
			t.Errorf("%s: accounts %+v from %q", name, got.Accounts, text)
		}
	}
	if got := paycoord.Extract(Text(ctx, doc, 1<<16)).Beneficiary(); got != "DE136695976" {
		t.Errorf("docx footer tax id: %q", got)
	}
}

// TestTextBounded: the cap holds without splitting a character, and a
// file that is no package gives nothing.
func TestTextBounded(t *testing.T) {
	doc := docx(t, ctDocx, `<w:p><w:r><w:t>`+strings.Repeat("é", 5000)+`</w:t></w:r></w:p>`)
	text := Text(context.Background(), doc, 1001)
	if len(text) > 1001 || !utf8.ValidString(text) || len(text) < 990 {
		t.Fatalf("%d bytes, valid %v", len(text), utf8.ValidString(text))
	}
	if Text(context.Background(), []byte("PK\x03\x04 not a zip"), 100) != "" {
		t.Fatal("text from a broken package")
	}
}

// TestTextLegacyAndODF: the ledger's text reader reads a binary Word
// document through its piece table and an OpenDocument text's content.xml.
func TestTextLegacyAndODF(t *testing.T) {
	for _, name := range []string{"legacy/genuine-libreoffice-invoice.doc", "legacy/genuine-libreoffice-invoice.odt"} {
		got := Text(context.Background(), readTestdata(t, name), 4096)
		if !strings.Contains(got, "Supplier: Example Trading Ltd") || !strings.Contains(got, "1,250.00 EUR") {
			t.Errorf("%s: text %q", name, got)
		}
	}
	if got := Text(context.Background(), readTestdata(t, "legacy/genuine-libreoffice-invoice.xls"), 4096); got != "" {
		t.Errorf("xls text %q", got)
	}
}
