package sigs

import (
	"slices"

	"github.com/doctrust/doctrust/engine/report"
)

// Document-level assessments of signature-permissions.
const (
	permsBreak      = "break"      // an appended revision made changes /P forbids
	permsUnverified = "unverified" // only changes the analysis cannot classify
	permsPermitted  = "permitted"
)

// signaturePermissions assesses every revision appended after a
// certification signature against its DocMDP /P, and reports fields that
// a signature's FieldMDP lock covers and a later revision changed.
func (a *analysis) signaturePermissions() *report.Finding {
	inv := a.signatures()
	cert := inv.certification()
	locked := a.lockedFieldChanges(inv)
	lockSigs, lockRevs, lockP := a.lockPermissionBreaks(inv)
	fills := a.unpermittedFills(inv)
	if cert == nil && len(locked) == 0 && lockSigs == 0 && len(fills) == 0 {
		return nil
	}
	ev := map[string]any{}
	var v variants
	state, assessed, broken, opaque := "", 0, 0, 0
	if cert != nil {
		assessed, broken, opaque = a.assessRevisions(cert, ev)
		state = permsPermitted
		switch {
		case broken > 0:
			state = permsBreak
		case opaque > 0:
			state = permsUnverified
		}
		ev["assessment"] = state
	}
	if state == permsBreak {
		v.add(report.High, report.Msg("signature-permissions.certification-broken", "p", cert.p, "assessed", assessed, "broken", broken))
	}
	if len(locked) > 0 {
		fields := map[string]bool{}
		for _, l := range locked {
			fields[l.field] = true
		}
		v.add(report.High, report.Msg("signature-permissions.locked-field-changed", "fields", len(fields), "changes", len(locked)))
	}
	if lockSigs > 0 {
		// An approval signature whose field lock set a DocMDP level (PDF
		// 2.0 /P): form filling or more after it is forbidden, at least
		// medium (issue 25); content changes are high in signature-coverage.
		v.add(report.Medium, report.Msg("signature-permissions.lock-permissions-broken", "signatures", lockSigs, "revisions", lockRevs, "p", lockP))
		ev["lockPermissionBreaks"] = lockRevs
	}
	if len(fills) > 0 {
		v.add(report.Medium, report.Msg("signature-permissions.unpermitted-fill", "fields", len(fills)))
		fillEv := make([]map[string]any, 0, len(fills))
		for _, f := range fills {
			e := map[string]any{"signatureObject": f.sig, "revision": f.revision}
			a.untrusted(e, "field", f.field)
			fillEv = append(fillEv, e)
		}
		report.Capped(ev, "unpermittedFills", fillEv)
	}
	if state == permsUnverified {
		v.add(report.Medium, report.Msg("signature-permissions.unclassified-changes", "p", cert.p, "assessed", assessed, "opaque", opaque))
	}
	if len(v.msgs) == 0 {
		v.add(report.Info, report.Msg("signature-permissions.permitted", "p", cert.p, "assessed", assessed))
	}
	lockedEv := make([]map[string]any, 0, len(locked))
	for _, l := range locked {
		e := map[string]any{"signatureObject": l.sig, "revision": l.revision}
		a.untrusted(e, "field", l.field)
		lockedEv = append(lockedEv, e)
	}
	report.Capped(ev, "lockedFieldChanges", lockedEv)
	return v.finding(report.FamilySignaturePermissions, ev)
}

// assessRevisions fills revisionsAssessed[] for the revisions after the
// certification signature's own.
func (a *analysis) assessRevisions(cert *signature, ev map[string]any) (assessed, broken, opaque int) {
	base := cert.cov.base()
	changes := a.revisionChanges()
	var list []map[string]any
	first := 0
	for _, k := range a.revisionKinds() {
		if k.revision <= base {
			continue
		}
		as := k.assess(cert.p)
		switch {
		case as == assessOpaque:
			opaque++
		case breaks(as):
			broken++
			if first == 0 {
				first = k.revision
			}
		}
		list = append(list, map[string]any{"revision": k.revision, "touched": changes[k.revision-2].Touched, "assessment": as})
	}
	ev["p"] = cert.p
	ev["certificationObject"] = cert.num
	ev["certifiedRevision"] = base
	if first > 0 {
		ev["firstBreakRevision"] = first
	}
	if list == nil {
		list = []map[string]any{}
	}
	report.Capped(ev, "revisionsAssessed", list)
	return len(list), broken, opaque
}

// lockedChange is a field a FieldMDP lock covers that a revision after the
// locking signature changed.
type lockedChange struct {
	sig      int
	field    string
	revision int
}

func (a *analysis) lockedFieldChanges(inv *sigInventory) []lockedChange {
	var out []lockedChange
	for _, s := range inv.sigs {
		if len(s.locks) == 0 {
			continue
		}
		base := s.cov.base()
		for _, k := range a.revisionKinds() {
			if k.revision <= base {
				continue
			}
			for _, name := range k.fields {
				if len(out) >= maxLockedChange {
					return out
				}
				if slices.ContainsFunc(s.locks, func(l fieldLock) bool { return l.locks(name) }) {
					out = append(out, lockedChange{sig: s.num, field: name, revision: k.revision})
				}
			}
		}
	}
	return out
}

// lockPermissionBreaks counts the signatures (other than the certification)
// whose field lock carries a DocMDP level, and the revisions after them
// that the level forbids; p is the strictest level among the broken ones.
func (a *analysis) lockPermissionBreaks(inv *sigInventory) (sigs, revisions, p int) {
	for _, s := range inv.sigs {
		lp := 0
		for _, l := range s.locks {
			if l.p > 0 && (lp == 0 || l.p < lp) {
				lp = l.p
			}
		}
		if lp == 0 || s.kind == sigCertification {
			continue
		}
		broken := 0
		for _, k := range a.revisionKinds() {
			if k.revision > s.cov.base() && breaks(k.assess(lp)) {
				broken++
			}
		}
		if broken > 0 {
			sigs++
			revisions += broken
			if p == 0 || lp < p {
				p = lp
			}
		}
	}
	return sigs, revisions, p
}
