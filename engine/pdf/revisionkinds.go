package pdf

import (
	"bytes"
	"slices"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
)

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

// classifier holds the two views one revision is judged between.
type classifier struct {
	a        *analysis
	k        *changeKinds
	old, cur *viewRoles
	// scans counts down the objects every referrer scan of the analysis
	// may still read (apshare.go).
	scans *int
}

// classify judges every object the revision wrote or freed.
func (c classifier) classify(ch RevisionChange) {
	a, k, old := c.a, c.k, c.old
	k.content = ch.ContentTouched()
	k.opaque = old.truncated || c.cur.truncated
	for _, e := range a.f.Revisions[ch.Revision-1].Entries {
		if e.Num == 0 {
			continue
		}
		if a.f.Deadline() != nil {
			k.opaque = true
			break
		}
		num := int(e.Num)
		if e.Kind == file.Free {
			if c.existed(num) {
				c.freed(num)
			}
			continue
		}
		obj := a.f.Load(e, ch.Revision)
		if !c.existed(num) {
			c.added(num, obj)
			continue
		}
		prev, _ := a.f.Lookup(num, old.rev)
		before := a.f.Load(prev, old.rev)
		if sameObject(a.f.Data, before, obj) {
			continue
		}
		c.overwritten(num, before, obj)
	}
}

// existed reports whether num was in use in the previous view.
func (c classifier) existed(num int) bool {
	e, ok := c.a.f.Lookup(num, c.old.rev)
	return ok && e.Kind != file.Free
}

// added judges an object the previous view did not have. A new object only
// matters through what names it, which is itself written in this revision
// and judged there; these are the new objects that say what happened.
func (c classifier) added(num int, obj cos.Object) {
	switch {
	case c.cur.fieldOf[num] != nil:
		fl := c.cur.fieldOf[num]
		if fl.ft != "Sig" {
			c.k.structure = true // form fields other than signatures may not be created
			return
		}
		c.newSignature(fl)
	case c.cur.sigValues[num]:
		if d := cos.DictOf(obj); d != nil && d.Name("Type") == "DocTimeStamp" {
			c.k.ltv = true
		} else {
			c.k.signing = true
		}
	case c.cur.dss[num]:
		c.k.ltv = true
	case c.cur.others[num]:
		c.k.annotation = true
	}
}

// newSignature judges a signature field getting its value: an invisible
// document timestamp is LTV data, anything else is signing.
func (c classifier) newSignature(fl *formField) {
	v := cos.DictOf(c.cur.resolveRev(fl.value))
	if v != nil && v.Name("Type") == "DocTimeStamp" && !fl.visible(c.cur.resolveRev) {
		c.k.ltv = true
		return
	}
	c.k.signing = true
	c.changedField(fl.name)
}

func (c classifier) overwritten(num int, before, obj cos.Object) {
	old, cur := c.old, c.cur
	od, nd := cos.DictOf(before), cos.DictOf(obj)
	in := func(m map[int]bool) bool { return m[num] }
	switch {
	case before == nil || obj == nil:
		c.k.opaque = true
	case num == cur.catalogNum || num == old.catalogNum:
		c.catalog(od, nd)
	case num == cur.form.formNum && num > 0, num == old.form.formNum && num > 0:
		c.form(od, nd)
	case num == cur.form.fieldsNum && num > 0, num == old.form.fieldsNum && num > 0:
		c.fieldList(before, obj)
	case cur.fieldOf[num] != nil || old.fieldOf[num] != nil:
		c.field(num, od, nd)
	case cur.form.nodes[num] || old.form.nodes[num]:
		// a field node above the terminal fields: its kids are the form's
		// structure, its inheritable value keys a value
		if differs(od, nd, valueKeys...) {
			c.k.structure = true
		} else {
			c.k.fill = true
		}
	case num == cur.names || num == old.names:
		c.names(od, nd)
	case num == cur.perms || num == old.perms:
		c.k.structure = true // permissions rewritten
	case in(cur.sigValues) || in(old.sigValues) || isSigDict(od):
		c.k.structure = true // a signature value rewritten
	case cur.values[num] != nil:
		c.k.fill = true
		c.changedField(cur.values[num].name)
	case in(cur.pages) || in(old.pages):
		c.page(od, nd)
	case in(cur.annots) || in(old.annots):
		c.annotations(before, obj)
	case in(cur.treeNodes) || in(old.treeNodes):
		if slices.Equal(old.pageList, cur.pageList) {
			c.k.structure = true
		} else {
			c.k.content = true
		}
	case in(cur.others) || in(old.others) || in(cur.widgets) || in(old.widgets) || in(cur.annotAP) || in(old.annotAP):
		c.k.annotation = true
	case in(cur.fillAP) || in(old.fillAP):
		c.appearance(num)
	case in(cur.formRes) || in(old.formRes):
		c.k.fill = true
	case in(cur.dss) || in(old.dss):
		c.k.ltv = true
	case num == cur.infoNum || num == old.infoNum || num == cur.metadata || num == old.metadata:
		// document information and XMP may change at every level (pyHanko)
	case in(cur.resources) || in(old.resources):
		c.k.content = true
	case nd.Name("Type") == "XRef" || nd.Name("Type") == "ObjStm":
	default:
		c.k.opaque = true
	}
}

