package report

import (
	"bytes"
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// plain is Report without its methods: json.Marshal of a *plain is
// encoding/json's own reflection-based output, the reference AppendJSON is
// held to.
type plain Report

// checkJSON fails unless AppendJSON, json.Marshal of the report (through
// MarshalJSON) and encoding/json's reflection agree byte for byte, or all
// fail.
func checkJSON(t testing.TB, name string, r *Report) {
	t.Helper()
	want, wantErr := json.Marshal((*plain)(r))
	got, err := r.AppendJSON([]byte("prefix"))
	if (err == nil) != (wantErr == nil) {
		t.Fatalf("%s: AppendJSON error %v, encoding/json error %v", name, err, wantErr)
	}
	if wantErr != nil {
		if string(got) != "prefix" {
			t.Fatalf("%s: AppendJSON failed but changed dst: %q", name, got)
		}
		if _, err := json.Marshal(r); err == nil {
			t.Fatalf("%s: json.Marshal through MarshalJSON did not fail", name)
		}
		return
	}
	if !bytes.Equal(got[len("prefix"):], want) {
		t.Fatalf("%s: AppendJSON differs from encoding/json\n got %s\nwant %s\n%s", name, got[len("prefix"):], want, firstDiff(got[len("prefix"):], want))
	}
	viaMarshal, err := json.Marshal(r)
	if err != nil || !bytes.Equal(viaMarshal, want) {
		t.Fatalf("%s: json.Marshal through MarshalJSON: %v\n got %s\nwant %s", name, err, viaMarshal, want)
	}
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return "first difference at byte " + string(a[:i][max(0, i-40):]) + " <here>"
}

// trickyStrings are the strings encoding/json escapes in its own ways.
var trickyStrings = []string{
	"",
	"plain text",
	`<script>alert("x")</script> & 'q' \ /`,
	"line\u2028para\u2029end",
	"\xff\xfe invalid \xc3 utf-8 \xe2\x82",
	"\xed\xa0\x80 surrogate as utf-8",
	"ctl \x00\x01\x07\x08\x09\x0a\x0b\x0c\x0d\x1b\x1f\x7f",
	"non-BMP \U0001F600 \U00010000 \U0010FFFF",
	"é ü ñ 中文 \u00a0 \ufeff \ufffd",
	"\u2027\u202a\u202e",
}

// trickyFloats cover both sides of encoding/json's exponent cutoffs, the
// e-09 clean-up, signed zero and the extremes.
var trickyFloats = []float64{
	0, math.Copysign(0, -1), 1, -1.5, 0.1, 1.234, 1e-7, 1e-6, 9.99e-7, 1e-9, 1.5e-10,
	1e20, 1e21, 9.999e20, 123456789.125, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64,
	-1e-7, -1e21, 12345678901234567890, 0.000001234,
}

type category string // a named string kind, as producers.Class

// tagged is an analyser's json-tagged evidence struct, as pdf.box.
type tagged struct {
	Page int        `json:"page"`
	Box  [4]float64 `json:"box"`
	Note string     `json:"note,omitempty"`
}

// omitting has an omitempty field of every kind, and fields encoding/json
// leaves out.
type omitting struct {
	S       string            `json:"s,omitempty"`
	B       bool              `json:"b,omitempty"`
	I       int8              `json:"i,omitempty"`
	U       uintptr           `json:"u,omitempty"`
	F       float32           `json:"f,omitempty"`
	P       *tagged           `json:"p,omitempty"`
	A       any               `json:"a,omitempty"`
	L       []category        `json:"l,omitempty"`
	M       map[category]int  `json:"m,omitempty"`
	Z       [0]int            `json:"z,omitempty"`
	T       tagged            `json:"t,omitempty"`
	Untag   string            //
	Dash    string            `json:"-"`
	private string            //nolint:unused // left out by encoding/json
	Nested  map[string][]*int `json:"nested"`
}

// Types the walk leaves to json.Marshal: each breaks one rule of plainType
// or fieldTag.
type (
	embedded struct {
		tagged
		X int `json:"x"`
	}
	stringOpt struct {
		N int `json:"n,string"`
	}
	omitZero struct {
		N int `json:"n,omitzero"`
	}
	duplicate struct { // the tagged field wins in encoding/json
		A int `json:"B"`
		B int
	}
	odd struct {
		N int `json:"a-b"`
	}
	unicodeName struct{ Ñ int }
	withNumber  struct {
		N json.Number `json:"n"`
	}
	withBytes struct {
		B []byte `json:"b"`
	}
	namedBytes []byte
	textual    struct{ v string }
	ptrText    struct{ V string }
	// kindWithMarshaler is a string kind with its own MarshalJSON.
	kindWithMarshaler string
	textKey           string
	node              struct {
		Next *node `json:"next"`
		V    int   `json:"v"`
	}
	withTime struct {
		T time.Time `json:"t"`
	}
)

func (x textual) MarshalText() ([]byte, error)  { return []byte("T:" + x.v), nil }
func (x *ptrText) MarshalText() ([]byte, error) { return []byte("P:" + x.V), nil }
func (k kindWithMarshaler) MarshalJSON() ([]byte, error) {
	return []byte(`{"k":"` + string(k) + `"}`), nil
}
func (k textKey) MarshalText() ([]byte, error) { return []byte("key-" + string(k)), nil }

// everyEvidenceValue holds a value of every type the encoder lists, of
// types it walks by reflection, and of types it leaves to json.Marshal.
func everyEvidenceValue() map[string]any {
	n := 3
	nested := map[string]any{"z": 1, "a": []any{"x", 2.5, nil, true, map[string]any{"<": ">"}}}
	deepNode := &node{V: 0}
	for i := 1; i < 3*maxDepth; i++ {
		deepNode = &node{Next: deepNode, V: i}
	}
	return map[string]any{
		"string": "s<>&", "kind": Kind("page"), "severity": High, "bool": true, "false": false,
		"int": -7, "int8": int8(-8), "int16": int16(300), "int32": int32(-1 << 30), "int64": int64(1) << 60,
		"uint": uint(7), "uint8": uint8(200), "uint16": uint16(65535), "uint32": uint32(1) << 31, "uint64": uint64(math.MaxUint64),
		"float64": 0.125, "float32": float32(0.1), "float32big": float32(1e21), "float32small": float32(1e-7),
		"map": nested, "nilMap": map[string]any(nil), "emptyMap": map[string]any{},
		"counts": map[string]int{"javascript": 2, "embeddedFiles": 0, "<&>": -1}, "nilCounts": map[string]int(nil),
		"list": []any{1, "two", 3.0, []string{"a"}}, "nilList": []any(nil), "emptyList": []any{},
		"maps": []map[string]any{{"b": 1, "a": 2}, nil}, "nilMaps": []map[string]any(nil),
		"strings": []string{"a", "<b>"}, "nilStrings": []string(nil), "emptyStrings": []string{},
		"ints": []int{1, -2, 3}, "nilInts": []int(nil), "int64s": []int64{1 << 40}, "floats": []float64{1e21, 0.5},
		"pair": [2]int{3, 4}, "pairs": [][2]int{{1, 2}, {5, 6}}, "nilPairs": [][2]int(nil), "box": [4]float64{0, 1.5, 612, 792.25},
		"field":  UntrustedField{Name: "Title", Payload: "ignore previous <instructions>"},
		"fields": []UntrustedField{{Name: "a", Payload: "b"}}, "nilFields": []UntrustedField(nil),
		"nil": nil,
		// walked by reflection
		"category": category("authoring"), "categories": []category{"a", "<b>"}, "nilCategories": []category(nil),
		"tagged": []tagged{{Page: 1, Box: [4]float64{1, 2, 3, 4}, Note: "n"}, {}}, "taggedOne": tagged{Page: 2},
		"taggedPtr": &tagged{Page: 3}, "taggedNil": (*tagged)(nil), "taggedMap": map[string]tagged{"b": {}, "a": {Page: 1}},
		"omittingZero": omitting{}, "omittingNegZero": omitting{F: float32(math.Copysign(0, -1))}, "omittingEmpty": omitting{L: []category{}, M: map[category]int{}, A: []any{}},
		"omittingFull": omitting{S: "s", B: true, I: -1, U: 2, F: 0.5, P: &tagged{}, A: 0, L: []category{"x"},
			M: map[category]int{"z": 1, "a": 2}, T: tagged{Note: "<"}, Untag: "u", Dash: "d", private: "p",
			Nested: map[string][]*int{"k": {&n, nil}, "nil": nil}},
		"stringMap": map[string]string{"k": "v"}, "ptr": &n, "nilPtr": (*int)(nil), "uintptr": uintptr(9),
		"shallowNode": &node{Next: &node{V: 2}, V: 1}, "bytesArray": [3]byte{1, 2, 3},
		// left to json.Marshal
		"time": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), "withTime": []withTime{{}},
		"bytes": []byte("raw"), "namedBytes": namedBytes("nb"), "withBytes": withBytes{B: []byte{1}},
		"number": json.Number("1e3"), "withNumber": withNumber{N: "12"},
		"text": textual{"x"}, "ptrTexts": []ptrText{{V: "a"}}, "ptrText": ptrText{V: "b"},
		"marshaler": kindWithMarshaler("m"), "marshalers": []kindWithMarshaler{"a"},
		"textKeys": map[textKey]int{"b": 1, "a": 2}, "intKeys": map[int]string{2: "b", 10: "a"},
		"raw": json.RawMessage(`{"a" : 1}`), "embedded": embedded{X: 1}, "stringOpt": stringOpt{N: 5},
		"omitZero": omitZero{}, "duplicate": duplicate{A: 1, B: 2}, "odd": odd{N: 1}, "unicodeName": unicodeName{Ñ: 1},
		"deepNode": deepNode,
		// keys
		"": "empty key", "\u00e9": "é key", "Z": "upper", "z": "lower", "<key>": "html key",
	}
}

