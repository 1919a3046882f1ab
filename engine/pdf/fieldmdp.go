package pdf

import (
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// maxLockFields bounds the field names one lock lists (and the transform
// references one signature carries).
const maxLockFields = 1000

// fieldLock is a FieldMDP specification: from a signature's /Reference
// (/TransformMethod /FieldMDP) or from its field's /Lock dictionary.
type fieldLock struct {
	action cos.Name // All, Include or Exclude
	fields []string // fully qualified names (attacker-authored)
}

func readLock(d *cos.Dict, resolve func(cos.Object) cos.Object) *fieldLock {
	if d == nil {
		return nil
	}
	l := &fieldLock{action: d.Name("Action")}
	switch l.action {
	case "All", "Include", "Exclude":
	default:
		return nil
	}
	names, _ := resolve(d.Get("Fields")).(cos.Array)
	for i, n := range names {
		if i >= maxLockFields {
			break
		}
		if s := cos.Text(resolve(n)); s != "" {
			l.fields = append(l.fields, s)
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
