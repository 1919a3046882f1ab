package office

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/sniff"
)

// FuzzPackage drives the package reader and every family over arbitrary
// bytes presented as a docx: no panic, bounded cost, a report that encodes.
func FuzzPackage(f *testing.F) {
	f.Add(docx(f, ctDocx, para))
	f.Add(docx(f, ctDocm, para, entry{"word/vbaProject.bin", string(cfbFixture(f, "Module1"))}))
	f.Add(xlsx(f, `<sheet name="S" sheetId="1" r:id="rId1" state="hidden"/>`, `<sheetData><row hidden="1"><c r="A1"><v>1</v></c></row></sheetData>`))
	f.Add(pptx(f, `<p:sld show="0"><a:t>x</a:t></p:sld>`))
	// Re-saves by openpyxl, python-docx and LibreOffice (scripts/fixtures/media).
	for _, name := range []string{"lo-statement-openpyxl-hidden.xlsx", "lo-payslip-pydocx-edit.docx", "pydocx-letter-lo-resave.docx", "openpyxl-statement-lo-resave.xlsx"} {
		if b, err := os.ReadFile(filepath.Join("../testdata/detection/media", name)); err == nil {
			f.Add(b)
		}
	}
	// Cross-application fills and their edited twins (scripts/fixtures/crossapp).
	for _, name := range []string{"pydocx-invoice-lo-filled.docx", "pydocx-invoice-lo-tracked-total.docx", "pydocx-invoice-lo-hidden-line.docx", "openpyxl-timesheet-lo-filled.xlsx"} {
		if b, err := os.ReadFile(filepath.Join("../testdata/detection/crossapp", name)); err == nil {
			f.Add(b)
		}
	}
	// Hidden rows with dated cells, their styles.xml read (scripts/fixtures/xldates).
	for _, name := range []string{"hidden-date-openpyxl.xlsx", "hidden-date-lo.xlsx"} {
		if b, err := os.ReadFile(filepath.Join("testdata", "xldates", name)); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Analyze(context.Background(), data, sniff.DOCX, Options{Budget: 1 << 22})
		if err != nil {
			t.Fatal(err)
		}
		if r.Summary.Cost.ExpandedBytes > 1<<22 {
			t.Fatalf("expanded %d past the budget", r.Summary.Cost.ExpandedBytes)
		}
		checkInvariants(t, "fuzz", r)
	})
}

