package cos

// Rect reads a rectangle array, normalised so x0<x1 and y0<y1.
func Rect(o Object, resolve func(Object) Object) ([4]float64, bool) {
	arr, ok := o.(Array)
	if !ok || len(arr) != 4 {
		return [4]float64{}, false
	}
	var v [4]float64
	for i := range arr {
		n, ok := AsNumber(resolve(arr[i]))
		if !ok {
			return [4]float64{}, false
		}
		v[i] = n
	}
	if v[0] > v[2] {
		v[0], v[2] = v[2], v[0]
	}
	if v[1] > v[3] {
		v[1], v[3] = v[3], v[1]
	}
	return v, true
}
