package pdf

import (
	"bytes"
	"encoding/hex"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/report"
)

// idInconsistencyFamily declares the id-inconsistency family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var idInconsistencyFamily = declaration{
	ID:      "id-inconsistency",
	Order:   20,
	Run:     (*analysis).idInconsistency,
	Summary: "The trailer /ID pair disagrees with the revision history.",
	Evidence: []string{
		"idOriginal", "idCurrent", "trailerCount", "revisions",
	},
	Variants: []report.VariantDecl{
		{Code: "differs-single-revision", Severity: report.Info, Title: "Document IDs differ", Text: "The two halves of the file identifier differ in a file with a single revision, which usually means a full rewrite by another tool."},
		{Code: "original-changed", Severity: report.Medium, Title: "Permanent identifier changed", Text: "The permanent half of the file identifier changed between revisions ({changes#change|changes} across {trailers#trailer|trailers}), as if revisions of different documents were joined."},
		{Code: "dropped", Severity: report.Low, Title: "Identifier dropped", Text: "An earlier revision carried a file identifier that a later revision removed."},
		{Code: "malformed", Severity: report.Low, Title: "Malformed identifier", Text: "The file identifier is not a pair of strings."},
	},
}

// idInconsistency compares the trailer /ID pair across revisions. The first
// half is permanent (set when the document is created), the second changes
// with every save. A changed first half means revisions of different
// documents were joined; on a single revision, differing halves usually mean
// a full rewrite and are only informational (SPEC.md).
func (a *analysis) idInconsistency() *report.Finding {
	type pair struct{ first, second []byte }
	var ids []pair
	hadID, malformed := false, false
	for _, rev := range a.f.Revisions {
		raw := a.resolve(rev.Trailer.Get("ID"))
		if raw == nil {
			continue
		}
		hadID = true
		arr, ok := raw.(cos.Array)
		if !ok || len(arr) != 2 {
			malformed = true
			continue
		}
		s0, ok0 := a.resolve(arr[0]).(cos.String)
		s1, ok1 := a.resolve(arr[1]).(cos.String)
		if !ok0 || !ok1 {
			malformed = true
			continue
		}
		ids = append(ids, pair{s0.Bytes, s1.Bytes})
	}
	revisions := len(a.f.Revisions)
	ev := map[string]any{"trailerCount": len(ids), "revisions": revisions}
	if len(ids) > 0 {
		last := ids[len(ids)-1]
		ev["idOriginal"] = hex.EncodeToString(last.first)
		ev["idCurrent"] = hex.EncodeToString(last.second)
	}
	changes := 0
	for i := 1; i < len(ids); i++ {
		if !bytes.Equal(ids[i].first, ids[i-1].first) {
			changes++
		}
	}
	finalHasID := a.f.Trailer().Get("ID") != nil
	fd := &report.Finding{Family: report.FamilyIdInconsistency, Evidence: ev}
	switch {
	case changes > 0:
		fd.Severity = report.Medium
		fd.Message = report.Msg("id-inconsistency.original-changed", "changes", changes, "trailers", len(ids))
	case hadID && !finalHasID:
		fd.Severity = report.Low
		fd.Message = report.Msg("id-inconsistency.dropped")
	case malformed:
		fd.Severity = report.Low
		fd.Message = report.Msg("id-inconsistency.malformed")
	case revisions == 1 && len(ids) > 0 && !bytes.Equal(ids[len(ids)-1].first, ids[len(ids)-1].second):
		fd.Severity = report.Info
		fd.Message = report.Msg("id-inconsistency.differs-single-revision")
	default:
		return nil
	}
	return fd
}
