package office

import (
	"encoding/xml"
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
		tok := w.next()
		for tok != nil {
			if _, ok := tok.(xml.StartElement); ok {
				break
			}
			tok = w.next()
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			if w.malformed() {
				a.malformed = append(a.malformed, part.Name)
			}
			continue
		}
		if v, has := attr(se, "show"); !has || truthy(v) {
			continue
		}
		a.ppt.hiddenSlides++
		var buf strings.Builder
		inT := false
		for tok := w.next(); tok != nil; tok = w.next() {
			switch t := tok.(type) {
			case xml.StartElement:
				inT = t.Name.Local == "t"
			case xml.CharData:
				if inT && buf.Len() < 4096 {
					buf.Write(t)
				}
			case xml.EndElement:
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
