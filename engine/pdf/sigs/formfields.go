package sigs

import "github.com/doctrust/doctrust/engine/pdf/cos"

// maxFieldDepth bounds the nesting of the AcroForm field tree.
const maxFieldDepth = 32

// formField is one terminal AcroForm field as one revision saw it, with
// the attributes it inherits from its ancestors.
type formField struct {
	num   int       // object number of the field dictionary; 0 when direct
	dict  *cos.Dict // the field dictionary
	name  string    // fully qualified name (attacker-authored text)
	ft    cos.Name  // field type, inherited
	value cos.Object
	// widgets are the object numbers of widget kids without /T; a field
	// merged with its only widget has none.
	widgets []int
}

// visible reports whether the field or one of its widgets has an area on
// the page: a signature with no area is an invisible one.
func (fl formField) visible(resolve func(cos.Object) cos.Object) bool {
	if hasArea(resolve(fl.dict.Get("Rect")), resolve) {
		return true
	}
	kids, _ := resolve(fl.dict.Get("Kids")).(cos.Array)
	for _, k := range kids {
		if d := cos.DictOf(resolve(k)); d != nil && hasArea(resolve(d.Get("Rect")), resolve) {
			return true
		}
	}
	return false
}

func hasArea(o cos.Object, resolve func(cos.Object) cos.Object) bool {
	r, ok := rect(o, resolve)
	return ok && r[2] > r[0] && r[3] > r[1]
}

// formTree is the AcroForm of one revision's view.
type formTree struct {
	formNum   int // the AcroForm dictionary's object number; 0 when direct
	fieldsNum int // the /Fields array's object number; 0 when direct
	form      *cos.Dict
	fields    []formField
	// nodes holds every field and widget object number met, terminal or not.
	nodes map[int]bool
	// truncated is set when a bound stopped the walk.
	truncated bool
}

// walkForm lists the terminal fields of revision rev's view (0: newest).
// budget is shared by every walk of one analysis and bounds their sum.
func (a *analysis) walkForm(catalog *cos.Dict, rev int, budget *int) formTree {
	resolve := func(o cos.Object) cos.Object { return a.f.ResolveIn(o, rev) }
	t := formTree{nodes: map[int]bool{}}
	formObj := catalog.Get("AcroForm")
	if ref, ok := formObj.(cos.Ref); ok {
		t.formNum = ref.Num
	}
	t.form = cos.DictOf(resolve(formObj))
	if t.form == nil {
		return t
	}
	fieldsObj := t.form.Get("Fields")
	if ref, ok := fieldsObj.(cos.Ref); ok {
		t.fieldsNum = ref.Num
	}
	roots, _ := resolve(fieldsObj).(cos.Array)
	type item struct {
		node  cos.Object
		name  string
		ft    cos.Name
		value cos.Object
		depth int
	}
	stack := make([]item, 0, len(roots))
	for i := len(roots) - 1; i >= 0; i-- {
		stack = append(stack, item{node: roots[i]})
	}
	seen := map[int]bool{}
	for len(stack) > 0 {
		if *budget <= 0 || a.f.Deadline() != nil {
			t.truncated = true
			break
		}
		*budget--
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		num := 0
		if ref, ok := it.node.(cos.Ref); ok {
			if seen[ref.Num] {
				continue
			}
			seen[ref.Num] = true
			num = ref.Num
		}
		d := cos.DictOf(resolve(it.node))
		if d == nil || it.depth > maxFieldDepth {
			continue
		}
		if num > 0 {
			t.nodes[num] = true
		}
		fl := formField{num: num, dict: d, name: it.name, ft: it.ft, value: it.value}
		if part := cos.Text(resolve(d.Get("T"))); part != "" {
			if fl.name != "" {
				fl.name += "."
			}
			fl.name += part
		}
		if ft := d.Name("FT"); ft != "" {
			fl.ft = ft
		}
		if v := d.Get("V"); v != nil {
			fl.value = v
		}
		kids, _ := resolve(d.Get("Kids")).(cos.Array)
		var fieldKids []cos.Object
		for _, k := range kids {
			if ref, ok := k.(cos.Ref); ok && seen[ref.Num] {
				// already met, the field itself among them: a field that
				// lists itself as its own kid is still a terminal field
				continue
			}
			kd := cos.DictOf(resolve(k))
			if kd == nil {
				continue
			}
			if kd.Has("T") {
				fieldKids = append(fieldKids, k)
				continue
			}
			if ref, ok := k.(cos.Ref); ok {
				seen[ref.Num] = true
				t.nodes[ref.Num] = true
				fl.widgets = append(fl.widgets, ref.Num)
			}
		}
		if len(fieldKids) == 0 {
			t.fields = append(t.fields, fl)
			continue
		}
		for i := len(fieldKids) - 1; i >= 0; i-- {
			stack = append(stack, item{node: fieldKids[i], name: fl.name, ft: fl.ft, value: fl.value, depth: it.depth + 1})
		}
	}
	return t
}
