package pdf

import (
	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// Annotation and form-field appearances are drawn on the page like its
// content, so the concealment rules apply to them too, and an annotation
// marked hidden or not to be viewed (or in a layer switched off) hides all
// it draws while its text still extracts.

// maxAppearances bounds the appearance streams run per document: a form
// of thousands of fields costs a walk each.
const maxAppearances = 4096

// hiddenAnnotations runs the normal appearance of each of the page's
// annotations and classifies its text.
func (a *analysis) hiddenAnnotations(cp *contentPage) {
	arr, _ := a.resolve(cp.page.dict.Get("Annots")).(cos.Array)
	if len(arr) == 0 {
		return
	}
	f := &a.content.hidden
	for i, o := range arr {
		if i >= maxAnnotsPerPage || a.f.Deadline() != nil {
			break
		}
		d := a.dict(o)
		if d == nil || d.Name("Subtype") == "Popup" {
			continue
		}
		st, num := a.normalAppearance(d)
		if st == nil || f.appearances >= maxAppearances {
			continue
		}
		f.appearances++
		r, ok := rect(a.resolve(d.Get("Rect")), a.resolve)
		if !ok {
			continue
		}
		if f.annotIn == nil {
			f.oc = a.optionalContent()
			src := a.paintSource(0)
			src.OCOff = f.oc.Off
			f.annotIn = paint.New(src)
		}
		flags, _ := cos.AsInt(a.resolve(d.Get("F")))
		hidden := flags&(2|32) != 0 || f.oc.Off(d.Get("OC"))
		pg := f.annotIn.Appearance(st, num, paint.RectOf(r), cp.page.resources)
		ap := &contentPage{number: cp.number, page: cp.page, paint: pg, media: cp.media, crop: cp.crop}
		drops := backdrops(pg, nil)
		colors := fillColors(drops, nil)
		confirms := 0
		found := false
		for j := range pg.Text {
			run := &pg.Text[j]
			if !inkRun(run) || run.Mode == 7 {
				continue
			}
			v := hidAnnotation
			if !hidden {
				v = classifyHidden(run, ap, drops, colors, &confirms, pageLayout{})
				// The page beneath an appearance is not known here: a
				// colour judged against the bare page is not judged.
				if v == hidBackground && !onOwnFill(run, drops) {
					v = -1
				}
			}
			if v >= 0 && v != hidOCR {
				found = true
			}
			f.add(ap, run, v)
		}
		if ref, ok := o.(cos.Ref); ok && found {
			f.annots = addNum(f.annots, ref.Num)
		}
	}
}

// normalAppearance returns an annotation's normal appearance stream (the
// state /AS selects when /N is a dictionary of states) and its object
// number.
func (a *analysis) normalAppearance(d *cos.Dict) (*cos.Stream, int) {
	ap := a.dict(d.Get("AP"))
	if ap == nil {
		return nil, 0
	}
	n := ap.Get("N")
	if states := a.dict(n); states != nil {
		if _, isStream := a.resolve(n).(*cos.Stream); !isStream {
			as, _ := a.resolve(d.Get("AS")).(cos.Name)
			if as == "" {
				return nil, 0
			}
			n = states.Get(as)
		}
	}
	st, ok := a.resolve(n).(*cos.Stream)
	if !ok {
		return nil, 0
	}
	num := 0
	if ref, ok := n.(cos.Ref); ok {
		num = ref.Num
	}
	return st, num
}

// onOwnFill reports a run lying on a fill its appearance painted before it.
func onOwnFill(r *paint.TextRun, drops []backdrop) bool {
	for _, d := range drops {
		if d.seq < r.Seq && !d.image && covered(r.Box, d.box, backdropCover) {
			return true
		}
	}
	return false
}