// freed judges an object deleted by a free entry by the role it had.
// Writers free what they replaced, such as an old appearance stream;
// pyHanko refuses every deletion, which flags ordinary form filling.
func (c classifier) freed(num int) {
	o := c.old
	in := func(m map[int]bool) bool { return m[num] }
	switch {
	case num == o.catalogNum || num == o.perms || num == o.form.formNum || num == o.form.fieldsNum,
		o.fieldOf[num] != nil, o.values[num] != nil, in(o.sigValues), in(o.treeNodes):
		c.k.structure = true
	case in(o.pages) || in(o.resources):
		c.k.content = true
	case in(o.others) || in(o.widgets) || in(o.annotAP) || in(o.annots):
		c.k.annotation = true
	case in(o.fillAP) || in(o.formRes):
		c.k.fill = true
	case in(o.dss):
		c.k.ltv = true // PAdES lets validation data be pruned
	default:
		c.k.opaque = true
	}
}

// catalogExempt are the catalogue keys later revisions may change: pyHanko's
// CatalogModificationRule list, the name dictionary (judged by names), and
// the application data Acrobat stamps on every save (/PieceInfo). The form
// and the DSS are judged on their own.
var catalogExempt = []cos.Name{"AcroForm", "DSS", "Extensions", "Metadata", "MarkInfo", "Version", "Names", "PieceInfo", "LastModified"}

// pageExempt are the page keys judged elsewhere (content, annotations) or
// kept by writers as bookkeeping when they add a widget: tab order, the
// structure-tree key, application data. pyHanko refuses them; Acrobat
// writes them when a second signer signs.
var pageExempt = append(slices.Clone(pageKeys), "Annots", "Tabs", "StructParents", "PieceInfo", "LastModified")

func (c classifier) catalog(od, nd *cos.Dict) {
	if od == nil || nd == nil {
		c.k.structure = true
		return
	}
	if differs(od, nd, catalogExempt...) {
		c.k.structure = true
	}
	// A direct or re-pointed form is judged here; an indirect one rewritten
	// in place is judged as its own object.
	if of, nf := od.Get("AcroForm"), nd.Get("AcroForm"); (refNum(nf) == 0 || refNum(of) != refNum(nf)) && !cos.Equal(of, nf) {
		c.form(cos.DictOf(c.old.resolveRev(of)), cos.DictOf(c.cur.resolveRev(nf)))
	}
	if on, nn := od.Get("Names"), nd.Get("Names"); (refNum(nn) == 0 || refNum(on) != refNum(nn)) && !cos.Equal(on, nn) {
		c.names(cos.DictOf(c.old.resolveRev(on)), cos.DictOf(c.cur.resolveRev(nn)))
	}
	switch od, nd := od.Get("DSS"), nd.Get("DSS"); {
	case nd == nil && od != nil:
		c.k.structure = true // validation data may be added, not the store removed
	case !cos.Equal(od, nd):
		c.k.ltv = true
	}
}

// names judges the catalogue's name dictionary: its /AP tree holds named
// appearances of stamp annotations, which annotating adds to; any other
// tree (JavaScript, embedded files, destinations) changes the document.
func (c classifier) names(od, nd *cos.Dict) {
	if od == nil {
		od = &cos.Dict{}
	}
	if nd == nil {
		nd = &cos.Dict{}
	}
	if differs(od, nd, "AP") {
		c.k.structure = true
	}
	if !cos.Equal(od.Get("AP"), nd.Get("AP")) {
		c.k.annotation = true
	}
}

