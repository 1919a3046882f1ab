package compare

import (
	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/report"
)

// Ancestry is what the longer file of a prefix pair added after the
// shorter one was complete.
type Ancestry struct {
	SharedRevisions int  `json:"sharedRevisions"`
	RevisionsAdded  int  `json:"revisionsAdded"`
	BytesAdded      int  `json:"bytesAdded"`
	ContentTouched  bool `json:"contentTouched"`
	// ChangedPerRevision has the incremental-updates family's entry shape
	// for each added revision; capped like every report list.
	ChangedPerRevision      []map[string]any `json:"changedPerRevision"`
	ChangedPerRevisionTotal int              `json:"changedPerRevisionTotal"`
	ChangedPerRevisionTrunc bool             `json:"changedPerRevisionTruncated"`
	contentRevisions        int
}

// ancestry reads the revisions of long that end after short's bytes.
func ancestry(short, long *pdf.Description) *Ancestry {
	boundary := short.Size
	an := &Ancestry{BytesAdded: long.Size - short.Size, ChangedPerRevision: []map[string]any{}}
	for _, end := range long.RevisionEnds {
		if end <= boundary {
			an.SharedRevisions++
		}
	}
	an.RevisionsAdded = len(long.RevisionEnds) - an.SharedRevisions
	for _, ch := range long.Changes {
		if ch.Revision <= an.SharedRevisions {
			continue
		}
		if ch.ContentTouched() {
			an.ContentTouched = true
			an.contentRevisions++
		}
		an.ChangedPerRevisionTotal++
		if len(an.ChangedPerRevision) < report.MaxArray {
			an.ChangedPerRevision = append(an.ChangedPerRevision, ch.Evidence())
		}
	}
	an.ChangedPerRevisionTrunc = an.ChangedPerRevisionTotal > len(an.ChangedPerRevision)
	return an
}

func (r *Report) ancestryFindings(truncates bool) {
	an := r.Ancestry
	if truncates {
		r.add(find("candidate-is-earlier-version", "revisions", an.RevisionsAdded, "bytes", an.BytesAdded))
	} else if an.RevisionsAdded > 0 {
		r.add(find("revisions-appended", "revisions", an.RevisionsAdded, "bytes", an.BytesAdded))
	}
	if an.RevisionsAdded == 0 {
		r.add(find("bytes-appended-without-revision", "bytes", an.BytesAdded))
	}
	if an.ContentTouched {
		r.add(find("content-touched", "revisions", an.contentRevisions))
	}
}
