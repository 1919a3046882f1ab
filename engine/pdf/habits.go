package pdf

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/file"
	"github.com/doctrust/doctrust/engine/pdf/filters"
	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// Habits are the choices the program that wrote a PDF makes whatever the
// document says: how it writes the header, the cross-reference data and
// the trailer, in which order it numbers and places objects, how it
// compresses content, how it forms the /ID and names font subsets, how it
// lays out content-stream operators. A file rewritten by another program
// (pikepdf, pdftk, PyMuPDF) keeps the Producer but changes these, which is
// what an issuer baseline compares (docs/baselines.md). Every value is
// built from structure only: byte classes, key names, operator names,
// counts; no string, name or number the document carries is copied.
type Habits struct {
	// Header: the line ending after "%PDF-x.y" and the binary comment's
	// first high bytes in hex, "+text" when words follow them.
	Header string
	// XrefForm: the newest section's kind with its entry line ending (table)
	// or the outer /W widths (stream), and the trailer's key names.
	XrefForm string
	// ObjectOrder: whether objects lie in the file in number order, and
	// where the catalogue lies among them (first, last, inside).
	ObjectOrder string
	// ObjectSyntax: how the catalogue object is laid out: the white space
	// after "obj", after "<<", between its first key and value, and after
	// that value ("/Type /Catalog" or "/Type/Catalog", one pair a line or
	// all on one).
	ObjectSyntax string
	// StreamFilters: the filter chains of the first pages' content streams
	// and whether their /Length is direct or a reference.
	StreamFilters string
	// IDForm: absent, or the /ID strings' byte length, hex or literal, and
	// whether the two are equal.
	IDForm string
	// SubsetNaming: how font subset tags are formed: none, counting
	// (AAAAAA+, BAAAAA+) or random.
	SubsetNaming string
	// ContentOps: the text operators of the first page's content, the
	// operator separator (newline or space) and the longest fraction
	// written in a number.
	ContentOps string
}

// Bounds of the habit reading.
const (
	habitPages       = 3        // pages whose content streams are read
	habitStreamBytes = 64 << 10 // content bytes scanned for layout habits
	habitMaxHigh     = 4        // high bytes of the binary comment kept
)

func (a *analysis) describeHabits(d *Description) {
	h := &d.Habits
	h.Header = "none"
	if !a.f.Warn.HeaderMissing {
		h.Header = headerHabit(a.f.Data, a.f.Header)
	}
	h.XrefForm = a.xrefHabit()
	h.ObjectOrder = a.orderHabit()
	h.ObjectSyntax = a.syntaxHabit()
	h.StreamFilters = a.filterHabit()
	h.IDForm = a.idHabit()
	h.SubsetNaming = subsetHabit(d.Fonts)
	h.ContentOps = a.contentHabit()
}

// headerHabit reads the two first lines of the file.
func headerHabit(data []byte, at int) string {
	if at < 0 || at >= len(data) {
		return "none"
	}
	data = data[at:min(len(data), at+256)]
	i := bytes.IndexAny(data, "\r\n")
	if i < 0 {
		return "none"
	}
	eol := "lf"
	switch {
	case data[i] == '\r' && i+1 < len(data) && data[i+1] == '\n':
		eol, i = "crlf", i+1
	case data[i] == '\r':
		eol = "cr"
	}
	rest := data[i+1:]
	if len(rest) == 0 || rest[0] != '%' {
		return eol + " no-comment"
	}
	end := bytes.IndexAny(rest, "\r\n")
	if end < 0 {
		end = len(rest)
	}
	line := rest[1:end]
	var hx strings.Builder
	high, text := 0, false
	for _, c := range line {
		switch {
		case c >= 0x80 && high < habitMaxHigh:
			fmt.Fprintf(&hx, "%02x", c)
			high++
		case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z':
			text = true
		}
	}
	s := eol + " %" + hx.String()
	if text {
		s += "+text"
	}
	return s
}

// headerHigh is the hex of the binary comment's first high bytes, as
// headerHabit writes them ("" when there is no such comment).
func headerHigh(data []byte, at int) string {
	h := headerHabit(data, at)
	i := strings.IndexByte(h, '%')
	if i < 0 {
		return ""
	}
	return strings.TrimSuffix(h[i+1:], "+text")
}

// xrefHabit describes the newest cross-reference section and trailer.
func (a *analysis) xrefHabit() string {
	revs := a.f.Revisions
	if len(revs) == 0 || len(revs[len(revs)-1].Sections) == 0 {
		return "none"
	}
	sec := revs[len(revs)-1].Sections[0]
	form := string(sec.Kind)
	switch sec.Kind {
	case file.XrefTable, file.XrefHybrid:
		form += " " + tableEOL(a.f.Data, sec.Offset)
	case file.XrefStream:
		if w, ok := sec.Trailer.Get("W").(cos.Array); ok && len(w) == 3 {
			w0, _ := cos.AsInt(w[0])
			w2, _ := cos.AsInt(w[2])
			form += fmt.Sprintf(" w%d.%d", w0, w2)
		}
	}
	var keys []string
	if sec.Trailer != nil {
		for _, k := range sec.Trailer.Keys {
			switch k {
			case "Prev", "XRefStm", "Length", "Filter", "DecodeParms", "W", "Index", "Type", "Size":
				continue // present or not by the file's history or the stream's needs
			}
			keys = append(keys, string(k))
		}
	}
	sort.Strings(keys)
	return form + " [" + strings.Join(keys, " ") + "]"
}

