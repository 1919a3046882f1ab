package mcpserver

import (
	"fmt"
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
)

// The summaries quote only what the service writes itself: family ids,
// severities, catalogue titles, numbers and cue category names. Evidence
// strings (attacker-authored even after redaction) are never quoted.

// redactionFamilies are the findings check_redaction reports.
var redactionFamilies = []report.FamilyID{
	report.FamilyRedactionExposure, report.FamilyHiddenText, report.FamilyContentOverlay, report.FamilyAnnotationOverlays,
}

func signals(rep map[string]any) []map[string]any {
	list, _ := rep["signals"].([]any)
	out := make([]map[string]any, 0, len(list))
	for _, s := range list {
		if m, ok := s.(map[string]any); ok {
			out = append(out, m)
		}
	}
	return out
}

func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

func num(m map[string]any, k string) int {
	f, _ := m[k].(float64)
	return int(f)
}

func obj(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

// signalLine is "- [high] family-id: Title (cue categories: a 2, b 1)".
func signalLine(s map[string]any) string {
	line := fmt.Sprintf("- [%s] %s: %s", str(s, "severity"), str(s, "id"), str(s, "title"))
	if cues := cueText(obj(s, "evidence")); cues != "" {
		line += " (cue categories: " + cues + ")"
	}
	return line
}

// cueText lists an injection finding's cue categories with their counts.
func cueText(ev map[string]any) string {
	cues := obj(ev, "cues")
	if len(cues) == 0 {
		return ""
	}
	names := make([]string, 0, len(cues))
	for k := range cues {
		names = append(names, k)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		parts[i] = fmt.Sprintf("%s %d", n, num(cues, n))
	}
	return strings.Join(parts, ", ")
}

// caution repeats the report's usage caution: no verdict. It also says so
// when the API runs another engine version than the one this server was
// built with, since the server's version claims to equal it.
func caution(rep map[string]any) string {
	skew := ""
	if v := str(rep, "engineVersion"); v != "" && v != report.EngineVersion {
		skew = fmt.Sprintf("Note: the API runs engine %s; this MCP server was built for engine %s. ", v, report.EngineVersion)
	}
	g := str(obj(rep, "usageCaution"), "guidance")
	if g == "" {
		g = "Signals can have benign causes."
	}
	return skew + "Usage caution: these are risk signals, not a verdict, and not safe for an automated adverse decision. " + g
}

// mediaLabel is a report's mediaType as a person writes it.
func mediaLabel(mediaType string) string {
	switch mediaType {
	case "pdf":
		return "PDF"
	case "office":
		return "Office"
	case "":
		return "document"
	}
	return mediaType
}

// counted is a count with the noun phrase its number takes.
func counted(n int, one, other string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, other)
}

func inspectSummary(rep map[string]any) string {
	sum := obj(rep, "summary")
	var b strings.Builder
	kind := mediaLabel(str(rep, "mediaType"))
	fmt.Fprintf(&b, "doctrust engine %s inspected %s %s file: risk score %d/100, band %s, %s above info.\n",
		str(rep, "engineVersion"), report.Article(kind), kind, num(sum, "riskScore"), str(sum, "riskBand"), counted(num(sum, "signalCount"), "signal", "signals"))
	info := 0
	for _, s := range signals(rep) {
		if str(s, "severity") == "info" {
			info++
			continue
		}
		b.WriteString(signalLine(s) + "\n")
	}
	if info > 0 {
		fmt.Fprintf(&b, "%s in the structured result.\n", counted(info, "informational signal is", "informational signals are"))
	}
	if tri := obj(rep, "triage"); tri != nil {
		b.WriteString("Triage mode: page content was not walked; a quiet triage is not a clean document.\n")
	}
	b.WriteString(caution(rep))
	return b.String()
}

func redactionSummary(rep map[string]any) string {
	var b strings.Builder
	if mt := str(rep, "mediaType"); mt != "pdf" {
		fmt.Fprintf(&b, "Redaction checks apply to PDFs; this file is %s, so none ran.\n", mt)
		b.WriteString(caution(rep))
		return b.String()
	}
	if enc, _ := obj(rep, "document")["encrypted"].(bool); enc {
		b.WriteString("The PDF is encrypted: its page content was not analysed, so its redactions could not be checked.\n")
		b.WriteString(caution(rep))
		return b.String()
	}
	var found []string
	for _, s := range signals(rep) {
		for _, f := range redactionFamilies {
			if str(s, "id") == string(f) {
				found = append(found, signalLine(s))
			}
		}
	}
	if len(found) == 0 {
		b.WriteString("No text under redaction boxes, hidden text or painted-over content was found in the page content walked. " +
			"This does not prove the redactions are sound: no page is rendered and no OCR runs.\n")
	} else {
		fmt.Fprintf(&b, "%s:\n%s\n", counted(len(found), "redaction-related finding", "redaction-related findings"), strings.Join(found, "\n"))
	}
	b.WriteString(caution(rep))
	return b.String()
}

func compareSummary(rep map[string]any) string {
	var b strings.Builder
	fmt.Fprintf(&b, "doctrust engine %s compared the two PDFs: relationship %s.\n", str(rep, "engineVersion"), str(rep, "relationship"))
	if anc := obj(rep, "ancestry"); anc != nil {
		if touched, ok := anc["contentTouched"].(bool); ok {
			if touched {
				b.WriteString("Page, content or image objects were replaced after the shorter file was complete.\n")
			} else {
				b.WriteString("No page, content or image object was replaced after the shorter file was complete.\n")
			}
		}
	}
	findings, _ := rep["findings"].([]any)
	for _, f := range findings {
		if m, ok := f.(map[string]any); ok {
			fmt.Fprintf(&b, "- [%s] %s: %s\n", str(m, "severity"), str(m, "id"), str(m, "title"))
		}
	}
	b.WriteString("No page is rendered, so nothing here asserts identical rendered appearance. ")
	b.WriteString(caution(rep))
	return b.String()
}
