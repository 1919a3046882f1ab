package office

import (
	"strings"
)

// pptScan is what the PresentationML walker collects.
type pptScan struct {
	hiddenSlides int
	recovered    []string
}

// scanPowerPoint finds slides marked show="0": kept in the file, skipped
// when the deck is presented or printed by default.
func (a *analysis) scanPowerPoint() {
	for _, part := range a.pkg.Matching("ppt/slides/slide", ".xml") {
		if a.ctx.Err() != nil {
			return
		}
		w := newWalker(a.ctx, a.pkg.Read(part))
		k := w.next()
		for k != tokNone && k != tokStart {
			k = w.next()
		}
		if k != tokStart {
			if w.malformed() {
				a.malformed = append(a.malformed, part.Name)
			}
			continue
		}
		if v, has := w.attr("show"); !has || truthy(v) {
			continue
		}
		a.ppt.hiddenSlides++
		var buf strings.Builder
		inT := false
		for k := w.next(); k != tokNone; k = w.next() {
			switch k {
			case tokStart:
				inT = w.start.Name.Local == "t"
			case tokText:
				if inT && buf.Len() < 4096 {
					buf.Write(w.text)
				}
			case tokEnd:
				if inT {
					buf.WriteByte(' ')
				}
				inT = false
			}
		}
		if s := strings.TrimSpace(buf.String()); s != "" && len(a.ppt.recovered) < maxSnippets {
			a.ppt.recovered = append(a.ppt.recovered, s)
		}
		if w.malformed() {
			a.malformed = append(a.malformed, part.Name)
		}
	}
}
