package office

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// props are the document properties of docProps/core.xml and app.xml. Every
// string is attacker-authored.
type props struct {
	// core.xml (keyed by local name: creator, lastModifiedBy, revision,
	// created, modified, title ...), in document order.
	core []prop
	// app.xml top-level simple elements (Application, AppVersion,
	// TotalTime, Template, Pages, Slides ...).
	app []prop
	// custom.xml properties: name attribute and value text.
	custom                  []prop
	corePresent, appPresent bool
}

// prop is one property. Prefix is the element's namespace prefix as
// written (dc, cp, dcterms; the vt: value type for custom properties).
// Items are the values of a nested vector (TitlesOfParts, HeadingPairs),
// kept only for the metadata listing; families read Value.
type prop struct {
	Name, Value string
	Prefix      string
	Items       []string
}

// Caps on what one property keeps.
const (
	maxPropBytes = 4096
	maxPropItems = 256
)

func first(list []prop, name string) string {
	for _, p := range list {
		if p.Name == name {
			return strings.TrimSpace(p.Value)
		}
	}
	return ""
}

// readProps reads the three property parts. Only leaf text is kept, bounded
// by the part cap; nested vectors in app.xml (TitlesOfParts) are skipped.
func readProps(ctx context.Context, p *Package) (props, []string) {
	var pr props
	var malformed []string
	leaves := func(name string) ([]prop, bool) {
		data := p.ReadName(name)
		if data == nil {
			return nil, false
		}
		m, bad := leafText(ctx, data, 2)
		if bad {
			malformed = append(malformed, name)
		}
		return m, true
	}
	pr.core, pr.corePresent = leaves("docProps/core.xml")
	pr.app, pr.appPresent = leaves("docProps/app.xml")
	if data := p.ReadName("docProps/custom.xml"); data != nil {
		w := newWalker(ctx, data)
		var cur, typ string
		var buf strings.Builder
		for k := w.next(); k != tokNone; k = w.next() {
			switch k {
			case tokStart:
				if w.start.Name.Local == "property" {
					cur, _ = w.attr("name")
					typ = ""
					buf.Reset()
				} else if w.depth == 3 {
					typ = w.start.Name.Local
				}
			case tokText:
				if w.depth >= 3 && buf.Len() < maxPropBytes {
					buf.Write(w.text)
				}
			case tokEnd:
				if w.end.Name.Local == "property" {
					pr.custom = append(pr.custom, prop{Name: cur, Value: buf.String(), Prefix: typ})
				}
			}
		}
		if w.malformed() {
			malformed = append(malformed, "docProps/custom.xml")
		}
	}
	return pr, malformed
}

// leafText collects the text of elements at the given depth (children of
// the root), keyed by local name with the prefix as written. The text of
// deeper elements (vector items) goes to Items.
func leafText(ctx context.Context, data []byte, depth int) ([]prop, bool) {
	w := newWalker(ctx, data)
	var out []prop
	var cur prop
	var buf, item strings.Builder
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			switch {
			case w.depth == depth:
				cur = prop{Name: w.start.Name.Local, Prefix: w.start.Name.Space}
				buf.Reset()
			case w.depth > depth:
				item.Reset()
			}
		case tokText:
			switch {
			case w.depth == depth && buf.Len() < maxPropBytes:
				buf.Write(w.text)
			case w.depth > depth && item.Len() < maxPropBytes:
				item.Write(w.text)
			}
		case tokEnd:
			switch {
			case w.depth == depth-1 && cur.Name != "":
				cur.Value = buf.String()
				out = append(out, cur)
				cur = prop{}
			case w.depth > depth && cur.Name != "" && len(cur.Items) < maxPropItems:
				if v := strings.TrimSpace(item.String()); v != "" {
					cur.Items = append(cur.Items, v)
				}
				item.Reset()
			}
		}
	}
	return out, w.malformed()
}

func (pr *props) application() string { return first(pr.app, "Application") }
func (pr *props) appVersion() string  { return first(pr.app, "AppVersion") }
func (pr *props) creator() string     { return first(pr.core, "creator") }
func (pr *props) lastModBy() string   { return first(pr.core, "lastModifiedBy") }

// intProp parses a non-negative integer property; ok is false when absent
// or unparseable.
func intProp(list []prop, name string) (int, bool) {
	v := first(list, name)
	if v == "" {
		return 0, false
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// dateProp parses a W3CDTF date as core.xml writes it.
func dateProp(list []prop, name string) (time.Time, bool) {
	v := first(list, name)
	if v == "" {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04Z07:00", "2006-01-02"} {
		if t, err := time.Parse(layout, v); err == nil {
			return t.UTC(), true
		}
	}
	return time.Time{}, false
}

// fillPropertyBlocks sets what the office and document blocks take from
// the properties (SPEC.md: for Office, producer is the writing
// application, creator the recorded author, revisions the save counter).
// Every format maps its own properties onto the OOXML names first
// (core.xml, app.xml), so this one reading serves OOXML, binary Office and
// OpenDocument alike; parts is nil where the container has none to count.
func fillPropertyBlocks(r *report.Report, pr *props, format sniff.Format, parts *int, macros bool) {
	ob := &report.OfficeBlock{Format: string(format), PartCount: parts, Macros: &macros}
	ob.Application = report.Str(report.Untrusted(pr.application()))
	ob.AppVersion = report.Str(report.Untrusted(pr.appVersion()))
	ob.LastModifiedBy = report.Str(report.Untrusted(pr.lastModBy()))
	if n, ok := intProp(pr.core, "revision"); ok {
		ob.SaveCount = &n
		if n >= 1 {
			r.Document.Revisions = n
		}
	}
	if n, ok := intProp(pr.app, "TotalTime"); ok {
		ob.EditingMinutes = &n
	}
	r.Office = ob
	d := &r.Document
	d.Producer = report.Str(report.Untrusted(strings.TrimSpace(pr.application() + " " + pr.appVersion())))
	d.Creator = report.Str(report.Untrusted(pr.creator()))
	if t, ok := dateProp(pr.core, "created"); ok {
		d.CreationDate = report.Str(t.Format(time.RFC3339))
	}
	if t, ok := dateProp(pr.core, "modified"); ok {
		d.ModDate = report.Str(t.Format(time.RFC3339))
	}
	for _, k := range []string{"Pages", "Slides"} {
		if n, ok := intProp(pr.app, k); ok {
			d.Pages = n
			break
		}
	}
}
