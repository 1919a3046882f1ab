package paint

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// Font is one font resource as the interpreter reads it: enough to place
// glyphs (widths, ascent and descent) and to decode them to Unicode.
type Font struct {
	Ref      int    // object number of the font dictionary; 0 when direct
	BaseFont string // as stored: attacker-authored
	Subtype  string // Type1, TrueType, Type0, Type3, MMType1
	// Embedded reports a font program in the file (FontFile, FontFile2,
	// FontFile3, or the glyph procedures of a Type3 font).
	Embedded bool
	// ToUnicode reports a ToUnicode map.
	ToUnicode bool
	// DigitConflicts counts codes that the font's encoding names as one
	// digit and its ToUnicode map as another digit, so extracted text
	// differs from what the glyphs show.
	DigitConflicts int
	// Revision is the revision that wrote the font dictionary (0: unknown).
	Revision int

	composite  bool
	enc        encoding
	hasEnc     bool // an explicit /Encoding (name or Differences)
	toUni      *cmap
	codes      *cmap // a composite font's encoding CMap: its code space
	firstChar  int
	widths     []float64 // simple fonts: width of firstChar+i, in text space units
	cidWidths  cidWidthTable
	missing    float64
	ascent     float64
	descent    float64
	fontMatrix Matrix
	approx     bool
	texts      map[uint32]string
	lowTexts   *[256]lowText // codes below 256, without hashing

	// remapped marks the one-byte codes whose drawn glyph differs from
	// their extracted text (Font.remaps).
	remapped *[4]uint64
	// program and cidToGID let a composite TrueType font tell glyphs with
	// no outline: gid = cid when cidToGID is nil (Identity).
	program  *ttProgram
	cidToGID []byte

	// capHeight and xHeight bound the ink of capitals and digits, and of
	// lowercase letters without ascenders (glyph extents, issue 25).
	capHeight, xHeight float64
}

// lowText is a remembered decoding of a one-byte code.
type lowText struct {
	s     string
	known bool
}

// Type3 reports glyphs drawn by content-stream procedures.
func (f *Font) Type3() bool { return f.Subtype == "Type3" }

// Subset reports a base font name with a subset tag ("ABCDEF+Name").
func (f *Font) Subset() bool {
	_, ok := StripSubsetTag(f.BaseFont)
	return ok
}

// Family is the base font name without its subset tag.
func (f *Font) Family() string {
	if name, ok := StripSubsetTag(f.BaseFont); ok {
		return name
	}
	return f.BaseFont
}

// StripSubsetTag removes a subset's six-capital "ABCDEF+" tag from a base
// font name and says whether there was one.
func StripSubsetTag(s string) (string, bool) {
	if len(s) < 8 || s[6] != '+' {
		return s, false
	}
	for i := range 6 {
		if s[i] < 'A' || s[i] > 'Z' {
			return s, false
		}
	}
	return s[7:], true
}

// Font limits.
const (
	maxWidths      = 1 << 16
	maxDifferences = 1 << 12
)

// font loads (once) the font named in the resources.
func (in *Interpreter) font(res *cos.Dict, name cos.Name) *Font {
	fonts := cos.DictOf(in.src.Resolve(res.Get("Font")))
	o := fonts.Get(name)
	ref, isRef := o.(cos.Ref)
	if isRef {
		if f, ok := in.fonts[ref.Num]; ok {
			return f
		}
	}
	d := cos.DictOf(in.src.Resolve(o))
	if d == nil {
		return nil
	}
	if f, ok := in.direct[d]; ok && !isRef {
		return f // a font written into the resources, loaded at an earlier Tf
	}
	f := in.loadFont(d)
	if !isRef && len(in.direct) < maxFonts {
		// A font dictionary written into the resources is the same
		// object at every Tf that names it: load it once too.
		if in.direct == nil {
			in.direct = map[*cos.Dict]*Font{}
		}
		in.direct[d] = f
	}
	if isRef {
		f.Ref = ref.Num
		f.Revision = in.src.origin(ref.Num)
		if len(in.fonts) < maxFonts {
			in.fonts[ref.Num] = f
		}
	}
	return f
}

