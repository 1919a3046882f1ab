package office

import (
	"context"
	"strings"
)

// textParts are the parts whose text Text reads, by name prefix: Word's
// stories, Excel's shared strings and sheets, PowerPoint's slides. Each
// is an OOXML convention, so a package that renames them hides its text
// from this reader only.
var textParts = []string{
	"word/document", "word/header", "word/footer", "word/footnotes", "word/endnotes",
	"xl/sharedstrings", "xl/worksheets/", "ppt/slides/slide",
}

// Text returns up to maxBytes of the package's text for readers of payment
// coordinates: text elements (w:t, a:t, Excel's t) and Excel cell values
// other than shared-string indexes, one line per paragraph, cell or
// shared string. It reads the XML, not a rendering: hidden text is
// included. A hostile package gives what could be read; the walk stops at
// the context's end.
func Text(ctx context.Context, data []byte, maxBytes int) string {
	pkg := OpenPackage(data, DefaultBudget)
	var b strings.Builder
	for _, prefix := range textParts {
		for _, part := range pkg.Matching(prefix, ".xml") {
			if b.Len() >= maxBytes || ctx.Err() != nil {
				return cut(b.String(), maxBytes)
			}
			appendText(ctx, pkg.Read(part), &b, maxBytes)
		}
	}
	return cut(b.String(), maxBytes)
}

// appendText writes one part's text to b, stopping once b holds maxBytes.
func appendText(ctx context.Context, data []byte, b *strings.Builder, maxBytes int) {
	w := newWalker(ctx, data)
	inText, sharedIndex := false, false
	for k := w.next(); k != tokNone && b.Len() < maxBytes; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "t":
				inText = true
			case "v":
				inText = !sharedIndex
			case "c":
				typ, _ := w.attr("t")
				sharedIndex = typ == "s"
			case "tab":
				b.WriteByte('\t')
			case "br":
				b.WriteByte('\n')
			}
		case tokText:
			if inText {
				b.Write(w.text)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "t", "v":
				inText = false
			case "p", "c", "si":
				b.WriteByte('\n')
			}
		}
	}
}

// cut trims s to at most n bytes; a sequence cut in two is dropped.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
