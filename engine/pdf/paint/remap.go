package paint

import (
	"unicode"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// Glyphs that draw one thing and extract as another: the trick that shows
// a reader harmless text while a text extractor (and the language model
// fed by it) reads different words. Two forms are recognised without
// reading font programs: a simple font whose explicit encoding names a
// letter or digit glyph for a code that its ToUnicode map sends to another
// letter or digit, and a Type 3 glyph procedure that paints nothing for a
// code that extracts to a letter or digit.

// remaps reports a code whose drawn glyph differs from its extracted text.
func (f *Font) remaps(code uint32) bool {
	if f.program != nil {
		gid := int(code)
		if f.cidToGID != nil {
			g, ok := u16(f.cidToGID, 2*int(code))
			if !ok {
				return false
			}
			gid = g
		}
		if !f.program.emptyGlyph(gid) {
			return false
		}
		_, word := wordRune(f.text(code))
		return word
	}
	return f.remapped != nil && code < 256 && f.remapped[code/64]&(1<<(code%64)) != 0
}

func (f *Font) markRemap(code int) {
	if f.remapped == nil {
		f.remapped = new([4]uint64)
	}
	f.remapped[code/64] |= 1 << (code % 64)
}

// wordRune reports a single letter or digit.
func wordRune(s string) (rune, bool) {
	rs := []rune(s)
	if len(rs) != 1 || !(unicode.IsLetter(rs[0]) || unicode.IsDigit(rs[0])) {
		return 0, false
	}
	return rs[0], true
}

// markRemapped compares, for a simple font with an explicit encoding and a
// ToUnicode map, the letter or digit each code's glyph name stands for
// with the one ToUnicode extracts. Case is ignored: small capitals are
// often named for the lowercase letter.
func (f *Font) markRemapped() {
	if f.composite || !f.hasEnc || f.toUni == nil {
		return
	}
	for code, drawn := range f.enc {
		if drawn == 0 || !(unicode.IsLetter(drawn) || unicode.IsDigit(drawn)) {
			continue
		}
		s, ok := f.toUni.lookup(uint32(code))
		if !ok {
			continue
		}
		got, ok := wordRune(s)
		d := fold(drawn)
		if !ok || d > unicode.MaxASCII {
			continue
		}
		if unicode.ToLower(fold(got)) != unicode.ToLower(d) {
			f.markRemap(code)
		}
	}
}

// fold maps the styled forms of a Latin letter or digit that math and wide
// fonts extract to (mathematical italic n, Planck's h, fullwidth A) to the
// plain letter or digit their glyph is named for; other runes stay.
func fold(r rune) rune {
	switch {
	case r >= 0x1D400 && r <= 0x1D6A3: // 13 alphabets of A-Z a-z
		i := (r - 0x1D400) % 52
		if i < 26 {
			return 'A' + i
		}
		return 'a' + i - 26
	case r >= 0x1D7CE && r <= 0x1D7FF: // 5 sets of digits
		return '0' + (r-0x1D7CE)%10
	case r == 0x210E:
		return 'h'
	case r >= 0xFF21 && r <= 0xFF3A:
		return 'A' + r - 0xFF21
	case r >= 0xFF41 && r <= 0xFF5A:
		return 'a' + r - 0xFF41
	case r >= 0xFF10 && r <= 0xFF19:
		return '0' + r - 0xFF10
	}
	return r
}

// maxProcBytes bounds the decoded glyph procedure read to tell whether it
// paints.
const maxProcBytes = 64 << 10

// markEmptyProcs marks the codes of a Type 3 font whose glyph procedure
// exists but paints nothing (only d0/d1 and state) while the code extracts
// to a letter or digit.
func (in *Interpreter) markEmptyProcs(f *Font, d *cos.Dict) {
	r := in.src.Resolve
	procs := cos.DictOf(r(d.Get("CharProcs")))
	enc := cos.DictOf(r(d.Get("Encoding")))
	diffs, _ := r(enc.Get("Differences")).(cos.Array)
	if procs == nil || len(diffs) == 0 {
		return
	}
	var sc Scanner
	eachDifference(diffs, func(code int, name cos.Name) {
		if _, ok := wordRune(f.text(uint32(code))); !ok {
			return
		}
		st, ok := r(procs.Get(name)).(*cos.Stream)
		if !ok {
			return
		}
		if data := in.src.Decode(st, true); len(data) <= maxProcBytes && paintsNothing(&sc, data) {
			f.markRemap(code)
		}
	})
}

// paintsNothing reports a glyph procedure without a painting operator.
// An empty stream paints nothing too, but says little (a missing glyph):
// the procedure must at least declare its metrics.
func paintsNothing(sc *Scanner, data []byte) bool {
	declared, paints := false, false
	sc.Scan(data, MaxOperands, func(op []byte, _ []Operand) bool {
		switch string(op) {
		case "d0", "d1":
			declared = true
		case "f", "F", "f*", "B", "B*", "b", "b*", "S", "s", "sh", "Do", opBI, "Tj", "TJ", "'", "\"":
			paints = true
		}
		return !paints
	})
	return declared && !paints
}

// maxProgramBytes bounds the decoded TrueType program read for empty
// outlines.
const maxProgramBytes = 8 << 20

// markEmptyOutlines reads an embedded TrueType program (FontFile2) and
// marks the codes whose glyph has no outline while the code extracts to a
// letter or digit. A simple font finds its glyphs through the program's
// cmap as PDF 32000 9.6.6.4 says (symbolic: (3,0) by code or 0xF000+code,
// then (1,0); otherwise (3,1) by the encoding's Unicode, then (1,0)); a
// composite font with Identity-H or Identity-V through /CIDToGIDMap
// (Identity, or a stream of two bytes per CID). Other encodings are not
// followed.
func (in *Interpreter) markEmptyOutlines(f *Font, d, desc *cos.Dict) {
	r := in.src.Resolve
	st, ok := r(desc.Get("FontFile2")).(*cos.Stream)
	if !ok {
		return
	}
	var kid *cos.Dict
	if f.composite {
		enc, _ := r(d.Get("Encoding")).(cos.Name)
		if enc != "Identity-H" && enc != "Identity-V" {
			return
		}
		if kids, ok := r(d.Get("DescendantFonts")).(cos.Array); ok && len(kids) > 0 {
			kid = cos.DictOf(r(kids[0]))
		}
		if kid == nil || kid.Name("Subtype") != "CIDFontType2" {
			return
		}
	} else if f.Subtype != "TrueType" {
		return
	}
	data := in.src.decodeAux(st)
	if len(data) == 0 || len(data) > maxProgramBytes {
		return
	}
	prog := parseTrueType(data)
	if prog == nil {
		return
	}
	if f.composite {
		switch m := r(kid.Get("CIDToGIDMap")).(type) {
		case *cos.Stream:
			f.cidToGID = in.src.decodeAux(m)
			if f.cidToGID == nil {
				return
			}
		case cos.Name, nil:
			if m != nil && m != cos.Name("Identity") {
				return
			}
		default:
			return
		}
		f.program = prog
		return
	}
	flags, _ := cos.AsInt(r(desc.Get("Flags")))
	symbolic := flags&4 != 0
	for code := range 256 {
		if _, word := wordRune(f.text(uint32(code))); !word {
			continue
		}
		gid := 0
		if symbolic {
			if gid = prog.lookup(3, 0, code); gid == 0 {
				gid = prog.lookup(3, 0, 0xF000+code)
			}
		} else if u := f.enc[code]; u != 0 {
			gid = prog.lookup(3, 1, int(u))
		}
		if gid == 0 {
			gid = prog.lookup(1, 0, code)
		}
		if prog.emptyGlyph(gid) {
			f.markRemap(code)
		}
	}
}
