package office

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
)

// XML limits. Parts are already capped in bytes; these stop the shapes a
// byte cap does not: pathological nesting and token floods.
const (
	maxXMLDepth  = 256
	maxXMLTokens = 2_000_000
)

// xmlLimitError says a walk stopped at a limit rather than at the end.
type xmlLimitError struct{ what string }

func (e *xmlLimitError) Error() string { return "office: xml " + e.what + " limit" }

// tokKind is the kind of the walker's current token.
type tokKind uint8

const (
	tokNone  tokKind = iota // no token: the end, malformed XML or a limit (w.err says which)
	tokStart                // token.start
	tokEnd                  // token.end
	tokText                 // token.text
	tokOther                // processing instruction, comment or directive
)

// token is the current token. Its fields are only valid until the next
// call: text may be a slice of the part or of a reused buffer. Attributes
// are read with walker.attr (start.Attr is empty on the lexer's path).
// Returning the kind rather than an xml.Token keeps each token from being
// boxed on the heap.
type token struct {
	start xml.StartElement
	end   xml.EndElement
	text  xml.CharData
}

// walker streams one part's tokens with namespace prefixes left raw: OOXML
// prefixes are conventional (w:, a:, p:), and matching on local names keeps
// a renamed prefix from hiding an element while avoiding the cost of
// namespace resolution on every token.
type walker struct {
	token
	ctx    context.Context
	data   []byte
	lx     *lexer       // the fast path, until the part leaves its subset
	lexed  int          // tokens the lexer produced
	d      *xml.Decoder // encoding/xml, once the lexer gave up
	depth  int
	tokens int
	err    error // first error: malformed XML or a limit
}

func newWalker(ctx context.Context, data []byte) *walker {
	w := &walker{ctx: ctx, data: data}
	w.lx = &lexer{data: data, out: &w.token}
	return w
}

// next moves to the next token and returns its kind, or tokNone at the
// end, on malformed XML or at a limit (w.err says which).
func (w *walker) next() tokKind {
	if w.err != nil {
		return tokNone
	}
	w.tokens++
	if w.tokens > maxXMLTokens {
		w.err = &xmlLimitError{"token"}
		return tokNone
	}
	if w.tokens&0xFFF == 0 && w.ctx.Err() != nil {
		w.err = w.ctx.Err()
		return tokNone
	}
	k, err := w.raw()
	if err != nil {
		if err != io.EOF {
			w.err = err
		} else if w.depth != 0 {
			// RawToken does not pair tags, so a part cut short or left
			// unclosed shows only as nesting that never returns to zero.
			w.err = &xmlLimitError{"balance"}
		}
		return tokNone
	}
	switch k {
	case tokStart:
		w.depth++
		if w.depth > maxXMLDepth {
			w.err = &xmlLimitError{"depth"}
			return tokNone
		}
	case tokEnd:
		w.depth--
	}
	return k
}

// raw reads the next token, with the lexer while it can. When it gives up,
// encoding/xml reads the part from the start and the tokens the lexer
// already produced are skipped: up to the lexer's last token the two read
// the same tokens, so consumers see one stream whichever reader ends it.
func (w *walker) raw() (tokKind, error) {
	if w.lx != nil {
		switch k := w.lx.next(); k {
		case lexEOF:
			return tokNone, io.EOF
		case lexGiveUp:
			w.lx = nil
			w.d = newDecoder(w.data)
			for range w.lexed {
				if _, err := w.d.RawToken(); err != nil {
					return tokNone, err
				}
			}
		default:
			w.lexed++
			return k, nil
		}
	}
	tok, err := w.d.RawToken()
	if err != nil {
		return tokNone, err
	}
	switch t := tok.(type) {
	case xml.StartElement:
		w.start = t
		return tokStart, nil
	case xml.EndElement:
		w.end = t
		return tokEnd, nil
	case xml.CharData:
		w.text = t
		return tokText, nil
	}
	return tokOther, nil
}

// newDecoder is encoding/xml set up as the walker reads: strict, and
// declared encodings other than UTF-8 read as UTF-8, since the engine wants
// structure and a transcoder is attack surface it does not need.
func newDecoder(data []byte) *xml.Decoder {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	return d
}

// malformed reports whether the walk ended on anything but a clean EOF or a
// cancelled context.
func (w *walker) malformed() bool {
	return w.err != nil && w.err != context.Canceled && w.err != context.DeadlineExceeded
}

// attr returns the value of the current start element's first attribute
// with the local name (prefixes are left raw, as for elements).
func (w *walker) attr(local string) (string, bool) {
	if w.lx != nil {
		return w.lx.attr(local)
	}
	for _, a := range w.start.Attr {
		if a.Name.Local == local {
			return a.Value, true
		}
	}
	return "", false
}

// onOff reads an OOXML boolean attribute of the current start element:
// absent or any value other than a false spelling means on (w:vanish with
// no w:val is on).
func (w *walker) onOff() bool {
	v, ok := w.attr("val")
	if !ok {
		return true
	}
	switch v {
	case "0", "false", "off", "False", "FALSE":
		return false
	}
	return true
}

func truthy(v string) bool { return v == "1" || v == "true" || v == "True" || v == "TRUE" }