// fullReport has every block present and every nullable field set.
func fullReport() *Report {
	r := New(MediaImage, 12345)
	r.ID = "insp_0000"
	r.Summary.Cost.ExpandedBytes = 999
	r.Signals = []Signal{
		{ID: "a", Severity: High, Title: "T<", Detail: "D&", Message: Msg("a.b", "n", 1, "k", Kind("page"), "f", 0.5, "b", true, "i", int64(9)),
			Notes: []Message{Msg("a.c"), {Code: "a.d"}}, Evidence: everyEvidenceValue()},
		{ID: "b", Severity: Info, Message: Message{Code: "b.c", Params: map[string]any{}}, Notes: []Message{}, Evidence: map[string]any{}},
		{ID: "c"},
	}
	r.Finish()
	w, h, q, sc, em, pc := 1, 2, 3, 4, 5, 6
	macros, active := true, false
	div := 0.375
	r.Document.Producer, r.Document.Creator = Str("prod"), Str("crea\u2028tor")
	r.Document.CreationDate, r.Document.ModDate = Str("2020-01-01T00:00:00Z"), Str("x")
	r.Document.Encrypted, r.Document.Signed, r.Document.Pages = true, true, 7
	r.Image = &ImageBlock{Format: "jpeg", Walked: true, Width: &w, Height: &h, CameraMake: Str("Canon"), CameraModel: Str("EOS"),
		MetadataContainers: []string{"exif", "xmp"}, JPEGQuality: &q, Encoder: Str("libjpeg")}
	r.Office = &OfficeBlock{Format: "docx", Application: Str("Word"), AppVersion: Str("16.0"), LastModifiedBy: Str("me"),
		SaveCount: &sc, EditingMinutes: &em, PartCount: &pc, Macros: &macros}
	r.IssuerBaseline = &IssuerBaseline{Requested: "acme", Resolved: true, Reason: "r", Source: "customer", SampleCount: &sc,
		MatchingActive: &active, Divergence: &div, MismatchedDimensions: []string{"producers"}}
	r.Policy = &PolicyBlock{Verdict: "review", RiskScore: 70, Thresholds: Thresholds{Review: 30, Reject: 90}, Reason: "signal", TriggeredBy: []string{"a"}}
	r.Triage = &TriageBlock{SuppressedFamilies: []string{"hidden-text"}, Guidance: "g"}
	r.Timing = &TimingBlock{ElapsedMs: 12}
	r.Receipt = &Receipt{Version: "v1", IssuedAt: "2026-01-01T00:00:00.000Z", EngineVersion: EngineVersion, ReportHash: "ab", Redacted: true, Signature: "cd"}
	return r
}

