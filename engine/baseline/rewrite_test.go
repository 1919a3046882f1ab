package baseline

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// tracesDir holds the full-save fixtures of scripts/fixtures/traces: real
// reportlab statements and the same files rewritten or edited by other
// tools.
const tracesDir = "../testdata/detection/traces"

func describeFile(t *testing.T, name string) Observation {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(tracesDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return Observe(describe(t, data))
}

// TestRewriteDiverges trains a profile on six genuine statements of one
// reportlab template and holds it against files the profile never saw:
// two more genuine statements and a three-page one stay below the
// threshold; the same statements rewritten by pikepdf and by pdftk (the
// Producer, the fonts, the pages and the text unchanged) and a PyMuPDF
// redact-and-retype each diverge past it, through the writer's habits.
func TestRewriteDiverges(t *testing.T) {
	p := New("northwind", "Northwind Savings Bank")
	for i := 1; i <= 6; i++ {
		p.Add(describeFile(t, "genuine-rl-statement-"+string(rune('0'+i))+".pdf"))
	}
	if err := p.Check(); err != nil {
		t.Fatalf("privacy check refused a habits-only profile: %v", err)
	}
	match := func(name string) Result {
		data, err := os.ReadFile(filepath.Join(tracesDir, name))
		if err != nil {
			t.Fatal(err)
		}
		return Match(p, describe(t, data))
	}
	for _, name := range []string{"genuine-rl-statement-7.pdf", "genuine-rl-statement-8.pdf", "genuine-rl-statement-3p.pdf"} {
		res := match(name)
		t.Logf("%-45s divergence %.3f %v", name, res.Divergence, res.MismatchedDimensions)
		if res.Finding != nil || res.Divergence >= FlagDivergence {
			t.Errorf("held-out genuine %s diverges %.3f: %v", name, res.Divergence, res.MismatchedDimensions)
		}
	}
	for _, tc := range []struct {
		name string
		// habits the rewrite must change whatever else it does
		habits []string
	}{
		{"forged-rewrite-pikepdf-rl-statement-7.pdf", []string{HeaderForm, ObjectOrder, ObjectSyntax}},
		{"forged-rewrite-pdftk-rl-statement-8.pdf", []string{HeaderForm, ObjectOrder, ObjectSyntax}},
		{"forged-redact-retype-rl-statement-7.pdf", []string{HeaderForm, ObjectSyntax, ContentOperators}},
		{"forged-pikepdf-unparse-rl-statement-4.pdf", []string{HeaderForm, ObjectSyntax}},
	} {
		res := match(tc.name)
		t.Logf("%-45s divergence %.3f %v", tc.name, res.Divergence, res.MismatchedDimensions)
		if res.Finding == nil || res.Finding.Family != "issuer-mismatch" || res.Divergence < FlagDivergence {
			t.Errorf("%s: divergence %.3f below %.1f: %v", tc.name, res.Divergence, FlagDivergence, res.MismatchedDimensions)
		}
		for _, h := range tc.habits {
			if !slices.Contains(res.MismatchedDimensions, h) {
				t.Errorf("%s: %s does not mismatch: %v", tc.name, h, res.MismatchedDimensions)
			}
		}
	}
}

// TestProducerAloneStillFlags: with the writer's habits learnt, a file of
// the issuer's own writer that names another Producer still diverges past
// the threshold on that dimension alone (the rule before the habits).
func TestProducerAloneStillFlags(t *testing.T) {
	b := pdftest.OnePage("Statement 77")
	b.Set(pdftest.PageObj, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595.28 841.89] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>")
	b.Set(pdftest.FontObj, "<< /Type /Font /Subtype /Type1 /BaseFont /QBCDEF+Helvetica >>")
	b.Set(6, "<< /Producer (Microsoft Word for Microsoft 365) /Creator (Acme Core Banking) /CreationDate (D:20240101000000Z) >>")
	b.Trailer("/Root 1 0 R /Info 6 0 R")
	b.XrefStream(pdftest.CatalogObj, pdftest.PagesObj, pdftest.PageObj, 6)
	res := Match(trained(t, 6), describe(t, b.Bytes()))
	if !slices.Equal(res.MismatchedDimensions, []string{Producers}) || res.Finding == nil {
		t.Fatalf("producer alone: divergence %.3f %v", res.Divergence, res.MismatchedDimensions)
	}
}
