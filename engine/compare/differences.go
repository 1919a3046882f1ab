package compare

import (
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/inject"
	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/report"
)

// Differences is what a rewritten pair differs in. Every string taken from
// a file is attacker-authored and sanitised.
type Differences struct {
	Info         FieldDiffs    `json:"info"`
	XMP          FieldDiffs    `json:"xmp"`
	ID           IDComparison  `json:"id"`
	Fonts        FontDiff      `json:"fonts"`
	PageCount    Pair[int]     `json:"pageCount"`
	PageGeometry GeometryDiffs `json:"pageGeometry"`
	Producer     Pair[Tools]   `json:"producer"`
	Objects      Pair[int]     `json:"objects"`
	XrefStyle    Pair[string]  `json:"xrefStyle"`

	// cued are the shown strings in which the injection detector found a
	// cue (read on the originals); Redact replaces them.
	cued []string
}

// Pair is a value in each file.
type Pair[T any] struct {
	Original  T `json:"original"`
	Candidate T `json:"candidate"`
}

// Tools are the writing software each file names.
type Tools struct {
	Producer string `json:"producer"`
	Creator  string `json:"creator"`
}

// FieldDiff is one metadata key whose value differs.
type FieldDiff struct {
	Key       string `json:"key"`
	Change    string `json:"change"` // added | removed | changed
	Original  string `json:"original,omitempty"`
	Candidate string `json:"candidate,omitempty"`
}

// FieldDiffs is a capped list of field differences.
type FieldDiffs struct {
	Items     []FieldDiff `json:"items"`
	Total     int         `json:"total"`
	Truncated bool        `json:"truncated"`
}

// IDComparison compares the trailer /ID pairs: the first half is set when
// a document is created and kept by every save, the second changes per save.
type IDComparison struct {
	Original       []string `json:"original"`
	Candidate      []string `json:"candidate"`
	PermanentEqual bool     `json:"permanentEqual"`
	PerSaveEqual   bool     `json:"perSaveEqual"`
	// Assessment is same-document (permanent halves equal), different-document
	// (both halves differ) or unknown (an /ID is missing).
	Assessment string `json:"assessment"`
}

// FontDiff lists fonts by BaseFont name, subset tag included.
type FontDiff struct {
	Added   []string `json:"added"`
	Removed []string `json:"removed"`
	// NewBaseNames counts added fonts whose name without the subset tag
	// the original does not use at all.
	NewBaseNames     int `json:"newBaseNames"`
	RemovedBaseNames int `json:"removedBaseNames"`
}

// GeometryDiff is one page whose boxes or rotation differ.
type GeometryDiff struct {
	Page      int              `json:"page"`
	Original  pdf.PageGeometry `json:"original"`
	Candidate pdf.PageGeometry `json:"candidate"`
}

// GeometryDiffs is a capped list of page geometry differences.
type GeometryDiffs struct {
	Items     []GeometryDiff `json:"items"`
	Total     int            `json:"total"`
	Truncated bool           `json:"truncated"`
}

func differences(o, c *pdf.Description) *Differences {
	var cued []string
	d := &Differences{
		Info:      fieldDiffs(o.Info, c.Info, &cued),
		XMP:       fieldDiffs(o.XMP, c.XMP, &cued),
		ID:        compareID(o.ID, c.ID),
		Fonts:     fontDiff(o.Fonts, c.Fonts, &cued),
		PageCount: Pair[int]{len(o.Pages), len(c.Pages)},
		Producer: Pair[Tools]{
			Tools{report.Untrusted(o.Producer), report.Untrusted(o.Creator)},
			Tools{report.Untrusted(c.Producer), report.Untrusted(c.Creator)},
		},
		Objects:   Pair[int]{o.Objects, c.Objects},
		XrefStyle: Pair[string]{o.XrefStyle, c.XrefStyle},
	}
	for _, v := range []string{o.Producer, o.Creator, c.Producer, c.Creator} {
		noteCue(&cued, v)
	}
	d.cued = cued
	d.PageGeometry.Items = []GeometryDiff{}
	for i := 0; i < min(len(o.Pages), len(c.Pages)); i++ {
		if o.Pages[i] == c.Pages[i] {
			continue
		}
		d.PageGeometry.Total++
		if len(d.PageGeometry.Items) < maxListLen {
			d.PageGeometry.Items = append(d.PageGeometry.Items, GeometryDiff{i + 1, o.Pages[i], c.Pages[i]})
		}
	}
	d.PageGeometry.Truncated = d.PageGeometry.Total > len(d.PageGeometry.Items)
	return d
}

// noteCue adds the sanitised form of raw to cued when the injection
// detector finds a cue in raw (the original, before sanitising).
func noteCue(cued *[]string, raw string) {
	if raw != "" && inject.Scan(raw).Found() {
		*cued = append(*cued, report.Untrusted(raw))
	}
}

