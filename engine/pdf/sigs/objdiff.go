package sigs

import (
	"bytes"
	"slices"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// differs reports whether two dictionaries differ in a key not exempt.
func differs(a, b *cos.Dict, exempt ...cos.Name) bool {
	if a == nil || b == nil {
		return a != b
	}
	for _, d := range []*cos.Dict{a, b} {
		for _, k := range d.Keys {
			if !slices.Contains(exempt, k) && !cos.Equal(a.Get(k), b.Get(k)) {
				return true
			}
		}
	}
	return false
}

// sameObject reports an object rewritten unchanged: streams by their
// dictionary (the /Length aside) and raw bytes, others structurally.
func sameObject(data []byte, a, b cos.Object) bool {
	sa, okA := a.(*cos.Stream)
	sb, okB := b.(*cos.Stream)
	if okA || okB {
		return okA && okB && !differs(sa.Dict, sb.Dict, "Length") && bytes.Equal(sa.Raw(data), sb.Raw(data))
	}
	return cos.Equal(a, b)
}

// refDiff lists the object numbers only one of two arrays names.
func refDiff(before, after cos.Array) (removed, added []int) {
	in := func(list cos.Array) map[int]bool {
		m := map[int]bool{}
		for _, o := range list {
			if n := refNum(o); n > 0 {
				m[n] = true
			}
		}
		return m
	}
	was, is := in(before), in(after)
	for _, o := range before {
		if n := refNum(o); n > 0 && !is[n] {
			removed = append(removed, n)
		}
	}
	for _, o := range after {
		if n := refNum(o); n > 0 && !was[n] {
			added = append(added, n)
		}
	}
	return removed, added
}

func directCount(list cos.Array) int {
	n := 0
	for _, o := range list {
		if refNum(o) == 0 {
			n++
		}
	}
	return n
}
