package producers

import "testing"

func TestRedistill(t *testing.T) {
	gs := "GPL Ghostscript 10.00.0"
	cases := []struct {
		producer, creator string
		want              bool
	}{
		// Re-distills: the creator wrote PDF itself.
		{gs, "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36", true},
		{gs, "Writer", true},
		{gs, "Calc 7.4", true},
		{gs, "ReportLab PDF Library - www.reportlab.com", true},
		{gs, "WeasyPrint 70.0", true},
		{gs, "pdfTeX-1.40.25", true},
		{gs, "Draw", true},
		{"GPL Ghostscript 9.54.0", "iLovePDF", true},
		// PostScript prints: the creator is a print path or prints via PS.
		{gs, "PScript5.dll Version 5.2.2", false},
		{gs, "Microsoft Word - statement.docx", false},
		{gs, "dvips(k) 2023.1 Copyright 2023 Radical Eye Software", false},
		{gs, "LaTeX with hyperref", false},
		{gs, "cairo 1.16.0 (https://cairographics.org)", false},
		{gs, "PDFCreator 2.3", false},
		{gs, "statement-printer", false},
		{gs, "", false},
		// Not Ghostscript.
		{"Skia/PDF m120", "HeadlessChrome", false},
		{"LibreOffice 7.4", "Writer", false},
	}
	for _, c := range cases {
		if got := Redistill(c.producer, c.creator); got != c.want {
			t.Errorf("Redistill(%q, %q) = %v, want %v", c.producer, c.creator, got, c.want)
		}
	}
}

func TestExifToolIsAnEditor(t *testing.T) {
	for _, v := range []string{"Image::ExifTool 12.57", "ExifTool"} {
		got := Match(v)
		if len(got) != 1 || got[0].Name != "ExifTool" || !got[0].Class.IsEditor() {
			t.Errorf("Match(%q) = %v, want the ExifTool editor", v, got)
		}
	}
}
