package producers

import (
	"reflect"
	"strings"
	"testing"
)

func tool(name string, c Class) Tool { return Tool{Name: name, Class: c} }

var (
	acrobat     = tool("Adobe Acrobat", DesktopEditor)
	pdfmaker    = tool("Acrobat PDFMaker", OfficeSuite)
	distiller   = tool("Acrobat Distiller", PrintDriver)
	adobeLib    = tool("Adobe PDF Library", Library)
	word        = tool("Microsoft Word", OfficeSuite)
	itext       = tool("iText", Library)
	itextSharp  = tool("iTextSharp", Library)
	ghostscript = tool("Ghostscript", PrintDriver)
	quartz      = tool("macOS Quartz PDFContext", PrintDriver)
	preview     = tool("Apple Preview / PDFKit", DesktopEditor)
	libre       = tool("LibreOffice", OfficeSuite)
	writer      = tool("LibreOffice Writer", OfficeSuite)
	skia        = tool("Skia/PDF", Library)
	qt          = tool("Qt", Library)
	tex         = tool("TeX / LaTeX", Library)
)

// realWorld holds producer/creator strings as they occur in real files
// (many from ../shared/corpus, the rest from public PDFs and tool sources).
var realWorld = []struct {
	in   string
	want []Tool
}{
	// Adobe family.
	{"Adobe Acrobat Pro DC 21.1.20145", []Tool{acrobat}},
	{"Adobe Acrobat 9.0", []Tool{acrobat}},
	{"Adobe Acrobat Pro (64-bit) 24.2.20895", []Tool{acrobat}},
	{"Adobe Acrobat Pro 11.0.23", []Tool{acrobat}},
	{"Acrobat Pro 23.1.20143", []Tool{acrobat}},
	{"Adobe Acrobat (64-bit) 25.1.20756", []Tool{acrobat}},
	{"Acrobat PDFMaker 11 for Word", []Tool{pdfmaker}},
	{"Acrobat PDFMaker 9.1 voor Word", []Tool{pdfmaker}},
	{"Acrobat PDFMaker 7.0 für Word", []Tool{pdfmaker}},
	{"Adobe PDF Library 15.0", []Tool{adobeLib}},
	{"Adobe PDF library 9.90", []Tool{adobeLib}},
	{"Acrobat Distiller 9.0.0 (Windows)", []Tool{distiller}},
	{"Acrobat Distiller 6.0.1 for Macintosh", []Tool{distiller}},
	{"Acrobat PDFWriter 5.0 for Windows NT", []Tool{tool("Acrobat PDFWriter", PrintDriver)}},
	{"Adobe Acrobat Pro DC 20.13.20074 Paper Capture Plug-in", []Tool{tool("Adobe Paper Capture", OCR)}},
	{"Adobe Acrobat 11.0.6 Image Conversion Plug-in", []Tool{tool("Adobe Acrobat Image Conversion", Scanner)}},
	{"Acrobat Sign", []Tool{tool("Adobe Acrobat Sign", ReportGenerator)}},
	{"Adobe LiveCycle Designer ES 9.0", []Tool{tool("Adobe LiveCycle / AEM Forms", ReportGenerator)}},
	{"Adobe® LiveCycle® DocConverter 11.0.0", []Tool{tool("Adobe LiveCycle / AEM Forms", ReportGenerator)}},
	{"Adobe InDesign 20.5 (Macintosh)", []Tool{tool("Adobe InDesign", OfficeSuite)}},
	{"Adobe Illustrator CS5.1", []Tool{tool("Adobe Illustrator", DesktopEditor)}},
	{"Adobe Photoshop for Macintosh", []Tool{tool("Adobe Photoshop", DesktopEditor)}},
	{"FrameMaker 7.2", []Tool{tool("Adobe FrameMaker", OfficeSuite)}},

	// Microsoft.
	{"Microsoft® Word 2016", []Tool{word}},
	{"Microsoft® Word for Microsoft 365", []Tool{word}},
	{"MicrosoftÂ® Word 2019", []Tool{word}},
	{"Microsoft® Word para Microsoft 365", []Tool{word}},
	{"Microsoft® Office Word 2007", []Tool{word}},
	{"Word", []Tool{word}},
	{"NPCD_OUTPATIENT_GUIDE_00 - Microsoft Word", []Tool{word}},
	{"Microsoft® Excel® for Microsoft 365", []Tool{tool("Microsoft Excel", OfficeSuite)}},
	{"Microsoft® PowerPoint® 2010", []Tool{tool("Microsoft PowerPoint", OfficeSuite)}},
	{"Microsoft: Print To PDF", []Tool{tool("Microsoft Print to PDF", PrintDriver)}},
	{"Microsoft Reporting Services PDF Rendering Extension 15.0.0.0", []Tool{tool("Microsoft Reporting Services", ReportGenerator)}},
	{"PScript5.dll Version 5.2.2", []Tool{tool("Windows PostScript driver", PrintDriver)}},

	// Online editors.
	{"iLovePDF", []Tool{tool("iLovePDF", OnlineEditor)}},
	{"www.ilovepdf.com", []Tool{tool("iLovePDF", OnlineEditor)}},
	{"Smallpdf.com", []Tool{tool("Smallpdf", OnlineEditor)}},
	{"PDFescape Online", []Tool{tool("PDFescape", OnlineEditor)}},
	{"Sejda PDF Desktop (http://www.sejda.com)", []Tool{tool("Sejda PDF Desktop", DesktopEditor)}},
	{"SEJDA PDF - www.sejda.com", []Tool{tool("Sejda", OnlineEditor)}},
	{"Canva", []Tool{tool("Canva", OnlineEditor)}},
	{"PDF24 Tools", []Tool{tool("PDF24 Tools", OnlineEditor)}},
	{"PDF24 Creator", []Tool{tool("PDF24 Creator", PrintDriver)}},
	{"Soda PDF", []Tool{tool("Soda PDF", OnlineEditor)}},
	{"PDF Candy", []Tool{tool("PDF Candy", OnlineEditor)}},
	{"Microsoft Word - invoice.docx / iLovePDF", []Tool{tool("iLovePDF", OnlineEditor), word}},

	// Desktop editors.
	{"Foxit PhantomPDF Printer Version 10.1", []Tool{tool("Foxit PDF Printer", PrintDriver)}},
	{"Foxit PhantomPDF 10.1", []Tool{tool("Foxit PDF Editor", DesktopEditor)}},
	{"Foxit PDF Editor", []Tool{tool("Foxit PDF Editor", DesktopEditor)}},
	{"Foxit Reader PDF Printer Version 9.7.1.2227", []Tool{tool("Foxit PDF Printer", PrintDriver)}},
	{"Nitro Pro 13", []Tool{tool("Nitro PDF Pro", DesktopEditor)}},
	{"PDF-XChange Editor 9.0", []Tool{tool("PDF-XChange Editor", DesktopEditor)}},
	{"PDF-XChange Printer 2012", []Tool{tool("PDF-XChange Printer", PrintDriver)}},
	{"Wondershare PDFelement", []Tool{tool("Wondershare PDFelement", DesktopEditor)}},
	{"Master PDF Editor", []Tool{tool("Master PDF Editor", DesktopEditor)}},
	{"PDF Studio 2021", []Tool{tool("PDF Studio", DesktopEditor)}},
	{"Kofax Power PDF", []Tool{tool("Kofax Power PDF", DesktopEditor)}},
	{"Nuance PDF Create 8", []Tool{tool("Nuance PDF Create", PrintDriver)}},
	{"ABBYY FineReader PDF 15", []Tool{tool("ABBYY FineReader PDF", DesktopEditor)}},
	{"ABBYY FineReader Engine 12", []Tool{tool("ABBYY FineReader", OCR)}},
	{"Inkscape 1.0beta1 (https://inkscape.org)", []Tool{tool("Inkscape", DesktopEditor)}},
	{"Draw", []Tool{tool("LibreOffice Draw", DesktopEditor)}},
	{"Preview", []Tool{preview}},
	{"macOS Version 15.5 (Build 24F74) Quartz PDFContext, AppendMode 1.1", []Tool{preview, quartz}},

	// Modification libraries.
	{"pdf-lib (https://github.com/Hopding/pdf-lib)", []Tool{tool("pdf-lib", ModifyLibrary)}},
	{"PyPDF2", []Tool{tool("pypdf", ModifyLibrary)}},
	{"pypdf", []Tool{tool("pypdf", ModifyLibrary)}},
	{"pdftk 2.02 - www.pdftk.com", []Tool{tool("PDFtk", ModifyLibrary)}},
	{"PDFtk Server", []Tool{tool("PDFtk", ModifyLibrary)}},
	{"pdftk-java 3.0.9", []Tool{tool("PDFtk", ModifyLibrary)}},
	{"QPDF 10.3.1", []Tool{tool("qpdf", ModifyLibrary)}},
	{"pikepdf 8.15.1", []Tool{tool("pikepdf", ModifyLibrary)}},
	{"pdfcpu v0.3.13 dev", []Tool{tool("pdfcpu", ModifyLibrary)}},
	{"PDFium", []Tool{tool("PDFium", ModifyLibrary)}},
	{"cpdf, 2.5 (www.coherentpdf.com)", []Tool{tool("cpdf", ModifyLibrary)}},

	// Generation libraries.
	{"iText® 7.1.10 ©2000-2020 iText Group NV (AGPL-version)", []Tool{itext}},
	{"iTextSharp™ 5.5.13.1 ©2000-2019 iText Group NV (AGPL-version)", []Tool{itextSharp}},
	{"itext-paulo-155 (itextpdf.sf.net-lowagie.com)", []Tool{itext}},
	{"iText 2.1.7 by 1T3XT", []Tool{itext}},
	{"iTextSharp 4.1.2 (based on iText 2.1.2u)", []Tool{itextSharp}},
	{"LibreOffice 6.3; modified using iText® Core 7.2.2 (AGPL version) ©2000-2022 iText Group NV", []Tool{libre, itext}},
	{"OpenPDF 1.3.30", []Tool{tool("OpenPDF", Library)}},
	{"Skia/PDF m114", []Tool{skia}},
	{"Skia/PDF m137 Google Docs Renderer", []Tool{tool("Google Docs", OfficeSuite), skia}},
	{"Qt 5.15.2", []Tool{qt}},
	{"cairo 1.16.0 (https://cairographics.org)", []Tool{tool("cairo", Library)}},
	{"wkhtmltopdf 0.12.6", []Tool{tool("wkhtmltopdf", Library)}},
	{"FPDF 1.84", []Tool{tool("FPDF", Library)}},
	{"PyFPDF 1.7.2 http://pyfpdf.googlecode.com/", []Tool{tool("FPDF", Library)}},
	{"TCPDF 6.3.2 (http://www.tcpdf.org)", []Tool{tool("TCPDF", Library)}},
	{"mPDF 8.0", []Tool{tool("mPDF", Library)}},
	{"dompdf 1.2.0 + CPDF", []Tool{tool("Dompdf", Library)}},
	{"ReportLab PDF Library - www.reportlab.com", []Tool{tool("ReportLab", Library)}},
	{"PDFsharp 1.50.5147 (www.pdfsharp.com)", []Tool{tool("PDFsharp", Library)}},
	{"PDFsharp 1.50.5147 (www.pdfsharp.com) (Original: Microsoft® Word 2016)", []Tool{word, tool("PDFsharp", Library)}},
	{"Apache FOP Version 2.6", []Tool{tool("Apache FOP", Library)}},
	{"PDFKit", []Tool{tool("PDFKit", Library)}},
	{"Prince 14.2 (www.princexml.com)", []Tool{tool("Prince", Library)}},
	{"WeasyPrint 53.0", []Tool{tool("WeasyPrint", Library)}},
	{"Aspose.PDF for .NET 21.1", []Tool{tool("Aspose.PDF", Library)}},
	{"Aspose.Words for .NET 22.3.0", []Tool{tool("Aspose", Library)}},
	{"Apache PDFBox", []Tool{tool("Apache PDFBox", Library)}},
	{"jsPDF 1.0.272-debug 2014-09-29T15:09:diegocr", []Tool{tool("jsPDF", Library)}},
	{"3-Heights(TM) PDF Security API 4.6.26.2 (http://www.pdf-tools.com)", []Tool{tool("PDF Tools 3-Heights", Library)}},
	{"pyHanko 0.15.1", []Tool{tool("pyHanko", Library)}},
	{"HexaPDF version 0.46.0", []Tool{tool("HexaPDF", Library)}},
	{"Typst 0.14.2", []Tool{tool("Typst", Library)}},
	{"Matplotlib pdf backend v3.10.0", []Tool{tool("Matplotlib", Library)}},

	// TeX family.
	{"pdfTeX-1.40.21", []Tool{tool("pdfTeX", Library)}},
	{"LuaTeX-1.13.0", []Tool{tool("LuaTeX", Library)}},
	{"luahbtex-1.22.0", []Tool{tool("LuaTeX", Library)}},
	{"xdvipdfmx (20200315)", []Tool{tool("XeTeX", Library)}},
	{"dvipdfmx (20110311)", []Tool{tool("dvipdfmx", Library)}},
	{"LaTeX with hyperref", []Tool{tex}},

	// Office suites and authoring.
	{"LibreOffice 7.3", []Tool{libre}},
	{"Writer", []Tool{writer}},
	{"OpenOffice.org 3.4", []Tool{tool("OpenOffice", OfficeSuite)}},
	{"Pages", []Tool{tool("Apple Pages", OfficeSuite)}},
	{"TextEdit", []Tool{tool("Apple TextEdit", OfficeSuite)}},
	{"Corel WordPerfect - [U:\\NRCJ2436\\Report2.wpd (unmodified)]", []Tool{tool("Corel WordPerfect", OfficeSuite)}},

	// Print drivers and converters.
	{"GPL Ghostscript 9.50", []Tool{ghostscript}},
	{"GNU Ghostscript 5.50", []Tool{ghostscript}},
	{"Mac OS X 10.15.7 Quartz PDFContext", []Tool{quartz}},
	{"iOS Version 15.4.1 (Build 19E258) Quartz PDFContext", []Tool{quartz}},
	{"PDFCreator Version 0.9.3", []Tool{tool("PDFCreator", PrintDriver)}},
	{"eDocPrintPro - PDF printer driver - www.pdfprinter.at", []Tool{tool("eDocPrintPro", PrintDriver)}},
	{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36",
		[]Tool{tool("Google Chrome / Chromium", PrintDriver)}},

	// Report generators and statement systems.
	{"JasperReports Library version 6.20.0", []Tool{tool("JasperReports", ReportGenerator)}},
	{"Crystal Reports", []Tool{tool("Crystal Reports", ReportGenerator)}},
	{"Oracle BI Publisher 12.2.1.4.0", []Tool{tool("Oracle BI Publisher", ReportGenerator)}},
	{"BIRT Report Engine", []Tool{tool("BIRT", ReportGenerator)}},
	{"DocuSign", []Tool{tool("DocuSign", ReportGenerator)}},
	{"Rave (http://www.nevrona.com/rave)", []Tool{tool("Rave Reports", ReportGenerator)}},
	{"Style Report", []Tool{tool("InetSoft Style Report", ReportGenerator)}},
	{"Quadient CXM AG~Inspire~14.0.196.0", []Tool{tool("Quadient Inspire", CoreSystem)}},
	{"GMC Software AG~Inspire~11.0.61.0", []Tool{tool("Quadient Inspire", CoreSystem)}},
	{"OpenText Exstream Version 16.4", []Tool{tool("OpenText Exstream", CoreSystem)}},
	{"FreeFlow VI eCompose 15.0.3.0", []Tool{tool("Xerox FreeFlow VI (VIPP)", CoreSystem)}},
	{"Ricoh Americas Corporation", []Tool{tool("Ricoh AFP2PDF", CoreSystem)}},
	{"[Uniserve version 7.0.0] on Linux", []Tool{tool("Uniserve", CoreSystem)}},

	// Scanners and OCR.
	{"Canon iR-ADV C5535", []Tool{tool("Canon scanner/MFP", Scanner)}},
	{"IJ Scan Utility; modified using iText® 7.1.6 ©2000-2019 iText Group NV", []Tool{tool("Canon scanner/MFP", Scanner), itext}},
	{"Hewlett-Packard MFP", []Tool{tool("HP scanner/MFP", Scanner)}},
	{"Xerox WorkCentre 7845", []Tool{tool("Xerox scanner/MFP", Scanner)}},
	{"KONICA MINOLTA bizhub C364e", []Tool{tool("Konica Minolta bizhub", Scanner)}},
	{"ScanSnap Manager #iX500", []Tool{tool("Fujitsu ScanSnap", Scanner)}},
	{"CamScanner", []Tool{tool("CamScanner", Scanner)}},
	{"OCRmyPDF 13.4.0 / Tesseract OCR-PDF 4.1.1", []Tool{tool("OCRmyPDF", OCR), tool("Tesseract", OCR)}},

	// UTF-16 read byte-wise leaves NUL bytes between the letters.
	{"\x00W\x00r\x00i\x00t\x00e\x00r", []Tool{writer}},
	{"\x00P\x00D\x00F\x00C\x00r\x00e\x00a\x00t\x00o\x00r", []Tool{tool("PDFCreator", PrintDriver)}},
}

