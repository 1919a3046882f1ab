package office

import (
	"context"
	"strings"
)

// revisionMarks counts tracked changes still recorded in a package: Word's
// w:ins/w:del/w:move marks and the revision log of a shared Excel workbook.
// Authors and the recovered removed text are attacker-authored.
type revisionMarks struct {
	ins, del         int
	moveFrom, moveTo int
	formatting       int
	authors          map[string]bool
	deletedText      []string
}

func (m *revisionMarks) total() int {
	return m.ins + m.del + m.moveFrom + m.moveTo + m.formatting
}

func (m *revisionMarks) addAuthor(v string) {
	if v = strings.TrimSpace(v); v == "" || len(m.authors) >= maxSnippets {
		return
	}
	if m.authors == nil {
		m.authors = map[string]bool{}
	}
	m.authors[v] = true
}

func (m *revisionMarks) addDeleted(t string) {
	if t = strings.TrimSpace(t); t != "" && len(m.deletedText) < maxSnippets {
		m.deletedText = append(m.deletedText, t)
	}
}

// plus merges two sets of marks (a package has one kind of main part, but
// nothing stops a hostile one from carrying both).
func (m revisionMarks) plus(o revisionMarks) revisionMarks {
	out := revisionMarks{
		ins: m.ins + o.ins, del: m.del + o.del,
		moveFrom: m.moveFrom + o.moveFrom, moveTo: m.moveTo + o.moveTo,
		formatting: m.formatting + o.formatting,
	}
	for _, src := range []revisionMarks{m, o} {
		for a := range src.authors {
			out.addAuthor(a)
		}
		for _, t := range src.deletedText {
			out.addDeleted(t)
		}
	}
	return out
}

// scanXLRevisions reads the revision log of a shared workbook
// (xl/revisions/): a cell change keeps the old value in <oc>, which is
// recovered like Word's deleted text; row and column insertions and
// deletions, moves, and format, name, comment and sheet changes are counted.
func (a *analysis) scanXLRevisions() {
	m := &a.xl.revisionMarks
	for _, part := range a.pkg.Matching("xl/revisions/", ".xml") {
		if a.ctx.Err() != nil {
			return
		}
		if scanRevisionLog(a.ctx, a.pkg.Read(part), m) {
			a.malformed = append(a.malformed, part.Name)
		}
	}
}

// scanRevisionLog walks revisionHeaders.xml or one revisionLog part. It
// returns true when the walk stopped early.
func scanRevisionLog(ctx context.Context, data []byte, m *revisionMarks) bool {
	w := newWalker(ctx, data)
	var (
		inOld, inValue bool
		old            strings.Builder
	)
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			switch w.start.Name.Local {
			case "header":
				if v, ok := w.attr("userName"); ok {
					m.addAuthor(v)
				}
			case "rcc":
				m.ins++ // turned into a deletion when the old value is found
			case "oc":
				inOld = true
				old.Reset()
			case "v", "t":
				inValue = inOld
			case "rrc":
				if act, _ := w.attr("action"); strings.HasPrefix(act, "delete") {
					m.del++
				} else {
					m.ins++
				}
			case "ris":
				m.ins++
			case "rm":
				m.moveFrom++
				m.moveTo++
			case "rfmt", "raf", "rsnm", "rdn", "rcmt", "rcv", "rqt":
				m.formatting++
			}
		case tokText:
			if inValue && old.Len() < 4096 {
				old.Write(w.text)
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "v", "t":
				inValue = false
			case "oc":
				inOld = false
				if strings.TrimSpace(old.String()) != "" {
					m.ins--
					m.del++
					m.addDeleted(old.String())
				}
			}
		}
	}
	return w.malformed()
}
