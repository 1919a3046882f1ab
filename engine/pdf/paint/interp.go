package paint

import (
	"math"
	"slices"

	"github.com/doctrust/doctrust/engine/pdf/cos"
)

// gstate is the part of the graphics state the interpreter tracks.
type gstate struct {
	ctm                    Matrix
	clip                   Rect
	fill, stroke           Color
	fillSpace, strokeSpace space
	fillAlpha, strokeAlpha float64
	softMask               bool
	blend                  bool // a blend mode other than Normal (or Compatible)
	clipShaped             bool // a clipping path that is not a rectangle was applied
	font                   *Font
	size, charSpace        float64
	wordSpace, scale       float64
	leading, rise          float64
	mode                   int

	// maskAlpha bounds the opacity a soft mask lets through (0.5 when it
	// is not known).
	maskAlpha float64
}

// frame is one content stream being run: the page's or a form's.
type frame struct {
	res      *cos.Dict
	stream   int
	revision int
	depth    int
	form     bool
}

// subpath is one subpath of the current path, in page space.
type subpath struct {
	box    Rect
	pts    [maxPathPoints][2]float64
	n      int // points seen (pts holds the first maxPathPoints)
	rect   bool
	closed bool
	curved bool
	// dir is the winding direction in page space, +1 or -1; 0 when not
	// known (curves, more points than kept).
	dir int8
}

// run is the state of one page walk.
type run struct {
	in       *Interpreter
	page     *Page
	gs       gstate
	stack    []gstate
	tm, tlm  Matrix
	path     []subpath
	pieces   []Rect // minusHoles' result, reused from path to path
	clipNext bool
	marked   []marked // per open marked-content sequence
	optional int
	offDepth int // open sequences and forms whose optional content is off
	seq      int
	glyphs   int
	forms    []int // forms being run, to refuse cycles
	stopped  bool
}

// marked is one open marked-content sequence.
type marked struct {
	optional bool // BDC /OC
	off      bool // optional content off in the default view
}

// Page runs a page's content: contents is the page's /Contents (a stream
// or an array of streams, references allowed), res its resources.
func (in *Interpreter) Page(contents cos.Object, res *cos.Dict) *Page {
	r := in.start()
	var parts []cos.Object
	switch c := contents.(type) {
	case cos.Array:
		parts = c
	case nil:
	default:
		if arr, ok := in.src.Resolve(c).(cos.Array); ok {
			parts = arr
		} else {
			parts = []cos.Object{c}
		}
	}
	for _, part := range parts {
		if r.stopped {
			break
		}
		st, ok := in.src.Resolve(part).(*cos.Stream)
		if !ok {
			continue
		}
		ref := StreamRef{}
		if pr, ok := part.(cos.Ref); ok {
			ref = StreamRef{Object: pr.Num, Revision: in.src.origin(pr.Num)}
		}
		r.page.Streams = append(r.page.Streams, ref)
		data := in.src.Decode(st, true)
		r.exec(data, frame{res: res, stream: ref.Object, revision: ref.Revision})
	}
	r.page.Truncated = r.page.Truncated || r.stopped
	return r.page
}

// start begins a walk on the interpreter's reused Page.
func (in *Interpreter) start() *run {
	in.page = Page{Text: in.page.Text[:0], Shapes: in.page.Shapes[:0], Images: in.page.Images[:0], Streams: in.page.Streams[:0]}
	in.glyphs = in.glyphs[:0]
	r := &run{in: in, page: &in.page}
	r.gs = gstate{ctm: Identity, clip: everything, fill: black, stroke: black, fillAlpha: 1, strokeAlpha: 1, scale: 1}
	return r
}