func TestReportJSONMatchesEncodingJSON(t *testing.T) {
	checkJSON(t, "zero report", &Report{})
	checkJSON(t, "new report", New(MediaPDF, 10))
	checkJSON(t, "full report", fullReport())

	// Each optional block alone, and the empty forms of every list.
	r := New(MediaOffice, 1)
	r.Signals = nil
	r.Image = &ImageBlock{}
	r.Office = &OfficeBlock{}
	r.IssuerBaseline = &IssuerBaseline{}
	r.Policy = &PolicyBlock{}
	r.Triage = &TriageBlock{}
	r.Timing = &TimingBlock{}
	r.Receipt = &Receipt{}
	checkJSON(t, "zero blocks", r)
	r.Image.MetadataContainers, r.Policy.TriggeredBy, r.Triage.SuppressedFamilies = []string{}, []string{}, []string{}
	r.IssuerBaseline.MismatchedDimensions = []string{}
	r.Signals = []Signal{{Notes: []Message{}, Evidence: map[string]any{}, Message: Message{Params: map[string]any{}}}}
	checkJSON(t, "empty lists", r)

	// An issuerBaseline of each omitempty field alone.
	n, b, f := 0, false, 0.0
	for i, ib := range []IssuerBaseline{
		{Requested: "x"}, {Reason: "no_profile"}, {Source: "public-specimen"}, {SampleCount: &n},
		{MatchingActive: &b}, {Divergence: &f}, {MismatchedDimensions: []string{""}},
	} {
		r := New(MediaPDF, 1)
		r.IssuerBaseline = &ib
		checkJSON(t, "issuerBaseline "+string(rune('a'+i)), r)
	}
}

