package sigs

import (
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// Bounds on FieldMDP data: the field names one lock lists (and the
// transform references one signature carries, and the changed fields one
// revision records), the names all locks of a document list together, and
// the locked-field changes reported.
const (
	maxLockFields   = 1000
	maxLockNames    = 10000
	maxLockedChange = 1000
)

// fieldLock is a FieldMDP specification: from a signature's /Reference
// (/TransformMethod /FieldMDP) or from its field's /Lock dictionary.
type fieldLock struct {
	action cos.Name // All, Include or Exclude
	fields []string // fully qualified names (attacker-authored)
	// p is the PDF 2.0 /P of a lock: the DocMDP level the document takes
	// once the field is signed (0: none).
	p int
}

// readLock reads a lock's action and field names; names counts down the
// names every lock of the analysis may still list.
func readLock(d *cos.Dict, resolve func(cos.Object) cos.Object, names *int) *fieldLock {
	if d == nil {
		return nil
	}
	l := &fieldLock{action: d.Name("Action")}
	switch l.action {
	case "All", "Include", "Exclude":
	default:
		return nil
	}
	if p, ok := cos.AsInt(resolve(d.Get("P"))); ok && p >= 1 && p <= 3 {
		l.p = int(p)
	}
	list, _ := resolve(d.Get("Fields")).(cos.Array)
	for i, n := range list {
		if i >= maxLockFields || *names <= 0 {
			break
		}
		if s := cos.Text(resolve(n)); s != "" {
			l.fields = append(l.fields, s)
			*names--
		}
	}
	return l
}

// locks reports whether the lock covers the field, as pyHanko's
// FieldMDPSpec.is_locked does: a listed non-terminal field covers the
// whole subtree beneath it.
func (l fieldLock) locks(name string) bool {
	if l.action == "All" {
		return true
	}
	include := l.action == "Include"
	for _, f := range l.fields {
		if name == f || strings.HasPrefix(name, f+".") {
			return include
		}
	}
	return !include
}