// Appearance runs an annotation's appearance stream (object num, 0 when
// direct) as a viewer places it (PDF 32000 12.5.5): the form's BBox,
// transformed by its Matrix, is fitted to the annotation's rectangle.
// res stands in when the form has no resources of its own. Like Page, the
// result is valid until the next call of Page or Appearance.
func (in *Interpreter) Appearance(st *cos.Stream, num int, rect Rect, res *cos.Dict) *Page {
	r := in.start()
	src := in.src
	bb, ok := boxOf(src.Resolve(st.Dict.Get("BBox")), src.Resolve)
	if !ok || bb.Width() <= 0 || bb.Height() <= 0 || rect.Width() <= 0 || rect.Height() <= 0 {
		return r.page
	}
	m, ok := matrixOf(src.Resolve(st.Dict.Get("Matrix")), src.Resolve)
	if !ok {
		m = Identity
	}
	tb := bb.transform(m)
	if tb.Width() <= 0 || tb.Height() <= 0 {
		return r.page
	}
	sx, sy := rect.Width()/tb.Width(), rect.Height()/tb.Height()
	r.gs.ctm = Matrix{sx, 0, 0, sy, rect.X0 - tb.X0*sx, rect.Y0 - tb.Y0*sy}
	r.form(st, num, frame{res: res})
	r.page.Truncated = r.page.Truncated || r.stopped
	return r.page
}

// exec runs one stream's operators.
func (r *run) exec(data []byte, fr frame) {
	r.in.scanner(fr.depth).Scan(data, MaxOperands, func(op []byte, args []Operand) bool {
		r.page.Operators++
		if r.page.Operators >= maxOps {
			r.page.Truncated = true
			r.stopped = true
			return false
		}
		if r.page.Operators%stopEvery == 0 && r.in.src.Stop != nil && r.in.src.Stop() {
			r.stopped = true
			return false
		}
		if fr.depth == 0 && r.in.src.PageOp != nil {
			r.in.src.PageOp(op, args)
		}
		r.op(string(op), args, fr)
		return !r.stopped
	})
}

func num(args []Operand, i int) float64 {
	if i >= len(args) {
		return 0
	}
	v, _ := args[i].number()
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// nums reads the last n operands (n <= 6) as finite numbers.
func nums(args []Operand, n int) ([6]float64, bool) {
	var out [6]float64
	if len(args) < n {
		return out, false
	}
	for i := range n {
		v, ok := args[len(args)-n+i].number()
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
			return out, false
		}
		out[i] = v
	}
	return out, true
}

func matrixArgs(args []Operand) (Matrix, bool) {
	v, ok := nums(args, 6)
	if !ok {
		return Matrix{}, false
	}
	return Matrix{v[0], v[1], v[2], v[3], v[4], v[5]}, true
}

