package mcpserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// producerPDF writes a one-page PDF whose Info Producer is producer, with
// an XMP packet naming another producer (so the metadata-inconsistency
// evidence quotes the Info one too).
func producerPDF(t *testing.T, name, producer string) string {
	t.Helper()
	b := pdftest.OnePage("Invoice 2024-117")
	xmp := b.AddStream("<< /Type /Metadata /Subtype /XML >>", pdftest.XMP("<pdf:Producer>Microsoft Word for Microsoft 365</pdf:Producer>"))
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict(fmt.Sprintf("/Metadata %d 0 R", xmp)))
	info := b.Add("<< /Producer " + pdftest.Lit(producer) + " >>")
	b.Trailer(fmt.Sprintf("/Root %d 0 R /Info %d 0 R", pdftest.CatalogObj, info))
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestInjectedProducerNeverReachesTheAgent: an instruction in a PDF's
// Producer is not only in the injection evidence but in document.producer,
// the metadata evidence and compare's differences; the tools' structured
// results (which the agent reads) carry it nowhere.
func TestInjectedProducerNeverReachesTheAgent(t *testing.T) {
	url, key := serveWithKey(t, nil)
	cs := connect(t, &Client{BaseURL: url, APIKey: key})
	injected := producerPDF(t, "injected.pdf", "Acrobat Distiller 9.0 - "+payload)
	plain := producerPDF(t, "plain.pdf", "Microsoft Word for Microsoft 365")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"inspect_document", map[string]any{"path": injected}},
		{"check_redaction", map[string]any{"path": injected}},
		{"compare_documents", map[string]any{"original": plain, "candidate": injected}},
	} {
		text, whole, isErr := call(t, cs, c.tool, c.args)
		if isErr {
			t.Fatalf("%s: %s", c.tool, text)
		}
		if strings.Contains(whole, "ZQX7") || strings.Contains(strings.ToLower(whole), "previous instructions") {
			t.Errorf("%s passed the payload to the agent: %.2000s", c.tool, whole)
		}
	}
}
