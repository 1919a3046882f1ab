package paint

import (
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// expandedWidths is the /W reading cidWidthTable replaced: every code of
// every group written into one map, in order, until maxWidths codes.
func expandedWidths(arr cos.Array) map[uint32]float64 {
	m := map[uint32]float64{}
	for i := 0; i < len(arr) && len(m) < maxWidths; {
		c, ok := cos.AsInt(arr[i])
		if !ok || c < 0 || i+1 >= len(arr) {
			break
		}
		if list, ok := arr[i+1].(cos.Array); ok {
			for j, w := range list {
				if v, ok := cos.AsNumber(w); ok && len(m) < maxWidths {
					m[uint32(c)+uint32(j)] = v / 1000
				}
			}
			i += 2
			continue
		}
		if i+2 >= len(arr) {
			break
		}
		hi, ok1 := cos.AsInt(arr[i+1])
		w, ok2 := cos.AsNumber(arr[i+2])
		if !ok1 || !ok2 || hi < c {
			break
		}
		for k := c; k <= hi && len(m) < maxWidths; k++ {
			m[uint32(k)] = w / 1000
		}
		i += 3
	}
	return m
}

func checkCIDWidths(t *testing.T, arr cos.Array, probes []uint32) {
	t.Helper()
	in := New(Source{Resolve: func(o cos.Object) cos.Object { return o }})
	got, want := in.cidWidths(arr), expandedWidths(arr)
	for _, c := range probes {
		g, gok := got.width(c)
		w, wok := want[c]
		if g != w || gok != wok {
			t.Fatalf("%v: code %d: %v %v, expanded %v %v", arr, c, g, gok, w, wok)
		}
	}
}

func widthsArray(v ...any) cos.Array {
	var a cos.Array
	for _, x := range v {
		switch x := x.(type) {
		case int:
			a = append(a, cos.Int(x))
		case []int:
			var l cos.Array
			for _, w := range x {
				l = append(l, cos.Int(w))
			}
			a = append(a, l)
		}
	}
	return a
}

// TestCIDWidthsMatchExpansion: ranges kept as ranges give every code the
// width the expanded map gave it, overlaps included (the later group wins),
// when the array stays under maxWidths codes.
func TestCIDWidthsMatchExpansion(t *testing.T) {
	probes := []uint32{0, 1, 2, 3, 4, 5, 9, 10, 11, 19, 20, 21, 99, 100, 101, 500, 1000, 65535, 65536, 70000}
	for _, arr := range []cos.Array{
		widthsArray(),
		widthsArray(0, 65535, 1000),
		widthsArray(1, []int{500, 600, 700}, 10, 20, 250),
		widthsArray(0, 100, 1000, 5, []int{1, 2, 3}),       // a list over a range
		widthsArray(5, []int{1, 2, 3}, 0, 100, 1000),       // a range over a list
		widthsArray(0, 100, 1000, 10, 20, 2, 15, 30, 3),    // ranges over ranges
		widthsArray(3, []int{7}, 0, 10, 4, 3, []int{8}, 2), // list, range, list
		widthsArray(0, 10, 1, 20, 10, 2),                   // a range ending in a malformed group
		widthsArray(10, 5, 1000, 0, []int{1}),              // hi < c ends the array
		widthsArray(0, 65535, 1000, 70000, []int{1, 2}),    // past maxWidths: the list is dropped
	} {
		checkCIDWidths(t, arr, probes)
	}
}

func FuzzCIDWidths(f *testing.F) {
	f.Add([]byte{0, 10, 100, 1, 5, 3, 1, 2}, uint16(5))
	f.Fuzz(func(t *testing.T, spec []byte, probe uint16) {
		// Bytes read as groups: a kind byte, then numbers.
		var arr cos.Array
		for i := 0; i+2 < len(spec) && len(arr) < 64; i += 3 {
			c := int(spec[i+1])
			if spec[i]%2 == 0 {
				arr = append(arr, cos.Int(c), cos.Int(c+int(spec[i+2])), cos.Int(int(spec[i])*7))
			} else {
				l := cos.Array{}
				for k := 0; k < int(spec[i+2]%8); k++ {
					if spec[i]%3 == 0 && k == 1 {
						l = append(l, cos.Name("x")) // not a number: the slow path
						continue
					}
					l = append(l, cos.Int(k*int(spec[i])))
				}
				arr = append(arr, cos.Int(c), l)
			}
		}
		probes := []uint32{uint32(probe), uint32(probe % 600), 0, 255, 300}
		checkCIDWidths(t, arr, probes)
	})
}
