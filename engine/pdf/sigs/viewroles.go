package sigs

import "github.com/doctrust/doctrust/engine/pdf/cos"

// viewRoles says what the objects of one revision's view are for, as far as
// modification analysis needs to know: the catalogue, the page tree, the
// annotations and their appearances, the form, the DSS. An object not named
// here plays no role the analysis can place.
type viewRoles struct {
	rev        int
	catalogNum int
	catalog    *cos.Dict
	infoNum    int
	pageList   []int        // page object numbers in page order
	pages      map[int]bool // page objects
	treeNodes  map[int]bool // /Pages nodes
	annots     map[int]bool // indirect /Annots arrays
	resources  map[int]bool // indirect page resources and what they name
	widgets    map[int]bool // widget annotations a page names
	others     map[int]bool // other annotations a page names
	fillAP     map[int]bool // appearance streams (and dictionaries) of widgets
	formRes    map[int]bool // the form's default resources and what they name
	annotAP    map[int]bool // appearance streams of other annotations
	dss        map[int]bool // the DSS, its VRI and what they hold
	fieldOf    map[int]*formField
	values     map[int]*formField // indirect field values
	sigValues  map[int]bool
	form       formTree
	metadata   int
	perms      int
	names      int // the catalogue's name dictionary
	truncated  bool
	resolveRev func(cos.Object) cos.Object
	// referrers is built on first need (apshare.go).
	referrers   map[int][]int
	referrersOK bool
}

// rolesOf maps revision rev's view (1-based). budget bounds the nodes all
// such walks of one analysis visit.
func (a *analysis) rolesOf(rev int, budget *int) *viewRoles {
	resolve := func(o cos.Object) cos.Object { return a.f.ResolveIn(o, rev) }
	v := &viewRoles{
		rev: rev, pages: map[int]bool{}, treeNodes: map[int]bool{}, annots: map[int]bool{},
		resources: map[int]bool{}, widgets: map[int]bool{}, others: map[int]bool{},
		fillAP: map[int]bool{}, formRes: map[int]bool{}, annotAP: map[int]bool{}, dss: map[int]bool{},
		fieldOf: map[int]*formField{}, values: map[int]*formField{}, sigValues: map[int]bool{},
		resolveRev: resolve,
	}
	if *budget <= 0 {
		v.truncated = true
		return v
	}
	trailer := a.f.Revisions[rev-1].Trailer
	v.catalogNum = refNum(trailer.Get("Root"))
	v.infoNum = refNum(trailer.Get("Info"))
	v.catalog = cos.DictOf(resolve(trailer.Get("Root")))
	if v.catalog == nil {
		return v
	}
	v.metadata = refNum(v.catalog.Get("Metadata"))
	v.perms = refNum(v.catalog.Get("Perms"))
	v.names = refNum(v.catalog.Get("Names"))
	note := func(set map[int]bool, o cos.Object) {
		if n := refNum(o); n > 0 {
			set[n] = true
		}
	}
	v.markTree(a, budget)
	pages := a.walkPages(v.catalog, rev)
	for _, p := range pages {
		if *budget <= 0 {
			v.truncated = true
			break
		}
		*budget--
		v.pageList = append(v.pageList, p.ref.Num)
		if p.ref.Num > 0 {
			v.pages[p.ref.Num] = true
		}
		note(v.resources, p.dict.Get("Resources"))
		if p.resources != nil {
			for _, k := range []cos.Name{"Font", "XObject", "ExtGState", "ColorSpace", "Pattern", "Shading", "Properties"} {
				sub := p.resources.Get(k)
				note(v.resources, sub)
				if d := cos.DictOf(resolve(sub)); d != nil {
					for _, o := range d.Vals {
						note(v.resources, o)
					}
				}
			}
		}
		annotsObj := p.dict.Get("Annots")
		if n := refNum(annotsObj); n > 0 {
			v.annots[n] = true
		}
		list, _ := resolve(annotsObj).(cos.Array)
		for _, o := range list {
			if *budget <= 0 {
				v.truncated = true
				break
			}
			*budget--
			n := refNum(o)
			d := cos.DictOf(resolve(o))
			if d == nil {
				continue
			}
			widget := d.Name("Subtype") == "Widget"
			if n > 0 {
				if widget {
					v.widgets[n] = true
				} else {
					v.others[n] = true
				}
			}
			ap := v.annotAP
			if widget {
				ap = v.fillAP
			}
			v.markAppearance(d, ap, resolve)
		}
	}
	v.form = a.walkForm(v.catalog, rev, budget)
	v.truncated = v.truncated || v.form.truncated
	for i := range v.form.fields {
		fl := &v.form.fields[i]
		if fl.num > 0 {
			v.fieldOf[fl.num] = fl
		}
		for _, w := range fl.widgets {
			v.fieldOf[w] = fl
			if d := cos.DictOf(resolve(cos.Ref{Num: w})); d != nil {
				v.markAppearance(d, v.fillAP, resolve)
			}
		}
		v.markAppearance(fl.dict, v.fillAP, resolve)
		if n := refNum(fl.value); n > 0 {
			if fl.ft == "Sig" {
				v.sigValues[n] = true
			} else {
				v.values[n] = fl
			}
		}
	}
	if v.form.form != nil {
		dr := v.form.form.Get("DR")
		note(v.formRes, dr)
		if d := cos.DictOf(resolve(dr)); d != nil {
			for _, o := range d.Vals {
				note(v.formRes, o)
				if sub := cos.DictOf(resolve(o)); sub != nil && len(sub.Vals) <= maxNestedNodes {
					for _, x := range sub.Vals {
						note(v.formRes, x)
					}
				}
			}
		}
	}
	v.markDSS(resolve, budget)
	return v
}

