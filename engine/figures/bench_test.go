package figures

import "testing"

// BenchmarkCheckStatement: a long statement (400 transactions over ten
// pages, one deposit wrong), the chain search's worst ordinary case.
func BenchmarkCheckStatement(b *testing.B) {
	lines := layout(statementRows(400, 200))
	for b.Loop() {
		Check(lines, PageLimits)
	}
}
