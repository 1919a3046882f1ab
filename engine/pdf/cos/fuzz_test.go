package cos

import (
	"bytes"
	"testing"
)

var objectSeeds = []string{
	"<< /Type /Catalog /Pages 2 0 R >>",
	"[1 2.5 -3 .5 (str\\051ing) <48656c6c6f> /Na#20me true false null 4 0 R]",
	"<< /A << /B [ [ [ ] ] ] >> /C (unbalanced ( ) >>",
	"(\\101\\102\\1034\\\n continued)",
	"<< /Length 5 >>\nstream\nhello\nendstream\nendobj",
	"1 0 obj << /Length 99 >> stream\nshort\nendstream endobj",
	"--5 1.2.3 +-.7 99999999999999999999999",
	"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
	"<< /K 1 /K 2 /L >> ) } {",
}

// FuzzObject: the parser never panics, always advances or stops, and any
// parsed object survives a structural comparison with itself.
func FuzzObject(f *testing.F) {
	for _, s := range objectSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := NewParser(data, 0)
		for i := 0; i < 1000 && p.Pos() < len(data); i++ {
			before := p.Pos()
			o, err := p.Object()
			if err == nil && !Equal(o, o) {
				t.Fatalf("object not equal to itself: %#v", o)
			}
			if p.Pos() == before {
				p.Seek(before + 1)
			}
		}
	})
}

// FuzzIndirect: "n g obj ... endobj" parsing with stream bounds that always
// lie inside the data.
func FuzzIndirect(f *testing.F) {
	for _, s := range objectSeeds {
		f.Add([]byte("7 0 obj\n" + s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p := NewParser(data, 0)
		p.EndstreamAt = func(from int) int {
			i := bytes.Index(data[from:], []byte("endstream"))
			if i < 0 {
				return -1
			}
			return from + i
		}
		ind, _ := p.IndirectAt(0)
		if st, ok := ind.Value.(*Stream); ok {
			if st.Start < 0 || st.End > len(data) || st.Start > st.End {
				t.Fatalf("stream bounds %d..%d outside %d bytes", st.Start, st.End, len(data))
			}
		}
	})
}

// FuzzText: text and date decoding never panic and dates round-trip.
func FuzzText(f *testing.F) {
	for _, s := range []string{"\xfe\xff\x00A\xd8\x00", "\xef\xbb\xbfok", "\x18\x80\xad", "D:20240131235959+05'30'", "D:2024", "D:20240230"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_ = DecodeText(data)
		if d, ok := ParseDate(string(data)); ok {
			if _, ok := ParseXMPDate(d.ISO()); !ok {
				t.Fatalf("ISO form %q of %q does not parse back", d.ISO(), data)
			}
		}
	})
}
