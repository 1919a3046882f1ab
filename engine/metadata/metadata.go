// Package metadata lists every metadata key a file carries, grouped by
// container: the MetadataReport of SPEC.md. It reuses the inspection's
// walkers (engine/pdf for the Info dictionary, XMP and structure,
// engine/image for the containers and the bounds-checked EXIF pre-pass,
// engine/office for the property parts and image parts) and adds the
// display layer: tag names, decoded enumerations and units, as exiftool
// shows them.
//
// Like the rest of the engine it is pure: no I/O, no clock, no mutable
// globals. Every list is capped (report.go); a hostile file yields what
// could be read and notes on the rest, never a panic.
package metadata

import (
	"context"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/office"
	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Errors of List; everything else is a report.
var (
	ErrUnreadable = report.ErrUnreadable.Named("metadata: not a readable format")
	ErrDeadline   = report.ErrDeadline.Named("metadata: deadline exceeded")
)

// Options tune a listing.
type Options struct {
	// Budget caps decompressed bytes (PDF streams, Office parts); 0 means
	// each format's default.
	Budget int64
}

// maxImageParts caps the embedded images of an Office package listed.
const maxImageParts = 64

// List lists the metadata of one file. The format is sniffed from the
// bytes; the context carries the deadline. A fault while listing is
// contained: the listing so far comes back with an analysis-fault note.
func List(ctx context.Context, data []byte, opt Options) (*Report, error) {
	return ListSource(ctx, Source{Data: data, Sniff: sniff.Sniff(data)}, opt)
}

// Source is a file its caller has already sniffed and, for a PDF, may
// have opened, so that a listing within a larger request reads it once.
type Source struct {
	Data  []byte
	Sniff sniff.Result
	// OpenPDF returns the document when Sniff found a PDF, opening it on
	// first call; nil opens it here under opt.Budget. It is called inside
	// the listing's fault containment.
	OpenPDF func() (*pdf.Document, error)
}

// ListSource lists the metadata of a sniffed file, as List.
func ListSource(ctx context.Context, src Source, opt Options) (rep *Report, err error) {
	if ctx.Err() != nil {
		return nil, ErrDeadline
	}
	data, s := src.Data, src.Sniff
	size := int64(len(data))
	var (
		b   *builder
		run func() error
	)
	switch s.Format.Kind() {
	case sniff.KindPDF:
		b = newBuilder(report.MediaPDF, string(s.Format), size)
		run = func() error { return b.pdf(ctx, data, s.HeaderOffset, src.OpenPDF, opt) }
	case sniff.KindOffice:
		b = newBuilder(report.MediaOffice, string(s.Format), size)
		run = func() error { return b.office(ctx, data, s.Format, opt) }
	case sniff.KindImage:
		b = newBuilder(report.MediaImage, string(s.Format), size)
		run = func() error { return b.image(ctx, data, s.Format) }
	default:
		if !office.IsEncryptedPackage(data) {
			return nil, ErrUnreadable
		}
		b = newBuilder(report.MediaOffice, office.EncryptedFormat, size)
		run = b.encryptedOffice
		// Excel's default password opens the package: its properties
		// are listed as if it were not encrypted, with a note.
		if plain := office.DecryptDefault(data, opt.Budget); plain != nil {
			if f := sniff.Sniff(plain).Format; f.Kind() == sniff.KindOffice && f.Walked() {
				b = newBuilder(report.MediaOffice, string(f), size)
				run = func() error {
					b.note(report.Msg("office-structure-anomalies.default-password"))
					return b.office(ctx, plain, f, opt)
				}
			}
		}
	}
	defer func() {
		// The panic value is dropped: it may quote document bytes.
		if recover() != nil {
			b.part = ""
			b.note(report.Msg("structure-warnings.analysis-fault", "families", 0))
			rep, err = b.finish(), nil
		}
	}()
	if err := run(); err != nil || ctx.Err() != nil {
		return nil, ErrDeadline
	}
	return b.finish(), nil
}

// fileType is the format as exiftool's FileType shows it.
func fileType(f sniff.Format) string { return strings.ToUpper(string(f)) }

func yesNo(v bool) string {
	if v {
		return "Yes"
	}
	return "No"
}

func itoa(n int) string { return strconv.Itoa(n) }
