package image

import "sync"

// JPEG quality and encoder fingerprint from the quantisation tables.
// libjpeg (and most software built on it) scales the two tables of the JPEG
// standard's Annex K by one quality factor; a file whose tables equal that
// scaling at some Q was written by such software at quality Q. Camera
// firmware and Photoshop use tables of their own. The estimate for other
// tables is the Q whose scaled tables are nearest (sum of absolute
// differences), which is how far a reader should trust it.

var stdLuma = [64]uint16{
	16, 11, 10, 16, 24, 40, 51, 61,
	12, 12, 14, 19, 26, 58, 60, 55,
	14, 13, 16, 24, 40, 57, 69, 56,
	14, 17, 22, 29, 51, 87, 80, 62,
	18, 22, 37, 56, 68, 109, 103, 77,
	24, 35, 55, 64, 81, 104, 113, 92,
	49, 64, 78, 87, 103, 121, 120, 101,
	72, 92, 95, 98, 112, 100, 103, 99,
}

var stdChroma = [64]uint16{
	17, 18, 24, 47, 99, 99, 99, 99,
	18, 21, 26, 66, 99, 99, 99, 99,
	24, 26, 56, 99, 99, 99, 99, 99,
	47, 66, 99, 99, 99, 99, 99, 99,
	99, 99, 99, 99, 99, 99, 99, 99,
	99, 99, 99, 99, 99, 99, 99, 99,
	99, 99, 99, 99, 99, 99, 99, 99,
	99, 99, 99, 99, 99, 99, 99, 99,
}

func scaled(base *[64]uint16, q int) [64]uint16 {
	s := 200 - 2*q
	if q < 50 {
		s = 5000 / q
	}
	var out [64]uint16
	for i, v := range base {
		x := (int(v)*s + 50) / 100
		out[i] = uint16(min(max(x, 1), 255))
	}
	return out
}

// scaledTables are scaled(std, q) for q 1-100, luma then chroma, computed
// once: quality compares every JPEG's tables against all of them. Built on
// first use, so a process that reads no JPEG does not pay for it at start.
var scaledTables = sync.OnceValue(func() *[2][101][64]uint16 {
	return &[2][101][64]uint16{scaleAll(&stdLuma), scaleAll(&stdChroma)}
})

func scaleAll(base *[64]uint16) (t [101][64]uint16) {
	for q := 1; q <= 100; q++ {
		t[q] = scaled(base, q)
	}
	return t
}

func sad(a []uint16, b *[64]uint16) int {
	d := 0
	for i := range b {
		x := int(a[i]) - int(b[i])
		if x < 0 {
			x = -x
		}
		d += x
	}
	return d
}

// quality returns the estimated quality (1-100), whether the tables are
// exactly libjpeg's standard scaling, and false when there is no table 0.
func quality(dqt [4][]uint16) (q int, standard, ok bool) {
	if dqt[0] == nil {
		return 0, false, false
	}
	best, bestD := 0, -1
	std := scaledTables()
	for i := 1; i <= 100; i++ {
		d := sad(dqt[0], &std[0][i])
		if dqt[1] != nil {
			d += sad(dqt[1], &std[1][i])
		}
		if bestD < 0 || d < bestD {
			best, bestD = i, d
		}
	}
	return best, bestD == 0, true
}