// op runs one operator.
func (r *run) op(op string, args []Operand, fr frame) {
	gs := &r.gs
	switch op {
	// graphics state
	case "q":
		if len(r.stack) < maxGStack {
			r.stack = append(r.stack, r.gs)
		}
	case "Q":
		if len(r.stack) > 0 {
			r.gs = r.stack[len(r.stack)-1]
			r.stack = r.stack[:len(r.stack)-1]
		}
	case "cm":
		if m, ok := matrixArgs(args); ok {
			gs.ctm = m.Mul(gs.ctm)
		}
	case "gs":
		r.extGState(args, fr)

	// colour
	case "g", "G", "rg", "RG", "k", "K":
		sp := spaceGray
		switch op {
		case "rg", "RG":
			sp = spaceRGB
		case "k", "K":
			sp = spaceCMYK
		}
		if op[0] >= 'a' {
			gs.fillSpace, gs.fill = sp, colorOf(sp, args, gs.fillAlpha)
		} else {
			gs.strokeSpace, gs.stroke = sp, colorOf(sp, args, gs.strokeAlpha)
		}
	case "cs", "CS":
		sp := spaceUnknown
		if len(args) > 0 {
			if a := args[len(args)-1]; a.Kind == Name {
				sp = r.in.spaceOf(a.name(), fr.res)
			}
		}
		if op == "cs" {
			gs.fillSpace, gs.fill = sp, initial(sp, gs.fillAlpha)
		} else {
			gs.strokeSpace, gs.stroke = sp, initial(sp, gs.strokeAlpha)
		}
	case "sc", "scn":
		gs.fill = colorOf(gs.fillSpace, args, gs.fillAlpha)
	case "SC", "SCN":
		gs.stroke = colorOf(gs.strokeSpace, args, gs.strokeAlpha)

	// paths
	case "m":
		if v, ok := nums(args, 2); ok {
			r.moveTo(v[0], v[1])
		}
	case "l":
		if v, ok := nums(args, 2); ok {
			r.lineTo(v[0], v[1], false)
		}
	case "c":
		if v, ok := nums(args, 6); ok {
			r.lineTo(v[0], v[1], true)
			r.lineTo(v[2], v[3], true)
			r.lineTo(v[4], v[5], true)
		}
	case "v", "y":
		if v, ok := nums(args, 4); ok {
			r.lineTo(v[0], v[1], true)
			r.lineTo(v[2], v[3], true)
		}
	case "h":
		if n := len(r.path); n > 0 {
			r.path[n-1].closed = true
		}
	case "re":
		if v, ok := nums(args, 4); ok {
			r.rectangle(v[0], v[1], v[2], v[3])
		}
	case "W", "W*":
		r.clipNext = true
	case "S", "s":
		r.paint(false, true, false, fr)
	case "f", "F":
		r.paint(true, false, false, fr)
	case "f*":
		r.paint(true, false, true, fr)
	case "B", "b":
		r.paint(true, true, false, fr)
	case "B*", "b*":
		r.paint(true, true, true, fr)
	case "n":
		r.paint(false, false, false, fr)
	case "sh":
		// A shading fills the clip; its colours are not computed.
		saved := r.gs.fill
		r.gs.fill = Color{A: r.gs.fillAlpha}
		r.shape(Shape{Seq: r.next(), Box: r.gs.clip}, true, false, fr)
		r.gs.fill = saved

	// text
	case "BT":
		r.tm, r.tlm = Identity, Identity
	case "ET":
	case "Tf":
		if len(args) >= 2 {
			if a := args[len(args)-2]; a.Kind == Name {
				gs.font = r.in.font(fr.res, a.name())
			}
			gs.size = num(args, len(args)-1)
		}
	case "Tc":
		gs.charSpace = num(args, 0)
	case "Tw":
		gs.wordSpace = num(args, 0)
	case "Tz":
		gs.scale = num(args, 0) / 100
	case "TL":
		gs.leading = num(args, 0)
	case "Ts":
		gs.rise = num(args, 0)
	case "Tr":
		gs.mode = int(num(args, 0))
	case "Td":
		if v, ok := nums(args, 2); ok {
			r.nextLine(v[0], v[1])
		}
	case "TD":
		if v, ok := nums(args, 2); ok {
			gs.leading = -v[1]
			r.nextLine(v[0], v[1])
		}
	case "Tm":
		if m, ok := matrixArgs(args); ok {
			r.tm, r.tlm = m, m
		}
	case "T*":
		r.nextLine(0, -gs.leading)
	case "Tj":
		if len(args) > 0 {
			r.show(args[len(args)-1:], fr)
		}
	case "TJ":
		if len(args) > 0 {
			if a := args[len(args)-1]; a.Kind == Array {
				r.show(a.Elems, fr)
			}
		}
	case "'":
		r.nextLine(0, -gs.leading)
		if len(args) > 0 {
			r.show(args[len(args)-1:], fr)
		}
	case "\"":
		if len(args) >= 3 {
			gs.wordSpace, gs.charSpace = num(args, 0), num(args, 1)
			r.nextLine(0, -gs.leading)
			r.show(args[2:3], fr)
		}

	// XObjects and inline images
	case "Do":
		if len(args) > 0 {
			if a := args[len(args)-1]; a.Kind == Name {
				r.do(a.name(), fr)
			}
		}
	case opBI:
		r.image(Image{Inline: true}, fr)

	// marked content
	case "BMC":
		r.beginMarked(marked{})
	case "BDC":
		var m marked
		if len(args) > 0 && args[0].Kind == Name && string(args[0].Bytes) == "OC" {
			m.optional = true
			if len(args) > 1 && args[1].Kind == Name {
				m.off = r.ocOff(cos.DictOf(r.in.src.Resolve(fr.res.Get("Properties"))).Get(args[1].name()))
			}
		}
		r.beginMarked(m)
	case "EMC":
		if n := len(r.marked); n > 0 {
			m := r.marked[n-1]
			if m.optional {
				r.optional--
			}
			if m.off {
				r.offDepth--
			}
			r.marked = r.marked[:n-1]
		}
	}
}

