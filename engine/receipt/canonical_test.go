package receipt

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/gowebpki/jcs"

	"github.com/doctrust/doctrust/engine/report"
)

// canonicalReference is the canonicalisation canonicalReport replaced:
// encoding/json validation and decoding, then jcs.Transform. It is kept as
// the oracle the one-pass version must agree with.
func canonicalReference(b []byte) ([]byte, *string, error) {
	if !utf8.Valid(b) {
		return nil, nil, errors.New("receipt: report is not valid UTF-8")
	}
	if !json.Valid(b) {
		return nil, nil, errors.New("receipt: report is not valid JSON")
	}
	if err := refCheckSurrogates(b); err != nil {
		return nil, nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, nil, errors.New("receipt: report is not a JSON object")
	}
	var (
		buf           bytes.Buffer
		seen          = map[string]bool{}
		engineVersion *string
	)
	buf.Grow(len(b))
	buf.WriteByte('{')
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		key, ok := tok.(string)
		if !ok {
			return nil, nil, errors.New("receipt: report is not valid JSON")
		}
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return nil, nil, err
		}
		if seen[key] {
			return nil, nil, errors.New("receipt: report has a duplicated key")
		}
		seen[key] = true
		switch key {
		case receiptKey:
			continue
		case "engineVersion":
			var s string
			if json.Unmarshal(val, &s) == nil {
				engineVersion = &s
			}
		}
		if buf.Len() > 1 {
			buf.WriteByte(',')
		}
		k, err := json.Marshal(key)
		if err != nil {
			return nil, nil, err
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(val)
	}
	buf.WriteByte('}')
	canon, err := jcs.Transform(buf.Bytes())
	if err != nil {
		return nil, nil, errors.New("receipt: report cannot be canonicalised: " + err.Error())
	}
	return canon, engineVersion, nil
}

// checkSurrogates refuses \u escapes of lone UTF-16 surrogates, which
// I-JSON forbids (and which the canonicaliser would otherwise fold into
// U+FFFD, making different reports hash alike). b is valid JSON.
func refCheckSurrogates(b []byte) error {
	bad := errors.New("receipt: report escapes a lone surrogate")
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if !inString {
			if c == '"' {
				inString = true
			}
			continue
		}
		switch c {
		case '"':
			inString = false
		case '\\':
			i++
			if b[i] != 'u' {
				continue
			}
			r := refHex4(b[i+1 : i+5])
			i += 4
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return bad
			case r >= 0xD800 && r <= 0xDBFF:
				if i+6 >= len(b) || b[i+1] != '\\' || b[i+2] != 'u' {
					return bad
				}
				lo := refHex4(b[i+3 : i+7])
				if lo < 0xDC00 || lo > 0xDFFF {
					return bad
				}
				i += 6
			}
		}
	}
	return nil
}

// hex4 decodes four hex digits (already validated by json.Valid).
func refHex4(h []byte) rune {
	var r rune
	for _, c := range h {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		}
	}
	return r
}

// referenceSignature is the signature input as the old code built it:
// encoding/json, then jcs.Transform.
func referenceSignature(rc [5]string, redacted bool) ([]byte, error) {
	b, err := json.Marshal(struct {
		Version       string `json:"version"`
		IssuedAt      string `json:"issuedAt"`
		EngineVersion string `json:"engineVersion"`
		ReportHash    string `json:"reportHash"`
		Redacted      bool   `json:"redacted"`
	}{rc[0], rc[1], rc[2], rc[3], redacted})
	if err != nil {
		return nil, err
	}
	return jcs.Transform(b)
}

