package pdf

import (
	"math"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/report"
)

// pageGeometryFamily declares the page-geometry family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var pageGeometryFamily = declaration{
	ID:      "page-geometry",
	Order:   160,
	Run:     (*analysis).pageGeometry,
	Summary: "Mixed page sizes or rotations, crop boxes hiding content, pages foreign to the rest of the document.",
	Evidence: []string{
		"sizes[]", "oddSizePages[]", "oddPageFromLaterRevision", "foreignPages[]",
		"foreignPageBetweenOthers", "rotations", "cropPages[]", "croppedRuns",
		"cropFromLaterRevision",
	},
	Variants: []report.VariantDecl{
		{Code: "mixed-sizes", Severity: report.Info, UpTo: report.Low, Title: "Mixed page sizes", Text: "The pages come in {sizes#size|sizes}; {pages#page differs|pages differ} from the most common size."},
		{Code: "foreign-page", Severity: report.Low, UpTo: report.Medium, Title: "Pages unlike the rest of the document", Text: "{pages#page shares|pages share} neither fonts nor page structure with the document's other pages, as a page taken from another file does."},
		{Code: "mixed-rotations", Severity: report.Info, Title: "Mixed page rotations", Text: "The pages use {rotations#rotation|different rotations}."},
		{Code: "crop-hides-content", Severity: report.Info, UpTo: report.Low, Title: "Crop box hides text", Text: "On {pages#page|pages} the crop box hides {runs#text run|text runs} that the media box holds."},
	},
}

// maxRotateDepth bounds the walk up /Parent for an inherited /Rotate.
const maxRotateDepth = 32

type geometryFacts struct {
	cropPages []int // pages whose CropBox hides text the MediaBox shows
	cropRuns  int
	// cropLater is set when a later revision changed such a page's CropBox.
	cropLater bool
}

// geometryPage records text the CropBox cuts away: inside the MediaBox,
// entirely outside the CropBox.
func (a *analysis) geometryPage(cp *contentPage) {
	if cp.crop == cp.media {
		return
	}
	n := 0
	for i := range cp.paint.Text {
		r := &cp.paint.Text[i]
		if visible(r) && !r.Clipped && inkRun(r) && r.Box.Overlaps(cp.media) && !r.Box.Overlaps(cp.crop) {
			n++
		}
	}
	if n > 0 {
		f := &a.content.geometry
		f.cropPages = addPage(f.cropPages, cp.number)
		f.cropRuns += n
		if ref := cp.page.ref.Num; ref != 0 && a.firstWritten(ref) == 1 {
			orig := cos.DictOf(a.f.ResolveIn(cp.page.ref, 1))
			f.cropLater = f.cropLater || (orig != nil && !cos.Equal(a.f.ResolveIn(orig.Get("CropBox"), 1), a.resolve(cp.page.dict.Get("CropBox"))))
		}
	}
}

type pageSize struct{ w, h int }

// pageGeometry reports mixed page sizes and rotations, and crop boxes that
// hide text.
func (a *analysis) pageGeometry() *report.Finding {
	var vs []report.Variant
	ev := map[string]any{}
	sizes := map[pageSize][]int{} // pages by size, portrait, in points
	var order []pageSize
	rotations := map[int]int{}
	for i, p := range a.pages {
		box := p.mediaBox
		if p.cropBox != nil {
			box = *p.cropBox
		}
		w, h := int(math.Round(box[2]-box[0])), int(math.Round(box[3]-box[1]))
		if w > h {
			w, h = h, w
		}
		s := pageSize{w, h}
		if _, ok := sizes[s]; !ok {
			order = append(order, s)
		}
		sizes[s] = append(sizes[s], i+1)
		rotations[a.rotation(p)]++
	}
	if len(order) > 1 {
		// The pages of every size but the most common, and whether a later
		// revision first wrote one of them: a page put in afterwards.
		common := order[0]
		for _, s := range order {
			if len(sizes[s]) > len(sizes[common]) {
				common = s
			}
		}
		var odd []int
		later := false
		for _, s := range order {
			if s == common {
				continue
			}
			for _, n := range sizes[s] {
				odd = append(odd, n)
				if p := a.pages[n-1]; p.ref.Num != 0 && a.firstWritten(p.ref.Num) > 1 {
					later = true
				}
			}
		}
		sev := report.Info
		if later {
			sev = report.Low
		}
		vs = append(vs, report.Variant{Severity: sev, Message: report.Msg("page-geometry.mixed-sizes", "sizes", len(order), "pages", len(odd))})
		dims := make([][2]int, 0, len(order))
		for _, s := range order {
			dims = append(dims, [2]int{s.w, s.h})
		}
		report.Capped(ev, "sizes", dims)
		report.Capped(ev, "oddSizePages", odd)
		ev["oddPageFromLaterRevision"] = later
	}
	if foreign, inside := a.foreignPages(); len(foreign) > 0 {
		sev := report.Low
		if inside {
			sev = report.Medium
		}
		vs = append(vs, report.Variant{Severity: sev, Message: report.Msg("page-geometry.foreign-page", "pages", len(foreign))})
		report.Capped(ev, "foreignPages", foreign)
		ev["foreignPageBetweenOthers"] = inside
	}
	if len(rotations) > 1 {
		vs = append(vs, report.Variant{Severity: report.Info, Message: report.Msg("page-geometry.mixed-rotations", "rotations", len(rotations))})
		ev["rotations"] = rotationCounts(rotations)
	}
	if f := &a.content.geometry; len(f.cropPages) > 0 {
		// Layout tools crop pages for good reasons; a crop set by a later
		// revision over text that was visible is the edit worth a look.
		sev := report.Info
		if f.cropLater {
			sev = report.Low
		}
		vs = append(vs, report.Variant{Severity: sev, Message: report.Msg("page-geometry.crop-hides-content", "pages", len(f.cropPages), "runs", f.cropRuns)})
		report.Capped(ev, "cropPages", f.cropPages)
		ev["croppedRuns"] = f.cropRuns
		ev["cropFromLaterRevision"] = f.cropLater
	}
	return report.Compose(report.FamilyPageGeometry, vs, ev)
}

// rotation reads a page's /Rotate, inherited through /Parent, as 0, 90,
// 180 or 270.
func (a *analysis) rotation(p page) int {
	d := p.dict
	for range maxRotateDepth {
		if d == nil {
			return 0
		}
		if v, ok := cos.AsInt(a.resolve(d.Get("Rotate"))); ok {
			return int(((v%360)+360)%360) / 90 * 90
		}
		d = a.dict(d.Get("Parent"))
	}
	return 0
}

// rotationCounts lists pages per rotation, keyed by degrees as text.
func rotationCounts(m map[int]int) map[string]int {
	out := map[string]int{}
	for r, n := range m {
		out[itoa(r)] = n
	}
	return out
}

func itoa(v int) string {
	switch v {
	case 90:
		return "90"
	case 180:
		return "180"
	case 270:
		return "270"
	}
	return "0"
}
