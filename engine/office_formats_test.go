package engine_test

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/report"
)

// TestOfficeFormatsThroughTheDoor: binary Office, OpenDocument and a
// default-password workbook come through Inspect and Metadata (so /inspect,
// /metadata and the CLI) as Office reports naming their format; a file
// with a real password stays encrypted; other compound files and ZIPs
// keep the 422.
func TestOfficeFormatsThroughTheDoor(t *testing.T) {
	dir := "office/testdata/legacy/"
	for file, format := range map[string]string{
		"genuine-libreoffice-invoice.doc": "doc",
		"genuine-libreoffice-invoice.xls": "xls",
		"genuine-libreoffice-invoice.odt": "odt",
		"genuine-libreoffice-invoice.ods": "ods",
		"genuine-libreoffice-invoice.odp": "odp",
		"default-password-invoice.xlsx":   "xlsx",
		"real-password-invoice.xlsx":      "ooxml-encrypted",
	} {
		data, err := os.ReadFile(dir + file)
		if err != nil {
			t.Fatal(err)
		}
		r, err := engine.Inspect(context.Background(), data, engine.Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if r.MediaType != report.MediaOffice || r.Office == nil || r.Office.Format != format {
			t.Errorf("%s: mediaType %s office %+v, want format %s", file, r.MediaType, r.Office, format)
		}
		if r.Summary.RiskBand != report.BandLow {
			t.Errorf("%s: band %s for a genuine file", file, r.Summary.RiskBand)
		}
		m, err := engine.Metadata(context.Background(), data, engine.Options{})
		if err != nil || m.MediaType != report.MediaOffice {
			t.Errorf("%s: metadata %v", file, err)
		}
	}
	// A compound file that is no Office document (no WordDocument,
	// Workbook or PowerPoint Document stream), an OpenDocument drawing.
	notOffice := [][]byte{
		append([]byte{0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, make([]byte, 2048)...),
		[]byte("PK\x03\x04 not an archive"),
	}
	for i, data := range notOffice {
		if _, err := engine.Inspect(context.Background(), data, engine.Options{}); !errors.Is(err, engine.ErrUnreadable) {
			t.Errorf("case %d: %v, want ErrUnreadable", i, err)
		}
	}
}
