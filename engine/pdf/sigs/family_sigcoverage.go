package sigs

import (
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/report"
)

// signatureCoverage reports what each signature's byte range covers, what
// was appended after it, signatures a later revision removed, and whether
// each signature's digest and signature hold (integrity.go). No
// certificate is validated against a trust list.
func (a *analysis) signatureCoverage() *report.Finding {
	inv := a.signatures()
	a.checkIntegrity(inv)
	gone := a.removedSignatures()
	if len(inv.sigs) == 0 && len(gone.removed) == 0 && inv.emptyFields+inv.placeholders == 0 {
		return nil
	}
	t := a.tally(inv)
	ev := map[string]any{
		"signatureCount":        t.counts[sigApproval] + t.counts[sigCertification],
		"timestampCount":        t.counts[sigTimestamp],
		"usageRightsCount":      t.counts[sigUsageRights],
		"certified":             t.counts[sigCertification] > 0,
		"dss":                   a.catalog.Has("DSS"),
		"emptySignatureFields":  inv.emptyFields,
		"emptySignatureValues":  inv.placeholders,
		"unsignedRevisions":     t.unsigned,
		"contentRevisionsAfter": t.contentRevisions,
		"orphanSignatureValues": gone.orphans,
		"inventoryTruncated":    inv.truncated || gone.truncated,
		"revisions":             len(a.f.Revisions),
	}
	report.Capped(ev, "signatures", t.list)
	removed := make([]map[string]any, 0, len(gone.removed))
	for _, r := range gone.removed {
		e := map[string]any{"object": r.num, "kind": r.kind, "presentInRevision": r.present, "removedInRevision": r.removedIn}
		a.untrusted(e, "field", r.field)
		removed = append(removed, e)
	}
	report.Capped(ev, "removedSignatures", removed)

	var v variants
	if len(gone.removed) > 0 {
		v.add(report.High, report.Msg("signature-coverage.signature-removed", "removed", len(gone.removed)))
	}
	if t.anomalous > 0 {
		v.add(report.High, report.Msg("signature-coverage.range-anomaly", "signatures", t.anomalous, "anomalies", report.Kind(strings.Join(t.anomalies(), ", "))))
	}
	if len(t.broken) > 0 {
		v.add(report.High, report.Msg("signature-coverage.integrity-broken", "signatures", len(t.broken), "failures", report.Kind(strings.Join(t.broken, "; "))))
	}
	if t.contentRevisions > 0 {
		// Page content changed under a signature, approval, certification
		// or timestamp alike: what was signed is no longer what shows.
		v.add(report.High, report.Msg("signature-coverage.content-after-signing", "revisions", t.contentRevisions))
	}
	if t.unsigned > 0 {
		v.add(report.Low, report.Msg("signature-coverage.unsigned-changes", "revisions", t.unsigned))
	}
	if t.usageRightsAnomalous > 0 {
		v.add(report.Low, report.Msg("signature-coverage.usage-rights-anomaly", "signatures", t.usageRightsAnomalous))
	}
	if inv.placeholders > 0 {
		v.add(report.Low, report.Msg("signature-coverage.placeholder-values", "values", inv.placeholders))
	}
	if t.stampBroken > 0 {
		v.add(report.Medium, report.Msg("signature-coverage.timestamp-integrity-broken", "signatures", t.stampBroken))
	}
	if t.notValidAtSigning > 0 {
		v.add(report.Medium, report.Msg("signature-coverage.certificate-not-valid-at-signing", "signatures", t.notValidAtSigning))
	}
	if t.weakDigest > 0 {
		v.add(report.Low, report.Msg("signature-coverage.weak-digest", "signatures", t.weakDigest))
	}
	if len(t.unchecked) > 0 {
		v.add(report.Low, report.Msg("signature-coverage.integrity-unchecked", "signatures", t.uncheckedCount, "reasons", report.Kind(strings.Join(t.unchecked, ", "))))
	}
	if len(v.msgs) == 0 && len(inv.sigs) == 0 {
		v.add(report.Info, report.Msg("signature-coverage.unsigned-fields", "fields", inv.emptyFields))
	}
	if len(v.msgs) == 0 {
		v.add(report.Info, report.Msg("signature-coverage.intact",
			"signatures", t.counts[sigApproval]+t.counts[sigCertification], "timestamps", t.counts[sigTimestamp]))
	}
	return v.finding(report.FamilySignatureCoverage, ev)
}

