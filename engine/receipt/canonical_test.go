package receipt

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/report"
)

// canonicalCases pin the canonical form and the refusals: the outputs are
// those of the encoding/json + jcs chain, which a one-pass canonicaliser
// was once held to by a differential fuzz target, so they are the RFC 8785
// bytes two implementations agreed on.
var canonicalCases = []struct {
	in, want      string
	engineVersion any // nil or the top-level engineVersion string
	refused       bool
}{
	{"{}", "{}", nil, false},
	{"{\"receipt\":1}", "{}", nil, false},
	{"{\"engineVersion\":\"1.0\",\"receipt\":{\"a\":1}}", "{\"engineVersion\":\"1.0\"}", "1.0", false},
	{" {\"b\":1,\"a\":[1,2,{\"d\":null,\"c\":true}]} ", "{\"a\":[1,2,{\"c\":true,\"d\":null}],\"b\":1}", nil, false},
	{"{\"a\":0.5,\"b\":5e-1,\"c\":1E+21,\"d\":-0,\"e\":30.0,\"f\":1e400,\"g\":1e-400,\"h\":123456789012345678901234567890}", "", nil, true},
	{"{\"s\":\"\\u003c\\u0000\\b\\f\\n\\r\\t\\\"\\\\\\/é\\u00e9\\ud83d\\ude00\\uE000\"}", "{\"s\":\"<\\u0000\\b\\f\\n\\r\\t\\\"\\\\/éé😀\ue000\"}", nil, false},
	{"{\"\\ud83d\\ude00\":1,\"\\uE000\":2,\"\\uffff\":3,\"a\":4}", "{\"a\":4,\"😀\":1,\"\ue000\":2,\"\uffff\":3}", nil, false},
	{"{\"a\":1,\"a\":2}", "", nil, true},
	{"{\"a\":{\"x\":1,\"x\":2}}", "", nil, true},
	{"{\"a\":1,\"\\u0061\":2}", "", nil, true},
	{"{\"receipt\":1,\"receipt\":2}", "", nil, true},
	{"{\"s\":\"\\ud800\"}", "", nil, true},
	{"{\"s\":\"\\udc00\"}", "", nil, true},
	{"{\"s\":\"\\ud800\\u0041\"}", "", nil, true},
	{"{\"s\":\"\\ud800x\"}", "", nil, true},
	{"{\"s\":\"\\ud800\\udbff\"}", "", nil, true},
	{"[1]", "", nil, true},
	{"\"x\"", "", nil, true},
	{"1", "", nil, true},
	{"null", "", nil, true},
	{"", "", nil, true},
	{" ", "", nil, true},
	{"{", "", nil, true},
	{"{\"a\"}", "", nil, true},
	{"{\"a\":}", "", nil, true},
	{"{\"a\":1,}", "", nil, true},
	{"{\"a\":[1,]}", "", nil, true},
	{"{\"a\":01}", "", nil, true},
	{"{\"a\":-}", "", nil, true},
	{"{\"a\":1.}", "", nil, true},
	{"{\"a\":.5}", "", nil, true},
	{"{\"a\":1e}", "", nil, true},
	{"{\"a\":tru}", "", nil, true},
	{"{\"a\":truex}", "", nil, true},
	{"{\"a\":\"\\x\"}", "", nil, true},
	{"{\"a\":\"\\u12\"}", "", nil, true},
	{"{\"a\":\"\x01\"}", "", nil, true},
	{"{\"\xff\":1}", "", nil, true},
	{"{} x", "", nil, true},
	{"{}{}", "", nil, true},
	{"{\"engineVersion\":1}", "{\"engineVersion\":1}", nil, false},
	{"{\"engineVersion\":\"a\\nb\"}", "{\"engineVersion\":\"a\\nb\"}", "a\nb", false},
	{"{\"a\":\"\x7f\"}", "{\"a\":\"\x7f\"}", nil, false},
	{"{\"a\" : [ ] , \"b\" : { } }", "{\"a\":[],\"b\":{}}", nil, false},
	{"{\"a\":[[[[]]]]}", "{\"a\":[[[[]]]]}", nil, false},
	{"{\"a\":\"\\ud83d\\ude00\\ud83d\\ude01\"}", "{\"a\":\"😀😁\"}", nil, false},
	{`{"a":0.5,"b":5e-1,"c":1E+21,"d":-0,"e":30.0,"f":1e20,"g":1e-7,"h":123456789012345678901234567890}`,
		`{"a":0.5,"b":0.5,"c":1e+21,"d":0,"e":30,"f":100000000000000000000,"g":1e-7,"h":1.2345678901234568e+29}`, nil, false},
}

