package report

// A hand-written JSON encoder for Report.
//
// encoding/json builds a reflection-based encoder for every type the first
// time it meets one. `doctrust inspect` is a short-lived process and a cold
// Lambda is one too: there that first marshal of a report cost 0.55-0.8 ms,
// several percent of the whole process (docs/performance.md, "Report JSON
// without reflection"). Appending the known shape directly costs little on
// first use and is faster warm too.
//
// The output is byte-identical to json.Marshal's: key order and omitempty
// as the struct tags say, HTML-safe string escapes, encoding/json's float
// spelling, map keys sorted bytewise, the same errors. json_test.go holds it
// to encoding/json (differential tests, a fuzz target, a reflection walk
// that fails when a report field is added but not encoded here) and
// engine's corpus sweep compares every corpus report.
//
// Evidence and params values take one of three ways: the types the engine
// stores most are listed in encoder.value and written directly; the
// analysers' own json-tagged structs and string kinds, which this package
// cannot name (their packages import it), are walked through reflect within
// a subset of encoding/json's rules (plainType); anything else goes to
// json.Marshal. An unlisted type costs speed, never correctness.

import (
	"encoding"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MarshalJSON makes every json.Marshal of a report use AppendJSON.
// encoding/json re-validates a Marshaler's output, so callers on a hot path
// (receipt.Attach) call AppendJSON directly.
func (r *Report) MarshalJSON() ([]byte, error) {
	return r.AppendJSON(make([]byte, 0, 4096))
}

// AppendJSON appends the report's JSON, exactly as json.Marshal encodes the
// struct, to dst. It fails only where json.Marshal fails: a NaN or infinite
// float, or an evidence value encoding/json refuses.
func (r *Report) AppendJSON(dst []byte) ([]byte, error) {
	if r == nil {
		return append(dst, "null"...), nil
	}
	e := &encoder{b: dst}
	e.report(r)
	if e.err != nil {
		return dst, e.err
	}
	return e.b, nil
}

// encoder appends to b and keeps the first error; once err is set the
// output is discarded, so the methods need not stop early. plain remembers
// plainType's answers for this one encoding (a report repeats a few types
// many times).
type encoder struct {
	b     []byte
	err   error
	plain []typeAnswer
}

type typeAnswer struct {
	t     reflect.Type
	plain bool
}

func (e *encoder) raw(s string)    { e.b = append(e.b, s...) }
func (e *encoder) str(s string)    { e.b = appendString(e.b, s) }
func (e *encoder) int(v int64)     { e.b = strconv.AppendInt(e.b, v, 10) }
func (e *encoder) uint(v uint64)   { e.b = strconv.AppendUint(e.b, v, 10) }
func (e *encoder) bool(v bool)     { e.b = strconv.AppendBool(e.b, v) }
func (e *encoder) float(v float64) { e.floatBits(v, 64) }

// key appends `,"name":`; the comma is left out after an opening brace.
func (e *encoder) key(name string) {
	if c := e.b[len(e.b)-1]; c != '{' {
		e.b = append(e.b, ',')
	}
	e.str(name)
	e.b = append(e.b, ':')
}

func (e *encoder) strPtr(p *string) {
	if p == nil {
		e.raw("null")
		return
	}
	e.str(*p)
}

func (e *encoder) intPtr(p *int) {
	if p == nil {
		e.raw("null")
		return
	}
	e.int(int64(*p))
}

func (e *encoder) boolPtr(p *bool) {
	if p == nil {
		e.raw("null")
		return
	}
	e.bool(*p)
}

// strList encodes a []string: nil is null, empty is [].
func (e *encoder) strList(list []string) {
	if list == nil {
		e.raw("null")
		return
	}
	e.b = append(e.b, '[')
	for i, s := range list {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.str(s)
	}
	e.b = append(e.b, ']')
}

func (e *encoder) report(r *Report) {
	e.raw(`{"id":`)
	e.str(r.ID)
	e.raw(`,"engineVersion":`)
	e.str(r.EngineVersion)
	e.raw(`,"mediaType":`)
	e.str(string(r.MediaType))
	e.raw(`,"summary":`)
	e.summary(&r.Summary)
	e.raw(`,"signals":`)
	if r.Signals == nil {
		e.raw("null")
	} else {
		e.b = append(e.b, '[')
		for i := range r.Signals {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.signal(&r.Signals[i])
		}
		e.b = append(e.b, ']')
	}
	e.raw(`,"document":`)
	e.document(&r.Document)
	if r.Image != nil {
		e.raw(`,"image":`)
		e.image(r.Image)
	}
	if r.Office != nil {
		e.raw(`,"office":`)
		e.office(r.Office)
	}
	if r.IssuerBaseline != nil {
		e.raw(`,"issuerBaseline":`)
		e.issuerBaseline(r.IssuerBaseline)
	}
	if r.Policy != nil {
		e.raw(`,"policy":`)
		e.policy(r.Policy)
	}
	if r.Triage != nil {
		e.raw(`,"triage":`)
		e.triage(r.Triage)
	}
	if r.Timing != nil {
		e.raw(`,"timing":{"elapsedMs":`)
		e.int(r.Timing.ElapsedMs)
		e.b = append(e.b, '}')
	}
	e.raw(`,"usageCaution":{"safeForAutomatedAdverseDecision":`)
	e.bool(r.UsageCaution.SafeForAutomatedAdverseDecision)
	e.raw(`,"guidance":`)
	e.str(r.UsageCaution.Guidance)
	e.raw(`},"disclaimer":`)
	e.str(r.Disclaimer)
	if r.Receipt != nil {
		e.raw(`,"receipt":`)
		e.receipt(r.Receipt)
	}
	e.b = append(e.b, '}')
}

func (e *encoder) summary(s *Summary) {
	e.raw(`{"riskScore":`)
	e.int(int64(s.RiskScore))
	e.raw(`,"riskBand":`)
	e.str(string(s.RiskBand))
	e.raw(`,"signalCount":`)
	e.int(int64(s.SignalCount))
	e.raw(`,"revisions":`)
	e.int(int64(s.Revisions))
	e.raw(`,"cost":{"physicalBytes":`)
	e.int(s.Cost.PhysicalBytes)
	e.raw(`,"expandedBytes":`)
	e.int(s.Cost.ExpandedBytes)
	e.raw(`,"expansionRatio":`)
	e.float(s.Cost.ExpansionRatio)
	e.raw(`}}`)
}

func (e *encoder) signal(s *Signal) {
	e.raw(`{"id":`)
	e.str(s.ID)
	e.raw(`,"severity":`)
	e.str(string(s.Severity))
	e.raw(`,"title":`)
	e.str(s.Title)
	e.raw(`,"detail":`)
	e.str(s.Detail)
	e.raw(`,"message":`)
	e.message(&s.Message)
	if len(s.Notes) > 0 {
		e.raw(`,"notes":[`)
		for i := range s.Notes {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.message(&s.Notes[i])
		}
		e.b = append(e.b, ']')
	}
	e.raw(`,"evidence":`)
	e.object(s.Evidence, 0)
	e.b = append(e.b, '}')
}

func (e *encoder) message(m *Message) {
	e.raw(`{"code":`)
	e.str(m.Code)
	e.raw(`,"params":`)
	e.object(m.Params, 0)
	e.b = append(e.b, '}')
}

func (e *encoder) document(d *Document) {
	e.raw(`{"pages":`)
	e.int(int64(d.Pages))
	e.raw(`,"producer":`)
	e.strPtr(d.Producer)
	e.raw(`,"creator":`)
	e.strPtr(d.Creator)
	e.raw(`,"creationDate":`)
	e.strPtr(d.CreationDate)
	e.raw(`,"modDate":`)
	e.strPtr(d.ModDate)
	e.raw(`,"encrypted":`)
	e.bool(d.Encrypted)
	e.raw(`,"signed":`)
	e.bool(d.Signed)
	e.raw(`,"revisions":`)
	e.int(int64(d.Revisions))
	e.raw(`,"sizeBytes":`)
	e.int(d.SizeBytes)
	e.b = append(e.b, '}')
}

func (e *encoder) image(m *ImageBlock) {
	e.raw(`{"format":`)
	e.str(m.Format)
	e.raw(`,"containerWalked":`)
	e.bool(m.Walked)
	e.raw(`,"width":`)
	e.intPtr(m.Width)
	e.raw(`,"height":`)
	e.intPtr(m.Height)
	e.raw(`,"cameraMake":`)
	e.strPtr(m.CameraMake)
	e.raw(`,"cameraModel":`)
	e.strPtr(m.CameraModel)
	e.raw(`,"metadataContainers":`)
	e.strList(m.MetadataContainers)
	e.raw(`,"jpegQuality":`)
	e.intPtr(m.JPEGQuality)
	e.raw(`,"encoder":`)
	e.strPtr(m.Encoder)
	e.raw(`,"provenanceManifest":`)
	e.strPtr(m.ProvenanceManifest)
	e.raw(`,"provenanceReference":`)
	e.strPtr(m.ProvenanceReference)
	e.b = append(e.b, '}')
}

func (e *encoder) office(o *OfficeBlock) {
	e.raw(`{"format":`)
	e.str(o.Format)
	e.raw(`,"application":`)
	e.strPtr(o.Application)
	e.raw(`,"appVersion":`)
	e.strPtr(o.AppVersion)
	e.raw(`,"lastModifiedBy":`)
	e.strPtr(o.LastModifiedBy)
	e.raw(`,"saveCount":`)
	e.intPtr(o.SaveCount)
	e.raw(`,"editingMinutes":`)
	e.intPtr(o.EditingMinutes)
	e.raw(`,"partCount":`)
	e.intPtr(o.PartCount)
	e.raw(`,"macros":`)
	e.boolPtr(o.Macros)
	e.b = append(e.b, '}')
}

// issuerBaseline is the one block with omitempty fields other than whole
// blocks; encoding/json omits "", nil and zero-length slices.
func (e *encoder) issuerBaseline(ib *IssuerBaseline) {
	e.b = append(e.b, '{')
	if ib.Requested != "" {
		e.key("requested")
		e.str(ib.Requested)
	}
	e.key("resolved")
	e.bool(ib.Resolved)
	if ib.Reason != "" {
		e.key("reason")
		e.str(ib.Reason)
	}
	if ib.Source != "" {
		e.key("source")
		e.str(ib.Source)
	}
	if ib.SampleCount != nil {
		e.key("sampleCount")
		e.int(int64(*ib.SampleCount))
	}
	if ib.MatchingActive != nil {
		e.key("matchingActive")
		e.bool(*ib.MatchingActive)
	}
	if ib.Divergence != nil {
		e.key("divergence")
		e.float(*ib.Divergence)
	}
	if len(ib.MismatchedDimensions) > 0 {
		e.key("mismatchedDimensions")
		e.strList(ib.MismatchedDimensions)
	}
	e.b = append(e.b, '}')
}

func (e *encoder) policy(p *PolicyBlock) {
	e.raw(`{"verdict":`)
	e.str(p.Verdict)
	e.raw(`,"riskScore":`)
	e.int(int64(p.RiskScore))
	e.raw(`,"thresholds":{"review":`)
	e.int(int64(p.Thresholds.Review))
	e.raw(`,"reject":`)
	e.int(int64(p.Thresholds.Reject))
	e.raw(`},"reason":`)
	e.str(p.Reason)
	e.raw(`,"triggeredBy":`)
	e.strList(p.TriggeredBy)
	e.b = append(e.b, '}')
}

func (e *encoder) triage(t *TriageBlock) {
	e.raw(`{"contentAnalysed":`)
	e.bool(t.ContentAnalysed)
	e.raw(`,"suppressedFamilies":`)
	e.strList(t.SuppressedFamilies)
	e.raw(`,"guidance":`)
	e.str(t.Guidance)
	e.b = append(e.b, '}')
}

func (e *encoder) receipt(rc *Receipt) {
	e.raw(`{"version":`)
	e.str(rc.Version)
	e.raw(`,"issuedAt":`)
	e.str(rc.IssuedAt)
	e.raw(`,"engineVersion":`)
	e.str(rc.EngineVersion)
	e.raw(`,"reportHash":`)
	e.str(rc.ReportHash)
	e.raw(`,"redacted":`)
	e.bool(rc.Redacted)
	e.raw(`,"signature":`)
	e.str(rc.Signature)
	e.b = append(e.b, '}')
}

func (e *encoder) untrustedField(f UntrustedField) {
	e.raw(`{"name":`)
	e.str(f.Name)
	e.raw(`,"payload":`)
	e.str(f.Payload)
	e.b = append(e.b, '}')
}

// maxDepth bounds the nesting value follows itself; deeper values go to
// json.Marshal, which detects cycles (a report decoded from JSON or built
// by hand could hold a map that contains itself) where recursion here would
// overflow the stack. The engine's evidence is a few levels deep.
const maxDepth = 32

// object encodes a map[string]any with keys sorted bytewise, as
// encoding/json sorts them.
func (e *encoder) object(m map[string]any, depth int) {
	if m == nil {
		e.raw("null")
		return
	}
	var buf [32]string
	e.b = append(e.b, '{')
	for i, k := range sortedKeys(m, buf[:0]) {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.str(k)
		e.b = append(e.b, ':')
		e.value(m[k], depth+1)
	}
	e.b = append(e.b, '}')
}

// sortedKeys appends m's keys to keys (a stack buffer for the usual small
// map) and sorts them.
func sortedKeys[V any](m map[string]V, keys []string) []string {
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// list encodes a slice with each, nil as null.
func list[T any](e *encoder, s []T, each func(T)) {
	if s == nil {
		e.raw("null")
		return
	}
	e.b = append(e.b, '[')
	for i, v := range s {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		each(v)
	}
	e.b = append(e.b, ']')
}

// value encodes one evidence or params value. The cases are the types the
// engine stores most (and those a report decoded from JSON holds); a named
// type must be listed by name, since case string does not match Kind, and
// any other type goes to reflected. None of the listed types implements
// json.Marshaler or encoding.TextMarshaler (json_test.go checks), which
// encoding/json would call instead.
func (e *encoder) value(v any, depth int) {
	if depth > maxDepth {
		e.marshal(v)
		return
	}
	switch v := v.(type) {
	case nil:
		e.raw("null")
	case string:
		e.str(v)
	case Kind:
		e.str(string(v))
	case Severity:
		e.str(string(v))
	case bool:
		e.bool(v)
	case int:
		e.int(int64(v))
	case int8:
		e.int(int64(v))
	case int16:
		e.int(int64(v))
	case int32:
		e.int(int64(v))
	case int64:
		e.int(v)
	case uint:
		e.uint(uint64(v))
	case uint8:
		e.uint(uint64(v))
	case uint16:
		e.uint(uint64(v))
	case uint32:
		e.uint(uint64(v))
	case uint64:
		e.uint(v)
	case float64:
		e.float(v)
	case float32:
		e.floatBits(float64(v), 32)
	case map[string]any:
		e.object(v, depth)
	case map[string]int:
		if v == nil {
			e.raw("null")
			return
		}
		var buf [32]string
		e.b = append(e.b, '{')
		for i, k := range sortedKeys(v, buf[:0]) {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.str(k)
			e.b = append(e.b, ':')
			e.int(int64(v[k]))
		}
		e.b = append(e.b, '}')
	case []any:
		list(e, v, func(x any) { e.value(x, depth+1) })
	case []map[string]any:
		list(e, v, func(x map[string]any) { e.object(x, depth+1) })
	case []string:
		e.strList(v)
	case []int:
		list(e, v, func(x int) { e.int(int64(x)) })
	case []int64:
		list(e, v, func(x int64) { e.int(x) })
	case []float64:
		list(e, v, e.float)
	case [2]int:
		e.ints(v[:])
	case [][2]int:
		list(e, v, func(x [2]int) { e.ints(x[:]) })
	case [4]float64:
		e.b = append(e.b, '[')
		for i, x := range v {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.float(x)
		}
		e.b = append(e.b, ']')
	case UntrustedField:
		e.untrustedField(v)
	case []UntrustedField:
		list(e, v, e.untrustedField)
	default:
		e.reflected(v, depth)
	}
}

// ints encodes a fixed-size array of ints (never null).
func (e *encoder) ints(a []int) {
	e.b = append(e.b, '[')
	for i, x := range a {
		if i > 0 {
			e.b = append(e.b, ',')
		}
		e.int(int64(x))
	}
	e.b = append(e.b, ']')
}

// marshal is the fallback for values the encoder does not follow; it keeps
// encoding/json's behaviour for them, errors included.
func (e *encoder) marshal(v any) {
	b, err := json.Marshal(v)
	if err != nil {
		if e.err == nil {
			e.err = err
		}
		return
	}
	e.b = append(e.b, b...)
}

// reflected encodes a value of a type encoder.value does not list: the
// analysers' json-tagged evidence structs and named string kinds, which this
// package cannot name (they live in packages that import it). It reads the
// value through reflect but builds nothing and caches nothing, which is the
// first-use cost this file avoids. Only types inside plainType's subset of
// encoding/json's rules are walked; any other goes whole to json.Marshal.
func (e *encoder) reflected(v any, depth int) {
	rv := reflect.ValueOf(v)
	if !e.plainType(rv.Type()) {
		e.marshal(v)
		return
	}
	e.walk(rv, depth)
}

func (e *encoder) plainType(t reflect.Type) bool {
	for _, a := range e.plain {
		if a.t == t {
			return a.plain
		}
	}
	p := plainType(t, 0)
	e.plain = append(e.plain, typeAnswer{t, p})
	return p
}

// walk encodes v, whose type passed plainType, as encoding/json does.
func (e *encoder) walk(v reflect.Value, depth int) {
	if depth > maxDepth {
		e.marshal(v.Interface())
		return
	}
	switch v.Kind() {
	case reflect.Bool:
		e.bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.int(v.Int())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.uint(v.Uint())
	case reflect.Float32:
		e.floatBits(v.Float(), 32)
	case reflect.Float64:
		e.floatBits(v.Float(), 64)
	case reflect.String:
		e.str(v.String())
	case reflect.Interface:
		if v.IsNil() {
			e.raw("null")
			return
		}
		e.value(v.Elem().Interface(), depth+1)
	case reflect.Pointer:
		if v.IsNil() {
			e.raw("null")
			return
		}
		e.walk(v.Elem(), depth+1)
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			e.raw("null")
			return
		}
		e.b = append(e.b, '[')
		for i := range v.Len() {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.walk(v.Index(i), depth+1)
		}
		e.b = append(e.b, ']')
	case reflect.Map:
		if v.IsNil() {
			e.raw("null")
			return
		}
		keys := v.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return strings.Compare(a.String(), b.String()) })
		e.b = append(e.b, '{')
		for i, k := range keys {
			if i > 0 {
				e.b = append(e.b, ',')
			}
			e.str(k.String())
			e.b = append(e.b, ':')
			e.walk(v.MapIndex(k), depth+1)
		}
		e.b = append(e.b, '}')
	case reflect.Struct:
		t := v.Type()
		e.b = append(e.b, '{')
		n := 0
		for i := range t.NumField() {
			name, omitEmpty, skip, _ := fieldTag(t.Field(i))
			f := v.Field(i)
			if skip || (omitEmpty && isEmpty(f)) {
				continue
			}
			if n > 0 {
				e.b = append(e.b, ',')
			}
			n++
			e.str(name)
			e.b = append(e.b, ':')
			e.walk(f, depth+1)
		}
		e.b = append(e.b, '}')
	}
}

