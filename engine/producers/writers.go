package producers

import "strings"

// A PDF writer opens its file with "%PDF-x.y" and, on the next line, a
// comment of high bytes that it chooses once and keeps from version to
// version. A file rewritten by another program (qpdf and pikepdf, MuPDF,
// pypdf or iText under pdftk) carries the rewriter's comment while its
// Info dictionary, kept as it was, still names the first writer. The
// tables hold the comment's first four high bytes in hex, as
// pdf.Habits.Header reads them.

// writerHeaders are the comments of generators that write a document
// from scratch and never rewrite other files under their own name.
var writerHeaders = map[string]string{
	"ReportLab":                "938c8b9e",
	"LibreOffice":              "c3a4c3bc",
	"Skia/PDF":                 "d3ebe9e1",
	"WeasyPrint":               "f09f96a4", // pydyf, WeasyPrint 53 and later
	"Ghostscript":              "c7ec8fa2",
	"Microsoft Word":           "b5b5b5b5",
	"Google Chrome / Chromium": "d3ebe9e1", // Skia, named as producer by some builds
}

// rewriterHeaders are the comments of the programs that rewrite PDFs.
// "âãÏÓ" is shared by pypdf, iText (pdftk), PDFBox's older releases and
// Acrobat; none of the writers above ever writes it.
var rewriterHeaders = map[string]string{
	"bff7a2fe": "qpdf / pikepdf",
	"c2b5c2b6": "PyMuPDF / MuPDF",
	"e2e3cfd3": "pypdf, iText or pdftk",
}

// WriterMismatch compares the writer a producer string names with the
// header comment the file carries (high: its first high bytes in hex). It
// returns the writer named and the rewriter whose comment the file has
// when every tool the producer names is a generator of known comment, the
// comment is a rewriter's, and it is none of theirs. A producer that names
// a rewriter itself ("LibreOffice; modified using iText") or a tool of
// unknown comment never mismatches.
func WriterMismatch(producer, high string) (writer, rewriter string, ok bool) {
	high = strings.ToLower(high)
	rewriter, ok = rewriterHeaders[high]
	if !ok {
		return "", "", false
	}
	tools := Match(producer)
	if len(tools) == 0 {
		return "", "", false
	}
	for _, t := range tools {
		h, known := writerHeaders[t.Name]
		if !known || h == high {
			return "", "", false
		}
	}
	return tools[0].Name, rewriter, true
}