func (r *run) beginMarked(m marked) {
	if len(r.marked) >= maxMarked {
		return
	}
	r.marked = append(r.marked, m)
	if m.optional {
		r.optional++
	}
	if m.off {
		r.offDepth++
	}
}

// ocOff asks the source whether an optional-content entry is off.
func (r *run) ocOff(o cos.Object) bool {
	if o == nil || r.in.src.OCOff == nil {
		return false
	}
	return r.in.src.OCOff(o)
}

// extGState applies the alpha and soft-mask entries of a named ExtGState.
func (r *run) extGState(args []Operand, fr frame) {
	if len(args) == 0 {
		return
	}
	name := args[len(args)-1].name()
	res := cos.DictOf(r.in.src.Resolve(fr.res.Get("ExtGState")))
	d := cos.DictOf(r.in.src.Resolve(res.Get(name)))
	if d == nil {
		return
	}
	gs := &r.gs
	if v, ok := cos.AsNumber(r.in.src.Resolve(d.Get("ca"))); ok {
		gs.fillAlpha = clamp01(v)
		gs.fill.A = gs.fillAlpha
	}
	if v, ok := cos.AsNumber(r.in.src.Resolve(d.Get("CA"))); ok {
		gs.strokeAlpha = clamp01(v)
		gs.stroke.A = gs.strokeAlpha
	}
	if bm := r.in.src.Resolve(d.Get("BM")); bm != nil {
		gs.blend = blends(bm, r.in.src.Resolve)
	}
	if sm := r.in.src.Resolve(d.Get("SMask")); sm != nil {
		n, isName := sm.(cos.Name)
		gs.softMask = !isName || n != "None"
		gs.maskAlpha = unknownMask
		if md := cos.DictOf(sm); md != nil {
			gs.maskAlpha = r.in.maskAlpha(md)
		}
	}
}

// blends reports a /BM entry naming a blend mode other than Normal or
// Compatible: the first mode of an array the interpreter knows, as a
// viewer takes it. Under such a mode what shows is a mix of the paint and
// what lies beneath.
func blends(o cos.Object, resolve func(cos.Object) cos.Object) bool {
	names := []cos.Object{o}
	if arr, ok := o.(cos.Array); ok && len(arr) > 0 {
		names = arr[:1]
	}
	n, ok := resolve(names[0]).(cos.Name)
	return ok && n != "Normal" && n != "Compatible"
}

// ---- paths ----------------------------------------------------------------

func (r *run) moveTo(x, y float64) {
	if len(r.path) >= maxShapes {
		return
	}
	px, py := r.gs.ctm.Apply(x, y)
	sp := subpath{box: Rect{px, py, px, py}, n: 1}
	sp.pts[0] = [2]float64{px, py}
	r.path = append(r.path, sp)
}

func (r *run) lineTo(x, y float64, curved bool) {
	if len(r.path) == 0 {
		r.moveTo(x, y)
		return
	}
	sp := &r.path[len(r.path)-1]
	px, py := r.gs.ctm.Apply(x, y)
	sp.box = sp.box.Union(Rect{px, py, px, py})
	if sp.n < maxPathPoints {
		sp.pts[sp.n] = [2]float64{px, py}
	}
	sp.n++
	sp.curved = sp.curved || curved
}

func (r *run) rectangle(x, y, w, h float64) {
	if len(r.path) >= maxShapes {
		return
	}
	box := RectOf([4]float64{x, y, x + w, y + h})
	pb := box.transform(r.gs.ctm)
	// re runs counter-clockwise in user space when w and h agree in sign;
	// a mirroring CTM turns it.
	m := r.gs.ctm
	dir := int8(1)
	if (w*h < 0) != (m[0]*m[3]-m[1]*m[2] < 0) {
		dir = -1
	}
	r.path = append(r.path, subpath{box: pb, n: 4, rect: m.axisAligned(), closed: true, dir: dir})
}

// direction is the winding of a straight subpath whose points are all
// kept (the shoelace sign), 0 otherwise.
func (s *subpath) direction() int8 {
	if s.dir != 0 || s.curved || s.n > maxPathPoints || s.n < 3 {
		return s.dir
	}
	area := 0.0
	for i := range s.n {
		a, b := s.pts[i], s.pts[(i+1)%s.n]
		area += a[0]*b[1] - b[0]*a[1]
	}
	switch {
	case area > 0:
		return 1
	case area < 0:
		return -1
	}
	return 0
}

