package engine

import (
	"context"
	"testing"

	"github.com/doctrust/doctrust/engine/baseline"
)

// FuzzIssuer: training observation and matching never panic or hang on
// any input, and a profile built from hostile strings either passes the
// privacy check or is refused with ErrRejected.
func FuzzIssuer(f *testing.F) {
	f.Add(producedBy("Acme Invoicer 2.0", 1))
	f.Add(producedBy("Prepared for jane@example.com 123456789012", 2))
	f.Add([]byte("%PDF-1.7\n1 0 obj<</Producer(x)>>endobj trailer<</Info 1 0 R>>"))
	f.Add([]byte("not a pdf"))
	p := baseline.New("acme", "")
	for i := range 5 {
		o, err := Observe(context.Background(), producedBy("Acme Invoicer 2.0", i), 0)
		if err != nil {
			f.Fatal(err)
		}
		p.Add(o)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if o, err := Observe(context.Background(), data, 1<<20); err == nil {
			q := baseline.New("x", "")
			q.Add(o)
			if err := q.Check(); err != nil && err != baseline.ErrRejected {
				t.Fatal(err)
			}
			q.Summaries()
		}
		rep, err := Inspect(context.Background(), data, Options{Issuer: &Issuer{Slug: "acme", Profile: p, Source: baseline.SourceCustomer}})
		if err == nil && rep.IssuerBaseline == nil {
			t.Fatal("issuer named, no block")
		}
	})
}