// FuzzPartXML puts arbitrary XML into the part each walker reads, inside a
// valid package: content types, relationships, properties, comments, the
// Word story, a worksheet, the workbook, shared strings and a slide.
func FuzzPartXML(f *testing.F) {
	f.Add(uint8(0), []byte(`<w:p><w:r><w:rPr><w:vanish/></w:rPr><w:t>x</w:t></w:r></w:p>`))
	f.Add(uint8(5), []byte(`<worksheet><cols><col min="1" max="3" hidden="1"/></cols><sheetData><row><c r="B1" t="s"><v>0</v></c></row></sheetData></worksheet>`))
	f.Add(uint8(3), []byte(`<Properties><TotalTime>5</TotalTime></Properties>`))
	f.Fuzz(func(t *testing.T, which uint8, xml []byte) {
		names := []string{"word/document.xml", "[Content_Types].xml", "_rels/.rels", "docProps/app.xml", "docProps/core.xml",
			"xl/worksheets/sheet1.xml", "xl/workbook.xml", "xl/sharedStrings.xml", "docProps/custom.xml", "word/comments.xml", "ppt/slides/slide1.xml"}
		name := names[int(which)%len(names)]
		var data []byte
		switch {
		case name[:3] == "xl/":
			data = xlsxWith(t, name, string(xml))
		case name[:4] == "ppt/":
			data = pptx(t, string(xml))
		default:
			data = docx(t, ctDocx, para, entry{name, string(xml)})
		}
		f := sniff.Sniff(data).Format
		if f.Kind() != sniff.KindOffice {
			f = sniff.DOCX
		}
		r, err := Analyze(context.Background(), data, f, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
		// The ledger's text reader walks the same parts.
		if text := Text(context.Background(), data, 4096); len(text) > 4096 || !utf8.ValidString(text) {
			t.Fatalf("text of %d bytes, valid UTF-8 %v", len(text), utf8.ValidString(text))
		}
	})
}

// FuzzWordStory and FuzzSheet drive the two largest walkers directly.
func FuzzWordStory(f *testing.F) {
	f.Add([]byte(`<w:document><w:body><w:p><w:del w:author="a"><w:r><w:delText>x</w:delText></w:r></w:del><w:r><w:instrText>DDEAUTO x</w:instrText></w:r></w:p></w:body></w:document>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s wordScan
		scanWordStory(context.Background(), data, &s)
		if len(s.hiddenText) > maxSnippets || len(s.deletedText) > maxSnippets || len(s.authors) > maxSnippets {
			t.Fatal("snippet cap exceeded")
		}
	})
}

func FuzzSheet(f *testing.F) {
	f.Add([]byte(`<worksheet><cols><col min="2" max="2" hidden="1"/></cols><sheetData><row r="1" hidden="1"><c r="A1"><v>1</v></c></row></sheetData></worksheet>`))
	f.Add([]byte(`<worksheet><sheetData><row r="1"><c r="B1"><v>1.5</v></c></row><row r="2" hidden="1" outlineLevel="1"><c r="B2" t="n"><v>2</v></c></row>` +
		`<row r="3" hidden="1"><c r="B3"><v>-3</v></c></row><row r="4"><c r="B4"><v>4</v></c></row></sheetData></worksheet>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var s xlScan
		scanSheet(context.Background(), data, &s)
		if len(s.recovered) > maxSnippets || len(s.sharedRefs) > maxSnippets {
			t.Fatal("snippet cap exceeded")
		}
		if s.hiddenTableRows > s.hiddenRowCells {
			t.Fatalf("%d hidden table rows from %d hidden row cells", s.hiddenTableRows, s.hiddenRowCells)
		}
	})
}

// FuzzCFB drives the compound-file directory walk (VBA module names and the
// encrypted-package test).
func FuzzCFB(f *testing.F) {
	f.Add(cfbFixture(f, "Module1", "EncryptedPackage"))
	f.Fuzz(func(t *testing.T, data []byte) {
		if n := len(cfbDirectory(data)); n > maxCFBEntries+16 {
			t.Fatalf("%d entries", n)
		}
		_ = vbaModuleNames(data)
	})
}

// FuzzRevisionLog drives the shared-workbook revision log walker.
func FuzzRevisionLog(f *testing.F) {
	f.Add([]byte(`<revisions><rcc><oc r="A1"><v>1</v></oc></rcc><rrc action="deleteRow"/><header userName="u"/></revisions>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m revisionMarks
		scanRevisionLog(context.Background(), data, &m)
		if len(m.deletedText) > maxSnippets || len(m.authors) > maxSnippets {
			t.Fatal("snippet cap exceeded")
		}
	})
}

// xlsxWith builds a small xlsx with one part replaced by body.
func xlsxWith(t testing.TB, name, body string) []byte {
	parts := []entry{
		{"[Content_Types].xml", contentTypesXML(ctXlsx)},
		{"_rels/.rels", rels(relEl("rId1", "officeDocument", "xl/workbook.xml", false))},
		{"xl/workbook.xml", `<workbook><sheets><sheet name="S" sheetId="1" state="hidden"/></sheets></workbook>`},
		{"xl/worksheets/sheet1.xml", `<worksheet><sheetData><row hidden="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>`},
		{"xl/sharedStrings.xml", `<sst><si><t>x</t></si></sst>`},
	}
	for i := range parts {
		if parts[i].name == name {
			parts[i].body = body
		}
	}
	return buildZip(t, parts)
}
