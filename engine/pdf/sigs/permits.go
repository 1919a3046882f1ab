package sigs

import (
	"bytes"
	"slices"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// Form entries changed after an approval signature (issue 34). A certification
// signature states what may follow it (DocMDP /P: 2 and 3 allow filling
// in forms), and a field lock (FieldMDP) states which fields are frozen,
// so the fields it leaves out are free. An approval signature with neither
// allows nothing after it: a value typed into the form later changes what
// the signer approved, and no viewer flags it as forbidden.

// unpermittedFill is a form field whose value a revision after an
// approval signature that permits no filling changed.
type unpermittedFill struct {
	sig      int
	field    string
	revision int
}

// maxUnpermittedFills bounds the fields listed.
const maxUnpermittedFills = 1000

// unpermittedFills lists, once per field, the fields whose value changed
// after an approval signature without a field lock in a document without a
// certification (whose /P decides: certification-broken reports what
// P=1 forbids).
func (a *analysis) unpermittedFills(inv *sigInventory) []unpermittedFill {
	if inv.certification() != nil {
		return nil
	}
	var out []unpermittedFill
	var seen []string
	for _, s := range inv.sigs {
		if s.kind != sigApproval || len(s.locks) > 0 {
			continue
		}
		base := s.cov.base()
		for _, k := range a.revisionKinds() {
			if k.revision <= base {
				continue
			}
			for _, name := range k.refilled {
				if slices.Contains(seen, name) || len(out) >= maxUnpermittedFills {
					continue
				}
				seen = append(seen, name)
				out = append(out, unpermittedFill{sig: s.num, field: name, revision: k.revision})
			}
		}
	}
	return out
}

func (c classifier) refilledField(name string) {
	if !slices.Contains(c.k.refilled, name) && len(c.k.refilled) < maxLockFields {
		c.k.refilled = append(c.k.refilled, name)
	}
}

// heldValue reports a field (as the previous view knew it) with a value:
// not absent, not an empty string, not a box left /Off. Filling in a blank
// is what the next party to a form does; changing an entry is not.
func (c classifier) heldValue(num int) bool {
	prev := c.old.fieldOf[num]
	if prev == nil {
		return false
	}
	switch v := c.old.resolveRev(prev.value).(type) {
	case nil:
		return false
	case cos.String:
		b := bytes.TrimPrefix(bytes.TrimPrefix(v.Bytes, []byte{0xfe, 0xff}), []byte{0xef, 0xbb, 0xbf})
		return len(bytes.Trim(b, "\x00 \t\r\n")) > 0
	case cos.Name:
		return v != "" && v != "Off"
	case cos.Array:
		return len(v) > 0
	}
	return true
}

// SignedContent returns the earliest revision an approval or
// certification signature vouches for (0: none), and whether a
// certification permits annotations after it (P=3).
func (s *Analysis) SignedContent() (revision int, annotationsPermitted bool) {
	inv := s.a.signatures()
	for _, sg := range inv.sigs {
		if sg.kind != sigApproval && sg.kind != sigCertification {
			continue
		}
		if b := sg.cov.base(); revision == 0 || b < revision {
			revision = b
		}
	}
	if cert := inv.certification(); cert != nil && cert.p == 3 {
		annotationsPermitted = true
	}
	return revision, annotationsPermitted
}
