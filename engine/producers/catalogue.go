// Package producers identifies the software that wrote a PDF from its
// /Producer and /Creator strings (Info dictionary) and the XMP equivalents
// (pdf:Producer, xmp:CreatorTool, xmpMM:History stEvt:softwareAgent).
//
// It backs the producer-fingerprint signal family. Fraud teams care most
// about PDF editors (online editors, desktop editors and libraries that are
// mostly used to alter existing files); authoring tools (office suites,
// report generators, statement composition systems, print drivers, scanners)
// are the normal origin of a genuine document.
//
// The catalogue is one table of lower-case patterns (see catalogue below).
// Matching is substring based, with optional whole-word and whole-value
// patterns, vetoes and masks; there is no regular expression on the hot path.
//
// Classification decisions for tools that could sit in more than one class:
//
//   - PDFsharp is a Library. It is mostly used to generate documents (often
//     with MigraDoc) in .NET line-of-business applications. When it re-saves
//     an imported file it writes "PDFsharp x.y (...) (Original: <old
//     producer>)", so Match reports both PDFsharp and the original tool and
//     the "(Original:" marker is left to the caller as a modification trace.
//   - Apache PDFBox, Aspose (PDF and the other Aspose products), iText,
//     OpenPDF, PDF Tools AG 3-Heights and HexaPDF are Libraries: they are
//     general SDKs whose dominant use is server-side generation or pipeline
//     post-processing (genuine bank statements routinely carry
//     "...; modified using iText/OpenPDF" or "3-Heights(TM) PDF Security").
//     The "; modified using" suffix is a caller-level trace, not a class.
//   - pypdf, pdf-lib, pdftk, qpdf, pikepdf, cpdf, HummusJS/muhammara, pdfcpu,
//     PyMuPDF, pdfrw, PDFium, PDFTron/Apryse PDFNet and PSPDFKit are
//     modification libraries: they write a PDF mostly by loading and
//     re-saving an existing one. PDFium in particular appears almost only
//     when a loaded document is saved again (Chrome's viewer, pdfium
//     bindings); genuine statements re-saved that way (for instance to drop
//     the password) carry it too, so callers should weight it accordingly.
//   - Quartz PDFContext (macOS/iOS) is a PrintDriver: it is the operating
//     system's print/export path, the analogue of "Microsoft: Print To PDF".
//     It is not an editor even though Preview uses it. The AppendMode marker
//     ("Quartz PDFContext, AppendMode 1.1") is written when Apple's PDFKit
//     re-saves a loaded document, so that marker is catalogued separately as
//     the desktop editor "Apple Preview / PDFKit".
//   - PDF24: "PDF24 Creator" is the virtual printer (PrintDriver); any other
//     PDF24 mention (the web tools at tools.pdf24.org, and the same toolbox
//     bundled offline) is the OnlineEditor "PDF24 Tools".
//   - ABBYY: the "FineReader PDF" line (15 and later, and PDF Transformer)
//     is a DesktopEditor; other ABBYY strings (FineReader 14 and earlier,
//     FineReader Engine/Server, Recognition Server, FlexiCapture) are OCR.
//   - Adobe Acrobat is a DesktopEditor except its creation components:
//     PDFMaker (OfficeSuite), Distiller, PDFWriter and Web Capture
//     (PrintDriver), Paper Capture (OCR), Image Conversion (Scanner) and
//     Acrobat Sign (ReportGenerator).
//   - Adobe Illustrator and Photoshop are DesktopEditors like Inkscape: they
//     open and re-save existing PDFs. InDesign, FrameMaker, PageMaker and
//     QuarkXPress are authoring (OfficeSuite).
//   - Canva is an OnlineEditor: it imports and edits existing PDFs, and a
//     financial document that comes out of Canva is a forgery trace either way.
//   - ExifTool is a ModifyLibrary: in a PDF it only ever rewrites the
//     metadata of an existing file.
//   - Ghostscript is a PrintDriver, but Ghostscript's pdfwrite over a file
//     whose creator writes PDF itself (a PDF library, a browser's PDF
//     printing, an office suite's own PDF export) is a re-distill of an
//     existing PDF: Redistill reports it as the ModifyLibrary "Ghostscript
//     pdfwrite (re-distill)".
//   - Signing services and libraries (DocuSign, Acrobat Sign: ReportGenerator;
//     pyHanko: Library) are not editors; their incremental updates belong to
//     the signature family.
package producers