// formExempt are the AcroForm keys filling and signing change.
var formExempt = []cos.Name{"Fields", "DR", "DA", "Q", "NeedAppearances", "SigFlags"}

func (c classifier) form(od, nd *cos.Dict) {
	if nd == nil {
		if od != nil {
			c.k.structure = true
		}
		return
	}
	if od != nil && differs(od, nd, formExempt...) {
		c.k.structure = true
	}
	c.fieldList(c.old.resolveRev(od.Get("Fields")), c.cur.resolveRev(nd.Get("Fields")))
}

// fieldList compares the form's root field lists: removing a field, or
// moving an existing object into the list, changes the form's structure;
// new fields are judged as new objects.
func (c classifier) fieldList(before, obj cos.Object) {
	oldList, _ := before.(cos.Array)
	newList, _ := obj.(cos.Array)
	removed, added := refDiff(oldList, newList)
	if len(removed) > 0 {
		c.k.structure = true
	}
	for _, n := range added {
		if c.existed(n) {
			c.k.structure = true
		}
	}
}

// valueKeys are the field keys filling in a form changes: pyHanko's
// VALUE_UPDATE_KEYS, the widget's modification date /M, and /Rect, which
// is compared apart with a tolerance because writers round it on saving.
// lockFree are the keys even a locked field may change.
var (
	valueKeys = []cos.Name{"V", "AP", "AS", "F", "DA", "Q", "Ff", "Type", "M", "Rect"}
	lockFree  = []cos.Name{"Ff", "Type"}
)

// rectTolerance is how far (in points) a widget edge may move by rounding.
const rectTolerance = 0.5

func moved(od, nd *cos.Dict, resolveOld, resolveNew func(cos.Object) cos.Object) bool {
	or, ok1 := rect(resolveOld(od.Get("Rect")), resolveOld)
	nr, ok2 := rect(resolveNew(nd.Get("Rect")), resolveNew)
	if ok1 != ok2 {
		return true
	}
	for i := range or {
		if d := or[i] - nr[i]; d > rectTolerance || d < -rectTolerance {
			return true
		}
	}
	return false
}

func (c classifier) field(num int, od, nd *cos.Dict) {
	fl := c.cur.fieldOf[num]
	if fl == nil || od == nil || nd == nil {
		c.k.structure = true // a field or widget taken out of the form
		return
	}
	if differs(od, nd, lockFree...) {
		c.changedField(fl.name)
	}
	if differs(od, nd, valueKeys...) || moved(od, nd, c.old.resolveRev, c.cur.resolveRev) {
		if nd.Name("Subtype") == "Widget" {
			c.k.annotation = true
		} else {
			c.k.structure = true
		}
	}
	if fl.ft != "Sig" {
		if !cos.Equal(od.Get("AP"), nd.Get("AP")) && cos.Equal(od.Get("AS"), nd.Get("AS")) && !c.valueChanged(num) {
			c.k.annotation = true // a new appearance for the same value
		} else {
			c.k.fill = true
		}
		return
	}
	// Judged by the field's value, so a widget kid counts like its field.
	prev := c.old.fieldOf[num]
	switch {
	case prev != nil && isSigDict(cos.DictOf(c.old.resolveRev(prev.value))):
		// Signing software sets flags (read-only, locked) on the field it
		// signed; anything else rewrites a signed field, and hiding it
		// hides the signature's appearance.
		switch {
		case differs(od, nd, "Ff", "F", "Type"):
			c.k.structure = true
		case newlyHidden(od, nd):
			c.k.annotation = true
		}
	case isSigDict(cos.DictOf(c.cur.resolveRev(fl.value))):
		c.newSignature(fl)
	default:
		c.k.signing = true // an empty signature field's appearance
	}
}

// appearance judges an appearance object rewritten in place. Filling a
// field may redraw it; redrawing it while the value stays is what the
// "replace" shadow attack does, and redrawing one that something else
// also uses, or a signed signature's, changes more than a form value.
func (c classifier) appearance(num int) {
	owner, shared, ok := c.appearanceOwner(num)
	switch {
	case !ok:
		c.k.opaque = true
	case shared:
		c.k.structure = true
	case owner == nil:
		c.k.fill = true
	case owner.ft == "Sig" && isSigDict(cos.DictOf(c.old.resolveRev(owner.value))):
		c.k.structure = true
	case !c.valueChanged(owner.num):
		c.k.annotation = true
	default:
		c.k.fill = true
	}
}