func TestMatchRealWorld(t *testing.T) {
	if len(realWorld) < 80 {
		t.Fatalf("only %d real-world cases", len(realWorld))
	}
	for _, tc := range realWorld {
		got := Match(tc.in)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Match(%q)\n got %v\nwant %v", tc.in, got, tc.want)
		}
	}
}

// mustNot lists strings that must match nothing (want empty) or must not
// produce a given tool or any editor.
var mustNot = []struct {
	in         string
	notTool    string // a tool that must not be reported ("" = nothing may match)
	noEditor   bool   // no editor class may be reported
	allowOther bool   // other tools may match
}{
	{in: "Adobe PDF Library 15.0", noEditor: true, allowOther: true},
	{in: "Acrobat PDFMaker 17 for Word", noEditor: true, allowOther: true},
	{in: "Acrobat PDFMaker 17 for Word", notTool: "Microsoft Word", allowOther: true},
	{in: "Distiller", noEditor: true, allowOther: true},
	{in: "Acrobat Distiller 10.1.16 (Windows)", noEditor: true, allowOther: true},
	{in: "Adobe Acrobat Pro DC 20.13.20074 Paper Capture Plug-in", noEditor: true, allowOther: true},
	{in: "Foxit PhantomPDF Printer Version 7.0.1.831", noEditor: true, allowOther: true},
	{in: "PDF24 Creator 11.15", noEditor: true, allowOther: true},
	{in: "Mac OS X 10.15.7 Quartz PDFContext", noEditor: true, allowOther: true},
	{in: "Nitrogen report"},
	{in: "Drawing"},
	{in: "draw.io"},
	{in: "Preview of statement"},
	{in: "Canvas report"},
	{in: "Quarterly statement"},
	{in: "Wordsworth Ltd"},
	{in: "Writer's Guild"},
	{in: "20 pages"},
	{in: "Statement generator"},
	{in: "Brotherhood of Banks"},
	{in: "   "},
	{in: ""},
	{in: "pdf-library", notTool: "pdf-lib", allowOther: true},
	{in: "TCPDF 6.3.2", notTool: "FPDF", allowOther: true},
	{in: "iTextSharp 5.5.13", notTool: "iText", allowOther: true},
	{in: "dompdf 1.2.0 + CPDF", notTool: "cpdf", allowOther: true},
	{in: "xdvipdfmx (20200315)", notTool: "dvipdfmx", allowOther: true},
	{in: "pypdfium2", notTool: "pypdf", allowOther: true},
	{in: "PSPDFKit", notTool: "PDFKit", allowOther: true},
	{in: "Acrobat PDFMaker 11 for Word", notTool: "pdfmake", allowOther: true},
	{in: "Ricoh Americas Corporation, AFP2PDF", notTool: "Ricoh scanner/MFP", allowOther: true},
	{in: "FreeFlow VI eCompose 15.0.3.0", notTool: "Xerox scanner/MFP", allowOther: true},
	{in: "Microsoft Reporting Services 13.0.0.0", notTool: "Microsoft Word", allowOther: true},
	{in: "Sejda PDF Desktop (http://www.sejda.com)", notTool: "Sejda", allowOther: true},
	{in: "LibreOffice Draw", notTool: "LibreOffice", allowOther: true},
}

