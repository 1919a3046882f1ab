package pdf

import (
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/report"
)

// activeContentFamily declares the active-content family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var activeContentFamily = declaration{
	ID:      "active-content",
	Order:   80,
	Run:     (*analysis).activeContent,
	Summary: "JavaScript, launch, submit and import actions, attached files, rich media and links: reported, never run.",
	Evidence: []string{
		"counts", "kinds[]", "scriptCalls[]", "total",
	},
	Variants: []report.VariantDecl{
		{Code: "javascript", Severity: report.Medium, Title: "JavaScript present", Text: "The document carries {total#active element|active elements}, including JavaScript that calls network, mail, file, launch or run-time code functions, or is packed or unreadable; none of it was run."},
		{Code: "form-scripts", Severity: report.Low, Title: "Form scripts present", Text: "The document carries {total#active element|active elements}, including {scripts#JavaScript script that calls|JavaScript scripts that call} no network, mail, file, launch or run-time code functions and {scripts?is|are} not packed; none of it was run."},
		{Code: "launch", Severity: report.High, Title: "Launch action present", Text: "The document carries {total#active element|active elements}, including an action that launches an external program; nothing was run."},
		{Code: "submit", Severity: report.Medium, Title: "Form submission or data import", Text: "The document carries {total#active element|active elements}, including actions that submit or import form data; nothing was run."},
		{Code: "rich-media", Severity: report.Medium, Title: "Rich media present", Text: "The document carries {total#active element|active elements}, including rich media; nothing was played."},
		{Code: "attachments", Severity: report.Low, Title: "Attached files", Text: "The document carries {total#active element|active elements}, including {files#attached file|attached files}; none was opened."},
		{Code: "auto-actions", Severity: report.Low, Title: "Automatic actions", Text: "The document carries {total#active element|active elements}, including actions that run when it is opened or navigated; nothing was run."},
		{Code: "kinds", Text: "Kinds found: {kinds~}."},
	},
}

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
	var scripts []cos.Object
	for _, e := range a.f.Entries() {
		if e.Kind == file.Free {
			continue
		}
		if a.f.Deadline() != nil {
			break
		}
		stack = countActive(a.f.Load(e, 0), counts, stack, &scripts)
	}
	calls := a.scriptCalls(scripts)
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
	fd := &report.Finding{Family: report.FamilyActiveContent, Evidence: ev}
	switch {
	case counts["launch"] > 0:
		fd.Severity, fd.Message = report.High, report.Msg("active-content.launch", "total", total)
	case counts["javascript"] > 0 && len(calls) > 0:
		report.Capped(ev, "scriptCalls", calls)
		fd.Severity, fd.Message = report.Medium, report.Msg("active-content.javascript", "total", total)
	case counts["submitForm"]+counts["importData"] > 0:
		fd.Severity, fd.Message = report.Medium, report.Msg("active-content.submit", "total", total)
	case counts["richMedia"] > 0:
		fd.Severity, fd.Message = report.Medium, report.Msg("active-content.rich-media", "total", total)
	case counts["javascript"] > 0:
		fd.Severity, fd.Message = report.Low, report.Msg("active-content.form-scripts", "total", total, "scripts", counts["javascript"])
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
// Script values (/JS) are appended to scripts for scriptCalls.
func countActive(o cos.Object, counts map[string]int, stack []cos.Object, scripts *[]cos.Object) []cos.Object {
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
			if js := v.Get("JS"); js != nil {
				*scripts = append(*scripts, js)
			}
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

// riskyCalls are the script capabilities that reach outside the form:
// network and mail, files and other documents, program launch, code built
// at run time, and the APIs of known reader exploits. Scripts without them
// (field formatting, keystroke filters, calculations, list handling) are
// what form designers write every day.
var riskyCalls = []string{
	"submitform", "launchurl", "geturl", "maildoc", "mailform", "mailmsg", "soap.", "net.http", "net.discover",
	"exportdataobject", "importdataobject", "importanfdf", "importxfdf", "opendoc", "app.launch", "addscript",
	"eval(", "unescape(", "fromcharcode", "stringfromstream", "settimeout", "setinterval",
	"collab.", "hostcontainer", "media.newplayer", "customdictionaryopen", "geticon", "getannots", "printseps",
}

// maxPlainToken is the longest run without white space that a hand-written
// script carries; longer runs are packed or encoded payloads.
const maxPlainToken = 2000

// scriptCalls lists the risky capabilities the scripts use, by the fixed
// names of riskyCalls (never document text), plus "obfuscated" for packed
// code and "unreadable" for a script stream that did not decode.
func (a *analysis) scriptCalls(scripts []cos.Object) []string {
	found := map[string]bool{}
	for _, js := range scripts {
		text, ok := a.scriptText(js)
		if !ok {
			found["unreadable"] = true
			continue
		}
		// UTF-16 scripts (with a byte order mark) hide nothing from this.
		lower := strings.ToLower(cos.DecodeText(text))
		compact := strings.Join(strings.Fields(lower), "")
		for _, c := range riskyCalls {
			if strings.Contains(compact, c) {
				found[c] = true
			}
		}
		run := 0
		for _, b := range []byte(lower) {
			if b == ' ' || b == '\t' || b == '\n' || b == '\r' {
				run = 0
			} else if run++; run > maxPlainToken {
				found["obfuscated"] = true
				break
			}
		}
	}
	var out []string
	for _, c := range append(riskyCalls, "obfuscated", "unreadable") {
		if found[c] {
			out = append(out, c)
		}
	}
	return out
}

// scriptText is a /JS value's text: a string, or a decoded stream.
func (a *analysis) scriptText(js cos.Object) ([]byte, bool) {
	switch v := a.resolve(js).(type) {
	case cos.String:
		return v.Bytes, true
	case *cos.Stream:
		before := a.f.Budget.Used
		data, err := filters.Decode(v.Raw(a.f.Data), v.Dict, a.resolve, a.f.Budget)
		a.uncountedBytes += a.f.Budget.Used - before
		return data, err == nil
	}
	return nil, false
}
