package pdf

import (
	"context"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/xmp"
)

// Limits of the metadata facts walk.
const (
	maxFonts      = 2000 // font dictionaries listed
	maxFontNodes  = 20000
	maxXObjDepth  = 8
	maxRenderLen  = 512 // characters of a rendered non-text Info value
	maxRenderObjs = 64  // objects rendered inside one array or dictionary value
)

// Facts is what a metadata listing reads from a PDF: the document-level
// facts, every Info entry, the flattened XMP packet and the fonts the
// pages use. It is read by the same walk as an inspection (file, document
// block, structure warnings) without the content walk or the families.
type Facts struct {
	// Version is the header's version ("1.7"); CatalogVersion the
	// catalogue's /Version, which overrides it; "" when absent.
	Version, CatalogVersion string
	Pages                   int
	Revisions               int
	Linearized              bool
	Encrypted               bool
	// Encryption summarises the /Encrypt dictionary: handler, algorithm
	// version and revision, key length.
	Encryption string
	Signatures int
	HasInfo    bool
	Info       []InfoEntry
	XMP        *xmp.Packet
	Fonts      []Font
	FontsTotal int
	// Structure is the structure-warnings finding an inspection would
	// raise, nil when the file parsed cleanly.
	Structure *report.Finding
}

// InfoEntry is one Info dictionary entry. Key and Value are
// attacker-authored. Raw is the stored form when Value is a decoded date.
type InfoEntry struct {
	Key, Value, Raw string
}

// Font is one font dictionary named by a page or form resource.
type Font struct {
	Name     string // /BaseFont as stored (attacker-authored)
	Subtype  string
	Embedded bool
}

// ReadFacts opens a PDF and reads its facts. header is the offset of
// "%PDF" (-1 when absent). Its only error is ErrDeadline.
func ReadFacts(ctx context.Context, data []byte, header int, budget int64) (*Facts, error) {
	d, err := Open(ctx, data, header, budget)
	if err != nil {
		return nil, err
	}
	return d.ReadFacts(ctx)
}

// ReadFacts reads the document's facts. Its only error is ErrDeadline.
func (d *Document) ReadFacts(ctx context.Context) (*Facts, error) {
	a := d.reading(Options{Triage: true}, d.limit)
	f := a.f
	fx := &Facts{
		Version:    headerVersion(f),
		Pages:      d.block.Pages,
		Revisions:  len(f.Revisions),
		Linearized: f.Linearized,
		Encrypted:  f.Encrypted,
		XMP:        a.xmp,
	}
	a.safe("facts", func() { a.readFacts(fx) })
	if ctx.Err() != nil {
		return nil, ErrDeadline
	}
	if fd := a.structureWarnings(); fd != nil {
		fx.Structure = fd
	}
	return fx, nil
}

func (a *analysis) readFacts(fx *Facts) {
	if a.catalog != nil {
		fx.CatalogVersion = string(a.catalog.Name("Version"))
		fx.Signatures = a.signatureAnalysis().Signatures()
		fx.Fonts, fx.FontsTotal = a.fonts()
	}
	if enc := a.dict(a.f.Trailer().Get("Encrypt")); enc != nil {
		fx.Encryption = encryption(enc, a.resolve)
		if s := a.f.Security; s != nil && s.Opened {
			fx.Encryption += ", opened with the empty " + s.OpenedAs + " password"
		} else if s != nil {
			fx.Encryption += ", not opened (" + s.Reason + ")"
		}
	}
	info := a.dict(a.f.Trailer().Get("Info"))
	if info == nil {
		return
	}
	fx.HasInfo = true
	for i, k := range info.Keys {
		fx.Info = append(fx.Info, a.infoEntry(string(k), a.resolve(info.Vals[i])))
	}
}

// infoEntry renders one Info value: text strings decoded, dates in ISO 8601
// with the stored form kept as raw, other objects in PDF syntax. Strings
// of an encrypted file are encrypted and shown as such.
func (a *analysis) infoEntry(key string, v cos.Object) InfoEntry {
	s, isString := v.(cos.String)
	switch {
	case isString && a.f.Sealed():
		return InfoEntry{Key: key, Value: "(encrypted)"}
	case isString:
		text := cos.DecodeText(s.Bytes)
		if strings.HasPrefix(strings.TrimSpace(text), "D:") || key == "CreationDate" || key == "ModDate" {
			if d, ok := cos.ParseDate(text); ok {
				return InfoEntry{Key: key, Value: d.ISO(), Raw: text}
			}
		}
		return InfoEntry{Key: key, Value: text}
	}
	var b strings.Builder
	render(&b, v, a.resolve, 0)
	return InfoEntry{Key: key, Value: b.String()}
}

