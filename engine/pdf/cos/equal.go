package cos

import "bytes"

// Equal compares two objects structurally. References compare by number and
// generation (not by what they point to); streams by dictionary and data
// position; numbers by value, since 0 and 0.0 are the same PDF number (a
// rewrite that respells a box is not a change). Depth is bounded like parsing.
func Equal(a, b Object) bool { return equal(a, b, 0) }

func equal(a, b Object, depth int) bool {
	if depth > MaxDepth {
		return false
	}
	switch x := a.(type) {
	case nil:
		return b == nil
	case Int, Real:
		va, _ := AsNumber(a)
		vb, ok := AsNumber(b)
		return ok && va == vb
	case Bool, Name, Ref:
		return a == b
	case String:
		y, ok := b.(String)
		return ok && bytes.Equal(x.Bytes, y.Bytes)
	case Array:
		y, ok := b.(Array)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equal(x[i], y[i], depth+1) {
				return false
			}
		}
		return true
	case *Dict:
		y, ok := b.(*Dict)
		if !ok || x.Len() != y.Len() {
			return false
		}
		for i, k := range x.Keys {
			if !y.Has(k) || !equal(x.Vals[i], y.Get(k), depth+1) {
				return false
			}
		}
		return true
	case *Stream:
		y, ok := b.(*Stream)
		return ok && x.Start == y.Start && x.End == y.End && equal(x.Dict, y.Dict, depth+1)
	}
	return false
}
