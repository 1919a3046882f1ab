package metadata

import (
	"context"

	"github.com/doctrust/doctrust/engine/office"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// office lists an Office package: core, application and custom
// properties, then every embedded image as if it were uploaded alone, its
// containers marked with its part name. Binary .doc/.xls/.ppt list their
// property sets (SummaryInformation, DocumentSummaryInformation) and ODF
// its meta.xml under the same container names; Parts counts a compound
// file's streams.
func (b *builder) office(ctx context.Context, data []byte, format sniff.Format, opt Options) error {
	var l *office.Listing
	switch format {
	case sniff.DOC, sniff.XLS, sniff.PPT:
		l = office.ListLegacy(ctx, data, format, opt.Budget)
	case sniff.ODT, sniff.ODS, sniff.ODP:
		l = office.ListODF(ctx, data, opt.Budget)
	default:
		l = office.List(ctx, data, opt.Budget)
	}
	f := b.container("File")
	f.add("FileType", fileType(format), "", "")
	f.add("Parts", itoa(l.Parts), "", "")
	for _, group := range []struct {
		name  string
		props []office.Property
	}{{"Core", l.Core}, {"App", l.App}, {"Custom", l.Custom}} {
		if len(group.props) == 0 {
			continue
		}
		c := b.container(group.name)
		for _, p := range group.props {
			c.add(p.Name, p.Value, "", "")
		}
	}
	images := 0
	for name, part := range l.Images() {
		if images >= maxImageParts {
			b.r.ContainersTruncated = true
			break
		}
		s := sniff.Sniff(part)
		if s.Format.Kind() != sniff.KindImage {
			continue
		}
		images++
		b.part = name
		err := b.image(ctx, part, s.Format)
		b.part = ""
		if err != nil {
			return err
		}
	}
	f.add("ImageParts", itoa(images), "", "")
	b.structure(l.Structure())
	return nil
}

// encryptedOffice answers a password-protected package: a compound file
// whose parts are encrypted, so nothing but the fact is listed.
func (b *builder) encryptedOffice() error {
	f := b.container("File")
	f.add("FileType", "Encrypted OOXML", "", "")
	f.add("Encrypted", "Yes", "", "")
	b.note(report.Msg("office-structure-anomalies.encrypted-package", "format", report.Kind("Office Open XML")))
	return nil
}
