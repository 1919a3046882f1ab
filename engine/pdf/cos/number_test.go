package cos

import (
	"math"
	"strconv"
	"testing"
)

// refNumber is number as it was before its strconv-free path: the
// reference the fast path is checked against (value, kind, anomalies).
func refNumber(tok []byte) (v float64, isInt bool, anomalies int) {
	isInt = true
	for i, c := range tok {
		if c == '.' || ((c == '-' || c == '+') && i > 0) {
			isInt = false
		}
	}
	if isInt {
		if v, err := strconv.ParseInt(string(tok), 10, 64); err == nil {
			return float64(v), true, 0
		}
	}
	s := make([]byte, 0, len(tok))
	neg := false
	i := 0
	for i < len(tok) && (tok[i] == '-' || tok[i] == '+') {
		if tok[i] == '-' {
			neg = !neg
		}
		i++
	}
	if neg {
		s = append(s, '-')
	}
	dot := false
	for ; i < len(tok); i++ {
		c := tok[i]
		if c == '.' {
			if dot {
				break
			}
			dot = true
		} else if c < '0' || c > '9' {
			break
		}
		s = append(s, c)
	}
	if len(s) == 0 || string(s) == "-" || string(s) == "." || string(s) == "-." {
		return 0, true, 1
	}
	f, err := strconv.ParseFloat(string(s), 64)
	if err != nil {
		return 0, true, 1
	}
	if len(s) != len(tok) {
		anomalies = 1
	}
	return f, false, anomalies
}

func FuzzNumber(f *testing.F) {
	for _, s := range []string{"0", "-0", "-0.0", "+1.5", "+5", "1.", ".5", "-.", ".", "-", "--5", "1.2.3",
		"+-.7", "99999999999999999999999", "123456789012345", "1234567890123456", "0.000000000000001",
		"3.14159265358979", "-12.5", "007", "1e5", "612.0000001"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, tok []byte) {
		end := 0
		for end < len(tok) && (tok[end] >= '0' && tok[end] <= '9' || tok[end] == '.' || tok[end] == '-' || tok[end] == '+') {
			end++
		}
		tok = tok[:end]
		if len(tok) == 0 {
			return
		}
		p := NewParser(tok, 0)
		n, ok := p.number()
		if !ok || p.Pos() != len(tok) {
			t.Fatalf("%q: ok=%v pos=%d", tok, ok, p.Pos())
		}
		got := n.f
		if n.isInt {
			got = float64(n.i)
		}
		want, wantInt, wantAnom := refNumber(tok)
		if math.Float64bits(got) != math.Float64bits(want) || n.isInt != wantInt || p.Anomalies != wantAnom {
			t.Fatalf("%q: got %v int=%v anomalies=%d, want %v int=%v anomalies=%d", tok, got, n.isInt, p.Anomalies, want, wantInt, wantAnom)
		}
	})
}