// Class says what kind of software a tool is.
type Class string

// The classes of the catalogue.
const (
	OnlineEditor    Class = "online-editor"        // web PDF editors: iLovePDF, Smallpdf, Sejda, PDF24 Tools, Canva, ...
	DesktopEditor   Class = "desktop-editor"       // Acrobat, Foxit, Nitro, PDF-XChange Editor, PDFelement, Preview/PDFKit, ...
	ModifyLibrary   Class = "modification-library" // libraries mostly used to alter PDFs: pypdf, pdf-lib, pdftk, qpdf, PDFium, ...
	Library         Class = "library"              // generation libraries and engines: iText, PDFBox, ReportLab, Skia, TeX, ...
	OfficeSuite     Class = "office-suite"         // office and authoring applications: Word, LibreOffice, Pages, InDesign, ...
	PrintDriver     Class = "print-driver"         // virtual printers and OS/browser print paths: Distiller, Ghostscript, Quartz, ...
	ReportGenerator Class = "report-generator"     // reporting, forms and e-signature services: JasperReports, SSRS, DocuSign, ...
	CoreSystem      Class = "core-system"          // statement composition systems: Quadient Inspire, OpenText Exstream, ...
	Scanner         Class = "scanner"              // scanner/MFP firmware and capture apps: Canon iR-ADV, HP MFP, CamScanner, ...
	OCR             Class = "ocr"                  // OCR layers: ABBYY FineReader engine, OCRmyPDF, Tesseract, Paper Capture, ...
)

// IsEditor reports whether the class edits existing PDFs (OnlineEditor,
// DesktopEditor, ModifyLibrary).
func (c Class) IsEditor() bool {
	switch c {
	case OnlineEditor, DesktopEditor, ModifyLibrary:
		return true
	}
	return false
}

// Tool is one catalogue entry as reported.
type Tool struct {
	Name  string `json:"name"`  // normalised display name, e.g. "iLovePDF", "Adobe Acrobat"
	Class Class  `json:"class"` // what kind of software it is
}

// Entry is one catalogue entry for documentation. Patterns use a small
// notation: a plain pattern is a lower-case substring; `\btok\b` must stand
// as a whole word (no ASCII letter or digit on either side); `^tok$` must be
// the whole value, a version number aside; `!tok` vetoes the entry when the
// substring occurs anywhere; `~phrase` means a hit inside that phrase does
// not count.
type Entry struct {
	Name     string
	Class    Class
	Patterns []string
}

// rule is one catalogue row. All strings are lower case and matched against
// the lower-cased, normalised value.
type rule struct {
	name  string
	class Class
	subs  []string // substrings
	words []string // whole-word tokens
	whole []string // the entire value, versions aside
	not   []string // vetoes: the entry does not match if any occurs
	mask  []string // phrases inside which a hit of subs/words does not count
}

