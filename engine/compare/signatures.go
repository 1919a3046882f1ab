package compare

import (
	"fmt"

	"github.com/doctrust/doctrust/engine/report"
)

// signatureFindings notes the signatures present in both files whose
// integrity differs (issue 38): the same signature verified in one file
// and broken in the other means the bytes it covers differ between them.
// A signature is the same when its kind, the revision it vouches for and
// its subfilter agree, taken in file order.
func (r *Report) signatureFindings(original, candidate []report.SignatureFact) {
	key := func(s report.SignatureFact) string { return fmt.Sprintf("%s|%d|%s", s.Kind, s.Revision, s.SubFilter) }
	seen := map[string][]report.SignatureFact{}
	for _, s := range original {
		seen[key(s)] = append(seen[key(s)], s)
	}
	changed := 0
	for _, s := range candidate {
		k := key(s)
		if len(seen[k]) == 0 {
			continue
		}
		o := seen[k][0]
		seen[k] = seen[k][1:]
		if o.Integrity != s.Integrity {
			changed++
		}
	}
	if changed > 0 {
		r.add(find("signature-integrity-changed", "signatures", changed))
	}
}