// valueChanged reports whether the field object num (as the previous view
// knew it) has another value now, or is gone.
func (c classifier) valueChanged(num int) bool {
	prev, cur := c.old.fieldOf[num], c.cur.fieldOf[num]
	if prev == nil || cur == nil {
		return true
	}
	return !cos.Equal(c.old.resolveRev(prev.value), c.cur.resolveRev(cur.value))
}

// newlyHidden reports annotation flags Hidden (2) or NoView (32) set by
// the newer dictionary only.
func newlyHidden(od, nd *cos.Dict) bool {
	o, _ := cos.AsInt(od.Get("F"))
	n, _ := cos.AsInt(nd.Get("F"))
	return n&^o&(2|32) != 0
}

func (c classifier) changedField(name string) {
	if !slices.Contains(c.k.fields, name) && len(c.k.fields) < maxLockFields {
		c.k.fields = append(c.k.fields, name)
	}
}

func (c classifier) page(od, nd *cos.Dict) {
	if od == nil || nd == nil {
		c.k.content = true
		return
	}
	// /Contents, /Resources and the boxes are content (RevisionChange).
	if differs(od, nd, pageExempt...) {
		c.k.structure = true
	}
	oa, na := od.Get("Annots"), nd.Get("Annots")
	if !cos.Equal(oa, na) {
		c.annotations(c.old.resolveRev(oa), c.cur.resolveRev(na))
	}
}

// annotations compares a page's annotation lists: binding a new signature
// field's widget is signing, a new widget of another field creates a
// field, anything else is an annotation change.
func (c classifier) annotations(before, obj cos.Object) {
	oldList, _ := before.(cos.Array)
	newList, _ := obj.(cos.Array)
	if directCount(oldList) != directCount(newList) {
		c.k.annotation = true
	}
	removed, added := refDiff(oldList, newList)
	for _, n := range removed {
		if c.old.widgets[n] {
			c.k.structure = true
		} else {
			c.k.annotation = true
		}
	}
	for _, n := range added {
		fl := c.cur.fieldOf[n]
		switch {
		case fl != nil && fl.ft == "Sig":
			// binding a signature field's widget to the page is signing
		case fl != nil || c.cur.widgets[n]:
			c.k.structure = true
		default:
			c.k.annotation = true
		}
	}
}

// differs reports whether two dictionaries differ in a key not exempt.
func differs(a, b *cos.Dict, exempt ...cos.Name) bool {
	if a == nil || b == nil {
		return a != b
	}
	for _, d := range []*cos.Dict{a, b} {
		for _, k := range d.Keys {
			if !slices.Contains(exempt, k) && !cos.Equal(a.Get(k), b.Get(k)) {
				return true
			}
		}
	}
	return false
}

// sameObject reports an object rewritten unchanged: streams by their
// dictionary (the /Length aside) and raw bytes, others structurally.
func sameObject(data []byte, a, b cos.Object) bool {
	sa, okA := a.(*cos.Stream)
	sb, okB := b.(*cos.Stream)
	if okA || okB {
		return okA && okB && !differs(sa.Dict, sb.Dict, "Length") && bytes.Equal(sa.Raw(data), sb.Raw(data))
	}
	return cos.Equal(a, b)
}

// refDiff lists the object numbers only one of two arrays names.
func refDiff(before, after cos.Array) (removed, added []int) {
	in := func(list cos.Array) map[int]bool {
		m := map[int]bool{}
		for _, o := range list {
			if n := refNum(o); n > 0 {
				m[n] = true
			}
		}
		return m
	}
	was, is := in(before), in(after)
	for _, o := range before {
		if n := refNum(o); n > 0 && !is[n] {
			removed = append(removed, n)
		}
	}
	for _, o := range after {
		if n := refNum(o); n > 0 && !was[n] {
			added = append(added, n)
		}
	}
	return removed, added
}

func directCount(list cos.Array) int {
	n := 0
	for _, o := range list {
		if refNum(o) == 0 {
			n++
		}
	}
	return n
}