// plainType reports whether walk encodes every value of t as encoding/json
// does: no type in it has a MarshalJSON or MarshalText method (on the value
// or the pointer, since encoding/json calls pointer methods on addressable
// values), no []byte (base64), no json.Number, map keys are strings, and
// structs stay within fieldTag's subset. Interface-typed parts are decided
// at run time by encoder.value. Deep or recursive types are left to
// encoding/json.
func plainType(t reflect.Type, depth int) bool {
	marshaler, textMarshaler := reflect.TypeFor[json.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()
	if depth > 8 || t == reflect.TypeFor[json.Number]() ||
		t.Implements(marshaler) || t.Implements(textMarshaler) ||
		reflect.PointerTo(t).Implements(marshaler) || reflect.PointerTo(t).Implements(textMarshaler) {
		return false
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Interface,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return true
	case reflect.Pointer, reflect.Array:
		return plainType(t.Elem(), depth+1)
	case reflect.Slice:
		return t.Elem().Kind() != reflect.Uint8 && plainType(t.Elem(), depth+1)
	case reflect.Map:
		return t.Key().Kind() == reflect.String && plainType(t.Key(), depth+1) && plainType(t.Elem(), depth+1)
	case reflect.Struct:
		var names []string
		for i := range t.NumField() {
			sf := t.Field(i)
			name, _, skip, ok := fieldTag(sf)
			if !ok {
				return false
			}
			if skip {
				continue
			}
			// encoding/json resolves duplicate names by rules not copied here.
			if slices.Contains(names, name) || !plainType(sf.Type, depth+1) {
				return false
			}
			names = append(names, name)
		}
		return true
	}
	return false
}

// fieldTag reads a struct field as encoding/json does, within a subset: skip
// for a field it leaves out (unexported, tag "-"), ok false for one whose
// rules are not followed here (embedded fields, options other than
// omitempty, names outside [A-Za-z0-9_], which could need escaping).
func fieldTag(sf reflect.StructField) (name string, omitEmpty, skip, ok bool) {
	if sf.Anonymous {
		return "", false, false, false
	}
	if !sf.IsExported() {
		return "", false, true, true
	}
	tag := sf.Tag.Get("json")
	if tag == "-" {
		return "", false, true, true
	}
	name, opts, _ := strings.Cut(tag, ",")
	if opts != "" && opts != "omitempty" {
		return "", false, false, false
	}
	if name == "" {
		name = sf.Name
	}
	for _, c := range []byte(name) {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_') {
			return "", false, false, false
		}
	}
	return name, opts == "omitempty", false, true
}