// tableEOL names the two bytes that end the first entry line of a table:
// "sp-lf", "crlf", "sp-cr".
func tableEOL(data []byte, off int) string {
	if off < 0 || off >= len(data) {
		return "?"
	}
	seg := data[off:min(len(data), off+128)]
	// "xref" EOL "0 n" EOL then the first 20-byte entry.
	lines := 0
	for i := 0; i < len(seg); i++ {
		if seg[i] != '\n' && seg[i] != '\r' {
			continue
		}
		if seg[i] == '\r' && i+1 < len(seg) && seg[i+1] == '\n' {
			i++
		}
		lines++
		if lines == 2 && i+21 < len(seg) {
			e := seg[i+19 : i+21]
			switch {
			case e[0] == ' ' && e[1] == '\n':
				return "sp-lf"
			case e[0] == '\r' && e[1] == '\n':
				return "crlf"
			case e[0] == ' ' && e[1] == '\r':
				return "sp-cr"
			}
			return "other"
		}
	}
	return "?"
}

// orderHabit compares the objects' numbers with their places in the file.
func (a *analysis) orderHabit() string {
	var inUse []file.Entry
	for _, e := range a.f.Entries() {
		if e.Kind == file.InUse && e.Num != 0 {
			inUse = append(inUse, e)
		}
	}
	if len(inUse) == 0 {
		return "none"
	}
	sort.Slice(inUse, func(i, j int) bool { return inUse[i].Off < inUse[j].Off })
	asc := "ascending"
	for i := 1; i < len(inUse); i++ {
		if inUse[i].Num < inUse[i-1].Num {
			asc = "unordered"
			break
		}
	}
	root, _ := a.f.Trailer().Get("Root").(cos.Ref)
	at := "root-inside"
	switch {
	case root.Num == 0:
		at = "root-none"
	case int(inUse[0].Num) == root.Num:
		at = "root-first"
	case int(inUse[len(inUse)-1].Num) == root.Num:
		at = "root-last"
	default:
		if e, ok := a.f.Lookup(root.Num, 0); ok && e.Kind == file.Compressed {
			at = "root-packed"
		}
	}
	return asc + " " + at
}

// syntaxHabit classes the white space of the catalogue object's first
// bytes.
func (a *analysis) syntaxHabit() string {
	root, ok := a.f.Trailer().Get("Root").(cos.Ref)
	if !ok {
		return "none"
	}
	e, ok := a.f.Lookup(root.Num, 0)
	if !ok || e.Kind != file.InUse {
		return "packed"
	}
	if e.Off < 0 || e.Off >= int64(len(a.f.Data)) {
		return "none"
	}
	b := a.f.Data[e.Off:min(int64(len(a.f.Data)), e.Off+256)]
	i := bytes.Index(b, []byte("obj"))
	if i < 0 {
		return "none"
	}
	b = b[i+3:]
	out := "obj-" + spaceClass(b)
	j := bytes.Index(b, []byte("<<"))
	if j < 0 {
		return out
	}
	b = b[j+2:]
	out += " dict-" + spaceClass(b)
	b = bytes.TrimLeft(b, " \t\r\n")
	if len(b) == 0 || b[0] != '/' {
		return out
	}
	k := 1
	for k < len(b) && !delimiter(b[k]) {
		k++
	}
	b = b[k:]
	out += " kv-" + spaceClass(b)
	b = bytes.TrimLeft(b, " \t\r\n")
	// The value: a name, or tokens up to the next key or the end.
	k = 0
	if len(b) > 0 && b[0] == '/' {
		k = 1
		for k < len(b) && !delimiter(b[k]) {
			k++
		}
	} else {
		for k < len(b) && b[k] != '/' && b[k] != '>' {
			k++
		}
		for k > 0 && (b[k-1] == ' ' || b[k-1] == '\n' || b[k-1] == '\r') {
			k--
		}
	}
	return out + " pair-" + spaceClass(b[k:])
}

// spaceClass names the white space at the start of b.
func spaceClass(b []byte) string {
	switch {
	case len(b) == 0:
		return "end"
	case bytes.HasPrefix(b, []byte("\r\n")):
		return "crlf"
	case b[0] == '\n':
		return "lf"
	case b[0] == '\r':
		return "cr"
	case b[0] == ' ' || b[0] == '\t':
		return "sp"
	}
	return "none"
}

func delimiter(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', '\f', 0, '/', '<', '>', '[', ']', '(', ')', '%', '{', '}':
		return true
	}
	return false
}

