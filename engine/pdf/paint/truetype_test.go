package paint

import (
	"bytes"
	"compress/zlib"
	"io"
	"os"
	"path/filepath"
	"testing"
)

// trueTypePrograms pulls the TrueType programs (FlateDecode streams that
// start like one) out of the committed concealment fixtures.
func trueTypePrograms(tb testing.TB) [][]byte {
	files, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "detection", "conceal", "*-empty-outlines.pdf"))
	var out [][]byte
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		for rest := data; ; {
			i := bytes.Index(rest, []byte("stream\n"))
			if i < 0 {
				break
			}
			rest = rest[i+len("stream\n"):]
			zr, err := zlib.NewReader(bytes.NewReader(rest))
			if err != nil {
				continue
			}
			prog, _ := io.ReadAll(io.LimitReader(zr, 1<<20))
			if bytes.HasPrefix(prog, []byte{0, 1, 0, 0}) || bytes.HasPrefix(prog, []byte("true")) {
				out = append(out, prog)
			}
		}
	}
	return out
}

// TestTrueTypeEmptyGlyphs: the fixture's blanked program has empty
// outlines for its letters through its (1,0) cmap, the twin's has none;
// spaces are empty in both.
func TestTrueTypeEmptyGlyphs(t *testing.T) {
	progs := trueTypePrograms(t)
	if len(progs) != 2 {
		t.Fatalf("%d programs in the fixtures, want 2", len(progs))
	}
	blanks := 0
	for _, data := range progs {
		p := parseTrueType(data)
		if p == nil {
			t.Fatal("program not read")
		}
		if !p.emptyGlyph(p.lookup(1, 0, ' ')) {
			t.Error("space has an outline")
		}
		if p.emptyGlyph(p.lookup(1, 0, 'A')) {
			blanks++
			for _, c := range "Igorevxz09" {
				if !p.emptyGlyph(p.lookup(1, 0, int(c))) {
					t.Errorf("%c has an outline in the blanked program", c)
				}
			}
		}
		if p.emptyGlyph(0) {
			t.Error(".notdef counts as empty")
		}
	}
	if blanks != 1 {
		t.Fatalf("%d blanked programs, want 1", blanks)
	}
	if parseTrueType([]byte("true\x00\x05")) != nil || parseTrueType(nil) != nil {
		t.Fatal("a truncated program was read")
	}
}

// FuzzTrueType: any bytes, seeded with real programs, parse and look up
// within bounds.
func FuzzTrueType(f *testing.F) {
	for _, p := range trueTypePrograms(f) {
		f.Add(p, 65)
	}
	f.Fuzz(func(t *testing.T, data []byte, c int) {
		p := parseTrueType(data)
		if p == nil {
			return
		}
		for _, cm := range [][2]uint16{{1, 0}, {3, 0}, {3, 1}} {
			g := p.lookup(cm[0], cm[1], c)
			if g < 0 || g > 0xFFFF {
				t.Fatalf("gid %d", g)
			}
			p.emptyGlyph(g)
		}
	})
}