// isEmpty is encoding/json's isEmptyValue, what omitempty leaves out.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

// floatBits is encoding/json's floatEncoder: like fmt's %g but with ES6's
// cutoffs for exponent form (below 1e-6, from 1e21) and exponents not
// padded to two digits. NaN and infinities, which JSON cannot hold, go to
// json.Marshal for its error.
func (e *encoder) floatBits(f float64, bits int) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		e.marshal(f)
		return
	}
	abs := math.Abs(f)
	format := byte('f')
	if abs != 0 {
		if bits == 64 && (abs < 1e-6 || abs >= 1e21) ||
			bits == 32 && (float32(abs) < 1e-6 || float32(abs) >= 1e21) {
			format = 'e'
		}
	}
	b := strconv.AppendFloat(e.b, f, format, -1, bits)
	if format == 'e' {
		// e-09 becomes e-9
		n := len(b)
		if n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	e.b = b
}

const hexDigits = "0123456789abcdef"

// AppendEscape appends the JSON escape of an ASCII byte: \" and \\, the
// two-character escapes of \b \f \n \r \t, \u00xx for other control
// characters and for anything else (encoding/json's spelling of <, > and
// &). encoding/json and RFC 8785 (engine/receipt) write these alike.
func AppendEscape(dst []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(dst, '\\', c)
	case '\b':
		return append(dst, '\\', 'b')
	case '\f':
		return append(dst, '\\', 'f')
	case '\n':
		return append(dst, '\\', 'n')
	case '\r':
		return append(dst, '\\', 'r')
	case '\t':
		return append(dst, '\\', 't')
	}
	return append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// appendString is encoding/json's string encoder with HTML escaping (the
// json.Marshal default): ", \ and control characters escaped, <, > and &
// as \u003c \u003e \u0026, U+2028 and U+2029 escaped for JSONP, and each
// byte of invalid UTF-8 as \ufffd.
func appendString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&' {
				i++
				continue
			}
			dst = AppendEscape(append(dst, s[start:i]...), c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			dst = append(dst, s[start:i]...)
			dst = append(dst, `\ufffd`...)
			i++
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			dst = append(dst, s[start:i]...)
			dst = append(dst, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	dst = append(dst, s[start:]...)
	return append(dst, '"')
}

// AppendJSON appends the receipt's JSON as json.Marshal encodes it;
// receipt.Attach splices it into a signed report body.
func (rc *Receipt) AppendJSON(dst []byte) []byte {
	e := encoder{b: dst}
	e.receipt(rc)
	return e.b
}
