package engine

import (
	"context"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Document is one document as a request reads it: its bytes sniffed once
// and, for a PDF, parsed once by the first reading that needs the file, so
// every reading of the request (the report, the issuer baseline, the text,
// the metadata listing) shares one sniff and one parse. Inspect, Text,
// Metadata and Observe are each a Document read once.
//
// A Document belongs to one request: it is not safe for concurrent use,
// and the PDF keeps the context of the reading that opened it (the
// request's).
type Document struct {
	data  []byte
	sniff sniff.Result
	pdf   *pdf.Document
	opens int
}

// Read sniffs data. Nothing is parsed until a reading asks for it.
func Read(data []byte) *Document {
	return &Document{data: data, sniff: sniff.Sniff(data)}
}

// Kind is the family of formats the sniff found (sniff.KindNone for bytes
// no reader takes, an encrypted Office package included).
func (d *Document) Kind() sniff.Kind { return d.sniff.Format.Kind() }

// PDFOpens is how many times the PDF was parsed: one at most once any
// reading has succeeded. It exists for the tests that hold a request to
// one parse.
func (d *Document) PDFOpens() int { return d.opens }

// openPDF parses the PDF on first need. budget is the decompression budget
// of each reading (pdf.Open); the first reading's wins. A reading that
// reports structure warnings or cost (the report, the metadata listing)
// asks for first: it is exact only as the parse's first reading
// (pdf.Document.Readings), so if another reading came before, it gets a
// parse of its own. Every flow of the service reads the report first, so
// this second parse happens only to a caller that orders readings
// otherwise.
func (d *Document) openPDF(ctx context.Context, budget int64, first bool) (*pdf.Document, error) {
	if d.pdf != nil && (!first || d.pdf.Readings() == 0) {
		return d.pdf, nil
	}
	p, err := pdf.Open(ctx, d.data, d.sniff.HeaderOffset, budget)
	d.opens++
	if err != nil {
		return nil, ErrDeadline
	}
	if d.pdf == nil {
		d.pdf = p
	}
	return p, nil
}
