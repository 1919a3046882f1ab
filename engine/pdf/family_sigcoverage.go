package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/report"
)

// signatureCoverage reports what each signature's byte range covers, what
// was appended after it, and signatures a later revision removed. Nothing
// cryptographic is checked: no digest, no certificate, no timestamp token.
func (a *analysis) signatureCoverage() *report.Finding {
	inv := a.signatures()
	gone := a.removedSignatures()
	if len(inv.sigs) == 0 && len(gone.removed) == 0 {
		return nil
	}
	kinds := a.revisionKinds()
	contentAfter := func(rev int) (n int) {
		for _, k := range kinds {
			if k.revision > rev && k.content {
				n++
			}
		}
		return n
	}

	counts := map[string]int{}
	emptyValues := 0
	anomalous, urAnomalous := 0, 0
	firstSigned, lastSigned := 0, 0
	list := make([]map[string]any, 0, len(inv.sigs))
	for _, s := range inv.sigs {
		counts[s.kind]++
		if s.emptyValue() {
			emptyValues++
		}
		base := s.cov.base()
		e := a.signatureEvidence(s, contentAfter(base) > 0)
		e["modificationLevel"] = modificationLevel(kinds, base)
		list = append(list, e)
		if s.kind == sigUsageRights {
			// Usage rights enable viewer features; they vouch for no content.
			if len(s.cov.anomalies) > 0 {
				urAnomalous++
			}
			continue
		}
		if len(s.cov.anomalies) > 0 {
			anomalous++
		} else {
			lastSigned = max(lastSigned, base)
		}
		if firstSigned == 0 || base < firstSigned {
			firstSigned = base
		}
	}
	unsigned := 0
	if lastSigned > 0 {
		for _, k := range kinds {
			// P=1 permits only what validation data adds: beyond it, an
			// unsigned revision changed the document.
			if k.revision > lastSigned && breaks(k.assess(1)) {
				unsigned++
			}
		}
	}
	contentRevisions := 0
	if firstSigned > 0 {
		contentRevisions = contentAfter(firstSigned)
	}

	ev := map[string]any{
		"signatureCount":        counts[sigApproval] + counts[sigCertification],
		"timestampCount":        counts[sigTimestamp],
		"usageRightsCount":      counts[sigUsageRights],
		"certified":             counts[sigCertification] > 0,
		"dss":                   a.catalog.Has("DSS"),
		"emptySignatureFields":  inv.emptyFields,
		"emptySignatureValues":  emptyValues,
		"unsignedRevisions":     unsigned,
		"contentRevisionsAfter": contentRevisions,
		"orphanSignatureValues": gone.orphans,
		"inventoryTruncated":    inv.truncated || gone.truncated,
		"revisions":             len(a.f.Revisions),
	}
	report.Capped(ev, "signatures", list)
	removed := make([]map[string]any, 0, len(gone.removed))
	for _, r := range gone.removed {
		e := map[string]any{"object": r.num, "kind": r.kind, "presentInRevision": r.present, "removedInRevision": r.removedIn}
		a.untrusted(e, "field", r.field)
		removed = append(removed, e)
	}
	report.Capped(ev, "removedSignatures", removed)

	var found []report.Message
	sev := report.Info
	note := func(s report.Severity, m report.Message) {
		found = append(found, m)
		sev = sev.Max(s)
	}
	if len(gone.removed) > 0 {
		note(report.High, report.Msg("signature-coverage.signature-removed", "removed", len(gone.removed)))
	}
	if anomalous > 0 {
		note(report.High, report.Msg("signature-coverage.range-anomaly", "signatures", anomalous))
	}
	if contentRevisions > 0 {
		note(report.Medium, report.Msg("signature-coverage.content-after-signing", "revisions", contentRevisions))
	}
	if unsigned > 0 {
		note(report.Low, report.Msg("signature-coverage.unsigned-changes", "revisions", unsigned))
	}
	if urAnomalous > 0 {
		note(report.Low, report.Msg("signature-coverage.usage-rights-anomaly", "signatures", urAnomalous))
	}
	if len(found) == 0 {
		found = append(found, report.Msg("signature-coverage.intact",
			"signatures", counts[sigApproval]+counts[sigCertification], "timestamps", counts[sigTimestamp]))
	}
	return &report.Finding{Family: "signature-coverage", Severity: sev, Message: found[0], Notes: found[1:], Evidence: ev}
}

// signatureEvidence is one signature's entry: its coverage and the facts a
// signer makes visible (subfilter, time, reason, location), never the
// signature bytes or certificates.
func (a *analysis) signatureEvidence(s *signature, contentAfter bool) map[string]any {
	c := s.cov
	e := map[string]any{
		"kind":                s.kind,
		"object":              s.num,
		"fields":              s.fields,
		"visible":             s.visible,
		"coverage":            c.level(),
		"revision":            c.signed,
		"writtenInRevision":   c.written,
		"appendedRevisions":   c.appendedRevisions,
		"appendedBytes":       c.appendedBytes,
		"contentTouchedAfter": contentAfter,
		"locksFields":         len(s.locks) > 0,
		"emptyValue":          s.emptyValue(),
	}
	if c.byteRange != nil {
		e["byteRange"] = c.byteRange
	}
	report.Capped(e, "anomalies", c.anomalies)
	if s.kind == sigCertification {
		e["docMdpP"] = s.p
	}
	a.untrusted(e, "field", s.field)
	a.untrusted(e, "subFilter", string(s.dict.Name("SubFilter")))
	a.untrusted(e, "reason", cos.Text(a.resolve(s.dict.Get("Reason"))))
	a.untrusted(e, "location", cos.Text(a.resolve(s.dict.Get("Location"))))
	if d, ok := cos.ParseDate(cos.Text(a.resolve(s.dict.Get("M")))); ok && !a.f.Encrypted {
		e["signingTime"] = d.ISO()
	}
	return e
}

// untrusted adds an attacker-authored string to evidence, sanitised. An
// encrypted file's strings are ciphertext and are left out.
func (a *analysis) untrusted(ev map[string]any, key, s string) {
	if s == "" || (a.f.Encrypted && key != "subFilter") {
		return
	}
	if v := report.Untrusted(s); v != "" {
		ev[key] = v
	}
}
