package office

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"testing"
)

// rawTokens is what encoding/xml's RawToken yields for data in the
// walker's configuration, each token rendered for comparison, and whether
// it stopped on an error.
func rawTokens(data []byte) ([]string, bool) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	d.CharsetReader = func(_ string, r io.Reader) (io.Reader, error) { return r, nil }
	var out []string
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return out, false
		}
		if err != nil {
			return out, true
		}
		out = append(out, renderToken(tok))
	}
}

func lexTokens(data []byte) []string {
	var cur token
	l := &lexer{data: data, out: &cur}
	var out []string
	for {
		switch l.next() {
		case tokStart:
			se := cur.start
			for _, a := range l.attrs {
				se.Attr = append(se.Attr, xml.Attr{Name: a.name, Value: string(l.bytes(a.value))})
			}
			out = append(out, renderToken(se))
		case tokEnd:
			out = append(out, renderToken(cur.end))
		case tokText:
			out = append(out, renderToken(cur.text))
		case tokOther:
			out = append(out, "other")
		default:
			return out
		}
	}
}

func renderToken(tok xml.Token) string {
	switch t := tok.(type) {
	case xml.StartElement:
		s := fmt.Sprintf("<%q:%q", t.Name.Space, t.Name.Local)
		for _, a := range t.Attr {
			s += fmt.Sprintf(" %q:%q=%q", a.Name.Space, a.Name.Local, a.Value)
		}
		return s + ">"
	case xml.EndElement:
		return fmt.Sprintf("</%q:%q>", t.Name.Space, t.Name.Local)
	case xml.CharData:
		return fmt.Sprintf("%q", []byte(t))
	}
	// The walker's consumers see processing instructions, comments and
	// directives only as a token to count.
	return "other"
}

// checkLexer is the lexer's contract: whatever it accepts, encoding/xml
// reads without error into the same tokens.
func checkLexer(t *testing.T, data []byte) {
	t.Helper()
	if !acceptable(data) {
		return
	}
	want, failed := rawTokens(data)
	if failed {
		t.Fatalf("lexer accepts %q, encoding/xml refuses it", data)
	}
	got := lexTokens(data)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("%q:\nlexer      %v\nencoding/xml %v", data, got, want)
	}
}

var lexerCases = []string{
	``,
	`<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\r\n" + `<a:b x="1" y:z='2'/>`,
	`<?xml version='1.0'?><r/>`,
	`<?xml version="1.1"?><r/>`,
	`<?xml encoding="windows-1252"?><r/>`,
	`<?xml version="1.0" version="1.1"?><r/>`,
	`<?mso-application progid="Word.Document"?><r/>`,
	`<?xml?><r/>`,
	`<r a="&lt;&gt;&amp;&apos;&quot;&#65;&#x42;"/>`, `<r>&#X43;</r>`,
	`<r>&#0;</r>`, `<r>&#xD800;</r>`, `<r>&#x110000;</r>`, `<r>&#;</r>`, `<r>&#x;</r>`, `<r>&bogus;</r>`, `<r>&lt</r>`, `<r>&;</r>`,
	`<r>a]]>b</r>`, `<r>a]]&gt;b</r>`, `<r>]&#93;></r>`, `<r a="]]>"/>`,
	"<r>a\r\nb\rc\n\r</r>", "<r a=\"x\r\ny\tz\"/>", "<r>&#13;\n</r>",
	"<r>\x01</r>", "<r>\xff</r>", "<r>\xc3\xa9\xef\xbf\xbe</r>", "\xef\xbb\xbf<r/>",
	`<r a="x"b="y"/>`, `<r a = "x" />`, `<r a/>`, `<r a=x/>`, `<r a="<"/>`, `<r a="x`,
	`<a:b:c/>`, `<:a/>`, `<a:/>`, `<a :b="1"/>`, `<1a/>`, `<-a/>`, `<a.b-c_d/>`, `<é/>`, `< a/>`,
	`</a >`, `</a x>`, `</a`, `<a`, `<`, `<!-- c --><r/>`, `<![CDATA[x]]>`, `<!DOCTYPE r><r/>`,
	`<a><b>text</b></a>tail`, `text only`, `<r/ >`, `<r></r><r>`, `<?pi`, `<?`, `<? x?>`,
}

func TestLexerMatchesEncodingXML(t *testing.T) {
	accepted := 0
	for _, c := range lexerCases {
		checkLexer(t, []byte(c))
		if acceptable([]byte(c)) {
			accepted++
		}
	}
	// The fast path must actually be taken on ordinary parts.
	for _, c := range []string{lexerCases[1], lexerCases[8], "<r>a\r\nb\rc\n\r</r>"} {
		if !acceptable([]byte(c)) {
			t.Errorf("lexer gives up on %q", c)
		}
	}
	if accepted < 10 {
		t.Errorf("lexer accepts only %d cases", accepted)
	}
}

// FuzzLexer checks the lexer's contract against encoding/xml.
func FuzzLexer(f *testing.F) {
	for _, c := range lexerCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkLexer(t, data) })
}