func TestReportJSONStringsAndFloats(t *testing.T) {
	for _, s := range trickyStrings {
		r := New(MediaPDF, 1)
		r.ID, r.Disclaimer = s, s
		r.Document.Producer = &s
		r.Signals = []Signal{{ID: s, Title: s, Evidence: map[string]any{s: s, "l": []string{s}, "k": Kind(s),
			"f": []UntrustedField{{Name: s, Payload: s}}, "m": map[string]int{s: 1}}}}
		r.Receipt = &Receipt{Signature: s}
		checkJSON(t, "string "+s, r)
	}
	for _, f := range trickyFloats {
		r := New(MediaPDF, 1)
		r.Summary.Cost.ExpansionRatio = f
		r.IssuerBaseline = &IssuerBaseline{Divergence: &f}
		r.Signals = []Signal{{Evidence: map[string]any{"f": f, "neg": -f, "f32": float32(f), "l": []float64{f}, "b": [4]float64{f}},
			Message: Msg("x.y", "f", f)}}
		checkJSON(t, "float "+strconv.FormatFloat(f, 'g', -1, 64), r)
	}
}

// TestReportJSONNonFinite: a NaN or infinity fails AppendJSON exactly where
// encoding/json fails, wherever it sits.
func TestReportJSONNonFinite(t *testing.T) {
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := New(MediaPDF, 1)
		r.Summary.Cost.ExpansionRatio = f
		checkJSON(t, "ratio", r)
		r = New(MediaPDF, 1)
		r.IssuerBaseline = &IssuerBaseline{Divergence: &f}
		checkJSON(t, "divergence", r)
		r = New(MediaPDF, 1)
		r.Signals = []Signal{{Evidence: map[string]any{"a": []any{map[string]any{"f": float32(f)}}}}}
		checkJSON(t, "evidence", r)
	}
}

// TestReportJSONDeepAndCyclic: nesting past maxDepth goes to json.Marshal,
// which encodes it the same or, for a map holding itself, fails as
// encoding/json does instead of overflowing the stack.
func TestReportJSONDeepAndCyclic(t *testing.T) {
	deep := map[string]any{"leaf": 1.5}
	for i := 0; i < 3*maxDepth; i++ {
		deep = map[string]any{"d": []any{deep}}
	}
	r := New(MediaPDF, 1)
	r.Signals = []Signal{{Evidence: deep}}
	checkJSON(t, "deep", r)

	cyclic := map[string]any{}
	cyclic["self"] = cyclic
	r.Signals = []Signal{{Evidence: cyclic}}
	checkJSON(t, "cyclic", r)
}

