package office

import (
	"context"
	"iter"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Property is one document property for the metadata listing. Name is
// prefixed as written ("dc:creator", "cp:lastModifiedBy"; app.xml elements
// carry no prefix); Value is the text, or a vector's items joined by ", ".
// Type is a custom property's value type (lpwstr, filetime, bool, i4 ...).
// Name and Value are attacker-authored.
type Property struct {
	Name, Value, Type string
}

// Listing is what the metadata listing (engine/metadata) reads from a
// package: the core, application and custom properties, and the image
// parts on demand.
type Listing struct {
	Core, App, Custom []Property
	Parts             int
	a                 *analysis
	lg                *legacy // set for a binary (compound-file) document
}

// imageExts are the extensions of parts that may carry EXIF or XMP. The
// extension only selects parts to read: the bytes are sniffed before any
// walker runs.
var imageExts = []string{"jpg", "jpeg", "jpe", "png", "webp", "tif", "tiff", "heic", "heif", "avif", "gif", "bmp"}

// List opens a package and reads its three property parts. budget <= 0
// means DefaultBudget. It never fails: an unreadable package gives an empty
// listing whose Structure says why.
func List(ctx context.Context, data []byte, budget int64) *Listing {
	a := &analysis{ctx: ctx, pkg: OpenPackage(data, budget)}
	var bad []string
	a.props, bad = readProps(ctx, a.pkg)
	a.malformed = append(a.malformed, bad...)
	l := &Listing{Parts: len(a.pkg.Parts), a: a}
	l.Core = listProps(a.props.core, true)
	l.App = listProps(a.props.app, false)
	for _, p := range a.props.custom {
		l.Custom = append(l.Custom, Property{Name: p.Name, Value: strings.TrimSpace(p.Value), Type: p.Prefix})
	}
	return l
}

func listProps(in []prop, prefixed bool) []Property {
	out := make([]Property, 0, len(in))
	for _, p := range in {
		name := p.Name
		if prefixed && p.Prefix != "" {
			name = p.Prefix + ":" + name
		}
		v := strings.TrimSpace(p.Value)
		if len(p.Items) > 0 {
			v = strings.Join(p.Items, ", ")
		}
		out = append(out, Property{Name: name, Value: v})
	}
	return out
}

// ListLegacy reads the property sets of a binary .doc, .xls or .ppt for the
// metadata listing, under the names List uses for core.xml and app.xml.
// Parts counts the compound file's streams; Images yields nothing.
func ListLegacy(ctx context.Context, data []byte, format sniff.Format, budget int64) *Listing {
	lg := openLegacy(ctx, data, format, budget)
	a := &analysis{ctx: ctx, props: lg.props, pkg: &Package{byName: map[string]*Part{}}}
	l := &Listing{a: a, lg: lg}
	if lg.f != nil {
		l.Parts = len(lg.f.Streams())
	}
	l.fill()
	return l
}

// ListODF reads an OpenDocument package's meta.xml for the metadata
// listing (initial creator as creator, dc:creator as last modified by, as
// the report does); Images yields its pictures.
func ListODF(ctx context.Context, data []byte, budget int64) *Listing {
	a := &analysis{ctx: ctx, pkg: OpenPackage(data, budget)}
	a.props = odfMeta(a, a.pkg.ReadName("meta.xml"))
	l := &Listing{Parts: len(a.pkg.Parts), a: a}
	l.fill()
	return l
}

func (l *Listing) fill() {
	l.Core = listProps(l.a.props.core, true)
	l.App = listProps(l.a.props.app, false)
	for _, p := range l.a.props.custom {
		l.Custom = append(l.Custom, Property{Name: p.Name, Value: strings.TrimSpace(p.Value), Type: p.Prefix})
	}
}

// Images yields the name and bytes of every part whose extension names an
// image format, in name order. Each part is read through the package
// reader, so MaxPartBytes and the package budget bound what is yielded; a
// part cut at a limit is yielded cut, and Structure reports it.
func (l *Listing) Images() iter.Seq2[string, []byte] { return l.a.imageParts() }

// imageParts yields the name and bytes of every part with an image
// extension, in name order, each read within the package reader's bounds.
func (a *analysis) imageParts() iter.Seq2[string, []byte] {
	return func(yield func(string, []byte) bool) {
		for _, p := range a.pkg.Matching("", "") {
			if a.ctx.Err() != nil {
				return
			}
			e := ext(p.Name)
			isImage := false
			for _, x := range imageExts {
				isImage = isImage || e == x
			}
			if !isImage {
				continue
			}
			if b := a.pkg.Read(p); len(b) > 0 && !yield(p.Name, b) {
				return
			}
		}
	}
}

// Structure is the office-structure-anomalies finding for what the listing
// read: the package checks and the property parts that were malformed.
// Call it after Images, so that parts cut at a limit are counted. Nil when
// nothing was wrong.
func (l *Listing) Structure() *report.Finding {
	ev := map[string]any{}
	var vs []report.Variant
	add := func(_ string, s report.Severity, m report.Message) {
		vs = append(vs, report.Variant{Severity: s, Message: m})
	}
	l.a.packageChecks(ev, add)
	l.a.malformedCheck(ev, add)
	if l.lg != nil {
		s := l.lg.structure()
		if s.Severity != report.Info {
			vs = append(vs, report.Variant{Severity: s.Severity, Message: s.Message})
		}
	}
	return report.Compose(report.FamilyOfficeStructureAnomalies, vs, ev)
}
