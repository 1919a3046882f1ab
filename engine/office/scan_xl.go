package office

import (
	"context"
	"strconv"
	"strings"
)

// xlScan is what the SpreadsheetML walker collects.
type xlScan struct {
	hiddenSheets, veryHiddenSheets int
	hiddenRowCells, hiddenColCells int
	// hiddenTableRows counts hidden rows holding figures that sit between
	// visible rows holding figures in the same sheet: a line taken out of
	// a list such as a statement's transactions. Rows of a collapsed
	// outline group (outlineLevel) are Excel's grouping, not counted.
	hiddenTableRows         int
	recovered               []string
	sharedRefs              []int        // shared-string indexes of hidden cells, resolved afterwards
	dated                   []styledCell // recovered numbers with a cell style, maybe dates (xldates.go)
	date1904                bool         // the workbook counts days from 1904 (workbookPr)
	styles                  *cellStyles  // styles.xml's number formats, read on first use
	ddeLinks, externalBooks int
	autoOpenNames           int // _xlnm.Auto_Open style defined names (XLM auto-run)
	revisionMarks               // the shared-workbook revision log
}

func (a *analysis) scanExcel() {
	wb := a.pkg.Lookup(a.main)
	if wb == nil {
		wb = a.pkg.Lookup("xl/workbook.xml")
	}
	if wb != nil && strings.HasSuffix(wb.lower, ".bin") {
		if a.scanXLSBWorkbook(a.pkg.Read(wb)) {
			a.malformed = append(a.malformed, wb.Name)
		}
		for _, part := range a.pkg.Matching("xl/externallinks/", ".bin") {
			if a.scanXLSBExternalLink(a.pkg.Read(part)) {
				a.malformed = append(a.malformed, part.Name)
			}
		}
	} else if wb != nil {
		w := newWalker(a.ctx, a.pkg.Read(wb))
		for k := w.next(); k != tokNone; k = w.next() {
			if k != tokStart {
				continue
			}
			switch w.start.Name.Local {
			case "sheet":
				switch st, _ := w.attr("state"); st {
				case "hidden":
					a.xl.hiddenSheets++
				case "veryHidden":
					a.xl.veryHiddenSheets++
				}
			case "definedName":
				if n, _ := w.attr("name"); strings.HasPrefix(strings.ToLower(n), "_xlnm.auto_") {
					a.xl.autoOpenNames++
				}
			case "workbookPr":
				d, _ := w.attr("date1904")
				a.xl.date1904 = truthy(d)
			}
		}
		if w.malformed() {
			a.malformed = append(a.malformed, wb.Name)
		}
	}
	for _, part := range a.pkg.Matching("xl/worksheets/", ".xml") {
		if a.ctx.Err() != nil {
			return
		}
		if scanSheet(a.ctx, a.pkg.Read(part), &a.xl) {
			a.malformed = append(a.malformed, part.Name)
		}
	}
	if len(a.xl.dated) > 0 {
		a.resolveDates()
	}
	if len(a.xl.sharedRefs) > 0 {
		a.resolveShared()
	}
	for _, part := range a.pkg.Matching("xl/externallinks/", ".xml") {
		w := newWalker(a.ctx, a.pkg.Read(part))
		for k := w.next(); k != tokNone; k = w.next() {
			if k == tokStart {
				switch w.start.Name.Local {
				case "ddeLink":
					a.xl.ddeLinks++
				case "externalBook":
					a.xl.externalBooks++
				}
			}
		}
	}
	a.scanXLRevisions()
	for _, part := range a.pkg.Matching("xl/comments", ".xml") {
		texts, bad := collectText(a.ctx, a.pkg.Read(part), "comment", "t")
		a.comments = append(a.comments, texts...)
		if bad {
			a.malformed = append(a.malformed, part.Name)
		}
	}
}

// colRange is a run of hidden columns, 1-based inclusive.
type colRange struct{ min, max int }

