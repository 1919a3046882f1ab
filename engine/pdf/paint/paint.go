// Package paint is the content-stream interpreter: it runs a page's
// operators (graphics state stack, CTM, text state and matrices, colours,
// clipping by bounding box, Form XObjects, inline images, marked content)
// and returns what the page paints, in paint order, in page space: text
// runs decoded through the font's encoding and ToUnicode map, filled and
// stroked paths, and image placements, each tagged with the revision that
// wrote the stream it came from.
//
// Nothing is rendered. Boxes are bounding boxes; a clip is tracked as the
// bounding box of the clipping paths, which is what overlap rules need.
// Work is bounded per page (operators, glyphs, paths, images, form depth)
// and by the caller's decompression budget and deadline.
package paint

import "github.com/doctrust/doctrust/engine/pdf/cos"

// Limits of one page walk.
const (
	maxOps        = 2_000_000 // operators, forms included
	maxGlyphs     = 200_000
	maxRuns       = 50_000
	maxShapes     = 50_000
	maxImages     = 10_000
	maxRunText    = 4 << 10 // bytes of decoded text kept per run
	maxFormDepth  = 12
	maxGStack     = 64
	maxMarked     = 64
	maxFonts      = 4096
	maxPathPoints = 8 // points kept per subpath: rectangles, winding of small polygons
	maxFormCache  = 16 << 20
	stopEvery     = 1024
)

// Source is the document as one revision saw it.
type Source struct {
	// Resolve dereferences an object in the revision's view.
	Resolve func(cos.Object) cos.Object
	// Decode returns a stream's decoded data, or nil. content is true for
	// page content and form streams, false for auxiliary streams (CMaps),
	// so the caller can keep its cost accounts.
	Decode func(st *cos.Stream, content bool) []byte
	// Origin returns the revision (1-based) that wrote object num, or 0.
	Origin func(num int) int
	// Stop reports that the deadline passed; the walk ends early.
	Stop func() bool
	// PageOp, when set, sees every operator of a page's own content
	// streams (not of the forms they run), in order, with its operands, as
	// the interpreter reads them: a check that needs the page's operators
	// does not tokenize the content a second time.
	PageOp func(op []byte, args []Operand)
	// OCOff, when set, reports that an optional-content entry (the OCG or
	// OCMD a /OC marked-content sequence or a form's /OC names, as written)
	// is off in the document's default viewing configuration: what it
	// paints is in the file and its text extracts, but a viewer shows
	// nothing of it.
	OCOff func(cos.Object) bool
}

func (s Source) origin(num int) int {
	if s.Origin == nil || num <= 0 {
		return 0
	}
	return s.Origin(num)
}

func (s Source) decodeAux(st *cos.Stream) []byte {
	if s.Decode == nil {
		return nil
	}
	return s.Decode(st, false)
}

// Page is what one page paints, each list in paint order.
type Page struct {
	Text   []TextRun
	Shapes []Shape
	Images []Image
	// Streams lists the content streams run directly by the page.
	Streams []StreamRef
	// Operators counts the operators run, forms included.
	Operators int
	// Truncated is set when a limit or the deadline cut the walk short.
	Truncated bool
}

// StreamRef names a content stream and the revision that wrote it.
type StreamRef struct {
	Object   int // 0 when the stream is a direct object
	Revision int
}

// Glyph is one shown character.
type Glyph struct {
	Box Rect
	// Ink is the part of Box the glyph's shape takes: for Latin letters
	// and digits, baseline to cap or x-height, descent for descenders (the
	// font's CapHeight and XHeight); Box for any other glyph.
	Ink  Rect
	Text string // decoded; "" when the font gives no mapping
}

