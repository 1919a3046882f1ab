package office

import (
	"context"
	"net/url"
	"path"
	"sort"
	"strings"
)

// contentTypes is [Content_Types].xml: Default by extension, Override by
// part name (both keys lower case).
type contentTypes struct {
	present   bool
	defaults  map[string]string
	overrides map[string]string
	malformed bool
}

func readContentTypes(ctx context.Context, p *Package) *contentTypes {
	ct := &contentTypes{defaults: map[string]string{}, overrides: map[string]string{}}
	part := p.Lookup("[Content_Types].xml")
	if part == nil {
		return ct
	}
	ct.present = true
	w := newWalker(ctx, p.Read(part))
	for k := w.next(); k != tokNone; k = w.next() {
		if k != tokStart {
			continue
		}
		switch w.start.Name.Local {
		case "Default":
			e, _ := w.attr("Extension")
			c, _ := w.attr("ContentType")
			e = strings.ToLower(strings.TrimSpace(e))
			if _, dup := ct.defaults[e]; !dup && e != "" {
				ct.defaults[e] = normaliseCT(c)
			}
		case "Override":
			n, _ := w.attr("PartName")
			c, _ := w.attr("ContentType")
			n = strings.ToLower(strings.TrimPrefix(strings.TrimSpace(n), "/"))
			if _, dup := ct.overrides[n]; !dup && n != "" {
				ct.overrides[n] = normaliseCT(c)
			}
		}
	}
	ct.malformed = w.malformed()
	return ct
}

// of returns the declared content type of a part, "" when undeclared.
func (c *contentTypes) of(p *Part) string {
	if v, ok := c.overrides[p.lower]; ok {
		return v
	}
	return c.defaults[ext(p.lower)]
}

func normaliseCT(ct string) string {
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

// rel is one relationship. Type is the last segment of the relationship
// type URI (officeDocument, attachedTemplate, oleObject ...), which is the
// same in the transitional and strict namespaces.
type rel struct {
	Source   string // source part name; "" for the package root
	ID       string
	Type     string
	Target   string // as written: attacker-authored
	External bool
	Resolved string // internal targets: the part name it resolves to
}

func readRels(ctx context.Context, p *Package) (rels []rel, malformed []string) {
	for _, part := range p.Matching("", ".rels") {
		src, ok := relsSource(part.Name)
		if !ok {
			continue
		}
		w := newWalker(ctx, p.Read(part))
		for k := w.next(); k != tokNone; k = w.next() {
			if k != tokStart || w.start.Name.Local != "Relationship" {
				continue
			}
			r := rel{Source: src}
			r.ID, _ = w.attr("Id")
			typ, _ := w.attr("Type")
			typ = strings.TrimSpace(typ)
			r.Type = typ[strings.LastIndexByte(typ, '/')+1:]
			r.Target, _ = w.attr("Target")
			mode, _ := w.attr("TargetMode")
			r.External = strings.EqualFold(strings.TrimSpace(mode), "External")
			if !r.External {
				r.Resolved = resolveTarget(src, r.Target)
			}
			rels = append(rels, r)
		}
		if w.malformed() {
			malformed = append(malformed, part.Name)
		}
	}
	return rels, malformed
}

// relsSource maps "dir/_rels/name.rels" to "dir/name" and "_rels/.rels" to
// the root "".
func relsSource(name string) (string, bool) {
	dir, file := path.Split(name)
	if !strings.EqualFold(path.Base(strings.TrimSuffix(dir, "/")), "_rels") {
		return "", false
	}
	parent := strings.TrimSuffix(strings.TrimSuffix(dir, "/"), "_rels")
	src := strings.TrimSuffix(file, path.Ext(file))
	if src == "" {
		return strings.TrimSuffix(parent, "/"), parent == ""
	}
	return parent + src, true
}

// resolveTarget resolves an internal target against its source part.
func resolveTarget(src, target string) string {
	t := strings.TrimSpace(target)
	if i := strings.IndexAny(t, "#?"); i >= 0 {
		t = t[:i]
	}
	if t == "" {
		return ""
	}
	if u, err := url.PathUnescape(t); err == nil {
		t = u
	}
	t = strings.ReplaceAll(t, `\`, "/")
	if !strings.HasPrefix(t, "/") {
		t = path.Join("/", path.Dir("/"+src), t)
	}
	return strings.TrimPrefix(path.Clean(t), "/")
}

// sortedKeys returns a map's keys in order, so no map order reaches a report.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