func (in *Interpreter) loadFont(d *cos.Dict) *Font {
	r := in.src.Resolve
	f := &Font{
		Subtype:    string(d.Name("Subtype")),
		missing:    0.5,
		ascent:     0.8,
		descent:    -0.2,
		capHeight:  0.7,
		xHeight:    0.5,
		fontMatrix: Matrix{0.001, 0, 0, 0.001, 0, 0},
	}
	if s, ok := r(d.Get("BaseFont")).(cos.Name); ok {
		f.BaseFont = string(s)
	}
	desc := cos.DictOf(r(d.Get("FontDescriptor")))
	if f.Subtype == "Type0" {
		f.composite = true
		if kids, ok := r(d.Get("DescendantFonts")).(cos.Array); ok && len(kids) > 0 {
			kid := cos.DictOf(r(kids[0]))
			desc = cos.DictOf(r(kid.Get("FontDescriptor")))
			f.missing = 1
			if dw, ok := cos.AsNumber(r(kid.Get("DW"))); ok {
				f.missing = dw / 1000
			}
			f.cidWidths = in.cidWidths(r(kid.Get("W")))
		}
		if st, ok := r(d.Get("Encoding")).(*cos.Stream); ok {
			f.codes = parseCMap(in.src.decodeAux(st))
		}
	} else {
		in.simpleWidths(f, d)
		in.simpleEncoding(f, d)
	}
	if f.Type3() {
		if m, ok := matrixOf(r(d.Get("FontMatrix")), r); ok {
			f.fontMatrix = m
		}
		f.Embedded = d.Has("CharProcs")
		for i := range f.widths {
			f.widths[i] *= f.fontMatrix[0] * 1000
		}
	}
	if desc != nil {
		if a, ok := cos.AsNumber(r(desc.Get("Ascent"))); ok && a > 0 && a < 3000 {
			f.ascent = a / 1000
		}
		if dd, ok := cos.AsNumber(r(desc.Get("Descent"))); ok && dd < 0 && dd > -3000 {
			f.descent = dd / 1000
		}
		if c, ok := cos.AsNumber(r(desc.Get("CapHeight"))); ok && c > 0 && c/1000 <= f.ascent {
			f.capHeight = c / 1000
		}
		if x, ok := cos.AsNumber(r(desc.Get("XHeight"))); ok && x > 0 && x/1000 <= f.capHeight {
			f.xHeight = x / 1000
		}
		if mw, ok := cos.AsNumber(r(desc.Get("MissingWidth"))); ok && mw > 0 && !f.composite {
			f.missing = mw / 1000
		}
		f.Embedded = desc.Has("FontFile") || desc.Has("FontFile2") || desc.Has("FontFile3")
	}
	if st, ok := r(d.Get("ToUnicode")).(*cos.Stream); ok {
		f.toUni = parseCMap(in.src.decodeAux(st))
		f.ToUnicode = true
		f.DigitConflicts = f.digitConflicts()
	}
	f.markRemapped()
	if f.Type3() {
		in.markEmptyProcs(f, d)
	}
	in.markEmptyOutlines(f, d, desc)
	return f
}

func (in *Interpreter) simpleWidths(f *Font, d *cos.Dict) {
	r := in.src.Resolve
	fc, _ := cos.AsInt(r(d.Get("FirstChar")))
	f.firstChar = int(max(0, min(fc, 255)))
	if ws, ok := r(d.Get("Widths")).(cos.Array); ok {
		for i, o := range ws {
			if i >= 256 {
				break
			}
			w, _ := cos.AsNumber(r(o))
			f.widths = append(f.widths, w/1000)
		}
	}
	// Without /Widths (the standard 14 fonts of old files) glyphs get a
	// width by character class (approxWidth): pdfcpu's core-font metrics
	// would pull a new module into go.mod, and boxes need only be close.
	if len(f.widths) == 0 {
		f.approx = true
		if strings.HasPrefix(f.BaseFont, "Courier") {
			f.missing, f.approx = 0.6, false
		}
	}
}

func (in *Interpreter) simpleEncoding(f *Font, d *cos.Dict) {
	r := in.src.Resolve
	f.enc = standardEncoding()
	switch e := r(d.Get("Encoding")).(type) {
	case cos.Name:
		if enc, ok := namedEncoding(string(e)); ok {
			f.enc, f.hasEnc = enc, true
		}
	case *cos.Dict:
		if enc, ok := namedEncoding(string(e.Name("BaseEncoding"))); ok {
			f.enc = enc
		}
		f.hasEnc = true
		diffs, _ := r(e.Get("Differences")).(cos.Array)
		eachDifference(diffs, func(code int, name cos.Name) { f.enc[code] = glyphRune(string(name)) })
	}
}

// eachDifference calls fn with each one-byte code an encoding's
// /Differences array names and the glyph name it gives it, at most
// maxDifferences elements read.
func eachDifference(diffs cos.Array, fn func(code int, name cos.Name)) {
	code := 0
	for i, o := range diffs {
		if i >= maxDifferences {
			break
		}
		switch v := o.(type) {
		case cos.Int:
			code = int(v)
		case cos.Name:
			if code >= 0 && code < 256 {
				fn(code, v)
			}
			code++
		}
	}
}

