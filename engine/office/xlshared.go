package office

import (
	"strconv"
	"strings"
)

// An xlsx shared formula: a formula filled down a column or across a row
// is stored once, on the range's anchor cell
// (<f t="shared" ref="D2:D40" si="0">C2+D1</f>); each later cell of the
// range holds only <f t="shared" si="0"/> and its saved result. Such a
// cell is recomputed from the anchor's text, its references not anchored
// by $ moved by the cell's offset from the anchor (formula.go does the
// moving as it reads them). The .xls path gets the same from its SHRFMLA
// records (biffigures.go).

// sharedAnchor is a shared formula's anchor: its cell, its text and the
// range it was filled over.
type sharedAnchor struct {
	col, row   int
	text       string
	c1, r1     int // the range; 0 when the anchor names none
	c2, r2     int
	rangeKnown bool
}

// sharedCell is a later cell of a shared formula: its index among the
// sheet's cells and its group.
type sharedCell struct {
	cell, si int
}

// sharedFormulas collects one worksheet's shared formulas as its cells
// are read; resolve hands each later cell its anchor's text and offset.
type sharedFormulas struct {
	anchors map[int]sharedAnchor
	uses    []sharedCell
}

// fAttrs reads a formula element's shared-formula attributes: the group
// (-1 for a formula of its own) and the range it was filled over.
func fAttrs(w *walker) (si int, ref string) {
	if t, _ := w.attr("t"); t != "shared" {
		return -1, ""
	}
	s, _ := w.attr("si")
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return -1, ""
	}
	ref, _ = w.attr("ref")
	return n, ref
}

// add notes a cell (index i of the sheet's cells) whose formula is in
// shared group si: the anchor when it carries text, else a later cell.
func (s *sharedFormulas) add(i int, c figureCell, si int, ref string) {
	if c.formula == "" {
		s.uses = append(s.uses, sharedCell{cell: i, si: si})
		return
	}
	if _, dup := s.anchors[si]; dup || len(s.anchors) >= maxSharedFormulas {
		return
	}
	if s.anchors == nil {
		s.anchors = map[int]sharedAnchor{}
	}
	a := sharedAnchor{col: c.col, row: c.row, text: strings.ToUpper(c.formula)}
	first, last, isRange := strings.Cut(ref, ":")
	if !isRange {
		last = first
	}
	a.c1, a.r1, a.c2, a.r2 = colIndex(first), rowIndex(first), colIndex(last), rowIndex(last)
	a.rangeKnown = a.c1 > 0 && a.r1 > 0 && a.c2 >= a.c1 && a.r2 >= a.r1
	s.anchors[si] = a
}

// resolve gives each later cell its anchor's text and its offset from
// the anchor. A cell outside the range its anchor names, or whose group
// has no anchor, keeps no formula: the check reads only what it can
// place.
func (s *sharedFormulas) resolve(cells []figureCell) {
	for _, u := range s.uses {
		a, ok := s.anchors[u.si]
		if !ok || u.cell >= len(cells) {
			continue
		}
		c := &cells[u.cell]
		if a.rangeKnown && (c.col < a.c1 || c.col > a.c2 || c.row < a.r1 || c.row > a.r2) {
			continue
		}
		c.formula, c.dCol, c.dRow = a.text, c.col-a.col, c.row-a.row
	}
}
