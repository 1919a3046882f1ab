package pdf

import (
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// The foreign-page trace of a full re-save: a page taken from another file
// (pdftk cat A1 B2 A3, qpdf --pages, pypdf) keeps the page dictionary its
// own writer made and the fonts of its own document. A page counts as
// foreign when
//   - its page dictionary holds another set of keys than the document's
//     usual page (keys that follow the content, such as /Annots or
//     /Group, left out) or it is another size, and
//   - it uses no font family that the usual pages use,
//
// the usual pages (the most common key set) being at least two, and every
// page outside them being foreign: a writer that varies its page keys on
// its own is not judged. A foreign page between usual pages is medium (a
// page swapped in); at the start or end of the file it is low, as a
// genuine bundle of two documents is.
const (
	foreignMinPages = 3
	maxForeignPages = 2000 // pages compared; a longer file is not judged
	maxForeignFonts = 64   // fonts read per page
	foreignShare    = 3    // at most one page in foreignShare may be foreign
)

// contentKeys are page keys whose presence follows the page's content or
// the viewer's needs, not the writer's habits.
var contentKeys = [...]cos.Name{"Annots", "StructParents", "Group", "Tabs", "Thumb", "B", "PieceInfo",
	"LastModified", "AA", "Dur", "Metadata", "ID", "PZ", "SeparationInfo", "VP", "UserUnit", "Trans"}

type pageHabit struct {
	keys  string
	size  pageSize
	fonts map[string]bool
}

// foreignPages returns the 1-based numbers of foreign pages and whether one
// of them lies between usual pages.
func (a *analysis) foreignPages() (pages []int, inside bool) {
	n := len(a.pages)
	if n < foreignMinPages || n > maxForeignPages {
		return nil, false
	}
	habits := make([]pageHabit, n)
	count := map[string]int{}
	for i, p := range a.pages {
		habits[i] = pageHabit{keys: pageHabitKeys(p.dict), size: sizeOf(p), fonts: a.pageFontFamilies(p)}
		count[habits[i].keys]++
	}
	usual, best := "", 0
	for k, c := range count {
		if c > best || (c == best && k < usual) {
			usual, best = k, c
		}
	}
	// One key set throughout is fine: a page of another size may still be
	// foreign, judged on size and fonts below.
	if best < 2 {
		return nil, false
	}
	usualSize := map[pageSize]int{}
	usualFonts := map[string]bool{}
	for _, h := range habits {
		if h.keys == usual {
			usualSize[h.size]++
		}
	}
	common, c := pageSize{}, 0
	for s, k := range usualSize {
		if k > c || (k == c && (s.w < common.w || s.w == common.w && s.h < common.h)) {
			common, c = s, k
		}
	}
	isUsual := func(h pageHabit) bool { return h.keys == usual && h.size == common }
	usualCount := 0
	for _, h := range habits {
		if isUsual(h) {
			usualCount++
			for f := range h.fonts {
				usualFonts[f] = true
			}
		}
	}
	if usualCount < 2 || usualCount == n || len(usualFonts) == 0 {
		return nil, false
	}
	for i, h := range habits {
		if isUsual(h) {
			continue
		}
		if len(h.fonts) == 0 {
			return nil, false // an image page or a blank: nothing to compare
		}
		for f := range h.fonts {
			if usualFonts[f] {
				return nil, false
			}
		}
		pages = append(pages, i+1)
	}
	if len(pages)*foreignShare > n {
		return nil, false
	}
	for _, p := range pages {
		before, after := false, false
		for i, h := range habits {
			if isUsual(h) {
				before = before || i+1 < p
				after = after || i+1 > p
			}
		}
		inside = inside || (before && after)
	}
	return pages, inside
}

// pageHabitKeys is the sorted set of a page dictionary's keys that show the
// writer's habits.
func pageHabitKeys(d *cos.Dict) string {
	var keys []string
	for _, k := range d.Keys {
		skip := false
		for _, c := range contentKeys {
			if k == c {
				skip = true
				break
			}
		}
		if !skip {
			keys = append(keys, string(k))
		}
	}
	sort.Strings(keys)
	return strings.Join(keys, ",")
}

func sizeOf(p page) pageSize {
	w, h := int(p.mediaBox[2]-p.mediaBox[0]+0.5), int(p.mediaBox[3]-p.mediaBox[1]+0.5)
	if w > h {
		w, h = h, w
	}
	return pageSize{w, h}
}

// pageFontFamilies lists the font families a page's resources name, and
// those of its Form XObjects one level down (writers that put a page's text
// in a form).
func (a *analysis) pageFontFamilies(p page) map[string]bool {
	out := map[string]bool{}
	add := func(res *cos.Dict) {
		fd := a.dict(res.Get("Font"))
		if fd == nil {
			return
		}
		for i, v := range fd.Vals {
			if i >= maxForeignFonts {
				return
			}
			if font := a.dict(v); font != nil {
				if name := string(font.Name("BaseFont")); name != "" {
					out[fontFamily(name)] = true
				}
			}
		}
	}
	if p.resources == nil {
		return out
	}
	add(p.resources)
	if xo := a.dict(p.resources.Get("XObject")); xo != nil {
		for i, v := range xo.Vals {
			if i >= maxForeignFonts {
				break
			}
			if st, ok := a.resolve(v).(*cos.Stream); ok && st.Dict.Name("Subtype") == "Form" {
				if res := a.dict(st.Dict.Get("Resources")); res != nil {
					add(res)
				}
			}
		}
	}
	return out
}