// render writes a non-text object in PDF syntax, bounded in depth, length
// and items; references inside containers are written, not followed.
func render(b *strings.Builder, o cos.Object, resolve func(cos.Object) cos.Object, depth int) {
	if b.Len() > maxRenderLen {
		return
	}
	switch v := o.(type) {
	case nil:
		b.WriteString("null")
	case cos.Bool:
		b.WriteString(strconv.FormatBool(bool(v)))
	case cos.Int:
		b.WriteString(strconv.FormatInt(int64(v), 10))
	case cos.Real:
		b.WriteString(strconv.FormatFloat(float64(v), 'f', -1, 64))
	case cos.Name:
		b.WriteString("/" + string(v))
	case cos.String:
		b.WriteString(cos.DecodeText(v.Bytes))
	case cos.Ref:
		b.WriteString(v.String())
	case cos.Array:
		b.WriteByte('[')
		for i, e := range v {
			if i >= maxRenderObjs || depth > 3 {
				b.WriteString(" ...")
				break
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			render(b, e, resolve, depth+1)
		}
		b.WriteByte(']')
	case *cos.Dict, *cos.Stream:
		d := cos.DictOf(v)
		b.WriteString("<<")
		for i, k := range d.Keys {
			if i >= maxRenderObjs || depth > 3 {
				b.WriteString(" ...")
				break
			}
			b.WriteString(" /" + string(k) + " ")
			render(b, d.Vals[i], resolve, depth+1)
		}
		b.WriteString(" >>")
	}
	if b.Len() > maxRenderLen {
		s := b.String()[:maxRenderLen]
		b.Reset()
		b.WriteString(strings.ToValidUTF8(s, "") + "...")
	}
}

// encryption summarises a security handler: "Standard, V 2, R 3, 128-bit".
func encryption(d *cos.Dict, resolve func(cos.Object) cos.Object) string {
	parts := []string{string(d.Name("Filter"))}
	if parts[0] == "" {
		parts[0] = "unnamed handler"
	}
	if sub := d.Name("SubFilter"); sub != "" {
		parts = append(parts, string(sub))
	}
	for _, k := range []cos.Name{"V", "R"} {
		if n, ok := cos.AsInt(resolve(d.Get(k))); ok {
			parts = append(parts, string(k)+" "+strconv.FormatInt(n, 10))
		}
	}
	if n, ok := cos.AsInt(resolve(d.Get("Length"))); ok && n > 0 {
		parts = append(parts, strconv.FormatInt(n, 10)+"-bit")
	}
	if b, ok := resolve(d.Get("EncryptMetadata")).(cos.Bool); ok && !bool(b) {
		parts = append(parts, "metadata not encrypted")
	}
	return strings.Join(parts, ", ")
}

// headerVersion reads "%PDF-x.y" at the header offset.
func headerVersion(f *file.File) string {
	if f.Warn.HeaderMissing || f.Header+8 > len(f.Data) {
		return ""
	}
	h := f.Data[f.Header:]
	if string(h[:5]) != "%PDF-" {
		return ""
	}
	end := 5
	for end < len(h) && end < 12 && (h[end] >= '0' && h[end] <= '9' || h[end] == '.') {
		end++
	}
	return string(h[5:end])
}

// fonts lists the font dictionaries the pages' resources name, and those of
// the form XObjects they use, each once, in page order.
func (a *analysis) fonts() ([]Font, int) {
	var out []Font
	total := 0
	seen := map[cos.Ref]bool{}
	nodes := 0
	var walk func(res *cos.Dict, depth int)
	walk = func(res *cos.Dict, depth int) {
		if res == nil || depth > maxXObjDepth || nodes > maxFontNodes {
			return
		}
		if fd := a.dict(res.Get("Font")); fd != nil {
			for _, v := range fd.Vals {
				nodes++
				if ref, ok := v.(cos.Ref); ok {
					if seen[ref] {
						continue
					}
					seen[ref] = true
				}
				font := a.dict(v)
				if font == nil {
					continue
				}
				total++
				if len(out) < maxFonts {
					out = append(out, a.font(font))
				}
			}
		}
		if xd := a.dict(res.Get("XObject")); xd != nil {
			for _, v := range xd.Vals {
				nodes++
				ref, ok := v.(cos.Ref)
				if !ok || seen[ref] || nodes > maxFontNodes {
					continue
				}
				seen[ref] = true
				if x := a.dict(v); x != nil && x.Name("Subtype") == "Form" {
					walk(a.dict(x.Get("Resources")), depth+1)
				}
			}
		}
	}
	for _, p := range a.pages {
		if a.f.Deadline() != nil {
			break
		}
		walk(p.resources, 0)
	}
	return out, total
}

func (a *analysis) font(d *cos.Dict) Font {
	f := Font{Name: string(d.Name("BaseFont")), Subtype: string(d.Name("Subtype"))}
	desc := a.dict(d.Get("FontDescriptor"))
	if desc == nil && f.Subtype == "Type0" {
		if kids, ok := a.resolve(d.Get("DescendantFonts")).(cos.Array); ok && len(kids) > 0 {
			desc = a.dict(a.dict(kids[0]).Get("FontDescriptor"))
		}
	}
	f.Embedded = f.Subtype == "Type3" || desc.Has("FontFile") || desc.Has("FontFile2") || desc.Has("FontFile3")
	return f
}