// maxHoleSubpaths bounds the subpaths of one path checked for holes: each
// is compared with every other. Frames and cut-outs have a handful.
const maxHoleSubpaths = 32

// holes marks the subpaths of a filled path that are holes under the fill
// rule: a border drawn as an outer and an inner rectangle fills the band
// between them, not the inner area (issue 25). A subpath lying inside
// others is a hole when the winding number inside it is zero (non-zero
// rule) or the count of subpaths around it, itself included, is even
// (even-odd rule). Nil when nothing is a hole.
func (r *run) holes(evenOdd bool) []bool {
	n := len(r.path)
	if n < 2 || n > maxHoleSubpaths {
		return nil
	}
	var out []bool
	for i := range r.path {
		in := &r.path[i]
		around, winding, known := 0, int(in.direction()), in.direction() != 0
		for j := range r.path {
			o := &r.path[j]
			if j == i || !o.box.Contains(in.box, 0) || o.box == in.box {
				continue
			}
			around++
			d := o.direction()
			winding += int(d)
			known = known && d != 0
		}
		hole := around > 0 && ((evenOdd && around%2 == 1) || (!evenOdd && known && winding == 0))
		if hole {
			if out == nil {
				out = make([]bool, n)
			}
			out[i] = true
		}
	}
	return out
}

// minusHoles is box without the holes lying inside it, as rectangles.
func (r *run) minusHoles(box Rect, holes []bool) []Rect {
	pieces := append(r.pieces[:0], box)
	for j, h := range holes {
		if !h || !box.Contains(r.path[j].box, 0) || box == r.path[j].box {
			continue
		}
		if len(pieces) > maxHoleSubpaths*4 {
			break // overlapping cut-outs: the rest stays filled
		}
		next := make([]Rect, 0, len(pieces)+3)
		for _, p := range pieces {
			next = p.minus(r.path[j].box, next)
		}
		pieces = next
	}
	r.pieces = pieces
	return pieces
}

// isRect recognises a rectangle drawn with m, l, l, l (and h).
func (s *subpath) isRect() bool {
	if s.rect {
		return true
	}
	if s.curved || s.n < 4 || s.n > 5 {
		return false
	}
	p := s.pts[:s.n]
	if s.n == 5 {
		if !near(p[4], p[0]) {
			return false
		}
	}
	for i := range 4 {
		a, b := p[i], p[(i+1)%4]
		if !(nearly(a[0], b[0]) || nearly(a[1], b[1])) {
			return false
		}
	}
	return s.box.Area() > 0
}

func nearly(a, b float64) bool  { return math.Abs(a-b) < 0.01 }
func near(a, b [2]float64) bool { return nearly(a[0], b[0]) && nearly(a[1], b[1]) }
func (r *run) next() int        { r.seq++; return r.seq }
func (r *run) full(n, limit int) bool {
	if n >= limit {
		r.page.Truncated = true
		return true
	}
	return false
}

// paint ends the current path: records what fill and stroke paint, then
// applies a pending clip. Holes the fill rule leaves are cut out of the
// boxes that surround them.
func (r *run) paint(fill, stroke, evenOdd bool, fr frame) {
	if (fill || stroke) && len(r.path) > 0 {
		seq := r.next()
		var holes []bool
		if fill {
			holes = r.holes(evenOdd)
		}
		var rest Rect
		restSet := false
		for i := range r.path {
			sp := &r.path[i]
			if !sp.box.finite() {
				continue
			}
			if holes != nil && holes[i] {
				if stroke {
					r.shape(Shape{Seq: seq, Box: sp.box, Rect: sp.isRect()}, false, true, fr)
				}
				continue
			}
			if sp.isRect() {
				for _, p := range r.minusHoles(sp.box, holes) {
					r.shape(Shape{Seq: seq, Box: p, Rect: true}, fill, stroke, fr)
				}
				continue
			}
			rest, restSet = rest.Union(sp.box), true
		}
		if restSet {
			for _, p := range r.minusHoles(rest, holes) {
				r.shape(Shape{Seq: seq, Box: p}, fill, stroke, fr)
			}
		}
	}
	if r.clipNext {
		var box Rect
		for i, sp := range r.path {
			if i == 0 {
				box = sp.box
			} else {
				box = box.Union(sp.box)
			}
		}
		r.gs.clip = r.gs.clip.Intersect(box)
		// A clip of several subpaths, or of one that is not a rectangle,
		// is a shape: its box bounds what it lets through.
		if len(r.path) > 1 || (len(r.path) == 1 && !r.path[0].isRect()) {
			r.gs.clipShaped = true
		}
		r.clipNext = false
	}
	r.path = r.path[:0]
}

