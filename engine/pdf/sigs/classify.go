package sigs

import (
	"slices"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
)

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
