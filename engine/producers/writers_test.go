package producers

import "testing"

func TestWriterMismatch(t *testing.T) {
	cases := []struct {
		producer, high string
		want           bool
		writer         string
	}{
		{"ReportLab PDF Library - www.reportlab.com", "bff7a2fe", true, "ReportLab"},
		{"LibreOffice 7.4", "c2b5c2b6", true, "LibreOffice"},
		{"Skia/PDF m156", "e2e3cfd3", true, "Skia/PDF"},
		{"ReportLab PDF Library - www.reportlab.com", "938c8b9e", false, ""}, // its own comment
		{"LibreOffice 7.4", "c3a4c3bc", false, ""},
		{"LibreOffice 6.3; modified using iText 7.2.2", "e2e3cfd3", false, ""}, // the rewriter is named
		{"pikepdf 8.0", "bff7a2fe", false, ""},                                 // a rewriter as producer is an editor, not a mismatch
		{"Acme Statement Engine 4", "bff7a2fe", false, ""},                     // unknown writer
		{"LibreOffice 7.4", "b5edaefb", false, ""},                             // not a rewriter's comment
		{"", "bff7a2fe", false, ""},
	}
	for _, c := range cases {
		w, _, ok := WriterMismatch(c.producer, c.high)
		if ok != c.want || w != c.writer {
			t.Errorf("WriterMismatch(%q, %q) = %q, %v; want %q, %v", c.producer, c.high, w, ok, c.writer, c.want)
		}
	}
}
