package producers

import "strings"

// Redistilled is the tool Redistill reports: Ghostscript's pdfwrite
// rewriting a document that already was a PDF.
var Redistilled = Tool{Name: "Ghostscript pdfwrite (re-distill)", Class: ModifyLibrary}

// postScriptWriters are generation libraries that also print through
// PostScript, so a Ghostscript PDF naming them as creator may be a
// genuine PostScript print rather than a re-distill.
var postScriptWriters = map[string]bool{
	"Qt": true, "cairo": true, "dvips": true, "groff": true, "Matplotlib": true,
	"TeX / LaTeX": true, "Prince": true, "Antenna House Formatter": true, "Apache FOP": true,
}

// nativeCreators are creator values (whole, versions aside) that office
// suites write only from their own PDF export: LibreOffice's export names
// the module ("Writer", "Calc", "Impress", "Draw"), while its PostScript
// print names the suite.
var nativeCreators = []string{"writer", "calc", "impress", "draw"}

// Redistill reports whether a producer and creator pair says Ghostscript's
// pdfwrite rewrote a document that was already a PDF: the producer is
// Ghostscript and the creator is software that writes PDF itself (a PDF
// generation library, a browser's print to PDF, an office suite's own PDF
// export, or a PDF editor), not a PostScript print driver or application.
// Ghostscript copies the input's /Creator when it re-distills a PDF, so the
// pair survives the rewrite.
func Redistill(producer, creator string) bool {
	if !names(producer, "Ghostscript") || strings.TrimSpace(creator) == "" {
		return false
	}
	tools := Match(creator)
	for _, t := range tools {
		switch t.Class {
		case PrintDriver:
			if t.Name != "Google Chrome / Chromium" && t.Name != "Mozilla Firefox" {
				return false
			}
		case OfficeSuite, ReportGenerator, CoreSystem, Scanner, OCR:
			// These print through PostScript drivers routinely; only the
			// bare module names of LibreOffice's own export are native.
			c := normalise(creator)
			for _, n := range nativeCreators {
				if wholeValue(c, n) {
					return true
				}
			}
			return false
		case Library:
			if postScriptWriters[t.Name] {
				return false
			}
		}
	}
	return len(tools) > 0
}

// names reports whether s names the tool called name.
func names(s, name string) bool {
	for _, t := range Match(s) {
		if t.Name == name {
			return true
		}
	}
	return false
}
