package sigs

import (
	"slices"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// valueKeys are the field keys filling in a form changes: pyHanko's
// VALUE_UPDATE_KEYS, the widget's modification date /M, and /Rect, which
// is compared apart with a tolerance because writers round it on saving.
// lockFree are the keys even a locked field may change.
var (
	valueKeys = []cos.Name{"V", "AP", "AS", "F", "DA", "Q", "Ff", "Type", "M", "Rect"}
	lockFree  = []cos.Name{"Ff", "Type"}
)

// rectTolerance is how far (in points) a widget edge may move by rounding.
const rectTolerance = 0.5

func moved(od, nd *cos.Dict, resolveOld, resolveNew func(cos.Object) cos.Object) bool {
	or, ok1 := rect(resolveOld(od.Get("Rect")), resolveOld)
	nr, ok2 := rect(resolveNew(nd.Get("Rect")), resolveNew)
	if ok1 != ok2 {
		return true
	}
	for i := range or {
		if d := or[i] - nr[i]; d > rectTolerance || d < -rectTolerance {
			return true
		}
	}
	return false
}

func (c classifier) field(num int, od, nd *cos.Dict) {
	fl := c.cur.fieldOf[num]
	if fl == nil || od == nil || nd == nil {
		c.k.structure = true // a field or widget taken out of the form
		return
	}
	if differs(od, nd, lockFree...) {
		c.changedField(fl.name)
	}
	if differs(od, nd, valueKeys...) || moved(od, nd, c.old.resolveRev, c.cur.resolveRev) {
		if nd.Name("Subtype") == "Widget" {
			c.k.annotation = true
		} else {
			c.k.structure = true
		}
	}
	if fl.ft != "Sig" {
		if !cos.Equal(od.Get("AP"), nd.Get("AP")) && cos.Equal(od.Get("AS"), nd.Get("AS")) && !c.valueChanged(num) {
			c.k.annotation = true // a new appearance for the same value
		} else {
			c.k.fill = true
			if c.valueChanged(num) && c.heldValue(num) {
				c.refilledField(fl.name)
			}
		}
		return
	}
	// Judged by the field's value, so a widget kid counts like its field.
	prev := c.old.fieldOf[num]
	switch {
	case prev != nil && isSigDict(cos.DictOf(c.old.resolveRev(prev.value))):
		// Signing software sets flags (read-only, locked) on the field it
		// signed; anything else rewrites a signed field, and hiding it
		// hides the signature's appearance.
		switch {
		case differs(od, nd, "Ff", "F", "Type"):
			c.k.structure = true
		case newlyHidden(od, nd):
			c.k.annotation = true
		}
	case isSigDict(cos.DictOf(c.cur.resolveRev(fl.value))):
		c.newSignature(fl)
	default:
		c.k.signing = true // an empty signature field's appearance
	}
}

// appearance judges an appearance object rewritten in place. Filling a
// field may redraw it; redrawing it while the value stays is what the
// "replace" shadow attack does, and redrawing one that something else
// also uses, or a signed signature's, changes more than a form value.
func (c classifier) appearance(num int) {
	owner, shared, ok := c.appearanceOwner(num)
	switch {
	case !ok:
		c.k.opaque = true
	case shared:
		c.k.structure = true
	case owner == nil:
		c.k.fill = true
	case owner.ft == "Sig" && isSigDict(cos.DictOf(c.old.resolveRev(owner.value))):
		c.k.structure = true
	case !c.valueChanged(owner.num):
		c.k.annotation = true
	default:
		c.k.fill = true
	}
}

// valueChanged reports whether the field object num (as the previous view
// knew it) has another value now, or is gone.
func (c classifier) valueChanged(num int) bool {
	prev, cur := c.old.fieldOf[num], c.cur.fieldOf[num]
	if prev == nil || cur == nil {
		return true
	}
	return !cos.Equal(c.old.resolveRev(prev.value), c.cur.resolveRev(cur.value))
}

// newlyHidden reports annotation flags Hidden (2) or NoView (32) set by
// the newer dictionary only.
func newlyHidden(od, nd *cos.Dict) bool {
	o, _ := cos.AsInt(od.Get("F"))
	n, _ := cos.AsInt(nd.Get("F"))
	return n&^o&(2|32) != 0
}

func (c classifier) changedField(name string) {
	if !slices.Contains(c.k.fields, name) && len(c.k.fields) < maxLockFields {
		c.k.fields = append(c.k.fields, name)
	}
}

func (c classifier) page(od, nd *cos.Dict) {
	if od == nil || nd == nil {
		c.k.content = true
		return
	}
	// /Contents, /Resources and the boxes are content (RevisionChange).
	if differs(od, nd, pageExempt...) {
		c.k.structure = true
	}
	oa, na := od.Get("Annots"), nd.Get("Annots")
	if !cos.Equal(oa, na) {
		c.annotations(c.old.resolveRev(oa), c.cur.resolveRev(na))
	}
}

// annotations compares a page's annotation lists: binding a new signature
// field's widget is signing, a new widget of another field creates a
// field, anything else is an annotation change.
func (c classifier) annotations(before, obj cos.Object) {
	oldList, _ := before.(cos.Array)
	newList, _ := obj.(cos.Array)
	if directCount(oldList) != directCount(newList) {
		c.k.annotation = true
	}
	removed, added := refDiff(oldList, newList)
	for _, n := range removed {
		if c.old.widgets[n] {
			c.k.structure = true
		} else {
			c.k.annotation = true
		}
	}
	for _, n := range added {
		fl := c.cur.fieldOf[n]
		switch {
		case fl != nil && fl.ft == "Sig":
			// binding a signature field's widget to the page is signing
		case fl != nil || c.cur.widgets[n]:
			c.k.structure = true
		default:
			c.k.annotation = true
		}
	}
}