func TestCanonicalForm(t *testing.T) {
	for _, c := range canonicalCases {
		got, ev, err := canonicalReport([]byte(c.in))
		if (err != nil) != c.refused {
			t.Errorf("%q: error %v, refused %v", c.in, err, c.refused)
			continue
		}
		if err != nil {
			continue
		}
		if string(got) != c.want {
			t.Errorf("%q:\n got %s\nwant %s", c.in, got, c.want)
		}
		want, _ := c.engineVersion.(string)
		if (ev == nil) != (c.engineVersion == nil) || ev != nil && *ev != want {
			t.Errorf("%q: engineVersion %v, want %v", c.in, ev, c.engineVersion)
		}
	}
}

// TestCanonicalDepth: encoding/json's nesting limit (10000) bounds what
// can be hashed.
func TestCanonicalDepth(t *testing.T) {
	for depth, refused := range map[int]bool{100: false, 9999: false, 10001: true} {
		in := `{"a":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
		if _, _, err := canonicalReport([]byte(in)); (err != nil) != refused {
			t.Errorf("depth %d: error %v, refused %v", depth, err, refused)
		}
	}
}

// TestFixtureHash pins the hash of the fixture report's body: a change in
// the report encoder or the canonical form shows here (and so do a new
// engine version and a rewording of the fixture's message in the English
// catalogue, which the body carries).
func TestFixtureHash(t *testing.T) {
	body, _, err := Attach(fixture(), testSecret, testTime, false)
	if err != nil {
		t.Fatal(err)
	}
	if h, err := ReportHash(body); err != nil || h != "d907d30fb80220bc54623f7b70654eb77415852039b64da41d3d9eff3e8d5a21" {
		t.Errorf("fixture hash %s (%v)", h, err)
	}
}

func TestSignedFieldsForm(t *testing.T) {
	for _, c := range []struct{ s, want string }{
		{"", "{\"engineVersion\":\"\",\"issuedAt\":\"t\",\"redacted\":true,\"reportHash\":\"h\",\"version\":\"\"}"},
		{"v1", "{\"engineVersion\":\"v1\",\"issuedAt\":\"v1t\",\"redacted\":true,\"reportHash\":\"hv1\",\"version\":\"v1\"}"},
		{"1.37.0", "{\"engineVersion\":\"1.37.0\",\"issuedAt\":\"1.37.0t\",\"redacted\":true,\"reportHash\":\"h1.37.0\",\"version\":\"1.37.0\"}"},
		{"a<b>&c", "{\"engineVersion\":\"a<b>&c\",\"issuedAt\":\"a<b>&ct\",\"redacted\":true,\"reportHash\":\"ha<b>&c\",\"version\":\"a<b>&c\"}"},
		{"é\u2028\x01\"\\", "{\"engineVersion\":\"é\u2028\\u0001\\\"\\\\\",\"issuedAt\":\"é\u2028\\u0001\\\"\\\\t\",\"redacted\":true,\"reportHash\":\"hé\u2028\\u0001\\\"\\\\\",\"version\":\"é\u2028\\u0001\\\"\\\\\"}"},
		{"\U0001F600", "{\"engineVersion\":\"😀\",\"issuedAt\":\"😀t\",\"redacted\":true,\"reportHash\":\"h😀\",\"version\":\"😀\"}"},
	} {
		s := c.s
		rc := report.Receipt{Version: s, IssuedAt: s + "t", EngineVersion: s, ReportHash: "h" + s, Redacted: len(s)%2 == 0}
		if got, err := signature(rc); err != nil || string(got) != c.want {
			t.Errorf("%q: got %s want %s (%v)", s, got, c.want, err)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, c := range canonicalCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		canon, _, err := canonicalReport(in)
		if err != nil {
			return
		}
		// The canonical form is a fixed point.
		again, _, err := canonicalReport(canon)
		if err != nil || string(again) != string(canon) {
			t.Fatalf("%q: canonical %s is not canonical again: %s (%v)", in, canon, again, err)
		}
		if s := string(in); utf8.ValidString(s) {
			rc := report.Receipt{Version: s, IssuedAt: s, EngineVersion: s, ReportHash: s, Redacted: true}
			if _, err := signature(rc); err != nil {
				t.Fatalf("signature %q: %v", s, err)
			}
		}
	})
}

// BenchmarkCanonical is the cost of hashing a report for its receipt
// (docs/performance.md, "Receipts").
func BenchmarkCanonical(b *testing.B) {
	body, _, err := Attach(fixture(), testSecret, testTime, false)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if _, _, err := canonicalReport(body); err != nil {
			b.Fatal(err)
		}
	}
}