// coverageTally is what signature-coverage counts over the inventory.
type coverageTally struct {
	counts                          map[string]int // by kind
	anomalous, usageRightsAnomalous int
	// unsigned counts revisions after the last well-formed signature that
	// change more than validation data; contentRevisions counts revisions
	// after the first signature that touch page content.
	unsigned, contentRevisions int
	list                       []map[string]any
	// seen holds the range anomalies found, so the message names them.
	seen map[string]bool
	// broken names each signature whose integrity check failed
	// ("revision 2, object 12: digest-mismatch"); unchecked lists the
	// distinct reasons signatures could not be checked.
	broken                        []string
	unchecked                     []string
	uncheckedCount                int
	notValidAtSigning, weakDigest int
	stampBroken                   int
}

// rangeAnomalies is every anomaly name, in the order messages list them.
var rangeAnomalies = []string{rangeMalformed, rangeNotFromStart, rangeOverlap, rangeGap, rangeContentsElse, rangeBeyondEOF, rangeShort, rangeNotRevisionEnd}

// anomalies names the range anomalies of the anomalous signatures.
func (t coverageTally) anomalies() []string {
	var out []string
	for _, k := range rangeAnomalies {
		if t.seen[k] {
			out = append(out, k)
		}
	}
	return out
}

func (a *analysis) tally(inv *sigInventory) coverageTally {
	kinds := a.revisionKinds()
	contentAfter := func(rev int) (n int) {
		for _, k := range kinds {
			if k.revision > rev && k.content {
				n++
			}
		}
		return n
	}
	t := coverageTally{counts: map[string]int{}, seen: map[string]bool{}}
	first, last := 0, 0
	for _, s := range inv.sigs {
		t.counts[s.kind]++
		base := s.cov.base()
		e := a.signatureEvidence(s, contentAfter(base) > 0)
		e["modificationLevel"] = modificationLevel(kinds, base, len(a.revisionSpans())-base)
		t.list = append(t.list, e)
		t.countIntegrity(s)
		switch {
		case s.kind == sigUsageRights:
			// Usage rights enable viewer features; they vouch for no
			// content, so a broken range or digest is only low.
			if len(s.cov.anomalies) > 0 || (s.integ != nil && s.integ.broken()) {
				t.usageRightsAnomalous++
			}
			continue
		case len(s.cov.anomalies) > 0:
			t.anomalous++
			for _, k := range s.cov.anomalies {
				t.seen[k] = true
			}
		default:
			last = max(last, base)
		}
		if first == 0 || base < first {
			first = base
		}
	}
	for _, k := range kinds {
		// P=1 permits only what validation data adds: beyond it, an
		// unsigned revision changed the document.
		if last > 0 && k.revision > last && breaks(k.assess(1)) {
			t.unsigned++
		}
	}
	if first > 0 {
		t.contentRevisions = contentAfter(first)
	}
	return t
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
	}
	if c.byteRange != nil {
		e["byteRange"] = c.byteRange
	}
	report.Capped(e, "anomalies", c.anomalies)
	if s.kind == sigCertification {
		e["docMdpP"] = s.p
	}
	a.integrityEvidence(e, s)
	a.untrusted(e, "field", s.field)
	a.untrusted(e, "subFilter", string(s.dict.Name("SubFilter")))
	a.untrusted(e, "reason", cos.Text(a.resolve(s.dict.Get("Reason"))))
	a.untrusted(e, "location", cos.Text(a.resolve(s.dict.Get("Location"))))
	if d, ok := cos.ParseDate(cos.Text(a.resolve(s.dict.Get("M")))); ok && !a.f.Sealed() {
		e["signingTime"] = d.ISO()
	}
	return e
}

// untrusted adds an attacker-authored string to evidence, sanitised. An
// encrypted file the empty password did not open has ciphertext strings,
// which are left out.
func (a *analysis) untrusted(ev map[string]any, key, s string) {
	if s == "" || (a.f.Sealed() && key != "subFilter") {
		return
	}
	if v := report.Untrusted(s); v != "" {
		ev[key] = v
	}
}