func (r *run) shape(s Shape, fill, stroke bool, fr frame) {
	if r.full(len(r.page.Shapes), maxShapes) {
		return
	}
	s.Box = s.Box.Intersect(r.gs.clip)
	if s.Box.X1 < s.Box.X0 || s.Box.Y1 < s.Box.Y0 {
		return // clipped away
	}
	s.Fill, s.Stroke = fill, stroke
	s.FillColor, s.StrokeColor = r.gs.fill, r.gs.stroke
	if r.gs.softMask {
		s.FillColor.A, s.StrokeColor.A = min(s.FillColor.A, r.gs.maskAlpha), min(s.StrokeColor.A, r.gs.maskAlpha)
	}
	s.Stream, s.Revision, s.Form = fr.stream, fr.revision, fr.form
	s.OCOff = r.offDepth > 0
	s.Blend = r.gs.blend
	s.ClipShaped = r.gs.clipShaped
	r.page.Shapes = append(room(r.page.Shapes), s)
}

// ---- XObjects -------------------------------------------------------------

var unitSquare = Rect{0, 0, 1, 1}

func (r *run) do(name cos.Name, fr frame) {
	xobjects := cos.DictOf(r.in.src.Resolve(fr.res.Get("XObject")))
	o := xobjects.Get(name)
	st, ok := r.in.src.Resolve(o).(*cos.Stream)
	if !ok {
		return
	}
	ref, _ := o.(cos.Ref)
	switch st.Dict.Name("Subtype") {
	case "Image":
		mask, _ := r.in.src.Resolve(st.Dict.Get("ImageMask")).(cos.Bool)
		r.image(Image{Object: ref.Num, Mask: bool(mask), SoftMask: st.Dict.Has("SMask")}, fr)
	case "Form":
		r.form(st, ref.Num, fr)
	}
}

func (r *run) image(img Image, fr frame) {
	if r.full(len(r.page.Images), maxImages) {
		return
	}
	img.Seq = r.next()
	img.Box = unitSquare.transform(r.gs.ctm).Intersect(r.gs.clip)
	m := r.gs.ctm
	img.Skewed = !m.axisAligned() || math.Abs(m[0]*m[3]-m[1]*m[2]) < 1e-9
	if !img.Box.finite() {
		return
	}
	img.Alpha = r.gs.fillAlpha
	img.Fill = r.gs.fill
	img.SoftMask = img.SoftMask || r.gs.softMask
	img.Stream, img.Revision, img.Form = fr.stream, fr.revision, fr.form
	img.OCOff = r.offDepth > 0
	img.Blend = r.gs.blend
	r.page.Images = append(room(r.page.Images), img)
}

func (r *run) form(st *cos.Stream, num int, fr frame) {
	if fr.depth >= maxFormDepth {
		r.page.Truncated = true
		return
	}
	for _, f := range r.forms {
		if num != 0 && f == num {
			return // a form that runs itself
		}
	}
	data := r.in.formData(st, num)
	if len(data) == 0 {
		return
	}
	saved, savedStack := r.gs, len(r.stack)
	src := r.in.src
	if m, ok := matrixOf(src.Resolve(st.Dict.Get("Matrix")), src.Resolve); ok {
		r.gs.ctm = m.Mul(r.gs.ctm)
	}
	if bb, ok := boxOf(src.Resolve(st.Dict.Get("BBox")), src.Resolve); ok {
		r.gs.clip = r.gs.clip.Intersect(bb.transform(r.gs.ctm))
	}
	res := cos.DictOf(src.Resolve(st.Dict.Get("Resources")))
	if res == nil {
		res = fr.res
	}
	r.forms = append(r.forms, num)
	savedPath := r.path
	r.path = nil
	off := r.ocOff(st.Dict.Get("OC"))
	if off {
		r.offDepth++
	}
	r.exec(data, frame{res: res, stream: num, revision: src.origin(num), depth: fr.depth + 1, form: true})
	if off {
		r.offDepth--
	}
	r.path = savedPath
	r.forms = r.forms[:len(r.forms)-1]
	r.gs = saved
	if len(r.stack) > savedStack {
		r.stack = r.stack[:savedStack]
	}
}

