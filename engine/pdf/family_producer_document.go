package pdf

import (
	"math"
	"strings"

	"github.com/doctrust/doctrust/engine/producers"
)

// A drawing application (LibreOffice Draw, Inkscape, Illustrator) is made
// for diagrams, flyers and plans. It is also how a PDF is edited by anyone
// without a PDF editor: Draw imports the PDF as one text frame per line,
// the user changes a figure, Draw exports again and names itself as the
// creator. What tells that edit from a drawing is the page itself: a
// statement, invoice or payslip is many lines of text with a column of
// figures, which a diagram or a flyer is not. A page counts as such a
// document when it shows at least docMinLines lines of text and
// docMinFigures figures of at least figureMinDigits digits.
const (
	docMinLines   = 12
	docMinFigures = 8
	// docLineTolerance: runs whose boxes start within this many points of
	// each other are one line (a table row written cell by cell).
	docLineTolerance = 1.5
	maxDocPages      = 50 // pages measured until one reads as a document
)

// documentFacts are what the document-page measure keeps.
type documentFacts struct {
	measured int
	pages    []int // pages that read as a text document of figures
}

// documentPage measures one page: its lines of text and its figures.
func (a *analysis) documentPage(cp *contentPage) {
	f := &a.content.document
	if f.measured >= maxDocPages || len(f.pages) > 0 || cp.scanned {
		return
	}
	if _, ok := drawingTool(a.editorTools()); !ok {
		return // only a drawing tool's files need the measure
	}
	f.measured++
	var baselines []float64
	figures := 0
	for i := range cp.paint.Text {
		r := &cp.paint.Text[i]
		if !visible(r) || r.Clipped || strings.TrimSpace(r.Text) == "" {
			continue
		}
		y := r.Box.Y0
		seen := false
		for _, b := range baselines {
			if math.Abs(b-y) <= docLineTolerance {
				seen = true
				break
			}
		}
		if !seen && len(baselines) < docMinLines {
			baselines = append(baselines, y)
		}
		if figures < docMinFigures {
			forChunks(r, func(s string) {
				if d, ok := figureText(s); ok && d >= figureMinDigits {
					figures++
				}
			})
		}
	}
	if len(baselines) >= docMinLines && figures >= docMinFigures {
		f.pages = addPage(f.pages, cp.number)
	}
}

// drawingTool reports the drawing applications among the editors: those
// whose PDF import turns a document into a drawing.
func drawingTool(ts []producers.Tool) (producers.Tool, bool) {
	for _, t := range ts {
		switch t.Name {
		case "LibreOffice Draw", "Inkscape", "Adobe Illustrator":
			return t, true
		}
	}
	return producers.Tool{}, false
}