// TestReportJSONDecoded: a report decoded from JSON (as /receipt/verify
// and clients hold it) holds float64, []any and map[string]any evidence.
func TestReportJSONDecoded(t *testing.T) {
	body, err := json.Marshal(fullReport())
	if err != nil {
		t.Fatal(err)
	}
	var r Report
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	checkJSON(t, "decoded", &r)
}

func TestReceiptAppendJSON(t *testing.T) {
	rc := fullReport().Receipt
	want, _ := json.Marshal(rc)
	if got := rc.AppendJSON(nil); !bytes.Equal(got, want) {
		t.Fatalf("got %s\nwant %s", got, want)
	}
}

// TestReportJSONEveryField is the completeness check: every field of every
// struct reachable from Report is set to a distinct non-zero value by
// reflection, then each in turn back to zero (and each list to empty), and
// the output compared with encoding/json's. A field added to a report type
// but not to json.go fails here.
func TestReportJSONEveryField(t *testing.T) {
	full := func() *Report {
		r := &Report{}
		n := 0
		fill(reflect.ValueOf(r).Elem(), &n)
		return r
	}
	checkJSON(t, "every field set", full())
	for i := 0; ; i++ {
		r := full()
		var target reflect.Value
		var name string
		k := 0
		walkFields(reflect.ValueOf(r).Elem(), "Report", func(v reflect.Value, path string) {
			if k == i {
				target, name = v, path
			}
			k++
		})
		if !target.IsValid() {
			if i < 60 {
				t.Fatalf("only %d fields walked", i)
			}
			break
		}
		target.SetZero()
		checkJSON(t, "field "+name+" zeroed", r)
		if target.Kind() == reflect.Slice {
			target.Set(reflect.MakeSlice(target.Type(), 0, 0))
			checkJSON(t, "field "+name+" empty", r)
		}
	}
}

// fill sets v and everything under it to distinct non-zero values.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + string(rune('a'+*n%26)) + strings.Repeat("<", *n%3))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		fill(v.Index(0), n)
		fill(v.Index(1), n)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		v.SetMapIndex(reflect.ValueOf("k"), reflect.ValueOf(any(*n)))
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), n)
		}
	default:
		panic("fill: a report field of kind " + v.Kind().String() + " needs a case here and in json.go")
	}
}

// walkFields calls f for every struct field under v, depth first, with
// its path.
func walkFields(v reflect.Value, path string, f func(reflect.Value, string)) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			walkFields(v.Elem(), path, f)
		}
	case reflect.Slice:
		for i := range v.Len() {
			walkFields(v.Index(i), path+"["+strconv.Itoa(i)+"]", f)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			p := path + "." + v.Type().Field(i).Name
			f(v.Field(i), p)
			walkFields(v.Field(i), p, f)
		}
	}
}

// TestReportJSONTypesHaveNoMarshalers: encoding/json would call a
// MarshalJSON or MarshalText method of a report type or an evidence type
// encoder.value lists by name; json.go writes those types itself, so none
// may have one. (Types walked by reflection are checked as they come.)
func TestReportJSONTypesHaveNoMarshalers(t *testing.T) {
	marshaler := reflect.TypeFor[json.Marshaler]()
	textMarshaler := reflect.TypeFor[encoding.TextMarshaler]()
	seen := map[reflect.Type]bool{}
	var check func(reflect.Type)
	check = func(ty reflect.Type) {
		if seen[ty] {
			return
		}
		seen[ty] = true
		if ty != reflect.TypeFor[Report]() && ty != reflect.TypeFor[*Report]() {
			for _, x := range []reflect.Type{ty, reflect.PointerTo(ty)} {
				if x.Implements(marshaler) || x.Implements(textMarshaler) {
					t.Errorf("%s implements a marshaler: json.go must call it or leave the type to json.Marshal", x)
				}
			}
		}
		switch ty.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			check(ty.Elem())
		case reflect.Struct:
			for i := range ty.NumField() {
				check(ty.Field(i).Type)
			}
		}
	}
	check(reflect.TypeFor[Report]())
	for _, ty := range []reflect.Type{reflect.TypeFor[Kind](), reflect.TypeFor[Severity](), reflect.TypeFor[UntrustedField]()} {
		check(ty)
	}
}