// formData decodes a form once per interpreter while the cache has room.
func (in *Interpreter) formData(st *cos.Stream, num int) []byte {
	if d, ok := in.forms[num]; ok && num != 0 {
		return d
	}
	d := in.src.Decode(st, true)
	if num != 0 && in.formBytes+len(d) <= maxFormCache {
		in.forms[num] = d
		in.formBytes += len(d)
	}
	return d
}

func boxOf(o cos.Object, resolve func(cos.Object) cos.Object) (Rect, bool) {
	arr, ok := o.(cos.Array)
	if !ok || len(arr) != 4 {
		return Rect{}, false
	}
	var v [4]float64
	for i, x := range arr {
		n, ok := cos.AsNumber(resolve(x))
		if !ok {
			return Rect{}, false
		}
		v[i] = n
	}
	return RectOf(v), true
}

// ---- text -----------------------------------------------------------------

func (r *run) nextLine(tx, ty float64) {
	r.tlm = Matrix{1, 0, 0, 1, tx, ty}.Mul(r.tlm)
	r.tm = r.tlm
}

// show places the glyphs of one show operator as one run.
func (r *run) show(items []Operand, fr frame) {
	gs := &r.gs
	f := gs.font
	if f == nil || r.full(len(r.page.Text), maxRuns) {
		return
	}
	tr := TextRun{
		Seq: r.next(), Font: f, Mode: gs.mode, Fill: gs.fill, Stroke: gs.stroke,
		Optional: r.optional > 0, OCOff: r.offDepth > 0, Blend: gs.blend, Stream: fr.stream, Revision: fr.revision, Form: fr.form,
	}
	if gs.softMask {
		tr.Fill.A = min(tr.Fill.A, gs.maskAlpha)
		tr.Stroke.A = min(tr.Stroke.A, gs.maskAlpha)
	}
	// Within one show only the text-space x moves, so every glyph box is
	// the box at offset x mapped by the same matrix.
	m0 := r.tm.Mul(gs.ctm)
	tr.Size = math.Abs(gs.size) * math.Hypot(m0[2], m0[3])
	tr.Nominal = math.Abs(gs.size)
	tr.Width = math.Abs(gs.size*gs.scale) * math.Hypot(m0[0], m0[1])
	tr.Angle = math.Atan2(m0[1], m0[0]) * 180 / math.Pi
	text := r.in.text[:0]
	first := true
	start := len(r.in.glyphs)
	x := 0.0
	y0, y1 := f.descent*gs.size+gs.rise, f.ascent*gs.size+gs.rise
	row := newRowMap(m0, y0, y1)
	var inks [inkClasses]rowMap
	for i, e := range f.inkRows() {
		inks[i] = newRowMap(m0, e[0]*gs.size+gs.rise, e[1]*gs.size+gs.rise)
	}
	for _, it := range items {
		switch it.Kind {
		case String:
			s := it.Bytes
			for len(s) > 0 {
				code, n := f.nextCode(s)
				s = s[n:]
				w := f.width(code)
				g := Glyph{Text: f.text(code)}
				if f.remaps(code) {
					tr.Remapped++
				}
				g.Box = row.box(x, x+w*gs.size*gs.scale)
				g.Ink = g.Box
				if c := inkClass(g.Text); c != inkLine {
					g.Ink = inks[c].box(x, x+w*gs.size*gs.scale)
				}
				if first {
					tr.Box, first = g.Box, false
				} else {
					tr.Box = tr.Box.Union(g.Box)
				}
				if len(text)+len(g.Text) <= maxRunText {
					text = append(text, g.Text...)
				}
				if r.glyphs < maxGlyphs {
					r.in.glyphs = append(room(r.in.glyphs), g)
					r.glyphs++
				} else {
					r.page.Truncated = true
				}
				adv := w*gs.size + gs.charSpace
				if n == 1 && code == ' ' {
					adv += gs.wordSpace
				}
				x += adv * gs.scale
			}
		default:
			if adj, ok := it.number(); ok && !math.IsNaN(adj) && !math.IsInf(adj, 0) {
				x -= adj / 1000 * gs.size * gs.scale
			}
		}
	}
	r.tm = Matrix{1, 0, 0, 1, x, 0}.Mul(r.tm)
	// Earlier runs keep slices of an older backing array when this one
	// grows; their glyphs are final, so that is harmless.
	tr.Glyphs = r.in.glyphs[start:len(r.in.glyphs):len(r.in.glyphs)]
	if first || !tr.Box.finite() {
		r.in.glyphs = r.in.glyphs[:start]
		return
	}
	tr.Text = string(text)
	r.in.text = text
	tr.Clipped = !tr.Box.Overlaps(gs.clip) && !(tr.Box.Area() == 0 && gs.clip.Contains(tr.Box, 0))
	r.page.Text = append(room(r.page.Text), tr)
}

