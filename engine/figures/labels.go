package figures

import "strings"

// role is what a row's label says its figures are.
type role int

const (
	plain   role = iota // a transaction, an invoice line, an earning
	forward             // brought or carried forward: a running figure, no transaction
	opening
	closing
	moneyIn
	moneyOut
	subtotal
	tax
	shipping
	discount
	total
	paid
	due
	gross
	deductions
	net
	sum // another total: "Totals", "Page total", "Summe"
)

// phrases map label phrases, in the languages statements, invoices and
// payslips are commonly printed in, to roles. The first matching entry
// wins, so the specific phrases come before the words they contain
// ("total deductions" before "total", "sub total" before "total").
var phrases = []struct {
	role  role
	words []string
}{}

func init() {
	add := func(r role, list ...string) {
		for _, p := range list {
			phrases = append(phrases, struct {
				role  role
				words []string
			}{r, strings.Fields(p)})
		}
	}
	add(forward, "brought forward", "carried forward", "balance forward", "b f", "c f", "übertrag", "vortrag",
		"à reporter", "report à nouveau", "reporté", "suma y sigue", "riporto")
	add(opening, "opening balance", "previous balance", "starting balance", "beginning balance", "balance at start",
		"start balance", "anfangssaldo", "alter saldo", "saldo anterior", "saldo inicial", "solde précédent",
		"ancien solde", "solde initial", "solde de début", "beginsaldo", "saldo iniziale", "saldo precedente")
	add(closing, "closing balance", "new balance", "ending balance", "balance at end", "final balance", "end balance",
		"endsaldo", "neuer saldo", "saldo final", "nouveau solde", "solde final", "solde de fin", "eindsaldo",
		"saldo finale")
	add(deductions, "total deductions", "deductions total", "summe abzüge", "gesamtabzüge", "abzüge",
		"total des retenues", "total retenues", "total deducciones", "totaal inhoudingen", "deductions")
	add(gross, "gross pay", "gross earnings", "total gross", "gross salary", "total earnings", "gesamtbrutto",
		"bruttolohn", "bruttobezug", "brutto", "salaire brut", "total brut", "salario bruto", "brutoloon", "gross")
	add(net, "net pay", "net salary", "net wages", "take home pay", "nettolohn", "auszahlungsbetrag",
		"net à payer", "salaire net", "líquido a percibir", "salario neto", "nettoloon", "netto")
	add(moneyIn, "money in", "paid in", "total credits", "total deposits", "deposits and credits",
		"total paid in", "total in", "summe gutschriften", "gutschriften", "total créditos", "total crédits",
		"totaal bij", "total entrate")
	add(moneyOut, "money out", "paid out", "total debits", "total withdrawals", "withdrawals and debits",
		"total paid out", "total out", "summe lastschriften", "lastschriften", "belastungen", "total débitos",
		"total débits", "totaal af", "total uscite")
	add(tax, "total tax", "total vat", "vat total", "tax total", "vat amount", "tax amount", "total gst", "gst total")
	add(subtotal, "sub total", "subtotal", "net total", "total net", "total excl", "total excluding",
		"total before tax", "amount before tax", "zwischensumme", "nettobetrag", "summe netto", "netto summe",
		"gesamt netto", "sous total", "total ht", "montant ht", "base imponible", "subtotaal", "imponibile",
		"totale imponibile")
	add(due, "amount due", "balance due", "total due", "due", "to pay", "zu zahlen", "zahlbetrag",
		"à payer", "a pagar", "te betalen", "da pagare", "restbetrag")
	add(paid, "amount paid", "paid", "payment received", "payments received", "less payments", "deposit paid",
		"bezahlt", "anzahlung", "déjà payé", "payé", "pagado", "betaald", "pagato")
	add(total, "grand total", "invoice total", "total incl", "total including", "total inc", "total amount",
		"gesamtbetrag", "rechnungsbetrag", "bruttobetrag", "gesamt brutto", "summe brutto", "total ttc",
		"montant ttc", "montant total", "importe total", "totaal", "totale", "total")
	add(tax, "vat", "tax", "gst", "hst", "pst", "sales tax", "mwst", "ust", "umsatzsteuer", "mehrwertsteuer",
		"tva", "iva", "btw", "igst", "cgst", "sgst")
	add(shipping, "shipping", "delivery", "freight", "postage", "carriage", "versand", "versandkosten",
		"frais de port", "livraison", "envío", "envio", "verzendkosten", "spedizione")
	add(discount, "discount", "rabatt", "nachlass", "remise", "descuento", "korting", "sconto", "rebate")
	add(sum, "totals", "page total", "summe", "gesamt", "somme", "suma")
	indexPhrases()
}

// minCutWord is the shortest cut word read as the start of a phrase's.
const minCutWord = 4

// phraseIndex lists the phrases by their first word, and the one-word
// phrases a cut last word may start, each list in the phrases' order:
// every row of a document is classified, and trying all the phrases at
// every word was a quarter of a check.
type phraseIndex struct {
	byFirst map[string][]int
	single  []int
}

// labels is built once with the phrases, and only read after.
var labels phraseIndex

func indexPhrases() {
	labels = phraseIndex{byFirst: map[string][]int{}}
	for i, p := range phrases {
		labels.byFirst[p.words[0]] = append(labels.byFirst[p.words[0]], i)
		if len(p.words) == 1 {
			labels.single = append(labels.single, i)
		}
	}
}

// classify gives a row's role from its label words: the role of the first
// phrase, in the phrases' order, found anywhere among them.
func classify(words []string) role {
	if len(words) == 0 || len(words) > 12 {
		return plain // a sentence, not a label
	}
	ix := labels
	best := len(phrases)
	for i, w := range words {
		for _, p := range ix.byFirst[w] {
			if p >= best {
				break
			}
			if phraseAt(words, i, phrases[p].words) {
				best = p
				break
			}
		}
	}
	if last := words[len(words)-1]; len(last) >= minCutWord {
		for _, p := range ix.single {
			if p >= best {
				break
			}
			if strings.HasPrefix(phrases[p].words[0], last) {
				best = p
				break
			}
		}
	}
	if best == len(phrases) {
		return plain
	}
	return phrases[best].role
}

// phraseAt reports the phrase at word i. It also takes a label cut short
// at its end ("Total deduc", a spreadsheet cell too narrow for its text,
// exported as it shows): the label's last word may be the start, four
// letters or more, of the phrase's last word.
func phraseAt(words []string, i int, phrase []string) bool {
	if i+len(phrase) > len(words) {
		return false
	}
	for j, w := range phrase {
		if words[i+j] == w {
			continue
		}
		if last := i+j == len(words)-1 && j == len(phrase)-1; !last || len(words[i+j]) < minCutWord || !strings.HasPrefix(w, words[i+j]) {
			return false
		}
	}
	return true
}
