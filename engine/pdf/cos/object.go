// Package cos is the PDF object layer (the "Carousel Object System" of the
// PDF specification): the object types, a bounded parser over the file's
// bytes that records offsets, and the decoding of PDF text strings and dates.
//
// pdfcpu has its own parser, but it works on string lines without byte
// offsets and stores dictionaries as Go maps; the revision walk needs exact
// offsets, ordered keys and duplicate-key detection, so the object syntax is
// parsed here and pdfcpu serves for stream filters (package filters).
package cos

import "strconv"

// Object is one PDF object: nil (null), Bool, Int, Real, Name, String, Array,
// *Dict, Ref or *Stream.
type Object any

// Bool is a PDF boolean.
type Bool bool

// Int is a PDF integer.
type Int int64

// Real is a PDF real number.
type Real float64

// Name is a PDF name, without the slash, with #xx escapes decoded.
type Name string

// String is a PDF string as stored (escapes decoded, not text-decoded).
type String struct {
	Bytes []byte
	Hex   bool
}

// Array is a PDF array.
type Array []Object

// Ref is an indirect reference "num gen R".
type Ref struct {
	Num int
	Gen int
}

func (r Ref) String() string { return strconv.Itoa(r.Num) + " " + strconv.Itoa(r.Gen) + " R" }

// Dict is a PDF dictionary that keeps its keys in file order. Duplicate keys
// keep the last value, as qpdf and Acrobat do.
type Dict struct {
	Keys []Name
	Vals []Object
}

// Get returns the value of key, or nil.
func (d *Dict) Get(key Name) Object {
	if d == nil {
		return nil
	}
	for i := len(d.Keys) - 1; i >= 0; i-- {
		if d.Keys[i] == key {
			return d.Vals[i]
		}
	}
	return nil
}

// Has reports whether key is present.
func (d *Dict) Has(key Name) bool {
	if d == nil {
		return false
	}
	for _, k := range d.Keys {
		if k == key {
			return true
		}
	}
	return false
}

// Len is the number of entries.
func (d *Dict) Len() int {
	if d == nil {
		return 0
	}
	return len(d.Keys)
}

// Name returns the value of key as a Name, or "".
func (d *Dict) Name(key Name) Name {
	n, _ := d.Get(key).(Name)
	return n
}

// Stream is a stream object: its dictionary and the position of its raw
// (still encoded) data in the file.
type Stream struct {
	Dict  *Dict
	Start int // offset of the first data byte
	End   int // offset one past the last data byte
	// LengthRepaired is set when /Length was wrong or unresolvable and the
	// data end was found by locating "endstream".
	LengthRepaired bool

	// decrypt turns the stored bytes of an encrypted file's stream into
	// clear ones; plain keeps its result so a stream is deciphered once.
	decrypt func([]byte) []byte
	plain   []byte
}

// SetDecrypt makes Raw return the stream's bytes as fn deciphers them. The
// file layer sets it on every stream of an encrypted file it can open, so
// readers above it see clear data without knowing about encryption.
func (s *Stream) SetDecrypt(fn func([]byte) []byte) {
	s.decrypt, s.plain = fn, nil
}

// Raw returns the stream's encoded bytes from the file, deciphered when the
// file is encrypted (SetDecrypt).
func (s *Stream) Raw(file []byte) []byte {
	if s.Start < 0 || s.End > len(file) || s.Start > s.End {
		return nil
	}
	if s.decrypt == nil {
		return file[s.Start:s.End]
	}
	if s.plain == nil {
		s.plain = s.decrypt(file[s.Start:s.End])
		if s.plain == nil {
			s.plain = []byte{}
		}
	}
	return s.plain
}

// AsInt returns an integer value (a Real with an integral value counts).
func AsInt(o Object) (int64, bool) {
	switch v := o.(type) {
	case Int:
		return int64(v), true
	case Real:
		if float64(v) == float64(int64(v)) {
			return int64(v), true
		}
	}
	return 0, false
}

// AsNumber returns a numeric value.
func AsNumber(o Object) (float64, bool) {
	switch v := o.(type) {
	case Int:
		return float64(v), true
	case Real:
		return float64(v), true
	}
	return 0, false
}

// DictOf returns the dictionary of a *Dict or a *Stream.
func DictOf(o Object) *Dict {
	switch v := o.(type) {
	case *Dict:
		return v
	case *Stream:
		return v.Dict
	}
	return nil
}
