package office

import (
	"context"
	"encoding/binary"
	"slices"
	"testing"
	"unicode/utf16"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

const odfNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ` +
	`xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ` +
	`xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" ` +
	`xmlns:script="urn:oasis:names:tc:opendocument:xmlns:script:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0"`

const odfMetaXML = `<?xml version="1.0"?><office:document-meta ` + odfNS + `><office:meta>` +
	`<meta:generator>LibreOffice/7.4.7.2$Linux_X86_64</meta:generator><meta:initial-creator>Alice</meta:initial-creator>` +
	`<dc:creator>Bob</dc:creator><meta:creation-date>2024-01-02T10:00:00</meta:creation-date><dc:date>2024-01-03T09:00:00</dc:date>` +
	`<meta:editing-cycles>4</meta:editing-cycles><meta:editing-duration>PT1H5M10S</meta:editing-duration>` +
	`<meta:document-statistic meta:page-count="2"/></office:meta></office:document-meta>`

func odt(t testing.TB, body string, extra ...entry) []byte {
	parts := []entry{
		{"mimetype", "application/vnd.oasis.opendocument.text"},
		{"content.xml", `<?xml version="1.0"?><office:document-content ` + odfNS + `>` + body + `</office:document-content>`},
		{"meta.xml", odfMetaXML},
		{"META-INF/manifest.xml", `<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/></manifest:manifest>`},
	}
	return buildZip(t, append(parts, extra...))
}

func odfReport(t testing.TB, data []byte) *report.Report {
	t.Helper()
	f := sniff.Sniff(data).Format
	if f != sniff.ODT && f != sniff.ODS && f != sniff.ODP {
		t.Fatalf("sniffed %q", f)
	}
	r, err := AnalyzeODF(context.Background(), data, f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, "odf", r)
	return r
}

func TestODFBlocks(t *testing.T) {
	r := odfReport(t, odt(t, `<office:body><office:text><text:p>Invoice</text:p></office:text></office:body>`))
	o := r.Office
	if o.Format != "odt" || *o.Application != "LibreOffice/7.4.7.2$Linux_X86_64" || *o.LastModifiedBy != "Bob" || *o.SaveCount != 4 || *o.EditingMinutes != 65 {
		t.Errorf("office block %+v", o)
	}
	if *r.Document.Creator != "Alice" || *r.Document.CreationDate != "2024-01-02T10:00:00Z" || r.Document.Pages != 2 {
		t.Errorf("document block %+v", r.Document)
	}
	quiet(t, r, "office-macros", "office-external-links", "office-embedded-objects", "office-hidden-content", "office-tracked-changes")
}

const basicModule = `<?xml version="1.0"?><script:module ` + odfNS + ` script:name="Module1" script:language="StarBasic">` +
	`Sub Main&#10;  Shell(&quot;cmd.exe /c calc&quot;, 1)&#10;End Sub</script:module>`

func TestODFBasicMacro(t *testing.T) {
	events := `<office:scripts><office:event-listeners><script:event-listener script:language="ooo:script" script:event-name="dom:load" ` +
		`xlink:href="vnd.sun.star.script:Standard.Module1.Main?language=Basic&amp;location=document"/></office:event-listeners></office:scripts>`
	r := odfReport(t, odt(t, events+`<office:body><office:text/></office:body>`,
		entry{"Basic/script-lc.xml", `<library:libraries/>`},
		entry{"Basic/Standard/script-lb.xml", `<library:library/>`},
		entry{"Basic/Standard/Module1.xml", basicModule}))
	s := expect(t, r, "office-macros", report.High, "office-macros.vba-autoexec")
	if kw := s.Evidence["suspiciousKeywords"].([]string); !slices.Contains(kw, "Shell") || !slices.Contains(kw, "cmd.exe") {
		t.Errorf("keywords %v", kw)
	}
	if !*r.Office.Macros {
		t.Error("office.macros false")
	}
	// The same library without a load event is the medium variant.
	r = odfReport(t, odt(t, `<office:body><office:text/></office:body>`, entry{"Basic/Standard/Module1.xml", basicModule}))
	expect(t, r, "office-macros", report.Medium, "office-macros.vba")
}

func TestODFLinksObjectsHiddenChanges(t *testing.T) {
	body := `<office:body><office:text>` +
		`<text:tracked-changes><text:changed-region text:id="c1"><text:deletion><office:change-info><dc:creator>Mallory</dc:creator></office:change-info>` +
		`<text:p>IBAN DE02 1203 0000 0000 2020 51</text:p></text:deletion></text:changed-region></text:tracked-changes>` +
		`<text:dde-connection-decls><text:dde-connection-decl office:dde-application="cmd" office:dde-topic="/c calc" office:dde-item="x" office:name="c"/></text:dde-connection-decls>` +
		`<text:p>Pay to <text:hidden-text text:condition="true" text:string-value="new account 99"/></text:p>` +
		`<draw:frame><draw:object xlink:href="http://attacker.example/obj.odt"/></draw:frame>` +
		`</office:text></office:body>`
	r := odfReport(t, odt(t, body, entry{"Object 1", string(buildCFB(t, map[string][]byte{"\x01Ole10Native": ole10Native("run.bat", `C:\run.bat`)}))}))
	l := expect(t, r, "office-external-links", report.High, "office-external-links.dde")
	if k := l.Evidence["kinds"].(map[string]any); k["dde"] != 1 || k["ole-link"] != 1 {
		t.Errorf("kinds %v", k)
	}
	expect(t, r, "office-embedded-objects", report.High, "office-embedded-objects.executable")
	expect(t, r, "office-hidden-content", report.Medium, "office-hidden-content.hidden-runs")
	tc := expect(t, r, "office-tracked-changes", report.Medium, "office-tracked-changes.deletions")
	if a := tc.Evidence["authors"].([]string); !slices.Equal(a, []string{"Mallory"}) {
		t.Errorf("authors %v", a)
	}
}

func TestODFGenuine(t *testing.T) {
	for _, name := range []string{"odt", "ods", "odp"} {
		r := odfReport(t, readTestdata(t, "legacy/genuine-libreoffice-invoice."+name))
		quiet(t, r, "office-macros", "office-external-links", "office-embedded-objects", "office-hidden-content",
			"office-tracked-changes", "office-injection-markers", "office-metadata-anomalies")
		expect(t, r, "office-structure-anomalies", report.Info, "office-structure-anomalies.package-walked")
		if r.Office.Format != name {
			t.Errorf("format %q", r.Office.Format)
		}
	}
}

// b12 appends one BIFF12 record.
func b12(b []byte, typ int, d []byte) []byte {
	for {
		c := byte(typ & 0x7F)
		typ >>= 7
		if typ > 0 {
			b = append(b, c|0x80)
			continue
		}
		b = append(b, c)
		break
	}
	n := len(d)
	for {
		c := byte(n & 0x7F)
		n >>= 7
		if n > 0 {
			b = append(b, c|0x80)
			continue
		}
		b = append(b, c)
		break
	}
	return append(b, d...)
}

func wideString(s string) []byte {
	u := utf16.Encode([]rune(s))
	b := binary.LittleEndian.AppendUint32(nil, uint32(len(u)))
	for _, c := range u {
		b = binary.LittleEndian.AppendUint16(b, c)
	}
	return b
}

func TestXLSB(t *testing.T) {
	sheet := func(state uint32, rel, name string) []byte {
		d := binary.LittleEndian.AppendUint32(nil, state)
		d = binary.LittleEndian.AppendUint32(d, 1)
		return append(append(d, wideString(rel)...), wideString(name)...)
	}
	name := append(append(binary.LittleEndian.AppendUint32(nil, 0x20), 0), binary.LittleEndian.AppendUint32(nil, 0xFFFFFFFF)...)
	name = append(name, wideString("Auto_Open")...)
	var wb []byte
	wb = b12(wb, 0x83, nil)
	wb = b12(wb, 0x9C, sheet(0, "rId1", "Invoice"))
	wb = b12(wb, 0x9C, sheet(2, "rId2", "Macro1"))
	wb = b12(wb, 0x27, name)
	wb = b12(wb, 0x84, nil)
	ext := b12(nil, 0x168, []byte{1, 0})
	ct := `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="bin" ContentType="application/vnd.ms-excel.sheet.binary.macroEnabled.main"/>` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/></Types>`
	data := buildZip(t, []entry{
		{"[Content_Types].xml", ct},
		{"_rels/.rels", rels(relEl("rId1", "officeDocument", "xl/workbook.bin", false))},
		{"xl/workbook.bin", string(wb)},
		{"xl/macrosheets/sheet2.bin", string(b12(nil, 0x81, nil))},
		{"xl/externalLinks/externalLink1.bin", string(ext)},
	})
	if f := sniff.Sniff(data).Format; f != sniff.XLSB {
		t.Fatalf("sniffed %q", f)
	}
	r, err := Analyze(context.Background(), data, sniff.XLSB, Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, "xlsb", r)
	m := expect(t, r, "office-macros", report.High, "office-macros.xlm")
	if m.Evidence["xlmSheets"] != 1 {
		t.Errorf("xlmSheets %v", m.Evidence["xlmSheets"])
	}
	expect(t, r, "office-hidden-content", report.Medium, "office-hidden-content.very-hidden-sheets")
	expect(t, r, "office-external-links", report.High, "office-external-links.dde")
	if st := signal(r, "office-structure-anomalies"); st.Evidence["malformedParts"] != nil {
		t.Errorf("binary parts read as XML: %v", st.Evidence["malformedParts"])
	}
}

// TestODFHiddenSlide: LibreOffice's hidden slide (a drawing-page style
// with presentation:visibility="hidden") is reported.
func TestODFHiddenSlide(t *testing.T) {
	r := odfReport(t, readTestdata(t, "legacy/libreoffice-hidden-slide.odp"))
	if h := expect(t, r, "office-hidden-content", report.Low, "office-hidden-content.hidden-slides"); h.Evidence["hiddenSlides"] != 1 {
		t.Errorf("hidden slides %v", h.Evidence["hiddenSlides"])
	}
}

// TestODFHiddenCells: the same workbook as .ods.
func TestODFHiddenCells(t *testing.T) {
	r := odfReport(t, readTestdata(t, "legacy/libreoffice-hidden-rows.ods"))
	h := expect(t, r, "office-hidden-content", report.Low, "office-hidden-content.hidden-cells")
	if h.Evidence["hiddenRowCells"] != 2 || h.Evidence["hiddenColumnCells"] != 1 || h.Evidence["recovered"] != "internal margin 40% | Kickback | 999.5" {
		t.Errorf("evidence %v", h.Evidence)
	}
}
