package pdf

import (
	"fmt"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// TestForChunksSlicesAsCopied: chunks sliced from the run's text are the
// chunks the copying path builds, for runs whose text is their glyphs'
// and for capped runs whose text skipped a glyph.
func TestForChunksSlicesAsCopied(t *testing.T) {
	run := func(text string, glyphs ...string) *paint.TextRun {
		r := &paint.TextRun{Size: 10, Text: text}
		x := 0.0
		for _, g := range glyphs {
			w := 5.0
			if g == "|" { // a wide kern before the next glyph
				x += 20
				continue
			}
			r.Glyphs = append(r.Glyphs, paint.Glyph{Text: g, Box: paint.Rect{X0: x, X1: x + w}})
			x += w
		}
		return r
	}
	collect := func(f func(*paint.TextRun, func(string)), r *paint.TextRun) string {
		var out []string
		f(r, func(s string) { out = append(out, s) })
		return fmt.Sprintf("%q", out)
	}
	for _, r := range []*paint.TextRun{
		run("12,345.67 USD", "1", "2", ",", "3", "4", "5", ".", "6", "7", " ", "U", "S", "D"),
		run("Total12.00", "T", "o", "t", "a", "l", "|", "1", "2", ".", "0", "0"),
		run("a\u00a0b  c", "a", "\u00a0", "b", " ", " ", "c"),
		run("fi rst", "fi", " ", "r", "s", "t"),
		run("", " ", " "),
		// capped: the text skipped "long" and kept "x", so it is not the
		// glyphs' text end to end
		run("abx", "a", "b", "long", "x"),
		// glyphs capped before the text: the text runs on past them
		run("12 34 56", "1", "2", " ", "3"),
	} {
		got, want := collect(forChunks, r), collect(chunksByCopy, r)
		if got != want {
			t.Errorf("%q: sliced %s, copied %s", r.Text, got, want)
		}
	}
	if textOfGlyphs(run("abx", "a", "b", "long", "x")) {
		t.Error("a run whose text skipped a glyph reads as its glyphs' text")
	}
	if !textOfGlyphs(run("12 34 56", "1", "2", " ", "3")) || !strings.Contains(collect(forChunks, run("12 34", "1", "2", " ", "3", "4")), `"34"`) {
		t.Error("a prefix run is not sliced")
	}
}
