package pdf

import (
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/report"
)

// maxNestedNodes bounds the walk inside one object's direct children.
const maxNestedNodes = 4096

// Active-content kinds, in the order evidence and notes list them.
var activeKinds = []string{
	"javascript", "launch", "submitForm", "importData", "richMedia", "embeddedFiles",
	"fileAttachments", "openAction", "additionalActions", "remoteGoTo", "uri",
}

// activeContent counts what the document could do if a viewer let it:
// scripts, launches, submissions, imports, media, attachments, automatic
// actions and links. Nothing is run, opened or followed. Links alone do not
// raise a signal: they are ordinary in every document.
func (a *analysis) activeContent() *report.Finding {
	counts := map[string]int{}
	var stack []cos.Object // reused from object to object
	for _, e := range a.f.Entries() {
		if e.Kind == file.Free {
			continue
		}
		if a.f.Deadline() != nil {
			break
		}
		stack = countActive(a.f.Load(e, 0), counts, stack)
	}
	if a.catalog != nil {
		if oa := a.resolve(a.catalog.Get("OpenAction")); cos.DictOf(oa) != nil {
			counts["openAction"]++
		}
	}
	total := 0
	var kinds []string
	for _, k := range activeKinds {
		if counts[k] > 0 {
			total += counts[k]
			kinds = append(kinds, k)
		}
	}
	if total == counts["uri"] {
		return nil
	}
	ev := map[string]any{"counts": counts, "total": total}
	report.Capped(ev, "kinds", kinds)
	fd := &report.Finding{Family: "active-content", Evidence: ev}
	switch {
	case counts["launch"] > 0:
		fd.Severity, fd.Message = report.High, report.Msg("active-content.launch", "total", total)
	case counts["javascript"] > 0:
		fd.Severity, fd.Message = report.Medium, report.Msg("active-content.javascript", "total", total)
	case counts["submitForm"]+counts["importData"] > 0:
		fd.Severity, fd.Message = report.Medium, report.Msg("active-content.submit", "total", total)
	case counts["richMedia"] > 0:
		fd.Severity, fd.Message = report.Medium, report.Msg("active-content.rich-media", "total", total)
	case counts["embeddedFiles"]+counts["fileAttachments"] > 0:
		fd.Severity, fd.Message = report.Low, report.Msg("active-content.attachments", "total", total, "files", max(counts["embeddedFiles"], counts["fileAttachments"]))
	default:
		fd.Severity, fd.Message = report.Low, report.Msg("active-content.auto-actions", "total", total)
	}
	fd.Notes = []report.Message{report.Msg("active-content.kinds", "kinds", report.Kind(strings.Join(kinds, ", ")))}
	return fd
}

// countActive walks one object and its direct (non-referenced) children;
// referenced children are objects of their own and are counted once each
// by the caller's pass over every object. stack is working storage,
// returned for the next call.
func countActive(o cos.Object, counts map[string]int, stack []cos.Object) []cos.Object {
	stack = append(stack[:0], o)
	for n := 0; len(stack) > 0 && n < maxNestedNodes; n++ {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		switch v := cur.(type) {
		case cos.Array:
			stack = append(stack, v...)
		case *cos.Stream:
			stack = append(stack, v.Dict)
		case *cos.Dict:
			countDict(v, counts)
			stack = append(stack, v.Vals...)
		}
	}
	return stack[:0]
}

func countDict(d *cos.Dict, counts map[string]int) {
	switch d.Name("S") {
	case "JavaScript":
		counts["javascript"]++
	case "Launch":
		counts["launch"]++
	case "SubmitForm":
		counts["submitForm"]++
	case "ImportData":
		counts["importData"]++
	case "URI":
		counts["uri"]++
	case "GoToR", "GoToE":
		counts["remoteGoTo"]++
	case "Rendition", "Movie", "Sound":
		counts["richMedia"]++
	default:
		if d.Has("JS") {
			counts["javascript"]++
		}
	}
	switch d.Name("Subtype") {
	case "RichMedia", "Movie", "Sound", "Screen", "3D":
		counts["richMedia"]++
	case "FileAttachment":
		counts["fileAttachments"]++
	}
	if d.Has("EF") {
		counts["embeddedFiles"]++ // a file specification carrying the file
	}
	if d.Has("AA") {
		counts["additionalActions"]++
	}
}
