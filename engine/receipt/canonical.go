package receipt

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/gowebpki/jcs"

	"github.com/doctrust/doctrust/engine/report"
)

// The canonical form is RFC 8785 (JCS) as github.com/gowebpki/jcs writes
// it. encoding/json validates the report and splits its top level (so the
// receipt key can be left out and a duplicated key refused); jcs.Transform
// sorts the keys and writes the numbers and strings. A one-pass
// canonicaliser stood here for a while (4x faster); it saved about 50 µs
// a request against a millisecond of analysis, so the libraries came back
// (docs/performance.md, "Speed-only code retired").

// canonicalReport returns the JCS form of the report object without its
// top-level receipt key, and the top-level engineVersion when it is a
// string. It refuses what I-JSON refuses: invalid UTF-8, a lone surrogate
// escape, a duplicated key (jcs refuses those below the top level).
func canonicalReport(b []byte) ([]byte, *string, error) {
	if !utf8.Valid(b) {
		return nil, nil, errors.New("receipt: report is not valid UTF-8")
	}
	if !json.Valid(b) {
		return nil, nil, errors.New("receipt: report is not valid JSON")
	}
	if err := checkSurrogates(b); err != nil {
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
func checkSurrogates(b []byte) error {
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
			r := hex4(b[i+1 : i+5])
			i += 4
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return bad
			case r >= 0xD800 && r <= 0xDBFF:
				if i+6 >= len(b) || b[i+1] != '\\' || b[i+2] != 'u' {
					return bad
				}
				lo := hex4(b[i+3 : i+7])
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
func hex4(h []byte) rune {
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

// signedFields is the object the HMAC covers.
type signedFields struct {
	Version       string `json:"version"`
	IssuedAt      string `json:"issuedAt"`
	EngineVersion string `json:"engineVersion"`
	ReportHash    string `json:"reportHash"`
	Redacted      bool   `json:"redacted"`
}

// signature returns the JCS form of rc's signed fields (rc.Signature is
// not read).
func signature(rc report.Receipt) ([]byte, error) {
	b, err := json.Marshal(signedFields{
		Version:       rc.Version,
		IssuedAt:      rc.IssuedAt,
		EngineVersion: rc.EngineVersion,
		ReportHash:    rc.ReportHash,
		Redacted:      rc.Redacted,
	})
	if err != nil {
		return nil, err
	}
	return jcs.Transform(b)
}
