package office

import (
	"bytes"
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
)

// officeStructureAnomaliesFamily declares the family (report.Declaration).
var officeStructureAnomaliesFamily = declaration{
	ID:      "office-structure-anomalies",
	Order:   80,
	Run:     (*analysis).structureOPC,
	Summary: "Undeclared parts, lying content types, missing targets and zip anomalies; the package walk's limits.",
	Evidence: []string{
		"code", "anomalies", "partCount", "streamCount", "expandedBytes",
		"budgetExhausted", "tooManyEntries", "leadingBytes", "trailingBytes", "defaultPassword",
		"encryption", "compoundFileDamage", "damagedStreams[]", "duplicateEntries[]",
		"headerMismatches[]", "pathTricks[]", "encryptedEntries[]", "partsOverLimit[]",
		"declaredOversize[]", "unreadableParts[]", "malformedParts[]", "contentTypeMismatches[]",
		"undeclaredParts[]", "missingTargets[]", "unusualParts[]",
	},
	Variants: []report.VariantDecl{
		{Code: "blind-spot", Text: "Office documents are not rendered: text hidden by colouring it like its background, or by a shape covering it, is not detected."},
		{Code: "package-walked", Severity: report.Info, Title: "Office package walked", Text: "The {format} package's {parts#part was|parts were} walked; no structural anomaly was found."},
		{Code: "package-unreadable", Severity: report.Medium, Title: "Package not readable as a ZIP", Text: "The package's ZIP structure could not be read (or declares more than {maxEntries#entry|entries}); its parts were not analysed."},
		{Code: "entries-capped", Severity: report.Medium, Title: "Package entries cut short", Text: "The package lists more than {maxEntries#entry|entries}, far more than a document needs; only the first {maxEntries#entry was|entries were} read, so the parts listed after them were not analysed."},
		{Code: "zip-ambiguous", Severity: report.High, Title: "Ambiguous ZIP entries", Text: "The archive holds {duplicates#duplicate entry name|duplicate entry names} and {mismatches#entry|entries} whose local header disagrees with the central directory, so different readers can see different content."},
		{Code: "path-tricks", Severity: report.Medium, Title: "Unsafe entry names", Text: "{count#entry name is|entry names are} absolute, {count?climbs|climb} out of the archive or {count?uses|use} backslashes or drive letters."},
		{Code: "extra-data", Severity: report.Medium, Title: "Data outside the archive", Text: "{leadingBytes#byte precedes|bytes precede} and {trailingBytes#byte follows|bytes follow} the ZIP archive."},
		{Code: "encrypted-entries", Severity: report.Low, Title: "Encrypted ZIP entries", Text: "{count#ZIP entry is|ZIP entries are} encrypted and {count?was|were} not analysed."},
		{Code: "expansion-limit", Severity: report.Medium, Title: "Expansion limit reached", Text: "{parts#part was|parts were} cut at the decompression limits ({partLimitBytes#byte|bytes} per part, or the package budget), as a zip bomb would be."},
		{Code: "unreadable-parts", Severity: report.Low, Title: "Undecodable parts", Text: "{count#part|parts} could not be decompressed."},
		{Code: "malformed-xml", Severity: report.Low, Title: "Malformed or oversized XML", Text: "{count#XML part was|XML parts were} malformed or exceeded the walk limits (nesting deeper than {maxDepth} or too many tokens) and {count?was|were} read only in part."},
		{Code: "content-types-missing", Severity: report.Medium, Title: "Content types missing", Text: "The package has no content-types part, the list of part types every Office package carries."},
		{Code: "undeclared-parts", Severity: report.Low, Title: "Undeclared parts", Text: "{count#part has|parts have} no content type declared."},
		{Code: "content-type-mismatch", Severity: report.Medium, Title: "Content types lie about parts", Text: "{count#part|parts} do not match the content type declared for them."},
		{Code: "missing-targets", Severity: report.Low, Title: "Missing relationship targets", Text: "{count#relationship target names a part|relationship targets name parts} that the package does not hold."},
		{Code: "unusual-parts", Severity: report.Low, Title: "Unusual extra parts", Text: "{count#part|parts} sit outside the folders Office applications write."},
		{Code: "compound-walked", Severity: report.Info, Title: "Compound file walked", Text: "The {format} compound file's {streams#stream was|streams were} walked; no structural anomaly was found."},
		{Code: "compound-damaged", Severity: report.Medium, Title: "Compound file damaged", Text: "The compound file's header, allocation chains or directory are damaged ({count#kind of damage|kinds of damage}: truncation, loops, crossing chains or directory cycles); what could be read was analysed."},
		{Code: "records-damaged", Severity: report.Low, Title: "Record streams read in part", Text: "{count#stream|streams} (property sets, workbook, slide or VBA records) {count?stops|stop} early or {count?declares|declare} lengths past {count?its|their} end; {count?it was|they were} read only in part."},
		{Code: "encrypted-legacy", Severity: report.Info, Title: "Encrypted document not analysed", Text: "The {format} document is password-protected ({method} encryption of its records), so its content was not analysed."},
		{Code: "default-password", Text: "The package is encrypted with Excel's built-in default password (VelvetSweatshop), which Office applications open without asking; it was decrypted in memory and analysed."},
		{Code: "binary-not-covered", Text: "In binary Office files, Word text hidden by a style rather than by direct formatting, and the authors of Word's tracked changes, are not decoded; macros, embedded objects, links, DDE fields, sheet, row, column and slide visibility, properties, Word's hidden runs and tracked changes, comments, and a workbook's figures and saved formula results are; a Word document's tables are not checked for figures that must add up."},
		{Code: "encrypted-package", Severity: report.Info, Title: "Encrypted package not analysed", Text: "The {format} document is password-protected (an encrypted package inside a compound file), so its content was not analysed."},
	},
}