// scanSheet counts cells that hold a value while their row or column is
// hidden. Cols precede sheetData in the schema, so one pass suffices.
func scanSheet(ctx context.Context, data []byte, s *xlScan) bool {
	w := newWalker(ctx, data)
	var hiddenCols []colRange
	var rowHidden, inCell, inValue, cellShared bool
	var cellCol, cellStyle int
	// Table tracking: rowNumeric is a number seen in the current row,
	// rowOutlined its outline level, seenVisible a visible row of figures
	// already met, pending hidden rows of figures since the last one.
	var rowNumeric, rowOutlined, seenVisible, cellNumeric bool
	pending := 0
	var val strings.Builder
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "col":
				if h, _ := w.attr("hidden"); truthy(h) && len(hiddenCols) < 1024 {
					lo, _ := w.attr("min")
					hi, _ := w.attr("max")
					l, _ := strconv.Atoi(lo)
					m, _ := strconv.Atoi(hi)
					hiddenCols = append(hiddenCols, colRange{l, m})
				}
			case "row":
				h, _ := w.attr("hidden")
				rowHidden = truthy(h)
				ol, _ := w.attr("outlineLevel")
				rowOutlined = ol != "" && ol != "0"
				rowNumeric = false
			case "c":
				inCell = true
				ref, _ := w.attr("r")
				cellCol = colIndex(ref)
				typ, _ := w.attr("t")
				cellShared = typ == "s"
				cellNumeric = typ == "" || typ == "n"
				st, _ := w.attr("s")
				cellStyle, _ = strconv.Atoi(st)
				val.Reset()
			case "v", "t":
				inValue = inCell
			}
		case tokText:
			if inValue && val.Len() < 1024 {
				val.Write(w.text)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "v", "t":
				inValue = false
			case "c":
				inCell = false
				v := strings.TrimSpace(val.String())
				if v == "" {
					continue
				}
				if cellNumeric {
					if _, err := strconv.ParseFloat(v, 64); err == nil {
						rowNumeric = true
					}
				}
				hidden := false
				if rowHidden {
					s.hiddenRowCells++
					hidden = true
				} else if inRanges(hiddenCols, cellCol) {
					s.hiddenColCells++
					hidden = true
				}
				if !hidden {
					continue
				}
				if cellShared {
					if n, err := strconv.Atoi(v); err == nil && len(s.sharedRefs) < maxSnippets {
						s.sharedRefs = append(s.sharedRefs, n)
					}
				} else if len(s.recovered) < maxSnippets {
					if cellNumeric && cellStyle > 0 {
						s.dated = append(s.dated, styledCell{at: len(s.recovered), style: cellStyle})
					}
					s.recovered = append(s.recovered, v)
				}
			case "row":
				switch {
				case rowNumeric && !rowHidden:
					s.hiddenTableRows += pending
					pending = 0
					seenVisible = true
				case rowNumeric && rowHidden && !rowOutlined && seenVisible:
					pending++
				}
				rowHidden = false
			}
		}
	}
	return w.malformed()
}

// colIndex returns the 1-based column of an A1 reference, 0 when absent.
func colIndex(ref string) int {
	n := 0
	for i := 0; i < len(ref) && i < 4; i++ {
		c := ref[i] | 0x20
		if c < 'a' || c > 'z' {
			break
		}
		n = n*26 + int(c-'a'+1)
	}
	return n
}

func inRanges(rs []colRange, c int) bool {
	for _, r := range rs {
		if c >= r.min && c <= r.max {
			return true
		}
	}
	return false
}

// resolveShared turns the hidden cells' shared-string indexes into text.
// The shared strings part is walked only when a hidden cell needs it.
func (a *analysis) resolveShared() {
	want := map[int]bool{}
	maxIdx := 0
	for _, n := range a.xl.sharedRefs {
		want[n] = true
		maxIdx = max(maxIdx, n)
	}
	part := a.pkg.Lookup("xl/sharedStrings.xml")
	if part == nil {
		return
	}
	texts := map[int]string{}
	w := newWalker(a.ctx, a.pkg.Read(part))
	idx := -1
	var buf strings.Builder
	inT := false
	for k := w.next(); k != tokNone && idx <= maxIdx; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "si":
				idx++
				buf.Reset()
			case "t":
				inT = want[idx]
			}
		case tokText:
			if inT && buf.Len() < 1024 {
				buf.Write(w.text)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "t":
				inT = false
			case "si":
				if want[idx] {
					texts[idx] = buf.String()
				}
			}
		}
	}
	for _, n := range a.xl.sharedRefs {
		if s := strings.TrimSpace(texts[n]); s != "" && len(a.xl.recovered) < maxSnippets {
			a.xl.recovered = append(a.xl.recovered, s)
		}
	}
}