// filterHabit lists the filter chains of the first pages' content streams.
func (a *analysis) filterHabit() string {
	seen := map[string]bool{}
	for i, p := range a.pages {
		if i >= habitPages {
			break
		}
		c := p.dict.Get("Contents")
		parts := []cos.Object{c}
		if arr, ok := a.resolve(c).(cos.Array); ok {
			parts = arr
		}
		for j, part := range parts {
			if j >= 8 {
				break
			}
			st, ok := a.resolve(part).(*cos.Stream)
			if !ok {
				continue
			}
			var chain []string
			switch f := a.resolve(st.Dict.Get("Filter")).(type) {
			case cos.Name:
				chain = append(chain, string(f))
			case cos.Array:
				for _, n := range f {
					if nm, ok := a.resolve(n).(cos.Name); ok {
						chain = append(chain, string(nm))
					}
				}
			}
			v := "none"
			if len(chain) > 0 {
				v = strings.Join(chain, "+")
			}
			if st.Dict.Has("DecodeParms") {
				v += "(parms)"
			}
			if _, ok := st.Dict.Get("Length").(cos.Ref); ok {
				v += " len-ref"
			} else {
				v += " len-direct"
			}
			if len(parts) > 1 {
				v += " split"
			}
			seen[v] = true
		}
	}
	return joinHabit(seen)
}

// idHabit describes the trailer /ID.
func (a *analysis) idHabit() string {
	id, ok := a.resolve(a.f.Trailer().Get("ID")).(cos.Array)
	if !ok || len(id) != 2 {
		return "absent"
	}
	s0, ok0 := a.resolve(id[0]).(cos.String)
	s1, ok1 := a.resolve(id[1]).(cos.String)
	if !ok0 || !ok1 {
		return "malformed"
	}
	form := "literal"
	if s0.Hex {
		form = "hex"
	}
	same := "differ"
	if bytes.Equal(s0.Bytes, s1.Bytes) {
		same = "equal"
	}
	return fmt.Sprintf("%d %s %s", len(s0.Bytes), form, same)
}

// subsetHabit classes the subset tags of the fonts' base names.
func subsetHabit(fonts []string) string {
	tags, counting := 0, 0
	for _, f := range fonts {
		if _, ok := paint.StripSubsetTag(f); !ok {
			continue
		}
		tags++
		if strings.Count(f[:6], "A") >= 4 {
			counting++
		}
	}
	switch {
	case tags == 0:
		return "none"
	case counting == tags:
		return "counting"
	}
	return "random"
}

// contentHabit reads the first page's content: which text operators it
// uses and how it lays them out.
func (a *analysis) contentHabit() string {
	if len(a.pages) == 0 {
		return "none"
	}
	var data []byte
	c := a.pages[0].dict.Get("Contents")
	parts := []cos.Object{c}
	if arr, ok := a.resolve(c).(cos.Array); ok {
		parts = arr
	}
	for _, part := range parts {
		st, ok := a.resolve(part).(*cos.Stream)
		if !ok {
			continue
		}
		data = append(data, a.decodeContent(st)...)
		data = append(data, '\n')
		if len(data) >= habitStreamBytes {
			data = data[:habitStreamBytes]
			break
		}
	}
	if len(bytes.TrimSpace(data)) == 0 {
		return "empty"
	}
	ops := map[string]bool{}
	n := 0
	var sc paint.Scanner
	sc.Scan(data, paint.MaxOperands, func(op []byte, _ []paint.Operand) bool {
		n++
		if textOperator(string(op)) {
			ops[string(op)] = true
		}
		return true
	})
	sep := "sp"
	if n > 0 && bytes.Count(data, []byte{'\n'})*10 >= n*8 {
		sep = "nl"
	}
	return joinHabit(ops) + " " + sep + fmt.Sprintf(" d%d", min(longestFraction(data), 6))
}

// decodeContent decodes a content stream again under the inspection's
// budget. A stream that fails to decode was already counted by the walk
// (or is the walk's to count), so no warning is added here.
func (a *analysis) decodeContent(st *cos.Stream) []byte {
	data, _ := filters.Decode(st.Raw(a.f.Data), st.Dict, a.resolve, a.f.Budget)
	return data
}

func textOperator(op string) bool {
	switch op {
	case "BT", "ET", "Tf", "Td", "TD", "Tm", "T*", "Tj", "TJ", "'", "\"", "Tc", "Tw", "Tz", "TL", "Ts", "Tr":
		return true
	}
	return false
}

// longestFraction is the most digits written after a decimal point in a
// number outside strings.
func longestFraction(data []byte) int {
	best, depth := 0, 0
	for i := 0; i < len(data); i++ {
		switch c := data[i]; {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c == '\\' && depth > 0:
			i++
		case c == '.' && depth == 0:
			n := 0
			for j := i + 1; j < len(data) && data[j] >= '0' && data[j] <= '9'; j++ {
				n++
			}
			best = max(best, n)
		}
	}
	return best
}

func joinHabit(set map[string]bool) string {
	if len(set) == 0 {
		return "none"
	}
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, ",")
}
