package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/report"
)

// structureCode is one structural problem with its severity and message.
type structureCode struct {
	code string
	sev  report.Severity
	msg  report.Message
}

// structureWarnings reports what the parser met and tolerated, and what was
// not analysed. The first code is the evidence's primary code: an encrypted
// file always leads with encrypted-content-not-analysed (SPEC.md).
func (a *analysis) structureWarnings() *report.Finding {
	w := a.f.Warn
	var codes []structureCode
	add := func(code string, sev report.Severity, kv ...any) {
		codes = append(codes, structureCode{code, sev, report.Msg("structure-warnings."+code, kv...)})
	}
	ev := map[string]any{}
	var security *report.Message
	if a.f.Encrypted {
		skipped := report.EncryptedSkipped()
		add("encrypted-content-not-analysed", report.Low, "skipped", len(skipped))
		ev["skippedFamilies"] = skipped
		if s := a.f.Security; s != nil {
			ev["security"] = securityEvidence(s)
			m := securityNote(s)
			security = &m
		}
	}
	noObjects := len(a.f.Entries()) == 0
	switch {
	case a.catalog == nil && noObjects:
		add("unparseable", report.Medium)
	case a.catalog == nil && !a.f.Sealed():
		// An encrypted file's catalogue inside an encrypted object stream
		// is unreadable, not missing: the encrypted code already says so.
		add("catalog-missing", report.Medium)
	}
	if w.XrefLoop {
		add("xref-loop", report.Medium, "sections", w.Sections)
	}
	if w.XrefRepaired && !noObjects {
		add("xref-repaired", report.Low, "objects", len(a.f.Entries()))
	}
	if w.Truncated {
		add("truncated", report.Low)
	}
	if w.EntriesCapped > 0 {
		add("xref-entries-capped", report.Low, "entries", a.f.EntryAllowance())
		ev["xrefEntriesRead"] = a.f.EntryAllowance()
	}
	if b := a.f.Budget; b.Refused > 0 {
		add("budget-exhausted", report.Low, "budgetBytes", b.Limit, "streamLimitBytes", b.Stream, "streams", b.Refused)
		ev["budgetBytes"] = b.Limit
		ev["streamLimitBytes"] = b.Stream
		ev["streamsNotDecoded"] = b.Refused
	}
	if w.ObjectErrors > 0 {
		add("object-errors", report.Low, "count", w.ObjectErrors)
		ev["objectErrors"] = w.ObjectErrors
	}
	if w.StreamErrors > 0 {
		add("stream-errors", report.Low, "count", w.StreamErrors)
		ev["streamErrors"] = w.StreamErrors
	}
	if a.pageTreeDamaged && a.catalog != nil {
		add("page-tree-damaged", report.Low, "pages", len(a.pages))
	}
	if len(a.faults) > 0 {
		add("analysis-fault", report.Low, "families", len(a.faults))
		ev["faults"] = len(a.faults)
	}
	if w.EntriesRepaired > 0 {
		add("xref-entries-repaired", report.Info, "entries", w.EntriesRepaired)
		ev["entriesRepaired"] = w.EntriesRepaired
	}
	if w.HeaderMissing {
		add("header-missing", report.Info)
	}
	if w.LeadingJunk > 0 {
		add("leading-junk", report.Info, "bytes", w.LeadingJunk)
		ev["leadingBytes"] = w.LeadingJunk
	}
	if w.TrailingData > 0 {
		add("trailing-data", report.Info, "bytes", w.TrailingData)
		ev["trailingBytes"] = w.TrailingData
	}
	if len(codes) == 0 {
		return nil
	}
	names := make([]string, len(codes))
	fd := &report.Finding{Family: report.FamilyStructureWarnings, Evidence: ev, Message: codes[0].msg, Severity: codes[0].sev}
	if security != nil {
		fd.Notes = append(fd.Notes, *security)
	}
	for i, c := range codes {
		names[i] = c.code
		fd.Severity = fd.Severity.Max(c.sev)
		if i > 0 {
			fd.Notes = append(fd.Notes, c.msg)
		}
	}
	if w.Anomalies > 0 {
		// Lenient parses (duplicate keys, stray tokens, malformed numbers)
		// are too common to raise a signal alone, but say how much
		// leniency the file needed when the signal fires anyway.
		ev["syntaxAnomalies"] = w.Anomalies
	}
	ev["code"] = codes[0].code
	ev["codes"] = names
	ev["xrefSections"] = w.Sections
	return fd
}

// securityEvidence names the security handler of an encrypted file, its
// version and revision, ciphers and key length, and whether the empty user
// password opened it. Names come from the file and are sanitised.
func securityEvidence(s *file.Security) map[string]any {
	ev := map[string]any{
		"handler":             report.Untrusted(s.Filter),
		"v":                   s.V,
		"r":                   s.R,
		"emptyPasswordOpened": s.Opened,
		"encryptMetadata":     s.EncryptMetadata,
	}
	if s.SubFilter != "" {
		ev["subFilter"] = report.Untrusted(s.SubFilter)
	}
	if s.KeyBits > 0 {
		ev["keyBits"] = s.KeyBits
	}
	if s.StreamMethod != "" {
		ev["streamMethod"] = s.StreamMethod
		ev["stringMethod"] = s.StringMethod
	}
	if s.StmF != "" {
		ev["streamFilter"] = report.Untrusted(s.StmF)
		ev["stringFilter"] = report.Untrusted(s.StrF)
	}
	if s.Opened {
		ev["openedAs"] = s.OpenedAs
	} else {
		ev["notOpenedReason"] = s.Reason
	}
	return ev
}

// securityNote says in English whether the file was opened, and if not why.
func securityNote(s *file.Security) report.Message {
	switch {
	case s.Opened && s.OpenedAs == "owner":
		return report.Msg("structure-warnings.encrypted-opened-owner", "keyBits", s.KeyBits)
	case s.Opened:
		return report.Msg("structure-warnings.encrypted-opened", "keyBits", s.KeyBits)
	case s.Reason == file.ReasonPassword:
		return report.Msg("structure-warnings.encrypted-password-required")
	case s.Reason == file.ReasonPublicKey:
		return report.Msg("structure-warnings.encrypted-public-key")
	case s.Reason == file.ReasonUnsupported:
		return report.Msg("structure-warnings.encrypted-unsupported")
	}
	return report.Msg("structure-warnings.encrypted-malformed")
}