// cidWidths reads a CIDFont /W array: "c [w1 w2 ...]" and "c1 c2 w". At
// most maxWidths codes are read, as written (a code given twice counts
// twice). A list's elements that are not numbers give their codes no
// width.
func (in *Interpreter) cidWidths(o cos.Object) cidWidthTable {
	arr, ok := o.(cos.Array)
	if !ok {
		return cidWidthTable{}
	}
	r := in.src.Resolve
	var segs []cidSeg
	n := 0 // codes read
	for i := 0; i < len(arr) && n < maxWidths; {
		c, ok := cos.AsInt(r(arr[i]))
		if !ok || c < 0 || c > math.MaxUint32 || i+1 >= len(arr) {
			break
		}
		if list, ok := r(arr[i+1]).(cos.Array); ok {
			if !directNumbers(list) {
				resolved := make(cos.Array, len(list))
				for j, w := range list {
					resolved[j] = r(w)
				}
				list = resolved
			}
			if take := min(len(list), maxWidths-n); take > 0 {
				segs = append(segs, cidSeg{lo: uint32(c), hi: uint32(c) + uint32(take) - 1, nums: list[:take]})
				n += take
			}
			i += 2
			continue
		}
		if i+2 >= len(arr) {
			break
		}
		hi, ok1 := cos.AsInt(r(arr[i+1]))
		w, ok2 := cos.AsNumber(r(arr[i+2]))
		if !ok1 || !ok2 || hi < c {
			break
		}
		hi = min(hi, c+int64(maxWidths-n)-1, math.MaxUint32)
		segs = append(segs, cidSeg{lo: uint32(c), hi: uint32(hi), w: w / 1000})
		n += int(hi - c + 1)
		i += 3
	}
	return newCIDWidthTable(segs)
}

// cidWidthTable is a CIDFont's widths as the /W array groups them: runs of
// codes with a width each, and ranges sharing one. Writing every code into
// a map (fonts give widths to thousands of codes) cost most of a short
// process's time on files whose fonts are loaded a few times. The groups
// are searched by code when they do not overlap, as in every font seen;
// when they do, the later group gives the width, so they are written into
// a map in order.
type cidWidthTable struct {
	segs []cidSeg // sorted by lo, disjoint
	m    map[uint32]float64
}

// cidSeg covers codes lo..hi: nums[code-lo] (in thousandths, kept as the
// array wrote them) when nums is set, else w.
type cidSeg struct {
	lo, hi uint32
	w      float64
	nums   cos.Array
}

// directNumbers reports a list whose every element is a number written in
// place, the usual case, which is kept without a copy.
func directNumbers(list cos.Array) bool {
	for _, o := range list {
		switch o.(type) {
		case cos.Int, cos.Real:
		default:
			return false
		}
	}
	return true
}

func (s cidSeg) width(code uint32) (float64, bool) {
	if s.nums == nil {
		return s.w, true
	}
	v, ok := cos.AsNumber(s.nums[code-s.lo])
	return v / 1000, ok
}

func newCIDWidthTable(segs []cidSeg) cidWidthTable {
	byLo := func(a, b cidSeg) int { return cmp.Compare(a.lo, b.lo) }
	sorted := segs
	if !slices.IsSortedFunc(segs, byLo) {
		sorted = slices.Clone(segs)
		slices.SortStableFunc(sorted, byLo)
	}
	for i := 1; i < len(sorted); i++ {
		if sorted[i].lo <= sorted[i-1].hi {
			m := map[uint32]float64{}
			for _, s := range segs {
				for c := uint64(s.lo); c <= uint64(s.hi); c++ {
					if w, ok := s.width(uint32(c)); ok {
						m[uint32(c)] = w
					}
				}
			}
			return cidWidthTable{m: m}
		}
	}
	return cidWidthTable{segs: sorted}
}

func (t *cidWidthTable) width(code uint32) (float64, bool) {
	if t.m != nil {
		w, ok := t.m[code]
		return w, ok
	}
	i, _ := slices.BinarySearchFunc(t.segs, code, func(s cidSeg, c uint32) int {
		switch {
		case s.hi < c:
			return -1
		case s.lo > c:
			return 1
		}
		return 0
	})
	if i < len(t.segs) && t.segs[i].lo <= code && code <= t.segs[i].hi {
		return t.segs[i].width(code)
	}
	return 0, false
}

func matrixOf(o cos.Object, r func(cos.Object) cos.Object) (Matrix, bool) {
	arr, ok := o.(cos.Array)
	if !ok || len(arr) != 6 {
		return Matrix{}, false
	}
	var m Matrix
	for i, v := range arr {
		n, ok := cos.AsNumber(r(v))
		if !ok {
			return Matrix{}, false
		}
		m[i] = n
	}
	return m, true
}