// catalogue is ordered most significant first: editors, then OCR, capture,
// statement systems, report generators, office suites, print drivers and
// generic libraries last. Match reports tools in this order.
var catalogue = []rule{
	// ---- online editors ----
	{name: "iLovePDF", class: OnlineEditor, subs: []string{"ilovepdf"}},
	{name: "Smallpdf", class: OnlineEditor, subs: []string{"smallpdf"}},
	{name: "Sejda", class: OnlineEditor, words: []string{"sejda"}, not: []string{"sejda pdf desktop", "sejda desktop"}},
	{name: "PDFescape", class: OnlineEditor, subs: []string{"pdfescape"}},
	{name: "PDF2Go", class: OnlineEditor, subs: []string{"pdf2go"}},
	{name: "DocFly", class: OnlineEditor, subs: []string{"docfly"}},
	{name: "pdfFiller", class: OnlineEditor, subs: []string{"pdffiller"}},
	{name: "Soda PDF", class: OnlineEditor, subs: []string{"soda pdf", "sodapdf"}},
	{name: "FormSwift", class: OnlineEditor, subs: []string{"formswift"}},
	{name: "PDFSimpli", class: OnlineEditor, subs: []string{"pdfsimpli"}},
	{name: "LightPDF", class: OnlineEditor, subs: []string{"lightpdf"}},
	{name: "HiPDF", class: OnlineEditor, words: []string{"hipdf"}},
	{name: "DocHub", class: OnlineEditor, subs: []string{"dochub"}},
	{name: "Xodo", class: OnlineEditor, words: []string{"xodo"}},
	{name: "Canva", class: OnlineEditor, words: []string{"canva"}},
	{name: "PDF24 Tools", class: OnlineEditor, words: []string{"pdf24"}, not: []string{"pdf24 creator", "pdf24creator"}},
	{name: "PDF Candy", class: OnlineEditor, subs: []string{"pdf candy", "pdfcandy"}},
	{name: "Online2PDF", class: OnlineEditor, subs: []string{"online2pdf"}},
	{name: "Stirling-PDF", class: OnlineEditor, subs: []string{"stirling-pdf", "stirling pdf", "stirlingpdf"}},

	// ---- desktop editors ----
	{name: "Adobe Acrobat", class: DesktopEditor, words: []string{"acrobat"},
		not: []string{"pdfmaker", "distiller", "pdfwriter", "paper capture", "acrobat capture",
			"image conversion", "web capture", "acrobat sign"}},
	{name: "Foxit PDF Editor", class: DesktopEditor,
		subs: []string{"foxit phantompdf", "foxit pdf editor", "foxit advanced pdf editor", "foxit editor"},
		not:  []string{"printer"}},
	{name: "Foxit PDF Reader", class: DesktopEditor, subs: []string{"foxit reader", "foxit pdf reader"},
		not: []string{"printer"}},
	{name: "Nitro PDF Pro", class: DesktopEditor, words: []string{"nitro", "nitropdf"}},
	{name: "PDF-XChange Editor", class: DesktopEditor,
		subs: []string{"pdf-xchange editor", "pdf-xchange viewer", "pdfxchange editor", "pdf-xchange pro"}},
	{name: "Wondershare PDFelement", class: DesktopEditor, subs: []string{"pdfelement", "wondershare"}},
	{name: "ABBYY FineReader PDF", class: DesktopEditor,
		subs: []string{"finereader pdf", "abbyy pdf transformer", "pdf transformer+"}},
	{name: "Master PDF Editor", class: DesktopEditor, subs: []string{"master pdf editor", "code industry"}},
	{name: "PDF Studio", class: DesktopEditor, subs: []string{"pdf studio"}},
	{name: "Kofax Power PDF", class: DesktopEditor, subs: []string{"power pdf"}},
	{name: "Nuance PDF Converter", class: DesktopEditor,
		subs: []string{"nuance pdf converter", "scansoft pdf converter", "pdf converter professional"}},
	{name: "Sejda PDF Desktop", class: DesktopEditor, subs: []string{"sejda pdf desktop", "sejda desktop"}},
	{name: "PDF Expert", class: DesktopEditor, subs: []string{"pdf expert", "readdle"}},
	{name: "Apple Preview / PDFKit", class: DesktopEditor, subs: []string{"appendmode"}, whole: []string{"preview"}},
	{name: "LibreOffice Draw", class: DesktopEditor, subs: []string{"libreoffice draw", "openoffice.org draw"}, whole: []string{"draw"}},
	{name: "Inkscape", class: DesktopEditor, subs: []string{"inkscape"}},
	{name: "Adobe Illustrator", class: DesktopEditor, subs: []string{"adobe illustrator"}, whole: []string{"illustrator"}},
	{name: "Adobe Photoshop", class: DesktopEditor, subs: []string{"photoshop"}},
	{name: "Infix PDF Editor", class: DesktopEditor, subs: []string{"infix pdf", "iceni technology"}},
	{name: "Able2Extract", class: DesktopEditor, subs: []string{"able2extract"}},
	{name: "Icecream PDF Editor", class: DesktopEditor, subs: []string{"icecream pdf"}},
	{name: "PDFsam", class: DesktopEditor, subs: []string{"pdfsam"}},
	{name: "PDFgear", class: DesktopEditor, subs: []string{"pdfgear"}},
	{name: "UPDF", class: DesktopEditor, words: []string{"updf"}},
	{name: "Bluebeam Revu", class: DesktopEditor, subs: []string{"bluebeam"}},
	{name: "PDF Architect", class: DesktopEditor, subs: []string{"pdf architect"}},
	{name: "PDFpen", class: DesktopEditor, subs: []string{"pdfpen"}},

	// ---- modification libraries ----
	{name: "pypdf", class: ModifyLibrary, subs: []string{"pypdf"}, not: []string{"pypdfium"}},
	{name: "pdf-lib", class: ModifyLibrary, words: []string{"pdf-lib"}},
	{name: "PDFtk", class: ModifyLibrary, words: []string{"pdftk"}},
	{name: "qpdf", class: ModifyLibrary, words: []string{"qpdf"}},
	{name: "pikepdf", class: ModifyLibrary, subs: []string{"pikepdf"}},
	{name: "cpdf", class: ModifyLibrary, words: []string{"cpdf"}, subs: []string{"coherent pdf", "coherentpdf"}, not: []string{"dompdf"}},
	{name: "HummusJS / muhammara", class: ModifyLibrary, subs: []string{"hummus", "muhammara"}},
	{name: "pdfcpu", class: ModifyLibrary, subs: []string{"pdfcpu"}},
	{name: "PyMuPDF / MuPDF", class: ModifyLibrary, subs: []string{"pymupdf"}, words: []string{"mupdf"}},
	{name: "pdfrw", class: ModifyLibrary, words: []string{"pdfrw"}},
	{name: "PDFium", class: ModifyLibrary, subs: []string{"pdfium"}},
	{name: "PDFTron / Apryse PDFNet", class: ModifyLibrary, subs: []string{"pdftron", "pdfnet"}},
	{name: "PSPDFKit", class: ModifyLibrary, subs: []string{"pspdfkit"}},
	// ExifTool rewrites metadata in place (as an incremental update for a
	// PDF) and names itself only as the XMP toolkit (x:xmptk
	// "Image::ExifTool 12.57"): in a PDF it is a metadata editor.
	{name: "ExifTool", class: ModifyLibrary, subs: []string{"image::exiftool"}, words: []string{"exiftool"}},

	// ---- OCR ----
	{name: "ABBYY FineReader", class: OCR, words: []string{"abbyy", "finereader"},
		subs: []string{"recognition server", "flexicapture"},
		not:  []string{"finereader pdf", "pdf transformer"}},
	{name: "OCRmyPDF", class: OCR, subs: []string{"ocrmypdf"}},
	{name: "Tesseract", class: OCR, subs: []string{"tesseract"}},
	{name: "Adobe Paper Capture", class: OCR, subs: []string{"paper capture", "acrobat capture"}},
	{name: "Readiris", class: OCR, subs: []string{"readiris"}},
	{name: "OmniPage", class: OCR, subs: []string{"omnipage"}},

	// ---- scanners and capture apps ----
	{name: "Adobe Acrobat Image Conversion", class: Scanner, subs: []string{"image conversion plug", "image conversion plugin"}},
	{name: "Canon scanner/MFP", class: Scanner, words: []string{"canon", "ir-adv"}, subs: []string{"ij scan utility", "imagerunner"}},
	{name: "Xerox scanner/MFP", class: Scanner, words: []string{"xerox"}, subs: []string{"workcentre", "altalink", "versalink"},
		not: []string{"freeflow", "vipp"}},
	{name: "HP scanner/MFP", class: Scanner,
		subs: []string{"hp digital sending", "hewlett-packard mfp", "hewlett packard mfp", "hp scan", "hp laserjet",
			"hp color laserjet", "hp officejet", "hp pagewide", "hp smart", "hp mfp"}},
	{name: "Kodak Capture", class: Scanner, words: []string{"kodak"}},
	{name: "Fujitsu ScanSnap", class: Scanner, subs: []string{"scansnap", "paperstream"}, words: []string{"fujitsu"}},
	{name: "Epson Scan", class: Scanner, words: []string{"epson"}},
	{name: "Brother scanner/MFP", class: Scanner, words: []string{"brother"}},
	{name: "Ricoh scanner/MFP", class: Scanner, words: []string{"ricoh"}, not: []string{"ricoh americas"}},
	{name: "Konica Minolta bizhub", class: Scanner, subs: []string{"konica minolta", "bizhub"}},
	{name: "Sharp scanner/MFP", class: Scanner, subs: []string{"sharp mx-", "sharp ar-", "sharp bp-", "sharpdesk", "sharp scan"}},
	{name: "Kyocera scanner/MFP", class: Scanner, words: []string{"kyocera", "taskalfa", "ecosys"}},
	{name: "Lexmark scanner/MFP", class: Scanner, words: []string{"lexmark"}},
	{name: "Toshiba e-STUDIO", class: Scanner, subs: []string{"e-studio"}},
	{name: "Adobe Scan", class: Scanner, subs: []string{"adobe scan"}},
	{name: "CamScanner", class: Scanner, subs: []string{"camscanner", "intsig"}},
	{name: "Genius Scan", class: Scanner, subs: []string{"genius scan", "thegrizzlylabs"}},
	{name: "Microsoft Lens", class: Scanner, subs: []string{"office lens", "microsoft lens"}},
	{name: "Scanbot", class: Scanner, subs: []string{"scanbot"}},
	{name: "NAPS2", class: Scanner, words: []string{"naps2"}},
	{name: "PaperPort", class: Scanner, subs: []string{"paperport"}},
	{name: "LuraDocument", class: Scanner, subs: []string{"luradocument", "luratech"}},

	// ---- statement composition / core systems ----
	{name: "Quadient Inspire", class: CoreSystem, subs: []string{"quadient", "gmc software", "gmc inspire"}},
	{name: "OpenText Exstream", class: CoreSystem, subs: []string{"exstream"}},
	{name: "Xerox FreeFlow VI (VIPP)", class: CoreSystem, subs: []string{"freeflow vi", "vipp"}},
	{name: "Ricoh AFP2PDF", class: CoreSystem, subs: []string{"ricoh americas", "afp2pdf", "infoprint"}},
	{name: "Uniserve", class: CoreSystem, words: []string{"uniserve"}},
	{name: "Newgen OmniOMS", class: CoreSystem, subs: []string{"omnioms", "newgen software"}},
	{name: "Trejhara", class: CoreSystem, subs: []string{"trejhara"}},
	{name: "ISIS Papyrus", class: CoreSystem, subs: []string{"isis papyrus", "papyrus docexec"}},
	{name: "Compart DocBridge", class: CoreSystem, subs: []string{"docbridge"}},
	{name: "OpenText StreamServe", class: CoreSystem, subs: []string{"streamserve"}},

	// ---- report generators, forms and e-signature services ----
	{name: "JasperReports", class: ReportGenerator, subs: []string{"jasperreports", "jaspersoft"}},
	{name: "Crystal Reports", class: ReportGenerator, subs: []string{"crystal reports", "powered by crystal", "crystal decisions"}},
	{name: "Oracle BI Publisher", class: ReportGenerator, subs: []string{"bi publisher", "xml publisher"}},
	{name: "Oracle Reports", class: ReportGenerator, subs: []string{"oracle reports"}},
	{name: "Microsoft Reporting Services", class: ReportGenerator, subs: []string{"reporting services"}},
	{name: "IBM Cognos", class: ReportGenerator, subs: []string{"cognos"}},
	{name: "BIRT", class: ReportGenerator, words: []string{"birt"}},
	{name: "Actuate", class: ReportGenerator, words: []string{"actuate"}},
	{name: "Qlik NPrinting", class: ReportGenerator, subs: []string{"nprinting"}, words: []string{"qlik"}},
	{name: "Tableau", class: ReportGenerator, words: []string{"tableau"}},
	{name: "Power BI", class: ReportGenerator, subs: []string{"power bi", "powerbi"}},
	{name: "DocuSign", class: ReportGenerator, subs: []string{"docusign"}},
	{name: "Adobe Acrobat Sign", class: ReportGenerator, subs: []string{"acrobat sign", "adobe sign", "echosign"}},
	{name: "Adobe LiveCycle / AEM Forms", class: ReportGenerator,
		subs:  []string{"livecycle", "aem forms", "adobe experience manager", "xml form module"},
		whole: []string{"designer"}},
	{name: "SAP", class: ReportGenerator, subs: []string{"sap netweaver", "sapscript", "sap smart forms", "smartforms"}},
	{name: "Stimulsoft Reports", class: ReportGenerator, subs: []string{"stimulsoft"}},
	{name: "FastReport", class: ReportGenerator, subs: []string{"fastreport"}},
	{name: "ActiveReports", class: ReportGenerator, subs: []string{"activereports"}},
	{name: "List & Label", class: ReportGenerator, subs: []string{"list & label", "combit"}},
	{name: "Rave Reports", class: ReportGenerator, subs: []string{"nevrona", "rave reports"}},
	{name: "InetSoft Style Report", class: ReportGenerator, subs: []string{"style report", "inetsoft"}},

	// ---- office suites and authoring applications ----
	{name: "Microsoft Word", class: OfficeSuite,
		subs:  []string{"microsoft word", "microsoft office word", "word for microsoft 365", "word for office 365"},
		whole: []string{"word"}},
	{name: "Microsoft Excel", class: OfficeSuite, subs: []string{"microsoft excel", "microsoft office excel"}},
	{name: "Microsoft PowerPoint", class: OfficeSuite, subs: []string{"microsoft powerpoint", "microsoft office powerpoint"}},
	{name: "Microsoft Publisher", class: OfficeSuite, subs: []string{"microsoft publisher", "microsoft office publisher"}},
	{name: "Acrobat PDFMaker", class: OfficeSuite, subs: []string{"pdfmaker"}},
	{name: "LibreOffice Writer", class: OfficeSuite, subs: []string{"libreoffice writer"}, whole: []string{"writer"}},
	{name: "LibreOffice Calc", class: OfficeSuite, subs: []string{"libreoffice calc"}, whole: []string{"calc"}},
	{name: "LibreOffice Impress", class: OfficeSuite, subs: []string{"libreoffice impress"}, whole: []string{"impress"}},
	{name: "LibreOffice", class: OfficeSuite, subs: []string{"libreoffice"},
		not: []string{"libreoffice draw", "libreoffice writer", "libreoffice calc", "libreoffice impress"}},
	{name: "OpenOffice", class: OfficeSuite, subs: []string{"openoffice", "staroffice"}, not: []string{"openoffice.org draw"}},
	{name: "Google Docs", class: OfficeSuite, subs: []string{"google docs", "google sheets", "google slides"}},
	{name: "Apple Pages", class: OfficeSuite, whole: []string{"pages"}},
	{name: "Apple Numbers", class: OfficeSuite, whole: []string{"numbers"}},
	{name: "Apple Keynote", class: OfficeSuite, whole: []string{"keynote"}},
	{name: "Apple TextEdit", class: OfficeSuite, whole: []string{"textedit"}},
	{name: "WPS Office", class: OfficeSuite, subs: []string{"wps office", "wps writer", "wps spreadsheets", "wps presentation", "kingsoft"}},
	{name: "Hancom Office", class: OfficeSuite, subs: []string{"hancom"}},
	{name: "ONLYOFFICE", class: OfficeSuite, subs: []string{"onlyoffice"}},
	{name: "Corel WordPerfect", class: OfficeSuite, subs: []string{"wordperfect"}},
	{name: "Adobe InDesign", class: OfficeSuite, subs: []string{"indesign"}},
	{name: "Adobe FrameMaker", class: OfficeSuite, subs: []string{"framemaker"}},
	{name: "Adobe PageMaker", class: OfficeSuite, subs: []string{"pagemaker"}},
	{name: "QuarkXPress", class: OfficeSuite, subs: []string{"quarkxpress"}},

	// ---- print drivers and converters ----
	{name: "Microsoft Print to PDF", class: PrintDriver, subs: []string{"microsoft: print to pdf", "microsoft print to pdf"}},
	{name: "Acrobat Distiller", class: PrintDriver, subs: []string{"distiller"}},
	{name: "Acrobat PDFWriter", class: PrintDriver, subs: []string{"acrobat pdfwriter"}},
	{name: "Acrobat Web Capture", class: PrintDriver, subs: []string{"web capture"}},
	{name: "Windows PostScript driver", class: PrintDriver, subs: []string{"pscript5", "adobeps"}},
	{name: "Ghostscript", class: PrintDriver, subs: []string{"ghostscript"}},
	{name: "PDFCreator", class: PrintDriver, words: []string{"pdfcreator"}},
	{name: "CutePDF", class: PrintDriver, subs: []string{"cutepdf"}},
	{name: "Bullzip PDF Printer", class: PrintDriver, subs: []string{"bullzip"}},
	{name: "PrimoPDF", class: PrintDriver, subs: []string{"primopdf"}},
	{name: "doPDF", class: PrintDriver, words: []string{"dopdf"}},
	{name: "novaPDF", class: PrintDriver, subs: []string{"novapdf"}},
	{name: "PDF24 Creator", class: PrintDriver, subs: []string{"pdf24 creator", "pdf24creator"}},
	{name: "Foxit PDF Printer", class: PrintDriver,
		subs: []string{"foxit phantompdf printer", "foxit reader pdf printer", "foxit pdf reader printer",
			"foxit pdf editor printer", "foxit pdf printer"}},
	{name: "PDF-XChange Printer", class: PrintDriver, words: []string{"pdf-xchange"},
		not: []string{"pdf-xchange editor", "pdf-xchange viewer", "pdf-xchange pro", "pdf-xchange core", "pdf-xchange pdf core"}},
	{name: "Nuance PDF Create", class: PrintDriver, subs: []string{"nuance pdf create", "scansoft pdf create", "kofax pdf create"}},
	{name: "eDocPrintPro", class: PrintDriver, subs: []string{"edocprintpro", "pdfprinter.at"}},
	{name: "Win2PDF", class: PrintDriver, subs: []string{"win2pdf"}},
	{name: "deskPDF", class: PrintDriver, subs: []string{"deskpdf"}},
	{name: "Amyuni PDF Converter", class: PrintDriver, subs: []string{"amyuni"}},
	{name: "macOS Quartz PDFContext", class: PrintDriver, subs: []string{"quartz pdfcontext"}},
	{name: "Google Chrome / Chromium", class: PrintDriver, subs: []string{"chrome/", "headlesschrome"}},
	{name: "Mozilla Firefox", class: PrintDriver, subs: []string{"firefox"}},

	// ---- generation libraries and engines ----
	{name: "iTextSharp", class: Library, subs: []string{"itextsharp"}},
	{name: "iText", class: Library, words: []string{"itext"}, subs: []string{"lowagie"},
		mask: []string{"itext group", "itext software", "based on itext"}},
	{name: "OpenPDF", class: Library, words: []string{"openpdf"}},
	{name: "Apache PDFBox", class: Library, subs: []string{"pdfbox"}},
	{name: "PDFsharp", class: Library, subs: []string{"pdfsharp", "migradoc"}},
	{name: "Aspose.PDF", class: Library, subs: []string{"aspose.pdf", "aspose pdf"}},
	{name: "Aspose", class: Library, words: []string{"aspose"}, not: []string{"aspose.pdf", "aspose pdf"}},
	{name: "Adobe PDF Library", class: Library, subs: []string{"adobe pdf library", "datalogics"}},
	{name: "PDF Tools 3-Heights", class: Library, subs: []string{"3-heights", "pdf-tools.com"}},
	{name: "PDF-XChange Core API", class: Library, subs: []string{"pdf-xchange core", "pdf-xchange pdf core"}},
	{name: "ReportLab", class: Library, subs: []string{"reportlab"}},
	{name: "TCPDF", class: Library, subs: []string{"tcpdf"}},
	{name: "FPDF", class: Library, words: []string{"fpdf", "pyfpdf", "fpdf2"}},
	{name: "mPDF", class: Library, words: []string{"mpdf"}},
	{name: "Dompdf", class: Library, subs: []string{"dompdf"}},
	{name: "wkhtmltopdf", class: Library, subs: []string{"wkhtmltopdf"}},
	{name: "openhtmltopdf", class: Library, subs: []string{"openhtmltopdf"}},
	{name: "Prince", class: Library, subs: []string{"princexml"}, whole: []string{"prince"}},
	{name: "WeasyPrint", class: Library, subs: []string{"weasyprint"}},
	{name: "Apache FOP", class: Library, subs: []string{"apache fop"}, whole: []string{"fop"}},
	{name: "Antenna House Formatter", class: Library, subs: []string{"antenna house"}},
	{name: "PDFKit", class: Library, words: []string{"pdfkit"}},
	{name: "jsPDF", class: Library, subs: []string{"jspdf"}},
	{name: "pdfmake", class: Library, words: []string{"pdfmake"}},
	{name: "PDFjet", class: Library, subs: []string{"pdfjet"}},
	{name: "PDFlib", class: Library, words: []string{"pdflib"}},
	{name: "Telerik", class: Library, subs: []string{"telerik"}},
	{name: "Syncfusion", class: Library, subs: []string{"syncfusion"}},
	{name: "DevExpress", class: Library, subs: []string{"devexpress", "developer express", "xtrareports"}},
	{name: "Spire.PDF", class: Library, subs: []string{"spire.pdf", "e-iceblue"}},
	{name: "QuestPDF", class: Library, subs: []string{"questpdf"}},
	{name: "PoDoFo", class: Library, subs: []string{"podofo"}},
	{name: "UniPDF", class: Library, subs: []string{"unipdf", "unidoc"}},
	{name: "HexaPDF", class: Library, subs: []string{"hexapdf"}},
	{name: "Prawn", class: Library, words: []string{"prawn"}},
	{name: "Qoppa jPDF", class: Library, words: []string{"qoppa"}, not: []string{"pdf studio"}},
	{name: "pyHanko", class: Library, subs: []string{"pyhanko"}},
	{name: "Matplotlib", class: Library, subs: []string{"matplotlib"}},
	{name: "Typst", class: Library, words: []string{"typst"}},
	{name: "groff", class: Library, words: []string{"groff"}},
	{name: "pdfTeX", class: Library, subs: []string{"pdftex"}},
	{name: "LuaTeX", class: Library, subs: []string{"luatex", "luahbtex"}},
	{name: "XeTeX", class: Library, subs: []string{"xetex", "xdvipdfmx"}},
	{name: "dvipdfmx", class: Library, subs: []string{"dvipdfm"}, not: []string{"xdvipdfm"}},
	{name: "dvips", class: Library, words: []string{"dvips"}},
	{name: "TeX / LaTeX", class: Library, words: []string{"latex"}, subs: []string{"tex output", "arxiv genpdf"}, whole: []string{"tex"}},
	{name: "Skia/PDF", class: Library, words: []string{"skia"}},
	{name: "Qt", class: Library, words: []string{"qt"}},
	{name: "cairo", class: Library, words: []string{"cairo"}, subs: []string{"cairographics"}},
}
