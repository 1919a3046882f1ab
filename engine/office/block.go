package office

import (
	"context"
	"encoding/xml"
	"strconv"
	"strings"
	"time"
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

type prop struct{ Name, Value string }

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
		var cur string
		var buf strings.Builder
		for tok := w.next(); tok != nil; tok = w.next() {
			switch t := tok.(type) {
			case xml.StartElement:
				if t.Name.Local == "property" {
					cur, _ = attr(t, "name")
					buf.Reset()
				}
			case xml.CharData:
				if w.depth >= 3 && buf.Len() < 4096 {
					buf.Write(t)
				}
			case xml.EndElement:
				if t.Name.Local == "property" {
					pr.custom = append(pr.custom, prop{cur, buf.String()})
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
// the root), keyed by local name.
func leafText(ctx context.Context, data []byte, depth int) ([]prop, bool) {
	w := newWalker(ctx, data)
	var out []prop
	var name string
	var buf strings.Builder
	for tok := w.next(); tok != nil; tok = w.next() {
		switch t := tok.(type) {
		case xml.StartElement:
			if w.depth == depth {
				name = t.Name.Local
				buf.Reset()
			}
		case xml.CharData:
			if w.depth == depth && buf.Len() < 4096 {
				buf.Write(t)
			}
		case xml.EndElement:
			if w.depth == depth-1 && name != "" {
				out = append(out, prop{name, buf.String()})
				name = ""
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