// TextRun is the text shown by one operator (Tj, TJ, ' or ").
type TextRun struct {
	Seq  int // paint order on the page, shared with shapes and images
	Font *Font
	// Size is the font size in page space (text and user scaling applied).
	Size float64
	// Mode is the text render mode (0 fill ... 3 invisible ... 7 clip).
	Mode   int
	Fill   Color
	Stroke Color
	Box    Rect
	Text   string
	Glyphs []Glyph
	// Clipped is set when no part of the run lies inside the clip.
	Clipped bool
	// Optional is set inside optional content (BDC /OC).
	Optional bool
	// OCOff is set inside optional content that is off when the document
	// is viewed (Source.OCOff), a /OC marked sequence or a form.
	OCOff bool
	// Nominal is the font size the Tf operator set (its absolute value);
	// Size is what the text and graphics matrices make of it.
	Nominal float64
	// Width is the horizontal scale of the glyphs in page space, the
	// counterpart of Size along the baseline (Tz, Tm and cm applied):
	// text squeezed to nothing by Tz keeps its Size but loses its Width.
	Width float64
	// Angle is the direction of the baseline in page space, in degrees
	// anticlockwise from the x axis (-180, 180].
	Angle float64
	// Blend is set under a blend mode other than Normal: the colour that
	// shows depends on what lies beneath.
	Blend bool
	// Remapped counts glyphs whose font draws one letter or digit (the
	// glyph its encoding names) while its ToUnicode map extracts another,
	// and glyphs of a Type 3 font whose procedure paints nothing while the
	// code extracts to a letter or digit: what a reader sees differs from
	// what extraction reads.
	Remapped int
	Stream   int // object number of the content stream or form
	Revision int // revision that wrote it (0: unknown)
	Form     bool
}

// Shape is one painted path. A path made of rectangles yields one Shape per
// rectangle (Rect set), and one more for whatever else it holds.
type Shape struct {
	Seq          int
	Box          Rect
	Rect         bool
	Fill, Stroke bool
	FillColor    Color
	StrokeColor  Color
	Stream       int
	Revision     int
	Form         bool
	OCOff        bool // inside optional content off in the default view
	Blend        bool // painted under a blend mode other than Normal
	// ClipShaped is set when a clipping path that is not a rectangle
	// applies: Box bounds what is painted, which need not fill it.
	ClipShaped bool
}

// Image is one image placement: the unit square under the CTM.
type Image struct {
	Seq      int
	Box      Rect
	Object   int // image XObject; 0 for inline images
	Inline   bool
	Mask     bool  // /ImageMask: painted in the fill colour
	Fill     Color // the fill colour a mask paints in
	SoftMask bool  // /SMask or a soft mask in the graphics state
	Alpha    float64
	Stream   int
	Revision int
	Form     bool
	OCOff    bool // inside optional content off in the default view
	Blend    bool // painted under a blend mode other than Normal
	// Skewed is set when the placement rotates, shears or flattens the
	// image: Box bounds it but the image does not fill Box.
	Skewed bool
}

// Interpreter runs pages of one revision's view, sharing parsed fonts and
// decoded forms between them. It reuses one Page's storage from page to
// page, so a Page is valid until the next call of Page.
type Interpreter struct {
	src       Source
	fonts     map[int]*Font
	direct    map[*cos.Dict]*Font // fonts written in the resources, not referenced
	forms     map[int][]byte
	formBytes int
	page      Page
	glyphs    []Glyph // storage of every run's Glyphs on the current page
	text      []byte  // a run's text while show builds it
	// scanners[d] tokenises the streams run at form depth d.
	scanners [maxFormDepth + 1]Scanner

	// masks caches soft-mask opacity bounds; inMask marks the interpreter
	// that runs a mask's group (masks inside it stay unknown).
	masks  map[*cos.Dict]float64
	inMask bool
}

// scanner returns the tokenizer of form depth d.
func (in *Interpreter) scanner(depth int) *Scanner {
	return &in.scanners[min(max(depth, 0), maxFormDepth)]
}

// New returns an interpreter over src.
func New(src Source) *Interpreter {
	return &Interpreter{src: src, fonts: map[int]*Font{}, forms: map[int][]byte{}}
}