func TestMatchNegative(t *testing.T) {
	if len(mustNot) < 15 {
		t.Fatalf("only %d negative cases", len(mustNot))
	}
	for _, tc := range mustNot {
		got := Match(tc.in)
		if !tc.allowOther && got != nil {
			t.Errorf("Match(%q) = %v, want nil", tc.in, got)
		}
		for _, g := range got {
			if tc.notTool != "" && g.Name == tc.notTool {
				t.Errorf("Match(%q) reported %q: %v", tc.in, tc.notTool, got)
			}
			if tc.noEditor && g.Class.IsEditor() {
				t.Errorf("Match(%q) reported editor %v", tc.in, g)
			}
		}
	}
}

func TestCatalogue(t *testing.T) {
	if Count() < 90 {
		t.Fatalf("Count() = %d, want >= 90", Count())
	}
	entries := Entries()
	if len(entries) != Count() {
		t.Fatalf("Entries() has %d rows, Count() %d", len(entries), Count())
	}
	valid := map[Class]bool{OnlineEditor: true, DesktopEditor: true, ModifyLibrary: true, Library: true,
		OfficeSuite: true, PrintDriver: true, ReportGenerator: true, CoreSystem: true, Scanner: true, OCR: true}
	names := map[string]bool{}
	perClass := map[Class]int{}
	for _, e := range entries {
		if names[e.Name] {
			t.Errorf("duplicate name %q", e.Name)
		}
		names[e.Name] = true
		if !valid[e.Class] {
			t.Errorf("%q has unknown class %q", e.Name, e.Class)
		}
		perClass[e.Class]++
		if len(e.Patterns) == 0 {
			t.Errorf("%q has no patterns", e.Name)
		}
	}
	for c := range valid {
		if perClass[c] == 0 {
			t.Errorf("class %q has no entries", c)
		}
	}
	// Entries is a copy.
	entries[0].Patterns[0] = "mutated"
	entries[0].Name = "mutated"
	if Entries()[0].Name == "mutated" || Entries()[0].Patterns[0] == "mutated" {
		t.Error("Entries() shares memory with the catalogue")
	}
}

