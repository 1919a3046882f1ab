package httpapi

import (
	"bytes"
	"context"
	"fmt"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/internal/plans"
)

// personalStatement is a statement whose Producer, Creator, font name,
// custom Info key and page text carry a person's name, an amount and an
// account number, as licensed writers and in-house templates write them.
func personalStatement(n int) []byte {
	b := pdftest.OnePage(fmt.Sprintf("Johnathan Doe, net 12,345.67 EUR to DE89370400440532013000 (%d)", n))
	b.Set(pdftest.FontObj, "<< /Type /Font /Subtype /Type1 /BaseFont /ABCDEF+JohnathanDoe-Salary12345 /Encoding /WinAnsiEncoding >>")
	b.Set(6, "<< /Producer "+pdftest.Lit("Acrobat Distiller 9.0 for Johnathan Doe, net 12,345.67 EUR")+
		" /Creator "+pdftest.Lit("iText 7.1.0 (c)2000-2017 iText Group NV (Johnathan Doe Ltd; licensed version) DE89370400440532013000")+
		" /JohnathanDoe (DE89370400440532013000) >>")
	b.Trailer("/Root 1 0 R /Info 6 0 R")
	return b.Bytes()
}

// TestBaselineKeepsNoPersonalData: a profile trained on such files keeps
// the tools and the structure, and none of the name, the amount or the
// account number, in what the store holds and in what the API returns.
func TestBaselineKeepsNoPersonalData(t *testing.T) {
	e := newEnv(t, withBaselines)
	b, _, _ := signup(t, e, "acme@example.com", "correct horse battery")
	a, _ := e.store.AccountByEmail(context.Background(), "acme@example.com")
	if err := e.store.SetPlan(context.Background(), a.ID, plans.Team); err != nil {
		t.Fatal(err)
	}
	var files []filePart
	for i := range 5 {
		files = append(files, filePart{fmt.Sprintf("s%d.pdf", i), personalStatement(i)})
	}
	body, ct := trainingBody("acme-payroll", "Acme payroll", files...)
	code, got := b.train(t, body, ct)
	if code != 200 {
		t.Fatalf("train %d %v", code, got)
	}
	_, list := b.call(t, "GET", "/api/v1/baselines", nil)
	stored, err := e.store.Baseline(context.Background(), a.ID, "acme-payroll")
	if err != nil {
		t.Fatal(err)
	}
	for what, text := range map[string]string{"trained": fmt.Sprint(got), "listed": fmt.Sprint(list), "stored": string(stored.Profile)} {
		for _, secret := range []string{"Johnathan", "Doe", "Salary", "12,345", "12345", "345.67", "DE89", "532013000"} {
			if bytes.Contains([]byte(text), []byte(secret)) {
				t.Errorf("%s profile holds %q: %s", what, secret, text)
			}
		}
	}
	if !bytes.Contains(stored.Profile, []byte("Acrobat Distiller 9.0")) || !bytes.Contains(stored.Profile, []byte("iText 7.1.0")) {
		t.Fatalf("the tools were not kept: %s", stored.Profile)
	}
}
