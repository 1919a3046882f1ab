// Package compare relates a candidate PDF to an original: whether one is
// the other with revisions appended, and otherwise how the two files differ
// in structure and metadata. It states facts with severities, never a
// verdict, and renders no page, so nothing it says asserts an identical
// appearance. It is pure: two byte slices in, a report out.
package compare

import (
	"bytes"
	"context"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Relationships.
const (
	Identical  = "identical"
	Extends    = "candidate-extends-original"
	Truncates  = "candidate-truncates-original"
	Rewritten  = "rewritten"
	maxListLen = report.MaxArray
)

// Errors: ErrNotPDF names the field whose bytes are not a PDF (the API's
// 422 not_a_pdf); ErrDeadline is the time budget.
var (
	ErrNotPDF   = report.ErrUnreadable.Named("compare: not a PDF")
	ErrDeadline = report.ErrDeadline.Named("compare: analysis deadline exceeded")
)

// Report is the CompareReport of SPEC.md (docs/api.md has the full shape).
type Report struct {
	EngineVersion string              `json:"engineVersion"`
	Relationship  string              `json:"relationship"`
	Original      Side                `json:"original"`
	Candidate     Side                `json:"candidate"`
	Ancestry      *Ancestry           `json:"ancestry,omitempty"`
	Differences   *Differences        `json:"differences,omitempty"`
	PageText      *PageText           `json:"pageText,omitempty"`
	Findings      []Finding           `json:"findings"`
	UsageCaution  report.UsageCaution `json:"usageCaution"`
	Disclaimer    string              `json:"disclaimer"`
}

// Side is what the report says of one file.
type Side struct {
	SizeBytes int  `json:"sizeBytes"`
	Revisions int  `json:"revisions"`
	Pages     int  `json:"pages"`
	Encrypted bool `json:"encrypted"`
	Damaged   bool `json:"damaged"`
}

// Options of a comparison.
type Options struct {
	Budget int64 // decompression budget per file; 0 means the default
}

// Compare relates candidate to original. Both must be PDFs.
func Compare(ctx context.Context, original, candidate []byte, opt Options) (*Report, error) {
	o, oText, err := describe(ctx, original, opt)
	if err != nil {
		return nil, err
	}
	c, cText, err := describe(ctx, candidate, opt)
	if err != nil {
		return nil, err
	}
	r := &Report{
		EngineVersion: report.EngineVersion,
		Original:      side(o),
		Candidate:     side(c),
		Findings:      []Finding{},
		UsageCaution:  report.Caution(),
		Disclaimer:    Disclaimer,
	}
	switch {
	case bytes.Equal(original, candidate):
		r.Relationship = Identical
		r.add(find("identical-bytes"))
	case isPrefix(original, candidate):
		r.Relationship = Extends
		r.Ancestry = ancestry(o, c)
		r.ancestryFindings(false)
	case isPrefix(candidate, original):
		r.Relationship = Truncates
		r.Ancestry = ancestry(c, o)
		r.ancestryFindings(true)
	default:
		r.Relationship = Rewritten
		r.Differences = differences(o, c)
		r.differenceFindings()
	}
	if r.Relationship != Identical {
		r.PageText = pageText(oText, cText)
		r.textFindings()
		r.signatureFindings(o.Signatures, c.Signatures)
	}
	r.sortFindings()
	return r, nil
}

// Disclaimer is the constant English disclaimer of every comparison.
const Disclaimer = "This comparison lists structural and metadata facts about two files and the words " +
	"their pages show. No page is rendered, so it never asserts that the two look the same or different; " +
	"it is not a verdict on authenticity, and every difference can have a benign cause."

// describe reads one file's description and its pages' text from one
// parse.
func describe(ctx context.Context, data []byte, opt Options) (*pdf.Description, []pdf.PageRuns, error) {
	s := sniff.Sniff(data)
	if s.Format.Kind() != sniff.KindPDF {
		return nil, nil, ErrNotPDF
	}
	doc, err := pdf.Open(ctx, data, s.HeaderOffset, opt.Budget)
	if err != nil {
		return nil, nil, ErrDeadline
	}
	d, err := doc.Describe(ctx)
	if err != nil {
		return nil, nil, ErrDeadline
	}
	text, err := doc.PageText(ctx, maxTextPages)
	if err != nil {
		return nil, nil, ErrDeadline
	}
	return d, text, nil
}

func side(d *pdf.Description) Side {
	return Side{SizeBytes: d.Size, Revisions: len(d.RevisionEnds), Pages: len(d.Pages), Encrypted: d.Encrypted, Damaged: d.Damaged}
}

// isPrefix reports whether short is the beginning of long, allowing the
// short file's final end-of-line to differ (a writer appending an update
// may replace a lone CR or add a missing newline after %%EOF).
func isPrefix(short, long []byte) bool {
	if len(short) >= len(long) {
		return false
	}
	trimmed := bytes.TrimRight(short, "\r\n")
	if len(trimmed) == 0 || !bytes.HasPrefix(long, trimmed) {
		return false
	}
	// What follows the shared part in the longer file must start a new
	// revision after an end-of-line, not continue the same line.
	rest := long[len(trimmed):]
	return len(rest) > 0 && (rest[0] == '\r' || rest[0] == '\n')
}
