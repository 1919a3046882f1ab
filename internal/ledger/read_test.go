package ledger

import (
	"context"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// TestAttachmentParsedOnce: an attachment's report and its text come from
// one parse of the PDF (issue 29), and the text still reaches the
// coordinates reader.
func TestAttachmentParsedOnce(t *testing.T) {
	doc := engine.Read(pdftest.OnePage("USt-IdNr. DE136695976 IBAN DE89370400440532013000").Bytes())
	l := &Ledger{}
	d, ok := l.readDocument(context.Background(), doc)
	if !ok {
		t.Fatal("the attachment was not read")
	}
	if n := doc.PDFOpens(); n != 1 {
		t.Errorf("the attachment was parsed %d times, want 1", n)
	}
	if len(d.coords.Accounts) == 0 {
		t.Error("no payment coordinates read from the attachment's text")
	}
}
