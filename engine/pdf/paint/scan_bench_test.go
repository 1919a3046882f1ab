package paint

import (
	"bytes"
	"testing"
)

// BenchmarkScan tokenises a typical page: text placed by Tm and TJ, and
// paths.
func BenchmarkScan(b *testing.B) {
	page := bytes.Repeat([]byte("BT /F1 9.5 Tf 1 0 0 1 72.5 700.25 Tm [(Invoice) -250 (total) 120.5 (:)] TJ 0 -11.5 Td <00410042> Tj ET\n"+
		"q 0.5 0.5 0.5 rg 72 650 468 0.75 re f Q 100 200 m 150.25 250.5 l 300 200 350 250 400 200 c S\n"), 200)
	var sc Scanner
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		sc.Scan(page, MaxOperands, func(op []byte, args []Operand) bool { n += len(args); return true })
	}
}