// knownTop are the top-level folders and files an Office application
// writes. Anything else is an unusual extra part: a place to park content
// no Office view shows.
var knownTop = []string{
	"[content_types].xml", "_rels/", "docprops/", "word/", "xl/", "ppt/", "customxml/",
	"_xmlsignatures/", "[trash]/", "media/", "mimetype",
}

func knownPart(name string) bool {
	n := strings.ToLower(name)
	for _, k := range knownTop {
		if n == k || strings.HasSuffix(k, "/") && strings.HasPrefix(n, k) {
			return true
		}
	}
	return false
}

// structureOPC is structure in the OOXML run list, where it runs last
// (its Order) because it reports on every limit the other walks hit, and
// where the Open Packaging checks apply.
func (a *analysis) structureOPC() *report.Finding {
	f := a.structure(true)
	return &f
}

// structure is the always-present office-structure-anomalies signal. With no
// anomaly it is an info signal saying what was walked; either way it carries
// the blind-spot note, which is the documented fixed place of the SPEC.md
// item 7 disclosure. opc runs the Open Packaging checks (content types,
// relationships, folders), which an OpenDocument package has no part of.
func (a *analysis) structure(opc bool) report.Finding {
	z := &a.pkg.Zip
	ev := map[string]any{"partCount": len(a.pkg.Parts), "expandedBytes": a.pkg.Expanded}
	var vs []report.Variant
	var codes []string
	add := func(code string, s report.Severity, m report.Message) {
		codes = append(codes, code)
		vs = append(vs, report.Variant{Severity: s, Message: m})
	}

	a.packageChecks(ev, add)
	if opc && !z.OpenFailed && len(a.pkg.Parts) > 0 {
		a.opcChecks(ev, add)
	}
	a.malformedCheck(ev, add)

	if len(vs) == 0 {
		add("package-walked", report.Info, report.Msg("office-structure-anomalies.package-walked", "parts", len(a.pkg.Parts), "format", report.Kind(a.format)))
	}
	f := composeStructure(vs, codes, ev)
	f.Notes = append(f.Notes, report.Msg("office-structure-anomalies.blind-spot"))
	return *f
}

// packageChecks reports what the ZIP container itself shows: an archive
// that cannot be opened, ambiguous or tricked entry names, bytes around
// it, encrypted entries and the decompression limits met so far.
func (a *analysis) packageChecks(ev map[string]any, add func(string, report.Severity, report.Message)) {
	z := &a.pkg.Zip
	if z.OpenFailed || z.TooManyEntries && len(a.pkg.Parts) == 0 {
		ev["tooManyEntries"] = z.TooManyEntries
		add("package-unreadable", report.Medium, report.Msg("office-structure-anomalies.package-unreadable", "maxEntries", MaxEntries))
	}
	if zipCount := len(z.Duplicates) + len(z.HeaderMismatch); zipCount > 0 {
		report.Capped(ev, "duplicateEntries", untrustedList(z.Duplicates))
		report.Capped(ev, "headerMismatches", untrustedList(z.HeaderMismatch))
		add("zip-ambiguous", report.High, report.Msg("office-structure-anomalies.zip-ambiguous", "duplicates", len(z.Duplicates), "mismatches", len(z.HeaderMismatch)))
	}
	if len(z.PathTricks) > 0 {
		report.Capped(ev, "pathTricks", untrustedList(z.PathTricks))
		add("path-tricks", report.Medium, report.Msg("office-structure-anomalies.path-tricks", "count", len(z.PathTricks)))
	}
	if z.LeadingBytes > 0 || z.TrailingBytes > 0 {
		ev["leadingBytes"], ev["trailingBytes"] = z.LeadingBytes, z.TrailingBytes
		add("extra-data", report.Medium, report.Msg("office-structure-anomalies.extra-data", "leadingBytes", z.LeadingBytes, "trailingBytes", z.TrailingBytes))
	}
	if len(z.Encrypted) > 0 {
		report.Capped(ev, "encryptedEntries", untrustedList(z.Encrypted))
		add("encrypted-entries", report.Low, report.Msg("office-structure-anomalies.encrypted-entries", "count", len(z.Encrypted)))
	}
	if z.TooManyEntries && len(a.pkg.Parts) > 0 {
		ev["tooManyEntries"] = true
		add("entries-capped", report.Medium, report.Msg("office-structure-anomalies.entries-capped", "maxEntries", MaxEntries))
	}
	if len(z.OverLimit) > 0 || len(z.DeclaredBombs) > 0 || z.BudgetExhausted {
		report.Capped(ev, "partsOverLimit", untrustedList(z.OverLimit))
		report.Capped(ev, "declaredOversize", untrustedList(z.DeclaredBombs))
		ev["budgetExhausted"] = z.BudgetExhausted
		add("expansion-limit", report.Medium, report.Msg("office-structure-anomalies.expansion-limit", "parts", len(z.OverLimit)+len(z.DeclaredBombs), "partLimitBytes", MaxPartBytes))
	}
	if len(z.Unreadable) > 0 {
		report.Capped(ev, "unreadableParts", untrustedList(z.Unreadable))
		add("unreadable-parts", report.Low, report.Msg("office-structure-anomalies.unreadable-parts", "count", len(z.Unreadable)))
	}
}

