package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
)

const (
	maxPages     = 100000
	maxTreeDepth = 64
)

// page is one leaf of the page tree with its inherited attributes.
type page struct {
	ref       cos.Ref // zero when the page is a direct object
	dict      *cos.Dict
	mediaBox  [4]float64
	resources *cos.Dict
	cropBox   *[4]float64 // inherited like MediaBox; nil when absent
}

// walkPages lists the pages of the view of revision rev (0: newest),
// iteratively, refusing cycles and absurd depth.
func walkPages(f *file.File, catalog *cos.Dict, rev int) ([]page, bool) {
	resolve := func(o cos.Object) cos.Object { return f.ResolveIn(o, rev) }
	root := catalog.Get("Pages")
	type item struct {
		node      cos.Object
		depth     int
		mediaBox  *[4]float64
		cropBox   *[4]float64
		resources *cos.Dict
	}
	var out []page
	damaged := false
	seen := map[int]bool{}
	stack := []item{{node: root}}
	for len(stack) > 0 && len(out) < maxPages {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		ref, isRef := it.node.(cos.Ref)
		if isRef {
			if seen[ref.Num] {
				damaged = true
				continue
			}
			seen[ref.Num] = true
		}
		d := cos.DictOf(resolve(it.node))
		if d == nil || it.depth > maxTreeDepth {
			damaged = true
			continue
		}
		if f.Deadline() != nil {
			break
		}
		mb := it.mediaBox
		if box, ok := rect(resolve(d.Get("MediaBox")), resolve); ok {
			mb = &box
		}
		cb := it.cropBox
		if box, ok := rect(resolve(d.Get("CropBox")), resolve); ok {
			cb = &box
		}
		res := it.resources
		if r := cos.DictOf(resolve(d.Get("Resources"))); r != nil {
			res = r
		}
		kids, hasKids := resolve(d.Get("Kids")).(cos.Array)
		typ := d.Name("Type")
		if typ == "Page" || (!hasKids && typ != "Pages") {
			p := page{dict: d, resources: res, cropBox: cb}
			if isRef {
				p.ref = ref
			}
			if mb != nil {
				p.mediaBox = *mb
			} else {
				p.mediaBox = [4]float64{0, 0, 612, 792}
			}
			out = append(out, p)
			continue
		}
		if !hasKids {
			damaged = true
			continue
		}
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, item{node: kids[i], depth: it.depth + 1, mediaBox: mb, cropBox: cb, resources: res})
		}
	}
	return out, damaged
}

// rect reads a rectangle array, normalised so x0<x1 and y0<y1.
func rect(o cos.Object, resolve func(cos.Object) cos.Object) ([4]float64, bool) {
	return cos.Rect(o, resolve)
}