// TestPatternsReachable checks that every pattern is lower case, non-empty
// and, used as a value on its own, names its own entry and no other: an
// unreachable or colliding pattern is a catalogue bug.
func TestPatternsReachable(t *testing.T) {
	for _, r := range catalogue {
		all := append(append(append([]string{}, r.subs...), r.words...), r.whole...)
		all = append(all, r.not...)
		all = append(all, r.mask...)
		for _, p := range all {
			if p == "" || p != strings.ToLower(p) || strings.TrimSpace(p) != p {
				t.Errorf("%q: pattern %q must be non-empty, trimmed lower case", r.name, p)
			}
		}
		for _, p := range append(append(append([]string{}, r.subs...), r.words...), r.whole...) {
			got := Match(p)
			if len(got) != 1 || got[0].Name != r.name {
				t.Errorf("%q: pattern %q alone gives %v", r.name, p, got)
			}
		}
	}
}

func TestIsEditor(t *testing.T) {
	for c, want := range map[Class]bool{OnlineEditor: true, DesktopEditor: true, ModifyLibrary: true,
		Library: false, OfficeSuite: false, PrintDriver: false, ReportGenerator: false,
		CoreSystem: false, Scanner: false, OCR: false, Class("other"): false} {
		if c.IsEditor() != want {
			t.Errorf("%q.IsEditor() = %v", c, !want)
		}
	}
}

