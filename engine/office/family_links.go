package office

import (
	"net/url"
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
)

// officeExternalLinksFamily declares the family (report.Declaration).
var officeExternalLinksFamily = declaration{
	ID:      "office-external-links",
	Order:   20,
	Run:     (*analysis).externalLinks,
	Summary: "Remote templates, OLE links, remote images, DDE fields and external workbook links.",
	Evidence: []string{
		"kinds", "links[]",
	},
	Variants: []report.VariantDecl{
		{Code: "dde", Severity: report.High, Title: "DDE link present", Text: "The document carries {count#DDE field or link|DDE fields or links}, which can start a program when links update, among {total#external link|external links}; nothing was followed."},
		{Code: "remote-template", Severity: report.High, Title: "Remote template", Text: "The document attaches {count#template|templates} fetched from outside the package, among {total#external link|external links}; nothing was fetched."},
		{Code: "ole-link", Severity: report.High, Title: "Linked OLE object", Text: "The document links {count#OLE object|OLE objects} outside the package, among {total#external link|external links}; nothing was fetched."},
		{Code: "remote-content", Severity: report.Medium, Title: "Remote content", Text: "The document references {count#remote resource|remote resources} such as images, frames or external workbooks, among {total#external link|external links}; nothing was fetched."},
	},
}

// linkKind classifies an external relationship by its type. The kinds are
// the engine's own fixed list, safe as message parameters.
func linkKind(typ string) string {
	switch strings.ToLower(typ) {
	case "attachedtemplate":
		return "remote-template"
	case "oleobject":
		return "ole-link"
	case "image":
		return "remote-image"
	case "hyperlink":
		return "hyperlink"
	case "externallinkpath", "externallink":
		return "external-workbook"
	case "frame":
		return "remote-frame"
	case "subdocument":
		return "remote-subdocument"
	}
	return "other"
}

// linkHost extracts the host of an external target: the URL host, or the
// server of a UNC path. Attacker-authored.
func linkHost(target string) string {
	t := strings.TrimSpace(target)
	if strings.HasPrefix(t, `\\`) || strings.HasPrefix(t, "//") {
		t = strings.TrimLeft(strings.ReplaceAll(t, `\`, "/"), "/")
		h, _, _ := strings.Cut(t, "/")
		return h
	}
	if u, err := url.Parse(t); err == nil && u.Host != "" {
		return u.Hostname()
	}
	return ""
}

// linkEntry is one reported external link.
type linkEntry struct {
	Kind string `json:"kind"`
	Host string `json:"host"`
}

// externalLinks reports relationships that reach outside the package and DDE
// links. Opening such a document can fetch a remote template or object (a
// known delivery route for malicious macros, and a beacon telling the sender
// the file was opened). Plain hyperlinks alone do not fire: clean documents
// are full of them; they are counted when something else fires.
func (a *analysis) externalLinks() *report.Finding {
	counts := map[string]int{}
	var links []linkEntry
	for _, r := range a.rels {
		if !r.External {
			continue
		}
		k := linkKind(r.Type)
		counts[k]++
		links = append(links, linkEntry{Kind: k, Host: report.Untrusted(linkHost(r.Target))})
	}
	if n := a.word.dde + a.xl.ddeLinks; n > 0 {
		counts["dde"] += n
	}
	if n := len(a.pkg.Matching("xl/externallinks/externallink", ".xml")); n > 0 && counts["external-workbook"] == 0 {
		counts["external-workbook"] += n
	}
	sort.SliceStable(links, func(i, j int) bool {
		if links[i].Kind != links[j].Kind {
			return links[i].Kind < links[j].Kind
		}
		return links[i].Host < links[j].Host
	})
	return linkFinding(counts, links)
}

// linkFinding builds office-external-links from counts per kind, for every
// Office format: DDE, a remote template and OLE links are high, other remote
// content medium; hyperlinks alone never fire.
func linkFinding(counts map[string]int, links []linkEntry) *report.Finding {
	total := 0
	for k, n := range counts {
		if n == 0 {
			delete(counts, k)
		}
		total += n
	}
	significant := total - counts["hyperlink"]
	if significant == 0 {
		return nil
	}
	kinds := make(map[string]any, len(counts))
	for _, k := range sortedKeys(counts) {
		kinds[k] = counts[k]
	}
	ev := map[string]any{"kinds": kinds}
	report.Capped(ev, "links", links)
	f := &report.Finding{Family: report.FamilyOfficeExternalLinks, Evidence: ev}
	switch {
	case counts["dde"] > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-external-links.dde", "count", counts["dde"], "total", total)
	case counts["remote-template"] > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-external-links.remote-template", "count", counts["remote-template"], "total", total)
	case counts["ole-link"] > 0:
		f.Severity = report.High
		f.Message = report.Msg("office-external-links.ole-link", "count", counts["ole-link"], "total", total)
	default:
		f.Severity = report.Medium
		f.Message = report.Msg("office-external-links.remote-content", "count", significant, "total", total)
	}
	return f
}
