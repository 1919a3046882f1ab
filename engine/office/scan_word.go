package office

import (
	"context"
	"strings"
)

// maxSnippets caps the attacker-authored snippets kept per kind; the report
// shows fewer, this only bounds memory on a flood.
const maxSnippets = 200

// wordScan is what the Word walker collects from the story parts.
type wordScan struct {
	hiddenRuns int
	hiddenText []string
	revisionMarks
	dde    int // DDE / DDEAUTO field instructions
	fields int // field instructions seen
}

// wordStories lists the parts holding document text, main part first.
func (a *analysis) wordStories() []*Part {
	var out []*Part
	if p := a.pkg.Lookup(a.main); p != nil {
		out = append(out, p)
	} else if p := a.pkg.Lookup("word/document.xml"); p != nil {
		out = append(out, p)
	}
	for _, pre := range []string{"word/header", "word/footer", "word/footnotes", "word/endnotes"} {
		out = append(out, a.pkg.Matching(pre, ".xml")...)
	}
	return out
}

func (a *analysis) scanWord() {
	for _, part := range a.wordStories() {
		if a.ctx.Err() != nil {
			return
		}
		if scanWordStory(a.ctx, a.pkg.Read(part), &a.word) {
			a.malformed = append(a.malformed, part.Name)
		}
	}
	if part := a.pkg.Lookup("word/comments.xml"); part != nil {
		texts, bad := collectText(a.ctx, a.pkg.Read(part), "comment", "t")
		a.comments = append(a.comments, texts...)
		if bad {
			a.malformed = append(a.malformed, part.Name)
		}
	}
}

// scanWordStory walks one WordprocessingML story part. It returns true when
// the walk stopped early.
func scanWordStory(ctx context.Context, data []byte, s *wordScan) bool {
	w := newWalker(ctx, data)
	var (
		inRun, runHidden bool
		runText          strings.Builder
		textEl           string // "t", "delText" or "instrText" while inside one
		delDepth         int    // >0 inside w:del or w:moveFrom
		delText          strings.Builder
		instr            strings.Builder
	)
	// Consecutive hidden runs of a paragraph are one snippet: Word splits
	// a run wherever editing or proofing touched it, often mid-word.
	var hidden strings.Builder
	flushHidden := func() {
		if t := strings.TrimSpace(hidden.String()); t != "" && len(s.hiddenText) < maxSnippets {
			s.hiddenText = append(s.hiddenText, t)
		}
		hidden.Reset()
	}
	flushDel := func() {
		s.addDeleted(delText.String())
		delText.Reset()
	}
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			switch l := w.start.Name.Local; l {
			case "r":
				inRun, runHidden = true, false
				runText.Reset()
			case "vanish", "specVanish":
				if inRun && w.onOff() {
					runHidden = true
				}
			case "t", "delText", "instrText":
				textEl = l
			case "ins":
				s.ins++
				s.author(w)
			case "del", "moveFrom":
				if l == "del" {
					s.del++
				} else {
					s.moveFrom++
				}
				s.author(w)
				delDepth++
			case "moveTo":
				s.moveTo++
				s.author(w)
			case "fldSimple":
				if v, ok := w.attr("instr"); ok {
					s.field(v)
				}
			default:
				if strings.HasSuffix(l, "PrChange") {
					s.formatting++
					s.author(w)
				}
			}
		case tokText:
			switch textEl {
			case "t":
				if inRun && runText.Len() < 4096 {
					runText.Write(w.text)
				}
				if delDepth > 0 && delText.Len() < 4096 {
					delText.Write(w.text)
				}
			case "delText":
				if delText.Len() < 4096 {
					delText.Write(w.text)
				}
			case "instrText":
				if instr.Len() < 4096 {
					instr.Write(w.text)
				}
			}
		case tokEnd:
			switch w.end.Name.Local {
			case "t", "delText", "instrText":
				textEl = ""
			case "r":
				switch txt := runText.String(); {
				case strings.TrimSpace(txt) == "":
				case runHidden:
					s.hiddenRuns++
					if hidden.Len() < 4096 {
						hidden.WriteString(txt)
					}
				default:
					flushHidden()
				}
				inRun = false
			case "del", "moveFrom":
				if delDepth > 0 {
					delDepth--
					if delDepth == 0 {
						flushDel()
					}
				}
			case "p":
				flushHidden()
				// A complex field's instruction may span several runs; it
				// is judged once its paragraph ends.
				if instr.Len() > 0 {
					s.field(instr.String())
					instr.Reset()
				}
			}
		}
	}
	if instr.Len() > 0 {
		s.field(instr.String())
	}
	flushHidden()
	return w.malformed()
}

func (s *wordScan) author(w *walker) {
	if v, ok := w.attr("author"); ok {
		s.addAuthor(v)
	}
}

// field looks for DDE in a field instruction; a DDE field runs a command
// when links update. Any word counts, not just the first, because the
// instructions of several fields of one paragraph arrive concatenated.
func (s *wordScan) field(instr string) {
	s.fields++
	for _, word := range strings.Fields(instr) {
		word = strings.ToUpper(strings.Trim(word, `"{}`))
		if word == "DDE" || word == "DDEAUTO" {
			s.dde++
			return
		}
	}
}

// collectText returns the text of every container element (by local name)
// with its text gathered from textEl descendants.
func collectText(ctx context.Context, data []byte, container, textEl string) ([]string, bool) {
	w := newWalker(ctx, data)
	var out []string
	var buf strings.Builder
	in, inText := false, false
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			if w.start.Name.Local == container {
				in = true
				buf.Reset()
			} else if in && w.start.Name.Local == textEl {
				inText = true
			}
		case tokText:
			if inText && buf.Len() < 4096 {
				buf.Write(w.text)
			}
		case tokEnd:
			// Runs of one paragraph join as they are (Word splits words
			// across runs); paragraphs are separated by a space.
			if w.end.Name.Local == textEl {
				inText = false
			} else if w.end.Name.Local == "p" && in {
				buf.WriteByte(' ')
			} else if w.end.Name.Local == container && in {
				in = false
				if s := strings.TrimSpace(buf.String()); s != "" && len(out) < maxSnippets {
					out = append(out, s)
				}
			}
		}
	}
	return out, w.malformed()
}
