package sigs

import (
	"strconv"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
)

// maxReferrerObjects bounds the objects the referrer scans of one
// analysis read together.
const maxReferrerObjects = 500000

// maxAppearanceDepth bounds the appearance objects followed up to a widget
// (an /AP dictionary, a state dictionary, a nested XObject).
const maxAppearanceDepth = 4

// appearanceOwner finds the field whose widgets use the appearance object
// num of view old (nil for a widget outside the form), and reports it
// shared when something else uses it too: the trailer, the catalogue, a
// page, another field. Rewriting a shared appearance changes that other
// use as well (pyHanko refuses it; its corpus calls the attack "sneaky").
// ok is false when the scan was cut short.
func (c classifier) appearanceOwner(num int) (owner *formField, shared, ok bool) {
	old := c.old
	refs, ok := c.a.referrers(old, c.cur, c.scans)
	if !ok {
		return nil, false, false
	}
	name, owned := "", false
	var walk func(n, depth int) bool
	walk = func(n, depth int) bool {
		for _, u := range refs[n] {
			switch {
			case old.fieldOf[u] != nil || old.widgets[u]:
				id := "\x00" + strconv.Itoa(u) // a widget outside the form
				if fl := old.fieldOf[u]; fl != nil {
					id = fl.name
				}
				if owned && id != name {
					return true
				}
				name, owned, owner = id, true, old.fieldOf[u]
			case u > 0 && old.fillAP[u] && depth < maxAppearanceDepth:
				if walk(u, depth+1) {
					return true
				}
			default:
				return true
			}
		}
		return false
	}
	shared = walk(num, 0)
	return owner, shared, true
}

// referrers maps the appearance objects of view v and of the view after it
// to the objects of v naming them (0 for the trailer), scanning every
// object of v once, on first need; scans counts down the objects read.
func (a *analysis) referrers(v, next *viewRoles, scans *int) (map[int][]int, bool) {
	if v.referrers != nil {
		return v.referrers, v.referrersOK
	}
	v.referrers = map[int][]int{}
	target := func(n int) bool { return v.fillAP[n] || next.fillAP[n] }
	add := func(from int, o cos.Object) {
		named := map[int]bool{}
		stack := []cos.Object{o}
		for n := 0; len(stack) > 0 && n < maxNestedNodes; n++ {
			cur := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch x := cur.(type) {
			case cos.Ref:
				if target(x.Num) && x.Num != from && !named[x.Num] {
					named[x.Num] = true
					v.referrers[x.Num] = append(v.referrers[x.Num], from)
				}
			case cos.Array:
				stack = append(stack, x...)
			case *cos.Dict:
				stack = append(stack, x.Vals...)
			case *cos.Stream:
				stack = append(stack, x.Dict)
			}
		}
	}
	add(0, a.f.Revisions[v.rev-1].Trailer)
	done := map[int32]bool{}
	for k := v.rev; k >= 1; k-- {
		for _, e := range a.f.Revisions[k-1].Entries {
			if done[e.Num] {
				continue
			}
			done[e.Num] = true
			if e.Num == 0 || e.Kind == file.Free {
				continue
			}
			if *scans <= 0 || a.f.Deadline() != nil {
				return v.referrers, false
			}
			*scans--
			add(int(e.Num), a.f.Load(e, v.rev))
		}
	}
	v.referrersOK = true
	return v.referrers, true
}
