package office

import (
	"path"
	"strings"

	"github.com/doctrust/doctrust/engine/internal/cfb"
	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// officeMacrosFamily declares the family (report.Declaration).
var officeMacrosFamily = declaration{
	ID:      "office-macros",
	Order:   10,
	Run:     (*analysis).macros,
	Summary: "VBA projects and macro-enabled content types.",
	Evidence: []string{
		"vbaProject", "macroEnabledType", "xlmSheets", "autoOpenNames", "autoExec",
		"suspiciousKeywords", "modules[]", "parts[]",
	},
	Variants: []report.VariantDecl{
		{Code: "enabled-no-macros", Severity: report.Info, Title: "Macro-enabled format without macros", Text: "The package uses the macro-enabled {format} format but carries no macro parts."},
		{Code: "disguised", Severity: report.High, Title: "Macros in a macro-free format", Text: "The package declares the macro-free {format} format yet carries {parts#macro part|macro parts}; nothing was run."},
		{Code: "vba", Severity: report.Medium, UpTo: report.High, Title: "VBA macros present", Text: "The package carries {parts#VBA project|VBA projects} with {modules#module stream|module streams}; nothing was run."},
		{Code: "vba-autoexec", Severity: report.High, Title: "Macros that run on open and reach the system", Text: "The document carries VBA macros with {autoexec#entry point|entry points} that run when it opens or closes and {keywords#keyword|keywords} used to start programs, fetch or write files, call Windows or hide code, in {modules#module|modules}; nothing was run."},
		{Code: "xlm-auto-open", Text: "{names#defined name runs|defined names run} the Excel 4 macros automatically when the workbook opens or closes (Excel's automatic open and close names): the macros start on their own."},
		{Code: "xlm", Severity: report.Medium, UpTo: report.High, Title: "Excel 4 macro sheets present", Text: "The package carries {sheets#Excel 4 (XLM) macro sheet|Excel 4 (XLM) macro sheets}; nothing was run."},
	},
}

const ctVBA = "application/vnd.ms-office.vbaproject"

// macroParts lists the parts that carry macros: VBA projects (by name,
// content type or relationship) and Excel 4 macro sheets.
func (a *analysis) macroParts() (vba, xlm []string) {
	vbaTargets := map[string]bool{}
	for _, r := range a.rels {
		if !r.External && strings.EqualFold(r.Type, "vbaProject") {
			vbaTargets[strings.ToLower(r.Resolved)] = true
		}
	}
	for _, p := range a.pkg.Parts {
		n := p.lower
		ct := a.ct.of(p)
		switch {
		case path.Base(n) == "vbaproject.bin", ct == ctVBA, vbaTargets[n]:
			vba = append(vba, p.Name)
		case strings.Contains(n, "/_rels/"), strings.Contains(n, "binaryindex"):
			// A sheet's relationships and the binary workbook's
			// index are not sheets.
		case strings.HasPrefix(n, "xl/macrosheets/"), strings.HasPrefix(n, "xl/intlmacrosheets/"),
			strings.Contains(ct, "ms-excel.macrosheet"), strings.Contains(ct, "ms-excel.intlmacrosheet"):
			xlm = append(xlm, p.Name)
		}
	}
	return vba, xlm
}

func (a *analysis) hasMacros() bool {
	vba, xlm := a.macroParts()
	return len(vba)+len(xlm) > 0
}

func macroEnabled(f sniff.Format) bool {
	// A binary workbook is the one format that may carry macros under
	// one name.
	return f == sniff.DOCM || f == sniff.XLSM || f == sniff.PPTM || f == sniff.XLSB
}

// macros reports VBA projects and macro sheets. A package whose main content
// type claims the macro-free form while carrying macros is the high variant:
// Office will not run them from a .docx, but a renamed copy will, and the
// mismatch is itself a sign of crafting. Module names come from the VBA
// project's dir stream, and the module source is decompressed (bounded) to
// find entry points that run on open and the keywords malware uses, as for
// the binary formats; nothing is run.
func (a *analysis) macros() *report.Finding {
	vba, xlm := a.macroParts()
	enabled := macroEnabled(a.format)
	if len(vba)+len(xlm) == 0 {
		if !enabled || a.format == sniff.XLSB {
			return nil
		}
		return &report.Finding{
			Family:   report.FamilyOfficeMacros,
			Severity: report.Info,
			Message:  report.Msg("office-macros.enabled-no-macros", "format", report.Kind(a.format)),
			Evidence: map[string]any{"macroEnabledType": true, "vbaProject": false},
		}
	}
	var modules []string
	var projects []vbaProject
	for _, n := range vba {
		data := a.pkg.ReadName(n)
		ps := readVBAProjects(cfb.Open(data, MaxPartBytes))
		projects = append(projects, ps...)
		if len(ps) == 0 {
			// No readable dir stream: the directory's stream names.
			for _, m := range vbaModuleNames(data) {
				modules = append(modules, report.Untrusted(m))
			}
		}
		for _, p := range ps {
			for _, m := range p.modules {
				modules = append(modules, report.Untrusted(m))
			}
		}
	}
	_, auto, kw, _ := mergeVBA(projects)
	parts := untrustedList(append(append([]string(nil), vba...), xlm...))
	ev := map[string]any{
		"macroEnabledType":   enabled,
		"vbaProject":         len(vba) > 0,
		"xlmSheets":          len(xlm),
		"autoOpenNames":      a.xl.autoOpenNames,
		"autoExec":           auto,
		"suspiciousKeywords": kw,
	}
	report.Capped(ev, "parts", parts)
	report.Capped(ev, "modules", modules)
	f := &report.Finding{Family: report.FamilyOfficeMacros, Evidence: ev}
	macroCounts{disguised: !enabled, format: a.format, parts: len(parts), vba: len(vba), modules: len(modules),
		autoExec: len(auto), keywords: len(kw), xlmSheets: len(xlm), autoOpen: a.xl.autoOpenNames}.rate(f)
	return f
}

// macroCounts is what office-macros' severity ladder reads, the same for an
// OOXML package, a binary document and an OpenDocument file's Basic.
type macroCounts struct {
	// disguised: macros in a package whose format claims none (OOXML).
	disguised bool
	format    sniff.Format
	// parts are the macro parts of a disguised package; vba the VBA
	// projects, with their modules, entry points that run on open and
	// keywords malware uses.
	parts, vba, modules, autoExec, keywords int
	// xlmSheets are Excel 4 macro sheets, autoOpen the names that run
	// them on open.
	xlmSheets, autoOpen int
}

// rate sets f's severity, message and notes.
func (m macroCounts) rate(f *report.Finding) {
	switch {
	case m.disguised:
		f.Severity = report.High
		f.Message = report.Msg("office-macros.disguised", "parts", m.parts, "format", report.Kind(m.format))
	case m.vba > 0 && m.autoExec > 0 && m.keywords > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-macros.vba-autoexec", "autoexec", m.autoExec, "keywords", m.keywords, "modules", m.modules)
	case m.vba > 0:
		f.Severity = report.Medium
		f.Message = report.Msg("office-macros.vba", "parts", m.vba, "modules", m.modules)
	default:
		f.Severity = report.Medium
		f.Message = report.Msg("office-macros.xlm", "sheets", m.xlmSheets)
	}
	if m.vba > 0 && m.xlmSheets > 0 {
		f.Notes = append(f.Notes, report.Msg("office-macros.xlm", "sheets", m.xlmSheets))
	}
	// Excel 4 macros named to run on open are how XLM droppers start.
	if m.xlmSheets > 0 && m.autoOpen > 0 {
		f.Severity = report.High
		f.Notes = append(f.Notes, report.Msg("office-macros.xlm-auto-open", "names", m.autoOpen))
	}
}

// untrustedList sanitises attacker-authored names for evidence.
func untrustedList(in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = report.Untrusted(s)
	}
	return out
}

// joinUntrusted joins snippets for a single recovered-text value, cut to the
// untrusted-string length.
func joinUntrusted(in []string) string {
	return report.Untrusted(strings.Join(in, " | "))
}
