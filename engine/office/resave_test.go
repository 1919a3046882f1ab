package office

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Re-saves by another writer, on packages built in code (each variant and
// its quiet twin) and on the committed fixtures of scripts/fixtures/media.

func TestResaveVariants(t *testing.T) {
	withCore := func(pairs ...string) entry {
		c := cleanCore
		for i := 0; i+1 < len(pairs); i += 2 {
			c = strings.Replace(c, pairs[i], pairs[i+1], 1)
		}
		return entry{"docProps/core.xml", c}
	}
	withApp := func(from, to string) entry { return entry{"docProps/app.xml", strings.Replace(cleanApp, from, to, 1)} }
	openpyxlApp := entry{"docProps/app.xml", `<Properties><Application>Microsoft Excel Compatible / Openpyxl 3.1.5</Application><AppVersion>3.1</AppVersion></Properties>`}
	sheets := `<sheet name="A" sheetId="1" r:id="rId1"/>`

	// openpyxl over a workbook someone wrote: Alice as author and editor.
	r := analyse(t, xlsx(t, sheets, `<sheetData/>`, openpyxlApp, entry{"docProps/core.xml", cleanCore}))
	s := expect(t, r, "office-metadata-anomalies", report.Medium, "office-metadata-anomalies.library-resave")
	if s.Evidence["resavedBy"] != "openpyxl" {
		t.Errorf("evidence %+v", s.Evidence)
	}
	// openpyxl from scratch with a company as author: no history.
	fresh := `<cp:coreProperties xmlns:cp="cp" xmlns:dc="dc" xmlns:dcterms="dcterms"><dc:creator>Northwind Bank</dc:creator><dcterms:created>2024-03-03T09:00:00Z</dcterms:created><dcterms:modified>2024-03-03T09:00:01Z</dcterms:modified></cp:coreProperties>`
	quiet(t, analyse(t, xlsx(t, sheets, `<sheetData/>`, openpyxlApp, entry{"docProps/core.xml", fresh})), "office-metadata-anomalies")

	// LibreOffice over a Word document: Word's global template kept. A
	// template filled in elsewhere is ordinary: low.
	lo := "LibreOffice/7.4.7.2$Linux_X86_64 LibreOffice_project/40$Build-2"
	r = analyse(t, docx(t, ctDocx, para, withApp("Microsoft Office Word", lo)))
	s = expect(t, r, "office-metadata-anomalies", report.Low, "office-metadata-anomalies.other-application-resave")
	if s.Evidence["resaveTrace"] != "word-template" || s.Evidence["editEvidence"] != nil || len(s.Notes) != 0 {
		t.Errorf("evidence %+v notes %+v", s.Evidence, s.Notes)
	}
	// The same save beside an edit of the content: medium, the edit named.
	hiddenRun := `<w:p><w:r><w:t>Total due: 1,200.00</w:t></w:r><w:r><w:rPr><w:vanish/></w:rPr><w:t>900.00</w:t></w:r></w:p>`
	deleted := `<w:p><w:del w:author="S"><w:r><w:delText>900.00</w:delText></w:r></w:del><w:r><w:t>1,200.00</w:t></w:r></w:p>`
	for body, want := range map[string]string{hiddenRun: "hidden content", deleted: "tracked deletions"} {
		r = analyse(t, docx(t, ctDocx, body, withApp("Microsoft Office Word", lo)))
		s = expect(t, r, "office-metadata-anomalies", report.Medium, "office-metadata-anomalies.other-application-resave")
		if ev, _ := s.Evidence["editEvidence"].([]string); len(ev) != 1 || ev[0] != want || len(s.Notes) != 1 || s.Notes[0].Code != "office-metadata-anomalies.resave-with-edits" {
			t.Errorf("%s: evidence %+v notes %+v", want, s.Evidence, s.Notes)
		}
	}
	// A date contradiction is an edit too; the resave then rides as a note
	// of the medium dates-out-of-order beside it.
	r = analyse(t, docx(t, ctDocx, para, withApp("Microsoft Office Word", lo), withCore("2024-01-02T12:00:00Z</dcterms:modified>", "2023-01-02T12:00:00Z</dcterms:modified>")))
	s = expect(t, r, "office-metadata-anomalies", report.Medium, "office-metadata-anomalies.dates-out-of-order")
	if ev, _ := s.Evidence["editEvidence"].([]string); len(ev) != 1 || ev[0] != "dates that contradict each other" {
		t.Errorf("dates: evidence %+v", s.Evidence)
	}
	// LibreOffice over an Excel workbook: a history with a zero counter.
	loApp := entry{"docProps/app.xml", `<Properties><Template></Template><TotalTime>0</TotalTime><Application>` + lo + `</Application></Properties>`}
	r = analyse(t, xlsx(t, sheets, `<sheetData/>`, loApp, withCore("<cp:revision>3", "<cp:revision>0")))
	s = expect(t, r, "office-metadata-anomalies", report.Low, "office-metadata-anomalies.other-application-resave")
	if s.Evidence["resaveTrace"] != "imported-history" {
		t.Errorf("evidence %+v", s.Evidence)
	}
	// LibreOffice's own saves count from 1; a bare conversion records nothing.
	quiet(t, analyse(t, xlsx(t, sheets, `<sheetData/>`, loApp, entry{"docProps/core.xml", cleanCore})), "office-metadata-anomalies")
	bare := `<cp:coreProperties xmlns:cp="cp" xmlns:dc="dc"><dc:creator></dc:creator><cp:revision>0</cp:revision></cp:coreProperties>`
	quiet(t, analyse(t, xlsx(t, sheets, `<sheetData/>`, loApp, entry{"docProps/core.xml", bare})), "office-metadata-anomalies")

	// A tool as last editor of someone's document.
	r = analyse(t, docx(t, ctDocx, para, withCore("<cp:lastModifiedBy>Alice", "<cp:lastModifiedBy>python-docx")))
	expect(t, r, "office-metadata-anomalies", report.Medium, "office-metadata-anomalies.tool-last-modified")
	// The tool as both author and editor is the generator itself.
	quiet(t, analyse(t, docx(t, ctDocx, para, withCore("<dc:creator>Alice", "<dc:creator>Apache POI", "<cp:lastModifiedBy>Alice", "<cp:lastModifiedBy>Apache POI"))), "office-metadata-anomalies")

	// lxml's declaration on the body under an application's app.xml.
	lxmlBody := entry{"word/document.xml", `<?xml version='1.0' encoding='UTF-8' standalone='yes'?>` + "\n" + `<w:document ` + nsW + `><w:body>` + para + `</w:body></w:document>`}
	appDQ := withApp(`<?xml version="1.0"?>`, `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`)
	r = analyse(t, docx(t, ctDocx, para, lxmlBody, appDQ))
	s = expect(t, r, "office-metadata-anomalies", report.Low, "office-metadata-anomalies.lxml-rewrite")
	if s.Evidence["mainPartRewrittenBy"] != "lxml" {
		t.Errorf("evidence %+v", s.Evidence)
	}
	// python-docx's own template: app.xml in lxml's form too.
	appSQ := withApp(`<?xml version="1.0"?>`, `<?xml version='1.0' encoding='UTF-8' standalone='yes'?>`)
	quiet(t, analyse(t, docx(t, ctDocx, para, lxmlBody, appSQ)), "office-metadata-anomalies")

	// More saves than minutes.
	r = analyse(t, docx(t, ctDocx, para, withCore("<cp:revision>3", "<cp:revision>40", "2024-01-02T12:00:00Z</dcterms:modified>", "2024-01-02T10:05:00Z</dcterms:modified>")))
	expect(t, r, "office-metadata-anomalies", report.Low, "office-metadata-anomalies.saves-exceed-span")
}

func TestHiddenRowsInTable(t *testing.T) {
	sheets := `<sheet name="A" sheetId="1" r:id="rId1"/>`
	row := func(n int, hidden, extra string) string {
		return `<row r="` + string(rune('0'+n)) + `"` + hidden + extra + `><c r="A` + string(rune('0'+n)) + `" t="s"><v>0</v></c><c r="B` + string(rune('0'+n)) + `"><v>` + string(rune('0'+n)) + `0.5</v></c></row>`
	}
	table := `<sheetData>` + row(1, "", "") + row(2, "", "") + row(3, ` hidden="1"`, "") + row(4, "", "") + `</sheetData>`
	r := analyse(t, xlsx(t, sheets, table))
	s := expect(t, r, "office-hidden-content", report.Medium, "office-hidden-content.hidden-rows-in-table")
	if s.Evidence["hiddenTableRows"] != 1 {
		t.Errorf("evidence %+v", s.Evidence)
	}
	// A hidden row after the last row of figures, or a collapsed outline
	// group, is not a line taken out of the list.
	tail := `<sheetData>` + row(1, "", "") + row(2, "", "") + row(3, ` hidden="1"`, "") + `</sheetData>`
	expect(t, analyse(t, xlsx(t, sheets, tail)), "office-hidden-content", report.Low, "office-hidden-content.hidden-cells")
	outline := `<sheetData>` + row(1, "", "") + row(2, ` hidden="1"`, ` outlineLevel="1"`) + row(3, "", "") + `</sheetData>`
	expect(t, analyse(t, xlsx(t, sheets, outline)), "office-hidden-content", report.Low, "office-hidden-content.hidden-cells")
}

// TestResaveFixtures reads the committed genuine files and their re-saves.
func TestResaveFixtures(t *testing.T) {
	dir := "../testdata/detection/media"
	// The fixtures carry 2025 dates; analyse them at the detection
	// harness's time of analysis so future-date stays out of it.
	analyse := func(t *testing.T, data []byte) *report.Report {
		t.Helper()
		r, err := Analyze(context.Background(), data, sniff.Sniff(data).Format, Options{Now: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		checkInvariants(t, "fixture", r)
		return r
	}
	read := func(n string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for _, n := range []string{"lo-statement.xlsx", "lo-payslip.docx", "openpyxl-statement.xlsx", "pydocx-letter.docx"} {
		quiet(t, analyse(t, read(n)), allButStructure...)
	}
	cases := []struct{ file, family, code string }{
		{"lo-statement-openpyxl-edit.xlsx", "office-metadata-anomalies", "library-resave"},
		{"lo-statement-openpyxl-hidden.xlsx", "office-hidden-content", "hidden-rows-in-table"},
		{"lo-payslip-pydocx-lastmodified.docx", "office-metadata-anomalies", "tool-last-modified"},
	}
	for _, c := range cases {
		expect(t, analyse(t, read(c.file)), c.family, report.Medium, c.family+"."+c.code)
	}
	expect(t, analyse(t, read("lo-payslip-pydocx-edit.docx")), "office-metadata-anomalies", report.Low, "office-metadata-anomalies.lxml-rewrite")
	// LibreOffice saving a library's document with no edit is a template
	// filled in, or just opened and saved: low (issue 34).
	for _, n := range []string{"pydocx-letter-lo-resave.docx", "openpyxl-statement-lo-resave.xlsx"} {
		expect(t, analyse(t, read(n)), "office-metadata-anomalies", report.Low, "office-metadata-anomalies.other-application-resave")
	}
	// The cross-application fills of scripts/fixtures/crossapp, and the
	// same flow with an edit on the content.
	dir = "../testdata/detection/crossapp"
	for _, n := range []string{"pydocx-invoice-lo-filled.docx", "pydocx-memo-lo-appended.docx"} {
		expect(t, analyse(t, read(n)), "office-metadata-anomalies", report.Low, "office-metadata-anomalies.other-application-resave")
	}
	for n, want := range map[string]string{"pydocx-invoice-lo-tracked-total.docx": "tracked deletions", "pydocx-invoice-lo-hidden-line.docx": "hidden content"} {
		s := expect(t, analyse(t, read(n)), "office-metadata-anomalies", report.Medium, "office-metadata-anomalies.other-application-resave")
		if ev, _ := s.Evidence["editEvidence"].([]string); len(ev) != 1 || ev[0] != want {
			t.Errorf("%s: evidence %+v", n, s.Evidence)
		}
	}
}