// room makes space for one more element, doubling the capacity when it
// runs out: append grows large slices by a quarter, which for a page's
// glyphs and runs allocates and copies several times what doubling does.
func room[S ~[]E, E any](s S) S {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(cap(s), 16))
}

// Soft masks: the opacity a mask lets through is bounded from above by
// running its group: a luminosity mask is at most the lightest colour the
// group paints, or its backdrop (/BC, black by default) where it paints
// nothing; an alpha mask at most the highest opacity it paints. Images,
// colours not computed, nested masks and long groups leave it unknown.
const (
	unknownMask = 0.5
	maxMasks    = 16 // mask groups run per interpreter
)

func (in *Interpreter) maskAlpha(d *cos.Dict) float64 {
	if v, ok := in.masks[d]; ok {
		return v
	}
	v := unknownMask
	if !in.inMask && len(in.masks) < maxMasks {
		v = in.measureMask(d)
	}
	if in.masks == nil {
		in.masks = map[*cos.Dict]float64{}
	}
	in.masks[d] = v
	return v
}

func (in *Interpreter) measureMask(d *cos.Dict) float64 {
	g, ok := in.src.Resolve(d.Get("G")).(*cos.Stream)
	if !ok {
		return unknownMask
	}
	luminosity := d.Name("S") != "Alpha"
	bound := 0.0
	if bc, ok := in.src.Resolve(d.Get("BC")).(cos.Array); ok && luminosity {
		args := make([]Operand, 0, 4)
		for _, o := range bc {
			v, _ := cos.AsNumber(in.src.Resolve(o))
			args = append(args, Operand{Kind: Number, Num: v})
		}
		var sp space
		switch len(args) {
		case 1:
			sp = spaceGray
		case 3:
			sp = spaceRGB
		case 4:
			sp = spaceCMYK
		default:
			return unknownMask
		}
		bound = colorOf(sp, args, 1).Luminance()
	}
	sub := &Interpreter{src: in.src, fonts: in.fonts, direct: in.direct, forms: map[int][]byte{}, inMask: true}
	pg := sub.Page(g, cos.DictOf(in.src.Resolve(g.Dict.Get("Resources"))))
	if pg.Truncated || len(pg.Images) > 0 {
		return unknownMask
	}
	level := func(c Color) (float64, bool) {
		if luminosity {
			return c.Luminance(), c.Known
		}
		return c.A, true
	}
	for _, s := range pg.Shapes {
		for _, c := range []struct {
			on  bool
			col Color
		}{{s.Fill, s.FillColor}, {s.Stroke, s.StrokeColor}} {
			if !c.on {
				continue
			}
			v, ok := level(c.col)
			if !ok {
				return unknownMask
			}
			bound = max(bound, v)
		}
	}
	for _, t := range pg.Text {
		v, ok := level(t.Fill)
		if !ok {
			return unknownMask
		}
		bound = max(bound, v)
	}
	return min(bound, unknownMask)
}