func TestIdentify(t *testing.T) {
	in := []string{
		"LibreOffice 6.3; modified using iText® Core 7.2.2 (AGPL version) ©2000-2022 iText Group NV", // Info Producer
		"Writer", // Info Creator
		"LibreOffice 6.3; modified using iTextÂ® Core 7.2.2 (AGPL version) Â©2000-2022 iText Group NV", // XMP Producer
		"Writer", // XMP CreatorTool
		"",       // no history agent
		"iLovePDF",
	}
	want := []Tool{libre, itext, writer, tool("iLovePDF", OnlineEditor)}
	got := Identify(in...)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Identify = %v, want %v", got, want)
	}
	for i := 0; i < 10; i++ {
		if again := Identify(in...); !reflect.DeepEqual(again, got) {
			t.Fatalf("Identify not deterministic: %v vs %v", again, got)
		}
	}
	seen := map[string]bool{}
	for _, g := range got {
		if seen[g.Name] {
			t.Fatalf("Identify returned %q twice", g.Name)
		}
		seen[g.Name] = true
	}
	if Identify() != nil || Identify("", "unknown tool") != nil {
		t.Error("Identify of nothing recognised should be nil")
	}
	// Order is first seen: swapping the inputs swaps the output.
	if got := Identify("Writer", "Microsoft Word"); !reflect.DeepEqual(got, []Tool{writer, word}) {
		t.Errorf("order: %v", got)
	}
	if got := Identify("Microsoft Word", "Writer"); !reflect.DeepEqual(got, []Tool{word, writer}) {
		t.Errorf("order: %v", got)
	}
}

func TestMatchLongInput(t *testing.T) {
	long := strings.Repeat("x", 1<<20) + " iLovePDF"
	if got := Match(long); got != nil {
		t.Errorf("tail past the inspection limit matched: %v", got)
	}
	if got := Match("iLovePDF " + strings.Repeat("x", 1<<20)); len(got) != 1 {
		t.Errorf("head of a long value not matched: %v", got)
	}
}

func BenchmarkIdentify(b *testing.B) {
	in := []string{
		"Microsoft® Word for Microsoft 365", // Info Producer
		"Microsoft® Word for Microsoft 365", // Info Creator
		"iLovePDF",                          // XMP pdf:Producer
		"Adobe Acrobat Pro DC 21.1.20145",   // XMP history agent
	}
	b.ReportAllocs()
	for b.Loop() {
		if len(Identify(in...)) != 3 {
			b.Fatal("unexpected result")
		}
	}
}