// malformedCheck reports the XML parts a walk read only in part.
func (a *analysis) malformedCheck(ev map[string]any, add func(string, report.Severity, report.Message)) {
	if bad := dedupe(a.malformed); len(bad) > 0 {
		report.Capped(ev, "malformedParts", untrustedList(bad))
		add("malformed-xml", report.Low, report.Msg("office-structure-anomalies.malformed-xml", "count", len(bad), "maxDepth", maxXMLDepth))
	}
}

// opcChecks compares the parts with [Content_Types].xml and the relationships.
func (a *analysis) opcChecks(ev map[string]any, add func(string, report.Severity, report.Message)) {
	var undeclared, lying, unusual []string
	for _, p := range a.pkg.Parts {
		n := p.Name
		if strings.HasSuffix(n, "/") || strings.EqualFold(n, "[Content_Types].xml") {
			continue
		}
		ct := a.ct.of(p)
		if ct == "" {
			undeclared = append(undeclared, n)
		}
		if !knownPart(n) {
			unusual = append(unusual, n)
		}
		// Only parts already read are checked, so this costs no extra
		// decompression: a part declared as XML must look like XML, a VBA
		// project like a compound file.
		if p.read && len(p.data) > 0 && !p.truncated {
			if (strings.HasSuffix(ct, "xml") || strings.HasSuffix(ct, "+xml")) && !looksXML(p.data) ||
				ct == ctVBA && !IsCFB(p.data) {
				lying = append(lying, n)
			}
		}
	}
	var missing []string
	seen := map[string]bool{}
	for _, r := range a.rels {
		if r.External || r.Resolved == "" || seen[r.Resolved] {
			continue
		}
		seen[r.Resolved] = true
		if a.pkg.Lookup(r.Resolved) == nil {
			missing = append(missing, r.Resolved)
		}
	}
	sort.Strings(missing)
	if !a.ct.present {
		add("content-types-missing", report.Medium, report.Msg("office-structure-anomalies.content-types-missing"))
	}
	if len(undeclared) > 0 && a.ct.present {
		report.Capped(ev, "undeclaredParts", untrustedList(undeclared))
		add("undeclared-parts", report.Low, report.Msg("office-structure-anomalies.undeclared-parts", "count", len(undeclared)))
	}
	if len(lying) > 0 {
		report.Capped(ev, "contentTypeMismatches", untrustedList(lying))
		add("content-type-mismatch", report.Medium, report.Msg("office-structure-anomalies.content-type-mismatch", "count", len(lying)))
	}
	if len(missing) > 0 {
		report.Capped(ev, "missingTargets", untrustedList(missing))
		add("missing-targets", report.Low, report.Msg("office-structure-anomalies.missing-targets", "count", len(missing)))
	}
	if len(unusual) > 0 {
		report.Capped(ev, "unusualParts", untrustedList(unusual))
		add("unusual-parts", report.Low, report.Msg("office-structure-anomalies.unusual-parts", "count", len(unusual)))
	}
}

// looksXML accepts a BOM, white space, then '<'.
func looksXML(b []byte) bool {
	b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 {
		return true
	}
	// UTF-16 XML (a BOM then '<' as two bytes) is legal too.
	return b[0] == '<' || bytes.HasPrefix(b, []byte("\xFF\xFE<")) || bytes.HasPrefix(b, []byte("\xFE\xFF\x00<"))
}

func dedupe(in []string) []string {
	m := map[string]bool{}
	for _, s := range in {
		m[s] = true
	}
	return sortedKeys(m)
}

// composeStructure makes the office-structure-anomalies finding of every
// Office format from its variants and their codes: the most severe variant
// is the message, evidence.code names it and evidence.anomalies lists all.
func composeStructure(vs []report.Variant, codes []string, ev map[string]any) *report.Finding {
	f := report.Compose(report.FamilyOfficeStructureAnomalies, vs, ev)
	ev["code"] = codes[0]
	for i, v := range vs {
		if v.Message.Code == f.Message.Code {
			ev["code"] = codes[i]
			break
		}
	}
	ev["anomalies"] = codes
	return f
}
