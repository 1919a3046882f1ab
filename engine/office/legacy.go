package office

import (
	"context"
	"encoding/binary"

	"github.com/doctrust/doctrust/engine/internal/cfb"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Binary Office 97-2003 (.doc, .xls, .ppt): a compound file whose streams
// are read, bounded, for the same families as an OOXML package. Word's
// hidden runs and revision marks are read from its character formatting;
// comments, and PowerPoint's text, are not decoded, which the report says
// in a note beside the blind spot.

// legacy carries what the compound-file walk learned.
type legacy struct {
	ctx     context.Context
	format  sniff.Format
	f       *cfb.File
	props   props
	vba     []vbaProject
	biff    biffScan
	ppt     pptScanResult
	objects []oleObject
	dde     int       // DDE fields in Word text
	word    wordScan  // hidden runs and revision marks of Word text
	cells   biffCells // values in hidden rows and columns of a workbook
	// comments are Word's comment texts (attacker-authored).
	comments []string
	// template is Word's attached template path (attacker-authored).
	template string
	encrypt  string // "" or the encryption method of the records
	// defaultPassword: the records were encrypted with Excel's default
	// password and were decrypted.
	defaultPassword bool
	damaged         []string
	expanded        int64
}

// legacyStreamLimit caps the bytes read from one main stream.
const legacyStreamLimit = 64 << 20

// AnalyzeLegacy inspects a binary Office file the sniffer recognised as
// DOC, XLS or PPT. Like Analyze, it returns ErrDeadline only when ctx ends.
func AnalyzeLegacy(ctx context.Context, data []byte, format sniff.Format, opt Options) (*report.Report, error) {
	l := openLegacy(ctx, data, format, opt.Budget)
	if ctx.Err() != nil {
		return nil, ErrDeadline
	}
	r := report.New(report.MediaOffice, int64(len(data)))
	l.fillBlocks(r)
	r.Document.Encrypted = l.defaultPassword
	if l.encrypt != "" {
		r.Document.Encrypted = true
		r.Add(report.Finding{
			Family:   report.FamilyStructureWarnings,
			Severity: report.Low,
			Message:  report.Msg("structure-warnings.encrypted-content-not-analysed", "skipped", 7),
			Evidence: map[string]any{"code": "encrypted-content-not-analysed", "codes": []string{"encrypted-content-not-analysed"}, "skippedFamilies": 7},
		})
	} else {
		// The metadata and injection families read props only: the
		// analysis type serves both formats.
		a := &analysis{ctx: ctx, opt: opt, format: format, props: l.props, kind: legacyKind(format), pkg: &Package{byName: map[string]*Part{}}}
		a.word = l.word
		a.comments = append(append(append([]string(nil), l.comments...), l.cells.notes...), l.ppt.comments...)
		a.ppt.recovered = l.ppt.hiddenText
		a.xl.hiddenSheets, a.xl.veryHiddenSheets = l.biff.hiddenSheets, l.biff.veryHiddenSheets
		a.ppt.hiddenSlides = l.ppt.hidden
		a.xl.hiddenRowCells, a.xl.hiddenColCells, a.xl.recovered = l.cells.rowCells, l.cells.colCells, l.cells.recovered
		for _, f := range []*report.Finding{l.macros(), l.externalLinks(), l.embeddedObjects(), a.hiddenContent(), a.trackedChanges(), a.injectionMarkers(), a.metadataAnomalies(), l.figureArithmetic()} {
			if f != nil {
				r.Add(*f)
			}
		}
	}
	r.Add(l.structure())
	r.Summary.Cost.ExpandedBytes = l.expanded
	r.Finish()
	return r, nil
}

func legacyKind(f sniff.Format) string {
	switch f {
	case sniff.DOC:
		return "word"
	case sniff.XLS:
		return "xl"
	case sniff.PPT:
		return "ppt"
	}
	return ""
}

func openLegacy(ctx context.Context, data []byte, format sniff.Format, budget int64) *legacy {
	if budget <= 0 {
		budget = DefaultBudget
	}
	l := &legacy{ctx: ctx, format: format}
	l.f = cfb.Open(data, budget)
	if l.f == nil {
		l.damaged = append(l.damaged, cfb.AnomalyHeader)
		return l
	}
	f := l.f
	read := func(p string) []byte {
		if e := f.Lookup(p); e != nil && e.Type == cfb.TypeStream {
			return f.Read(e, legacyStreamLimit)
		}
		return nil
	}
	var bad []string
	si, dsi := read("\x05SummaryInformation"), read("\x05DocumentSummaryInformation")
	l.props, bad = legacyProps(si, dsi)
	l.damaged = append(l.damaged, bad...)
	if ctx.Err() != nil {
		return l
	}
	switch format {
	case sniff.DOC:
		wd := read("WordDocument")
		if len(wd) >= 12 && binary.LittleEndian.Uint16(wd[0x0A:])&0x0100 != 0 {
			if binary.LittleEndian.Uint16(wd[0x0A:])&0x8000 != 0 {
				l.encrypt = "xor"
			} else {
				l.encrypt = "rc4"
			}
			break
		}
		l.dde = wordDDE(wd)
		if !scanWordFormatting(wd, read, &l.word) {
			l.damaged = append(l.damaged, "WordDocument")
		}
		l.comments = wordComments(wd, read)
		l.template = wordTemplate(wd, read)
	case sniff.XLS:
		wb := read("Workbook")
		if wb == nil {
			wb = read("Book")
		}
		l.biff = scanBIFF(wb, false)
		if l.biff.encrypted {
			plain := decryptXLS(wb)
			if plain == nil {
				l.encrypt = l.biff.encryption
				break
			}
			l.defaultPassword = true
			l.biff = scanBIFF(plain, true)
			wb = plain
		}
		l.cells = scanBIFFCells(wb)
		if l.biff.damaged {
			l.damaged = append(l.damaged, "Workbook")
		}
	case sniff.PPT:
		if f.Lookup("EncryptedSummary") != nil {
			l.encrypt = "rc4-cryptoapi"
			break
		}
		l.ppt = scanPPTRecords(read("PowerPoint Document"), budget)
		l.expanded += l.ppt.expanded
		if l.ppt.damaged {
			l.damaged = append(l.damaged, "PowerPoint Document")
		}
		l.vba = append(l.vba, l.ppt.vba...)
		l.objects = append(l.objects, l.ppt.objects...)
	}
	if l.encrypt != "" || ctx.Err() != nil {
		return l
	}
	l.vba = append(l.vba, readVBAProjects(f)...)
	for _, p := range l.vba {
		if p.damaged {
			l.damaged = append(l.damaged, "VBA")
			break
		}
	}
	for _, i := range objectStorages(f) {
		l.objects = append(l.objects, objectFrom(f, i))
	}
	return l
}

// fillBlocks sets the office and document blocks from the property sets,
// with the names SPEC.md gives for OOXML.
func (l *legacy) fillBlocks(r *report.Report) {
	var parts *int
	if l.f != nil {
		n := len(l.f.Streams())
		parts = &n
	}
	fillPropertyBlocks(r, &l.props, l.format, parts, l.hasMacros())
	d := &r.Document
	d.Signed = l.f != nil && (l.f.Lookup("_signatures") != nil || l.f.Lookup("\x05DigitalSignature") != nil || l.f.Lookup("_xmlsignatures") != nil)
}

func (l *legacy) hasMacros() bool {
	// An Excel 5 module sheet (BOUNDSHEET type 6) is part of the VBA
	// project, which is read on its own.
	return len(l.vba) > 0 || l.biff.macroSheets > 0
}

// macros reports VBA projects and Excel 4 macro sheets. A project whose
// source has an entry point that runs on open and uses a keyword malware
// needs is the high variant, as olevba would call it suspicious.
func (l *legacy) macros() *report.Finding {
	return macroFinding(l.vba, l.biff.macroSheets, l.biff.autoOpenNames)
}

// macroFinding is the office-macros finding of a binary file (and of the
// VBA project inside an OOXML package when it is read).
func macroFinding(vba []vbaProject, xlmSheets int, autoOpen []string) *report.Finding {
	if len(vba) == 0 && xlmSheets == 0 {
		return nil
	}
	modules, auto, kw, _ := mergeVBA(vba)
	ev := map[string]any{
		"macroEnabledType":   true,
		"vbaProject":         len(vba) > 0,
		"xlmSheets":          xlmSheets,
		"autoOpenNames":      untrustedList(autoOpen),
		"autoExec":           auto,
		"suspiciousKeywords": kw,
	}
	report.Capped(ev, "modules", untrustedList(modules))
	f := &report.Finding{Family: report.FamilyOfficeMacros, Evidence: ev}
	macroCounts{vba: len(vba), modules: len(modules), autoExec: len(auto), keywords: len(kw),
		xlmSheets: xlmSheets, autoOpen: len(autoOpen)}.rate(f)
	return f
}

// externalLinks reports DDE fields, DDE and OLE supporting links, external
// workbooks and linked OLE objects.
func (l *legacy) externalLinks() *report.Finding {
	counts := map[string]int{}
	var links []linkEntry
	counts["dde"] = l.dde + l.biff.ddeLinks
	counts["ole-link"] = l.biff.oleLinks + l.ppt.links
	for _, o := range l.objects {
		if o.Linked {
			counts["ole-link"]++
			links = append(links, linkEntry{Kind: "ole-link", Host: report.Untrusted(linkHost(o.Target))})
		}
	}
	if remoteTemplate(l.template) {
		counts["remote-template"]++
		links = append(links, linkEntry{Kind: "remote-template", Host: report.Untrusted(linkHost(l.template))})
	}
	for _, p := range l.biff.externalBooks {
		counts["external-workbook"]++
		links = append(links, linkEntry{Kind: "external-workbook", Host: report.Untrusted(linkHost(p))})
	}
	return linkFinding(counts, links)
}

// embeddedObjects reports the embedded OLE objects and the files packaged
// in them; a packaged file with a program's extension is high.
func (l *legacy) embeddedObjects() *report.Finding {
	return objectFinding(l.objects)
}

func objectFinding(objs []oleObject) *report.Finding {
	var files, exes []string
	embedded, equations := 0, 0
	for _, o := range objs {
		if o.Linked {
			continue
		}
		embedded++
		if o.Equation {
			equations++
		}
		if o.File != "" || o.Source != "" {
			name := o.File
			if name == "" {
				name = o.Source
			}
			files = append(files, report.Untrusted(name))
			if o.Executable {
				exes = append(exes, report.Untrusted(name))
			}
		}
	}
	if embedded == 0 {
		return nil
	}
	ev := map[string]any{"oleObjects": embedded, "packages": 0, "activeX": 0, "fonts": 0, "executables": len(exes), "equationEditor": equations}
	report.Capped(ev, "packagedFiles", files)
	f := &report.Finding{Family: report.FamilyOfficeEmbeddedObjects, Evidence: ev}
	switch {
	case len(exes) > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-embedded-objects.executable", "executables", len(exes), "ole", embedded)
		if equations > 0 {
			f.Notes = append(f.Notes, report.Msg("office-embedded-objects.equation-editor", "count", equations, "ole", embedded))
		}
		return f
	case equations > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-embedded-objects.equation-editor", "count", equations, "ole", embedded)
		return f
	}
	f.Severity = report.Medium
	f.Message = report.Msg("office-embedded-objects.ole", "ole", embedded, "packages", 0, "activex", 0, "fonts", 0)
	return f
}

// structure is the always-present office-structure-anomalies signal of a
// binary file, with the blind-spot note last.
func (l *legacy) structure() report.Finding {
	ev := map[string]any{}
	var vs []report.Variant
	var codes []string
	add := func(code string, s report.Severity, m report.Message) {
		codes = append(codes, code)
		vs = append(vs, report.Variant{Severity: s, Message: m})
	}
	streams := 0
	if l.f != nil {
		streams = len(l.f.Streams())
		if an := l.f.Anomalies(); len(an) > 0 {
			ev["compoundFileDamage"] = an
			if len(an) == 1 && an[0] == cfb.AnomalyBudget {
				add("expansion-limit", report.Medium, report.Msg("office-structure-anomalies.expansion-limit", "parts", 1, "partLimitBytes", legacyStreamLimit))
			} else {
				add("compound-damaged", report.Medium, report.Msg("office-structure-anomalies.compound-damaged", "count", len(an)))
			}
		}
	}
	ev["streamCount"] = streams
	ev["expandedBytes"] = l.expanded
	if l.ppt.limited {
		add("expansion-limit", report.Medium, report.Msg("office-structure-anomalies.expansion-limit", "parts", 1, "partLimitBytes", maxOLEStorage))
	}
	var records []string
	for _, d := range dedupe(l.damaged) {
		if d != cfb.AnomalyHeader {
			records = append(records, d)
		}
	}
	if len(records) > 0 {
		report.Capped(ev, "damagedStreams", untrustedList(records))
		add("records-damaged", report.Low, report.Msg("office-structure-anomalies.records-damaged", "count", len(records)))
	}
	if l.f == nil {
		add("package-unreadable", report.Medium, report.Msg("office-structure-anomalies.compound-damaged", "count", 1))
	}
	if l.encrypt != "" {
		ev["encryption"] = l.encrypt
		add("encrypted-legacy", report.Info, report.Msg("office-structure-anomalies.encrypted-legacy", "format", report.Kind(l.format), "method", report.Kind(l.encrypt)))
	}
	if len(vs) == 0 {
		add("compound-walked", report.Info, report.Msg("office-structure-anomalies.compound-walked", "streams", streams, "format", report.Kind(l.format)))
	}
	f := composeStructure(vs, codes, ev)
	if l.defaultPassword {
		ev["defaultPassword"] = true
		f.Notes = append(f.Notes, report.Msg("office-structure-anomalies.default-password"))
	}
	f.Notes = append(f.Notes, report.Msg("office-structure-anomalies.binary-not-covered"), report.Msg("office-structure-anomalies.blind-spot"))
	return *f
}
