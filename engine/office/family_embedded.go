package office

import (
	"cmp"
	"io"
	"strings"

	"github.com/doctrust/doctrust/engine/internal/cfb"
	"github.com/doctrust/doctrust/engine/report"
)

// officeEmbeddedObjectsFamily declares the family (report.Declaration).
var officeEmbeddedObjectsFamily = declaration{
	ID:      "office-embedded-objects",
	Order:   30,
	Run:     (*analysis).embeddedObjects,
	Summary: "OLE objects, embedded packages, ActiveX controls and embedded fonts.",
	Evidence: []string{
		"oleObjects", "packages", "activeX", "fonts", "executables", "equationEditor", "parts[]",
		"packagedFiles[]",
	},
	Variants: []report.VariantDecl{
		{Code: "activex", Severity: report.High, Title: "ActiveX controls present", Text: "The package embeds {activex#ActiveX control part|ActiveX control parts}, {ole#OLE object|OLE objects}, {packages#embedded package|embedded packages} and {fonts#font|fonts}; none was opened."},
		{Code: "executable", Severity: report.High, Title: "Embedded program", Text: "The document embeds {executables#packaged file|packaged files} with a program's or script's extension among {ole#OLE object|OLE objects}; none was opened."},
		{Code: "equation-editor", Severity: report.High, Title: "Equation Editor object", Text: "The document embeds {count#Equation Editor 3.0 object|Equation Editor 3.0 objects} among {ole#OLE object|OLE objects}: the component the CVE-2017-11882 and CVE-2018-0802 exploits run through; none was opened."},
		{Code: "ole", Severity: report.Medium, Title: "Embedded OLE objects", Text: "The package embeds {ole#OLE object|OLE objects}, {packages#embedded package|embedded packages} and {fonts#font|fonts}; none was opened."},
		{Code: "package", Severity: report.Low, Title: "Embedded packages", Text: "The package embeds {packages#package|packages} such as documents or workbooks, and {fonts#font|fonts}; none was opened."},
		{Code: "fonts", Severity: report.Info, Title: "Embedded fonts", Text: "The package embeds {fonts#font|fonts}."},
	},
}

// embeddedObjects reports OLE objects, embedded packages, ActiveX controls
// and embedded fonts. Nothing embedded is opened. Images and media are not
// objects and do not count.
func (a *analysis) embeddedObjects() *report.Finding {
	var ole, pkgs, activex, fonts []string
	// A chart keeps its data as an embedded workbook; that is how every
	// chart is saved, not an object someone embedded.
	chartData := map[string]bool{}
	for _, r := range a.rels {
		if !r.External && strings.Contains(strings.ToLower(r.Source), "/charts/") {
			chartData[strings.ToLower(r.Resolved)] = true
		}
	}
	for _, p := range a.pkg.Parts {
		n := p.lower
		ct := a.ct.of(p)
		switch {
		case strings.Contains(n, "/activex/") || strings.Contains(ct, "activex"):
			if !strings.HasSuffix(n, ".rels") {
				activex = append(activex, p.Name)
			}
		case strings.Contains(n, "/embeddings/") && !chartData[n]:
			if ct == "application/vnd.openxmlformats-officedocument.oleobject" || strings.HasSuffix(n, ".bin") || IsCFB(p.head(a.pkg)) {
				ole = append(ole, p.Name)
			} else {
				pkgs = append(pkgs, p.Name)
			}
		case strings.Contains(n, "/fonts/") && (strings.HasSuffix(n, ".odttf") || strings.Contains(ct, "font")):
			fonts = append(fonts, p.Name)
		}
	}
	if len(ole)+len(pkgs)+len(activex)+len(fonts) == 0 {
		return nil
	}
	// An OLE object is a compound file: the file the Packager wrapped in
	// it, and its class, say whether it is a program or the Equation
	// Editor, as for the binary formats.
	var files, exes []string
	equations := 0
	for _, n := range ole {
		cf := cfb.Open(a.pkg.ReadName(n), MaxPartBytes)
		if cf == nil {
			continue
		}
		o := objectFrom(cf, 0)
		if o.Equation {
			equations++
		}
		if name := cmp.Or(o.File, o.Source); name != "" {
			files = append(files, report.Untrusted(name))
			if o.Executable {
				exes = append(exes, report.Untrusted(name))
			}
		}
	}
	ev := map[string]any{
		"oleObjects": len(ole), "packages": len(pkgs), "activeX": len(activex), "fonts": len(fonts),
		"executables": len(exes), "equationEditor": equations,
	}
	report.Capped(ev, "parts", untrustedList(append(append(append(append([]string(nil), activex...), ole...), pkgs...), fonts...)))
	report.Capped(ev, "packagedFiles", files)
	f := &report.Finding{Family: report.FamilyOfficeEmbeddedObjects, Evidence: ev}
	params := []any{"ole", len(ole), "packages", len(pkgs), "activex", len(activex), "fonts", len(fonts)}
	switch {
	case len(exes) > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-embedded-objects.executable", "executables", len(exes), "ole", len(ole))
	case equations > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-embedded-objects.equation-editor", "count", equations, "ole", len(ole))
	case len(activex) > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-embedded-objects.activex", params...)
	case len(ole) > 0:
		f.Severity = report.Medium
		f.Message = report.Msg("office-embedded-objects.ole", params...)
	case len(pkgs) > 0:
		f.Severity = report.Low
		f.Message = report.Msg("office-embedded-objects.package", params...)
	default:
		f.Severity = report.Info
		f.Message = report.Msg("office-embedded-objects.fonts", params...)
	}
	return f
}

// head returns the first bytes of a part without decompressing all of it
// when it has not been read yet: enough to see a signature.
func (p *Part) head(pkg *Package) []byte {
	if p.read {
		return p.data
	}
	rc, err := p.file.Open()
	if err != nil {
		return nil
	}
	defer rc.Close()
	buf := make([]byte, 8)
	n, _ := io.ReadFull(rc, buf)
	pkg.Expanded += int64(n)
	return buf[:n]
}
