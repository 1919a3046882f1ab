package compare

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// The dashboard's statements (scripts/fixtures/seeit/statement.py): a
// genuine one-page statement, its figure 13,339.86 edited to 99,339.86 in
// an incremental update and in a library rewrite, and the genuine file
// re-saved by the same library with nothing changed.
const statements = "../../internal/web/testdata/"

func readStatement(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(statements + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestPageTextFigureChanged: the changed figure is reported with before,
// after and a box on each side, and a finding at least medium, whether the
// edit was appended or the file rewritten; the re-saved twin and the file
// against itself say nothing of the page text.
func TestPageTextFigureChanged(t *testing.T) {
	genuine := readStatement(t, "statement.pdf")
	for _, name := range []string{"statement-forged.pdf", "statement-rewritten.pdf"} {
		r, err := Compare(context.Background(), genuine, readStatement(t, name), Options{})
		if err != nil {
			t.Fatal(err)
		}
		pt := r.PageText
		if pt == nil || pt.PagesCompared != 1 || pt.FiguresChanged != 1 || pt.WordsChanged != 0 || len(pt.Items) != 1 {
			t.Fatalf("%s: pageText %+v", name, pt)
		}
		it := pt.Items[0]
		if it.Page != 1 || it.Kind != "figure" || it.Change != "changed" || it.Original != "13,339.86" || it.Candidate != "99,339.86" {
			t.Errorf("%s: item %+v", name, it)
		}
		// The Balance column's second row: right-aligned at x 520, baseline 680.
		for _, b := range []*[4]float64{it.OriginalBox, it.CandidateBox} {
			if b == nil || b[0] < 470 || b[2] > 521 || b[1] < 676 || b[3] > 690 {
				t.Errorf("%s: box %v is not the Balance cell of the second row", name, b)
			}
		}
		var found bool
		for _, f := range r.Findings {
			if f.ID == "figures-changed" {
				found = true
				if f.Severity.Rank() < 2 {
					t.Errorf("%s: figures-changed is %s, want at least medium", name, f.Severity)
				}
			}
		}
		if !found {
			t.Errorf("%s: no figures-changed finding in %+v", name, r.Findings)
		}
	}
	for name, data := range map[string][]byte{"re-saved": readStatement(t, "statement-resaved.pdf"), "identical": genuine} {
		r, err := Compare(context.Background(), genuine, data, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if pt := r.PageText; pt != nil && (pt.Total != 0 || len(pt.Items) != 0) {
			t.Errorf("%s: page text differs: %+v", name, pt)
		}
		for _, f := range r.Findings {
			if f.ID == "figures-changed" || f.ID == "words-changed" {
				t.Errorf("%s: %s", name, f.ID)
			}
		}
	}
}

// TestDiffWords: words align by their text; a stretch between matches
// pairs changed words in order and lists the rest as added or removed.
func TestDiffWords(t *testing.T) {
	ws := func(s ...string) []word {
		out := make([]word, len(s))
		for i, x := range s {
			out[i] = word{text: x}
		}
		return out
	}
	got := diffWords(ws("Total", "13,339.86", "EUR", "paid"), ws("Total", "99,339.86", "EUR", "now", "paid", "in", "full"))
	want := []TextChange{
		{Kind: "figure", Change: "changed", Original: "13,339.86", Candidate: "99,339.86"},
		{Kind: "word", Change: "added", Candidate: "now"},
		{Kind: "word", Change: "added", Candidate: "in"},
		{Kind: "word", Change: "added", Candidate: "full"},
	}
	if len(got) != len(want) {
		t.Fatalf("%d changes: %+v", len(got), got)
	}
	for i := range want {
		g := got[i]
		g.OriginalBox, g.CandidateBox = nil, nil
		if g != want[i] {
			t.Errorf("change %d: %+v, want %+v", i, g, want[i])
		}
	}
	if d := diffWords(ws("a", "b"), ws("a", "b")); len(d) != 0 {
		t.Errorf("equal pages differ: %+v", d)
	}
}

// TestWordsByGeometry: words are the same whether a writer showed them in
// one run with space glyphs, or in runs split mid-word without spaces;
// lines come from the top of the page down, each left to right.
func TestWordsByGeometry(t *testing.T) {
	// glyphs lays out text at (x, y) in a 10 pt font, 5 pt per character,
	// a space advancing like any other character.
	run := func(x, y float64, text string, spaces bool) paint.TextRun {
		r := paint.TextRun{Size: 10}
		for _, c := range text {
			if c != ' ' || spaces {
				r.Glyphs = append(r.Glyphs, paint.Glyph{Text: string(c), Box: paint.Rect{X0: x, Y0: y - 2, X1: x + 5, Y1: y + 8}})
			}
			x += 5
		}
		return r
	}
	texts := func(ws []word) string {
		var out []string
		for _, w := range ws {
			out = append(out, w.text)
		}
		return strings.Join(out, "|")
	}
	one := words([]paint.TextRun{run(100, 600, "Total due", true), run(100, 700, "Pay online now", true)})
	split := words([]paint.TextRun{run(100, 700, "Pay onl", false), run(135, 700, "ine now", false), run(100, 600, "Total due", false)})
	if texts(one) != "Pay|online|now|Total|due" || texts(split) != texts(one) {
		t.Errorf("words %q and %q, want Pay|online|now|Total|due for both", texts(one), texts(split))
	}
}