var canonicalCases = []string{
	`{}`, `{"receipt":1}`, `{"engineVersion":"1.0","receipt":{"a":1}}`, ` {"b":1,"a":[1,2,{"d":null,"c":true}]} `,
	`{"a":0.5,"b":5e-1,"c":1E+21,"d":-0,"e":30.0,"f":1e400,"g":1e-400,"h":123456789012345678901234567890}`,
	`{"s":"\u003c\u0000\b\f\n\r\t\"\\\/é\u00e9\ud83d\ude00\uE000"}`, `{"\ud83d\ude00":1,"\uE000":2,"\uffff":3,"a":4}`,
	`{"a":1,"a":2}`, `{"a":{"x":1,"x":2}}`, `{"a":1,"\u0061":2}`, `{"receipt":1,"receipt":2}`,
	`{"s":"\ud800"}`, `{"s":"\udc00"}`, `{"s":"\ud800\u0041"}`, `{"s":"\ud800x"}`, `{"s":"\ud800\udbff"}`,
	`[1]`, `"x"`, `1`, `null`, ``, ` `, `{`, `{"a"}`, `{"a":}`, `{"a":1,}`, `{"a":[1,]}`, `{"a":01}`, `{"a":-}`,
	`{"a":1.}`, `{"a":.5}`, `{"a":1e}`, `{"a":tru}`, `{"a":truex}`, `{"a":"\x"}`, `{"a":"\u12"}`, "{\"a\":\"\x01\"}",
	"{\"\xff\":1}", `{} x`, `{}{}`, `{"engineVersion":1}`, `{"engineVersion":"a\nb"}`, "{\"a\":\"\x7f\"}",
	`{"a" : [ ] , "b" : { } }`, `{"a":[[[[]]]]}`, `{"a":"\ud83d\ude00\ud83d\ude01"}`,
}

func checkCanonical(t *testing.T, in []byte) {
	t.Helper()
	got, gotEV, err := canonicalReport(in)
	want, wantEV, werr := canonicalReference(in)
	if (err != nil) != (werr != nil) {
		t.Fatalf("%q: error %v, reference error %v", in, err, werr)
	}
	if err != nil {
		return
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%q:\n got %s\nwant %s", in, got, want)
	}
	if (gotEV == nil) != (wantEV == nil) || gotEV != nil && *gotEV != *wantEV {
		t.Fatalf("%q: engineVersion %v, reference %v", in, gotEV, wantEV)
	}
}

func TestCanonicalMatchesReference(t *testing.T) {
	for _, c := range canonicalCases {
		checkCanonical(t, []byte(c))
	}
	body, _, err := Attach(fixture(), testSecret, testTime, false)
	if err != nil {
		t.Fatal(err)
	}
	checkCanonical(t, body)
	// Nesting at and past encoding/json's limit.
	for _, depth := range []int{maxDepth - 1, maxDepth, maxDepth + 1} {
		in := `{"a":` + strings.Repeat("[", depth-1) + strings.Repeat("]", depth-1) + `}`
		checkCanonical(t, []byte(in))
	}
}

func TestSignatureMatchesReference(t *testing.T) {
	for _, s := range []string{"", "v1", "1.37.0", "a<b>&c", "é\u2028\x01\"\\", "\U0001F600"} {
		rc := report.Receipt{Version: s, IssuedAt: s + "t", EngineVersion: s, ReportHash: "h" + s, Redacted: len(s)%2 == 0}
		want, err := referenceSignature([5]string{rc.Version, rc.IssuedAt, rc.EngineVersion, rc.ReportHash}, rc.Redacted)
		if err != nil || string(signature(rc)) != string(want) {
			t.Errorf("%q: got %s want %s (%v)", s, signature(rc), want, err)
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, c := range canonicalCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkCanonical(t, in)
		if s := string(in); utf8.ValidString(s) {
			rc := report.Receipt{Version: s, IssuedAt: s, EngineVersion: s, ReportHash: s, Redacted: true}
			want, err := referenceSignature([5]string{s, s, s, s}, true)
			if err != nil || string(signature(rc)) != string(want) {
				t.Fatalf("signature %q: got %s want %s (%v)", s, signature(rc), want, err)
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
