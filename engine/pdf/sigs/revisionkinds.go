package sigs

// maxRoleNodes bounds the nodes (pages, annotations, fields, DSS entries)
// the view walks of one analysis visit together; past it the remaining
// revisions are opaque.
const maxRoleNodes = 500000

// changeKinds is what one appended revision changed, in the terms of the
// DocMDP permissions of ISO 32000-2 (12.8.2.2) as pyHanko's difference
// policy reads them. It compares the revision with the one before it, by
// objects and their roles; nothing is rendered.
type changeKinds struct {
	revision   int
	content    bool // page content, page images, pages, page resources
	structure  bool // catalogue, page tree, form structure, freed objects, rewritten signatures
	annotation bool // annotations created, changed or deleted; widgets moved or restyled
	fill       bool // form field values and their appearances
	signing    bool // new signature values and their fields
	ltv        bool // DSS and VRI data, document timestamps
	opaque     bool // objects whose role the analysis cannot place
	// fields are the fully qualified names (attacker-authored) of fields
	// whose value, appearance or widgets changed, for FieldMDP locks.
	fields []string
	// refilled are the names of the fields other than signature fields
	// that held a value and were given another one: a changed entry, not
	// a blank filled in.
	refilled []string
}

// Assessment values (SPEC.md signature-permissions.revisionsAssessed[]).
const (
	assessContent    = "content"
	assessStructure  = "structure"
	assessAnnotation = "annotation"
	assessOpaque     = "opaque"
	assessLTV        = "ltv"
	assessPermitted  = "permitted"
)

// assess rates the revision against DocMDP permission level p: 1 allows
// only LTV data and document timestamps, 2 adds form filling and signing,
// 3 adds annotations. Under P=1 form filling and signing show as
// annotation, since they change widget annotations.
func (c changeKinds) assess(p int) string {
	switch {
	case c.content:
		return assessContent
	case c.structure:
		return assessStructure
	case c.annotation && p < 3, (c.fill || c.signing) && p == 1:
		return assessAnnotation
	case c.opaque:
		return assessOpaque
	case c.ltv && !c.fill && !c.signing && !c.annotation:
		return assessLTV
	}
	return assessPermitted
}

// breaks reports whether the assessment is not permitted.
func breaks(assessment string) bool {
	return assessment != assessLTV && assessment != assessPermitted
}

// Modification levels, pyHanko's ModificationLevel names: what the
// revisions appended after a signature did at most.
var modificationLevels = []string{"none", "lta-updates", "form-filling", "annotations", "other"}

func (c changeKinds) level() int {
	switch {
	case c.content || c.structure || c.opaque:
		return 4
	case c.annotation:
		return 3
	case c.fill || c.signing:
		return 2
	}
	return 1
}

// levelUnknown is the modification level when revisions follow a
// signature that were not classified: a rebuilt cross-reference left one
// revision, or the deadline stopped the walk.
const levelUnknown = "unknown"

// modificationLevel names the highest level among the appended revisions
// after rev.
func modificationLevel(kinds []changeKinds, rev, appended int) string {
	level, seen := 0, 0
	for _, k := range kinds {
		if k.revision > rev {
			level = max(level, k.level())
			seen++
		}
	}
	if seen < appended {
		return levelUnknown
	}
	return modificationLevels[level]
}

// revisionKinds classifies, once, every revision appended after the first
// one a signature vouches for: no family asks about earlier ones.
func (a *analysis) revisionKinds() []changeKinds {
	if a.kinds != nil || len(a.f.Revisions) < 2 {
		return a.kinds
	}
	a.kinds = []changeKinds{}
	from := a.signatures().earliestBase()
	if from == 0 {
		return a.kinds
	}
	budget, scans := maxRoleNodes, maxReferrerObjects
	var prev *viewRoles
	for _, ch := range a.revisionChanges() {
		if ch.Revision <= from {
			continue
		}
		if prev == nil || prev.rev != ch.Revision-1 {
			prev = a.rolesOf(ch.Revision-1, &budget)
		}
		cur := a.rolesOf(ch.Revision, &budget)
		c := classifier{a: a, k: &changeKinds{revision: ch.Revision}, old: prev, cur: cur, scans: &scans}
		c.classify(ch)
		a.kinds = append(a.kinds, *c.k)
		prev = cur
	}
	return a.kinds
}
