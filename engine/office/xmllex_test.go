package office

import (
	"context"
	"encoding/xml"
	"fmt"
	"testing"
)

// walked is what a walker yields over data: each token rendered with all
// its attributes, whether the walk ended malformed, and whether the lexer
// read the whole part. reference walks with encoding/xml alone.
func walked(data []byte, reference bool) (toks []string, malformed, lexed bool) {
	w := newWalker(context.Background(), data)
	if reference {
		w.lx, w.d = nil, newDecoder(data)
	}
	for k := w.next(); k != tokNone; k = w.next() {
		switch k {
		case tokStart:
			se := w.start
			if w.lx != nil {
				se.Attr = nil
				for _, a := range w.lx.attrs {
					se.Attr = append(se.Attr, xml.Attr{Name: a.name, Value: string(w.lx.bytes(a.value))})
				}
			}
			toks = append(toks, renderToken(se))
		case tokEnd:
			toks = append(toks, renderToken(w.end))
		case tokText:
			toks = append(toks, renderToken(w.text))
		default:
			toks = append(toks, "other")
		}
	}
	return toks, w.malformed(), w.lx != nil
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
	return "other"
}

// checkLexer is the lexer's contract: a walker that starts with the lexer
// yields the same tokens, and ends the same way, as encoding/xml alone.
func checkLexer(t *testing.T, data []byte) (lexed bool) {
	t.Helper()
	got, gotBad, lexed := walked(data, false)
	want, wantBad, _ := walked(data, true)
	if fmt.Sprint(got) != fmt.Sprint(want) || gotBad != wantBad {
		t.Fatalf("%q:\nlexer        %v malformed=%v\nencoding/xml %v malformed=%v", data, got, gotBad, want, wantBad)
	}
	return lexed
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
	// The lexer gives up after some tokens; encoding/xml takes over.
	`<r a="1"><x/>text<!-- c --><y b="2"/></r>`, "<r><s/>Ã©<Ã©/></r>", `<r><x/><![CDATA[a<b]]></r>`,
	`<r><x/>&#xD800;<y/></r>`, `<r><x/><a:b:c/></r>`, `<r><x/></r><!DOCTYPE r>`,
}

func TestLexerMatchesEncodingXML(t *testing.T) {
	lexed := 0
	for _, c := range lexerCases {
		if checkLexer(t, []byte(c)) {
			lexed++
		}
	}
	// The fast path must actually be taken on ordinary parts.
	for _, c := range []string{lexerCases[1], lexerCases[8], "<r>a\r\nb\rc\n\r</r>"} {
		if !checkLexer(t, []byte(c)) {
			t.Errorf("lexer gives up on %q", c)
		}
	}
	if lexed < 10 {
		t.Errorf("lexer reads only %d cases whole", lexed)
	}
}

// FuzzLexer checks the lexer's contract against encoding/xml.
func FuzzLexer(f *testing.F) {
	for _, c := range lexerCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkLexer(t, data) })
}