// nextCode splits the next character code off s.
func (f *Font) nextCode(s []byte) (code uint32, n int) {
	n = 1
	if f.composite {
		n = f.codes.codeLen(s)
		if n == 0 {
			n = f.toUni.codeLen(s)
		}
		if n == 0 {
			n = 2
		}
		n = min(n, len(s))
	}
	for _, b := range s[:n] {
		code = code<<8 | uint32(b)
	}
	return code, n
}

// width is the horizontal advance of a code in text space units (per unit
// of font size).
func (f *Font) width(code uint32) float64 {
	if f.composite {
		if w, ok := f.cidWidths.width(code); ok {
			return w
		}
		return f.missing
	}
	if i := int(code) - f.firstChar; i >= 0 && i < len(f.widths) {
		if w := f.widths[i]; w > 0 || f.Type3() {
			return w
		}
	}
	if f.approx && code < 256 {
		return approxWidth(f.enc[code])
	}
	return f.missing
}

// approxWidth is a proportional font's advance by character class, within
// about a tenth of the standard Helvetica and Times widths for Latin text.
func approxWidth(r rune) float64 {
	switch {
	case strings.ContainsRune("iljI.,:;!|'`", r):
		return 0.25
	case strings.ContainsRune("frt ()-/[]{}\"", r):
		return 0.31
	case r == 'm' || r == 'w':
		return 0.8
	case r == 'M' || r == 'W':
		return 0.9
	case r >= '0' && r <= '9':
		return 0.556
	case r >= 'A' && r <= 'Z':
		return 0.68
	}
	return 0.53
}

// maxTextCache bounds the decoded codes a font remembers.
const maxTextCache = 4096

// text decodes a code to Unicode, remembering the answer so a page of
// text does not allocate one string per glyph.
func (f *Font) text(code uint32) string {
	if code < 256 {
		if f.lowTexts == nil {
			f.lowTexts = new([256]lowText)
		}
		t := &f.lowTexts[code]
		if !t.known {
			t.s, t.known = f.decode(code), true
		}
		return t.s
	}
	if s, ok := f.texts[code]; ok {
		return s
	}
	s := f.decode(code)
	if f.texts == nil {
		f.texts = map[uint32]string{}
	}
	if len(f.texts) < maxTextCache {
		f.texts[code] = s
	}
	return s
}

// decode maps a code to Unicode: ToUnicode first, then the encoding.
func (f *Font) decode(code uint32) string {
	if s, ok := f.toUni.lookup(code); ok {
		return s
	}
	if !f.composite && code < 256 && f.enc[code] != 0 {
		return string(f.enc[code])
	}
	return ""
}

// digitConflicts compares, for each code the explicit encoding names as a
// digit, the digit ToUnicode gives.
func (f *Font) digitConflicts() int {
	if f.composite || !f.hasEnc || f.toUni == nil {
		return 0
	}
	n := 0
	for code, r := range f.enc {
		if r < '0' || r > '9' {
			continue
		}
		s, ok := f.toUni.lookup(uint32(code))
		if ok && len(s) == 1 && s[0] >= '0' && s[0] <= '9' && rune(s[0]) != r {
			n++
		}
	}
	return n
}

// Ink classes of a glyph: the vertical extent its shape takes, for Latin
// letters and digits; inkLine (any other glyph) keeps the font's line box.
const (
	inkLine      = iota
	inkCap       // capitals, digits, lowercase with ascenders: baseline to cap height
	inkX         // lowercase without ascender or descender: baseline to x-height
	inkDescender // g p q y: descent to x-height
	inkTall      // j: descent to cap height
	inkClasses
)

// inkClass classes a glyph by its text's only character.
func inkClass(text string) int {
	if len(text) != 1 {
		return inkLine
	}
	// A switch of constants, not a search of letter lists: this runs for
	// every glyph shown.
	switch c := text[0]; c {
	case 'b', 'd', 'f', 'h', 'i', 'k', 'l', 't':
		return inkCap
	case 'a', 'c', 'e', 'm', 'n', 'o', 'r', 's', 'u', 'v', 'w', 'x', 'z':
		return inkX
	case 'g', 'p', 'q', 'y':
		return inkDescender
	case 'j':
		return inkTall
	default:
		if c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' {
			return inkCap
		}
	}
	return inkLine
}

// inkRows are the vertical extents of the ink classes, in text space
// units of one em.
func (f *Font) inkRows() [inkClasses][2]float64 {
	return [inkClasses][2]float64{
		inkLine:      {f.descent, f.ascent},
		inkCap:       {0, f.capHeight},
		inkX:         {0, f.xHeight},
		inkDescender: {f.descent, f.xHeight},
		inkTall:      {f.descent, f.capHeight},
	}
}