// markTree records the /Pages nodes.
func (v *viewRoles) markTree(a *analysis, budget *int) {
	stack := []cos.Object{v.catalog.Get("Pages")}
	for len(stack) > 0 && *budget > 0 {
		*budget--
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		n := refNum(o)
		if n == 0 || v.treeNodes[n] {
			continue
		}
		d := cos.DictOf(v.resolveRev(o))
		if d == nil || d.Name("Type") == "Page" {
			continue
		}
		v.treeNodes[n] = true
		kids, _ := v.resolveRev(d.Get("Kids")).(cos.Array)
		stack = append(stack, kids...)
	}
}

// markAppearance records an annotation's /AP dictionary, its streams and
// the XObjects those name directly (signature appearances nest one level).
func (v *viewRoles) markAppearance(d *cos.Dict, set map[int]bool, resolve func(cos.Object) cos.Object) {
	apObj := d.Get("AP")
	if n := refNum(apObj); n > 0 {
		set[n] = true
	}
	ap := cos.DictOf(resolve(apObj))
	if ap == nil {
		return
	}
	var streams []cos.Object
	for _, k := range []cos.Name{"N", "R", "D"} {
		o := ap.Get(k)
		if _, ok := resolve(o).(*cos.Stream); ok {
			streams = append(streams, o)
			continue
		}
		if n := refNum(o); n > 0 {
			set[n] = true // an indirect dictionary of appearance states
		}
		if states := cos.DictOf(resolve(o)); states != nil {
			streams = append(streams, states.Vals...)
		}
	}
	for i, o := range streams {
		if i >= maxNestedNodes {
			break
		}
		n := refNum(o)
		if n == 0 {
			continue
		}
		set[n] = true
		st, ok := resolve(o).(*cos.Stream)
		if !ok {
			continue
		}
		res := cos.DictOf(resolve(st.Dict.Get("Resources")))
		if xo := cos.DictOf(resolve(res.Get("XObject"))); xo != nil {
			for _, x := range xo.Vals {
				if m := refNum(x); m > 0 {
					set[m] = true
				}
			}
		}
	}
}

// markDSS records the document security store: the DSS and VRI
// dictionaries, their arrays and the streams those hold.
func (v *viewRoles) markDSS(resolve func(cos.Object) cos.Object, budget *int) {
	dssObj := v.catalog.Get("DSS")
	dss := cos.DictOf(resolve(dssObj))
	if dss == nil {
		return
	}
	v.dss[refNum(dssObj)] = true
	holders := []*cos.Dict{dss}
	vriObj := dss.Get("VRI")
	v.dss[refNum(vriObj)] = true
	if vri := cos.DictOf(resolve(vriObj)); vri != nil {
		for _, o := range vri.Vals {
			v.dss[refNum(o)] = true
			if d := cos.DictOf(resolve(o)); d != nil {
				holders = append(holders, d)
			}
		}
	}
	for _, h := range holders {
		for _, k := range []cos.Name{"Certs", "CRLs", "OCSPs", "Cert", "CRL", "OCSP", "TS"} {
			o := h.Get(k)
			v.dss[refNum(o)] = true
			arr, _ := resolve(o).(cos.Array)
			for _, e := range arr {
				if *budget <= 0 {
					return
				}
				*budget--
				v.dss[refNum(e)] = true
			}
		}
	}
	delete(v.dss, 0)
}

func refNum(o cos.Object) int {
	if r, ok := o.(cos.Ref); ok {
		return r.Num
	}
	return 0
}
