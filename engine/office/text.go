package office

import (
	"context"
	"encoding/binary"
	"strings"

	"github.com/doctrust/doctrust/engine/internal/cfb"
	"github.com/doctrust/doctrust/engine/sniff"
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
//
// A binary Word document gives its text through the piece table, a
// PowerPoint file its text atoms, an OpenDocument package the text of
// content.xml; binary workbooks give "".
func Text(ctx context.Context, data []byte, maxBytes int) string {
	if cfb.Is(data) {
		switch sniff.Sniff(data).Format {
		case sniff.DOC:
			return cut(legacyWordText(data), maxBytes)
		case sniff.PPT:
			if f := cfb.Open(data, DefaultBudget); f != nil {
				if e := f.Lookup("PowerPoint Document"); e != nil && f.Lookup("EncryptedSummary") == nil {
					return cut(strings.ToValidUTF8(string(scanPPTRecords(f.Read(e, legacyStreamLimit), DefaultBudget).text), ""), maxBytes)
				}
			}
		}
		return ""
	}
	pkg := OpenPackage(data, DefaultBudget)
	if pkg.Lookup("mimetype") != nil && pkg.Lookup("content.xml") != nil {
		// OpenDocument: no OOXML part names, one content part.
		var b strings.Builder
		appendODFText(ctx, pkg.ReadName("content.xml"), &b, maxBytes)
		return cut(b.String(), maxBytes)
	}
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

// appendODFText writes the text of an ODF content.xml: every text node
// of the body, one line per paragraph, heading or cell.
func appendODFText(ctx context.Context, data []byte, b *strings.Builder, maxBytes int) {
	w := newWalker(ctx, data)
	inBody := false
	for k := w.next(); k != tokNone && b.Len() < maxBytes; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "body":
				inBody = true
			case "tab":
				b.WriteByte('\t')
			case "line-break":
				b.WriteByte('\n')
			case "s":
				b.WriteByte(' ')
			}
		case tokText:
			if inBody {
				b.Write(w.text)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "p", "h", "table-cell":
				b.WriteByte('\n')
			}
		}
	}
}

// legacyWordText is the text of a binary Word document's pieces, in
// piece order, with paragraph marks as line ends.
func legacyWordText(data []byte) string {
	f := cfb.Open(data, DefaultBudget)
	if f == nil {
		return ""
	}
	read := func(p string) []byte {
		if e := f.Lookup(p); e != nil && e.Type == cfb.TypeStream {
			return f.Read(e, legacyStreamLimit)
		}
		return nil
	}
	wd := read("WordDocument")
	fib, ok := parseFIB(wd)
	if !ok || len(wd) >= 12 && binary.LittleEndian.Uint16(wd[0x0A:])&0x0100 != 0 {
		return "" // unreadable or encrypted
	}
	pieces, ok := wordPieces(fib.span(33, read(fib.table)))
	if !ok {
		return ""
	}
	var b strings.Builder
	for _, p := range pieces {
		lo, hi := p.start, min(p.end, len(wd))
		if lo >= hi {
			continue
		}
		if p.compressed {
			b.WriteString(cp1252(wd[lo:hi]))
		} else {
			b.WriteString(utf16le(wd[lo : lo+(hi-lo)/2*2]))
		}
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\r' || r == 0x07 || r == 0x0B || r == 0x0C:
			return '\n'
		case r < 0x20 && r != '\t' && r != '\n':
			return -1
		}
		return r
	}, b.String())
}

// cut trims s to at most n bytes; a sequence cut in two is dropped.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "")
}
