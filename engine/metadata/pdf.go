package metadata

import (
	"context"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/xmp"
)

// pdf lists a PDF: its structural facts (File), the whole Info
// dictionary including custom keys (Info), every XMP property (XMP) and
// the fonts its pages use (Fonts). open gives the document when the
// caller holds it; nil opens it here.
func (b *builder) pdf(ctx context.Context, data []byte, header int, open func() (*pdf.Document, error), opt Options) error {
	if open == nil {
		open = func() (*pdf.Document, error) { return pdf.Open(ctx, data, header, opt.Budget) }
	}
	doc, err := open()
	if err != nil {
		return ErrDeadline
	}
	fx, err := doc.ReadFacts(ctx)
	if err != nil {
		return ErrDeadline
	}
	f := b.container("File")
	f.add("FileType", "PDF", "", "")
	if fx.Version != "" {
		f.add("PDFVersion", fx.Version, "", "")
	}
	if fx.CatalogVersion != "" {
		f.add("CatalogVersion", fx.CatalogVersion, "", "")
	}
	f.add("Pages", itoa(fx.Pages), "", "")
	f.add("Revisions", itoa(fx.Revisions), "", "")
	f.add("Linearized", yesNo(fx.Linearized), "", "")
	f.add("Encrypted", yesNo(fx.Encrypted), "", "")
	if fx.Encryption != "" {
		f.add("Encryption", fx.Encryption, "", "")
	}
	f.add("Signatures", itoa(fx.Signatures), "", "")
	f.add("Fonts", itoa(fx.FontsTotal), "", "")
	if fx.HasInfo {
		c := b.container("Info")
		for _, e := range fx.Info {
			c.add(e.Key, e.Value, e.Raw, "")
		}
	}
	if fx.XMP != nil && len(fx.XMP.Props) > 0 {
		b.xmpParsed([]*xmp.Packet{fx.XMP})
	}
	if len(fx.Fonts) > 0 {
		c := b.container("Fonts")
		for _, font := range fx.Fonts {
			c.add(font.Name, fontValue(font), "", "")
		}
		c.truncated(fx.FontsTotal)
	}
	// The encrypted note of an inspection speaks of families not run; here
	// File says Encrypted and the Info strings say (encrypted).
	b.structure(fx.Structure, "structure-warnings.encrypted-content-not-analysed")
	return nil
}

func fontValue(f pdf.Font) string {
	kind := f.Subtype
	if kind == "" {
		kind = "unknown type"
	}
	switch {
	case f.Embedded && subset(f.Name):
		return kind + ", embedded subset"
	case f.Embedded:
		return kind + ", embedded"
	}
	return kind + ", not embedded"
}

// subset recognises the tag a subsetted font's name starts with: six
// capital letters and a plus sign (ABCDEF+Calibri).
func subset(name string) bool {
	if len(name) < 7 || name[6] != '+' {
		return false
	}
	for _, c := range name[:6] {
		if c < 'A' || c > 'Z' {
			return false
		}
	}
	return true
}