// FuzzReportJSON builds reports from fuzzed strings and numbers and holds
// AppendJSON to encoding/json on them.
func FuzzReportJSON(f *testing.F) {
	for i, s := range trickyStrings {
		f.Add(s, trickyStrings[(i+1)%len(trickyStrings)], int64(i)-3, trickyFloats[i%len(trickyFloats)], float32(trickyFloats[i]), i%2 == 0)
	}
	f.Fuzz(func(t *testing.T, s1, s2 string, n int64, x float64, y float32, b bool) {
		r := New(MediaType(s1), n)
		r.ID = s2
		r.Summary.Cost.ExpansionRatio = x
		r.Document.Producer = Str(s1)
		r.Document.ModDate = Str(s2)
		ev := map[string]any{
			s1: s2, s2: n, "x": x, "y": y, "b": b, "k": Kind(s1),
			"list": []any{s1, x, n, b, nil, map[string]any{s2: y}},
			"ints": []int{int(n)}, "int64s": []int64{n, -n}, "strings": []string{s1, s2},
			"fields": []UntrustedField{{Name: s1, Payload: s2}}, "counts": map[string]int{s1: int(n), s2: 1},
			"box":    [4]float64{x, float64(y), float64(n), -x},
			"tagged": []tagged{{Page: int(n), Box: [4]float64{x}, Note: s1}}, "category": category(s2),
			"omitting": omitting{S: s1, F: y, I: int8(n), M: map[category]int{category(s2): 1}, A: x},
		}
		Capped(ev, s1+"List", []string{s2})
		r.Add(Finding{Family: s1, Severity: Severity(s2), Message: Msg("f.v", "n", n, "x", x, "k", Kind(s2), "b", b),
			Notes: []Message{Msg("f.w", "y", float64(y))}, Evidence: ev})
		if b {
			r.Add(Finding{Family: s2, Severity: Low, Message: Msg(s2)})
			r.Finish()
			r.IssuerBaseline = &IssuerBaseline{Requested: s1, Divergence: &x, MismatchedDimensions: []string{s2}}
			r.Policy = &PolicyBlock{Verdict: s1, Reason: s2, TriggeredBy: []string{s1}}
			r.Receipt = &Receipt{IssuedAt: s1, Signature: s2}
		} else {
			r.Image = &ImageBlock{Format: s1, Encoder: Str(s2), MetadataContainers: []string{}}
			r.Office = &OfficeBlock{Format: s2, LastModifiedBy: Str(s1)}
			r.Triage = &TriageBlock{Guidance: s1}
			r.Timing = &TimingBlock{ElapsedMs: n}
		}
		checkJSON(t, "fuzz", r)
	})
}

// TestPlainType: the walk takes the analysers' kind of types and leaves to
// json.Marshal every type whose encoding/json rules it does not follow.
func TestPlainType(t *testing.T) {
	walked := []any{category(""), []category{}, tagged{}, []tagged{}, &tagged{}, map[string]tagged{}, omitting{},
		map[string]string{}, uintptr(0), [3]byte{}, struct{}{}}
	for _, v := range walked {
		if !plainType(reflect.TypeOf(v), 0) {
			t.Errorf("%T is left to json.Marshal, want it walked", v)
		}
	}
	left := []any{time.Time{}, []withTime{}, []byte{}, namedBytes{}, withBytes{}, json.Number(""), withNumber{},
		textual{}, []ptrText{}, ptrText{}, kindWithMarshaler(""), []kindWithMarshaler{}, map[textKey]int{},
		map[int]string{}, json.RawMessage{}, embedded{}, stringOpt{}, omitZero{}, duplicate{}, odd{}, unicodeName{},
		complex(1, 2), make(chan int), &Report{}, Report{}, &node{}}
	for _, v := range left {
		if plainType(reflect.TypeOf(v), 0) {
			t.Errorf("%T is walked, want it left to json.Marshal", v)
		}
	}
}