func fieldDiffs(o, c map[string]string, cued *[]string) FieldDiffs {
	keys := map[string]bool{}
	for k := range o {
		keys[k] = true
	}
	for k := range c {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	out := FieldDiffs{Items: []FieldDiff{}}
	for _, k := range sorted {
		ov, inO := o[k]
		cv, inC := c[k]
		var change string
		switch {
		case !inO:
			change = "added"
		case !inC:
			change = "removed"
		case ov != cv:
			change = "changed"
		default:
			continue
		}
		out.Total++
		if len(out.Items) < maxListLen {
			out.Items = append(out.Items, FieldDiff{report.Untrusted(k), change, report.Untrusted(ov), report.Untrusted(cv)})
			noteCue(cued, ov)
			noteCue(cued, cv)
		}
	}
	out.Truncated = out.Total > len(out.Items)
	return out
}

func compareID(o, c []string) IDComparison {
	r := IDComparison{Original: o, Candidate: c, Assessment: "unknown"}
	if r.Original == nil {
		r.Original = []string{}
	}
	if r.Candidate == nil {
		r.Candidate = []string{}
	}
	if len(o) != 2 || len(c) != 2 {
		return r
	}
	r.PermanentEqual, r.PerSaveEqual = o[0] == c[0], o[1] == c[1]
	switch {
	case r.PermanentEqual:
		r.Assessment = "same-document"
	case !r.PerSaveEqual:
		r.Assessment = "different-document"
	}
	return r
}

// baseName drops a subset tag: six capital letters and a plus sign.
func baseName(f string) string {
	if len(f) > 7 && f[6] == '+' && strings.ToUpper(f[:6]) == f[:6] {
		return f[7:]
	}
	return f
}

func fontDiff(o, c []string, cued *[]string) FontDiff {
	in := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, f := range list {
			m[f] = true
		}
		return m
	}
	bases := func(list []string) map[string]bool {
		m := map[string]bool{}
		for _, f := range list {
			m[baseName(f)] = true
		}
		return m
	}
	oSet, cSet, oBase, cBase := in(o), in(c), bases(o), bases(c)
	d := FontDiff{Added: []string{}, Removed: []string{}}
	newBases, goneBases := map[string]bool{}, map[string]bool{}
	for _, f := range c {
		if !oSet[f] {
			if len(d.Added) < maxListLen {
				d.Added = append(d.Added, report.Untrusted(f))
				noteCue(cued, f)
			}
			if !oBase[baseName(f)] {
				newBases[baseName(f)] = true
			}
		}
	}
	for _, f := range o {
		if !cSet[f] {
			if len(d.Removed) < maxListLen {
				d.Removed = append(d.Removed, report.Untrusted(f))
				noteCue(cued, f)
			}
			if !cBase[baseName(f)] {
				goneBases[baseName(f)] = true
			}
		}
	}
	d.NewBaseNames, d.RemovedBaseNames = len(newBases), len(goneBases)
	return d
}

func (r *Report) differenceFindings() {
	d := r.Differences
	r.add(find("rewritten"))
	switch d.ID.Assessment {
	case "same-document":
		r.add(find("same-document-resaved"))
	case "different-document":
		r.add(find("different-document"))
	default:
		r.add(find("id-absent"))
	}
	if d.PageCount.Original != d.PageCount.Candidate {
		r.add(find("page-count-changed", "original", d.PageCount.Original, "candidate", d.PageCount.Candidate))
	}
	if d.PageGeometry.Total > 0 {
		r.add(find("page-geometry-changed", "pages", d.PageGeometry.Total))
	}
	switch {
	case d.Fonts.NewBaseNames > 0:
		r.add(find("fonts-added", "fonts", d.Fonts.NewBaseNames))
	case len(d.Fonts.Added) > 0:
		r.add(find("font-subsets-changed", "fonts", len(d.Fonts.Added)))
	}
	if d.Fonts.RemovedBaseNames > 0 {
		r.add(find("fonts-removed", "fonts", d.Fonts.RemovedBaseNames))
	}
	if n := d.Info.Total + d.XMP.Total; n > 0 {
		r.add(find("metadata-changed", "info", d.Info.Total, "xmp", d.XMP.Total))
	}
	if d.Producer.Original != d.Producer.Candidate {
		r.add(find("producer-changed"))
	}
	if d.Objects.Original != d.Objects.Candidate || d.XrefStyle.Original != d.XrefStyle.Candidate {
		r.add(find("structure-changed", "original", d.Objects.Original, "candidate", d.Objects.Candidate))
	}
}

// Redact applies ?redact=payload to a comparison (docs/api.md,
// "Redaction"): every string read from either file in which the injection
// detector found a cue (an Info or XMP value, a key, a Producer or Creator,
// a font name) becomes report.Redacted, wherever it is shown. The lists are
// rebuilt, never written through. Idempotent.
func (r *Report) Redact() {
	if r == nil || r.Differences == nil || len(r.Differences.cued) == 0 {
		return
	}
	d := *r.Differences
	red := func(v string) string {
		if report.CarriesCue(v, d.cued) {
			return report.Redacted
		}
		return v
	}
	fields := func(f FieldDiffs) FieldDiffs {
		items := make([]FieldDiff, len(f.Items))
		for i, it := range f.Items {
			items[i] = FieldDiff{Key: red(it.Key), Change: it.Change, Original: red(it.Original), Candidate: red(it.Candidate)}
		}
		f.Items = items
		return f
	}
	names := func(list []string) []string {
		out := make([]string, len(list))
		for i, v := range list {
			out[i] = red(v)
		}
		return out
	}
	d.Info, d.XMP = fields(d.Info), fields(d.XMP)
	d.Fonts.Added, d.Fonts.Removed = names(d.Fonts.Added), names(d.Fonts.Removed)
	d.Producer = Pair[Tools]{
		Tools{red(d.Producer.Original.Producer), red(d.Producer.Original.Creator)},
		Tools{red(d.Producer.Candidate.Producer), red(d.Producer.Candidate.Creator)},
	}
	r.Differences = &d
}
