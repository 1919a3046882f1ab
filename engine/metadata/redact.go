package metadata

import (
	"regexp"

	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/report"
)

// invisibleEscape matches the escapes report.Untrusted writes for
// characters that render as nothing. They are taken out before a listed
// value is scanned, so a cue split by a zero-width space is still one.
var invisibleEscape = regexp.MustCompile(`\\u(00ad|034f|180e|200[bcd]|206[0-4]|feff)|\\U000e00[0-7][0-9a-f]`)

// Redact applies ?redact=payload to the listing (docs/api.md, "Redaction"):
// a key, value or raw form in which the injection detector finds a cue
// becomes report.Redacted, in the containers and in personal. It runs only
// when asked, on the listed (sanitised, cut) strings, so a listing without
// redaction costs no scan.
func (r *Report) Redact() {
	if r == nil {
		return
	}
	memo := map[string]bool{}
	red := func(s *string) {
		if *s == "" || *s == report.Redacted {
			return
		}
		cued, ok := memo[*s]
		if !ok {
			cued = inject.Scan(invisibleEscape.ReplaceAllString(*s, "")).Found()
			memo[*s] = cued
		}
		if cued {
			*s = report.Redacted
		}
	}
	entry := func(e *Entry) {
		red(&e.Key)
		red(&e.Value)
		red(&e.Raw)
	}
	for ci := range r.Containers {
		for ei := range r.Containers[ci].Entries {
			entry(&r.Containers[ci].Entries[ei])
		}
	}
	for pi := range r.Personal {
		entry(&r.Personal[pi].Entry)
	}
}
