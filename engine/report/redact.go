package report

// Redaction for ?redact=payload (SPEC.md, /inspect).
//
// The attacker-authored evidence values are replaced by the string Redacted:
//   - the keys "name" and "payload" of every element of evidence.fields
//     (the engine stores []UntrustedField; a report decoded from JSON holds
//     []any of map[string]any, and []map[string]any is accepted too);
//   - evidence.recovered and evidence.authors, whatever their type (string,
//     []string, []any, null ...), become the single string Redacted.
//
// Every other untrusted string obeys redaction too (docs/api.md, "Redaction"):
// a string read from the document that carried an injection cue (the
// payload of an evidence.fields element, sanitised as every untrusted string
// is) becomes Redacted wherever else it appears: document.producer and
// creator, the office block's application, appVersion and lastModifiedBy,
// the image block's camera, encoder and provenance strings, and any string in
// any signal's evidence (infoProducer, xmpProducer, font and attachment
// names ...), alone, inside a longer string, or cut shorter. cuedIn and
// carriesCue are that one definition.
//
// Evidence holding a fields, recovered or authors key also gets
// payloadRedacted: true. Evidence without any of those keys, every other key,
// every other signal and every other block are left exactly as they were.
// Elements of fields that are not objects are left as they are, and a
// fields element object only has the keys it already carries replaced (no
// key is added).
//
// Copy semantics. Redaction never writes through memory it may share with
// another Report value: a signal that needs redacting gets a fresh evidence
// map (a shallow copy with the untrusted keys replaced) and a fresh fields
// slice, and the report gets a fresh Signals slice. So after
//
//	orig := engine output
//	red := *orig          // shallow copy, shares Signals and evidence maps
//	red.Redact()
//
// orig still holds the unredacted values, which is what the policy is
// evaluated on. Values that needed no change (other signals' evidence, the
// document, office and image blocks, the policy block ...) stay shared
// between the two reports; treat both as read-only afterwards, as the
// service does.
//
// Redact does not touch r.Receipt: a receipt is computed over the final
// (redacted) report afterwards, by engine/receipt.

import (
	"encoding/json"
	"strings"
)

// Evidence keys redaction works on.
const (
	evFields          = "fields"
	evRecovered       = "recovered"
	evAuthors         = "authors"
	evPayloadRedacted = "payloadRedacted"
	fieldName         = "name"
	fieldPayload      = "payload"
)

// Redact applies ?redact=payload to r in place (see the package comment
// above for what is replaced and the copy semantics). It is idempotent.
func (r *Report) Redact() {
	if r == nil {
		return
	}
	cued := cuedIn(r.Signals)
	var out []Signal // allocated on the first signal that changes
	for i, s := range r.Signals {
		ev, changed := redactEvidence(s.Evidence)
		if len(cued) > 0 {
			var more bool
			ev, more = redactCuedEvidence(ev, cued, changed)
			changed = changed || more
		}
		if !changed {
			continue
		}
		if out == nil {
			out = make([]Signal, len(r.Signals))
			copy(out, r.Signals)
		}
		out[i].Evidence = ev
	}
	if out != nil {
		r.Signals = out
	}
	if len(cued) == 0 {
		return
	}
	red := func(p **string) {
		if *p != nil && carriesCue(**p, cued) {
			v := Redacted
			*p = &v
		}
	}
	red(&r.Document.Producer)
	red(&r.Document.Creator)
	if r.Office != nil {
		o := *r.Office
		red(&o.Application)
		red(&o.AppVersion)
		red(&o.LastModifiedBy)
		r.Office = &o
	}
	if r.Image != nil {
		im := *r.Image
		red(&im.CameraMake)
		red(&im.CameraModel)
		red(&im.Encoder)
		red(&im.ProvenanceManifest)
		red(&im.ProvenanceReference)
		r.Image = &im
	}
}

// minCueMatch is the shortest payload looked for inside a longer string (or
// a string looked for as the start of a payload): shorter ones would match
// by chance.
const minCueMatch = 12

// cuedIn collects the payloads of every signal's evidence.fields: the
// untrusted strings in which the detector found an injection cue.
func cuedIn(signals []Signal) []string {
	var out []string
	add := func(p string) {
		if p != "" && p != Redacted {
			out = append(out, p)
		}
	}
	for _, s := range signals {
		switch list := s.Evidence[evFields].(type) {
		case []UntrustedField:
			for _, f := range list {
				add(f.Payload)
			}
		case []map[string]any:
			for _, m := range list {
				p, _ := m[fieldPayload].(string)
				add(p)
			}
		case []any:
			for _, e := range list {
				switch e := e.(type) {
				case map[string]any:
					p, _ := e[fieldPayload].(string)
					add(p)
				case UntrustedField:
					add(e.Payload)
				}
			}
		}
	}
	return out
}

// CarriesCue is carriesCue for the reports of other packages (compare):
// v, an untrusted string, is, contains or is a shortened start of one of
// cued, the sanitised strings the injection detector fired on.
func CarriesCue(v string, cued []string) bool { return carriesCue(v, cued) }

// carriesCue: v is, contains, or is a shortened start of a cued payload.
func carriesCue(v string, cued []string) bool {
	if v == "" || v == Redacted {
		return false
	}
	for _, p := range cued {
		switch {
		case v == p,
			len([]rune(p)) >= minCueMatch && strings.Contains(v, p),
			len([]rune(v)) >= minCueMatch && strings.HasPrefix(p, v):
			return true
		}
	}
	return false
}

// redactCuedEvidence replaces the strings of ev (other than the keys
// redactEvidence handles) that carry a cue; fresh says ev is already a
// copy of its own. It never writes into a map or slice it did not make.
func redactCuedEvidence(ev map[string]any, cued []string, fresh bool) (map[string]any, bool) {
	changed := false
	for k, v := range ev {
		if k == evFields || k == evRecovered || k == evAuthors {
			continue
		}
		nv, ok := redactCuedValue(v, cued)
		if !ok {
			continue
		}
		if !fresh {
			cp := make(map[string]any, len(ev)+1)
			for k2, v2 := range ev {
				cp[k2] = v2
			}
			ev, fresh = cp, true
		}
		ev[k] = nv
		changed = true
	}
	if changed {
		ev[evPayloadRedacted] = true
	}
	return ev, changed
}

// redactCuedValue returns v with its cue-carrying strings replaced and
// true, or v and false when it holds none. Values of other types (typed
// slices and structs the engine stores) are looked at through their JSON
// form, which is what the answer carries.
func redactCuedValue(v any, cued []string) (any, bool) {
	switch x := v.(type) {
	case nil, bool, int, int64, float64:
		return v, false
	case string:
		if carriesCue(x, cued) {
			return Redacted, true
		}
		return v, false
	case []string:
		var out []string
		for i, e := range x {
			if carriesCue(e, cued) {
				if out == nil {
					out = append([]string(nil), x...)
				}
				out[i] = Redacted
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case []any:
		var out []any
		for i, e := range x {
			if ne, ok := redactCuedValue(e, cued); ok {
				if out == nil {
					out = append([]any(nil), x...)
				}
				out[i] = ne
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	case map[string]any:
		var out map[string]any
		for k, e := range x {
			if ne, ok := redactCuedValue(e, cued); ok {
				if out == nil {
					out = make(map[string]any, len(x))
					for k2, v2 := range x {
						out[k2] = v2
					}
				}
				out[k] = ne
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return v, false
	}
	var generic any
	if json.Unmarshal(raw, &generic) != nil {
		return v, false
	}
	return redactCuedValue(generic, cued)
}

// Redacted returns a redacted copy of r and leaves r unchanged. The copy
// shares every value redaction did not need to change with r.
func (r *Report) Redacted() *Report {
	if r == nil {
		return nil
	}
	c := *r
	c.Redact()
	return &c
}

// redactEvidence returns a redacted shallow copy of ev and true, or ev and
// false when ev carries none of the untrusted keys.
func redactEvidence(ev map[string]any) (map[string]any, bool) {
	_, hasFields := ev[evFields]
	_, hasRecovered := ev[evRecovered]
	_, hasAuthors := ev[evAuthors]
	if !hasFields && !hasRecovered && !hasAuthors {
		return ev, false
	}
	out := make(map[string]any, len(ev)+1)
	for k, v := range ev {
		out[k] = v
	}
	if hasFields {
		out[evFields] = redactFields(ev[evFields])
	}
	if hasRecovered {
		out[evRecovered] = Redacted
	}
	if hasAuthors {
		out[evAuthors] = Redacted
	}
	out[evPayloadRedacted] = true
	return out, true
}

// redactFields returns a new list with name and payload of each element
// replaced. Unknown shapes are returned as they are.
func redactFields(v any) any {
	switch list := v.(type) {
	case []UntrustedField:
		if list == nil {
			return list
		}
		out := make([]UntrustedField, len(list))
		for i := range out {
			out[i] = UntrustedField{Name: Redacted, Payload: Redacted}
		}
		return out
	case []map[string]any:
		if list == nil {
			return list
		}
		out := make([]map[string]any, len(list))
		for i, m := range list {
			out[i] = redactFieldMap(m)
		}
		return out
	case []any:
		if list == nil {
			return list
		}
		out := make([]any, len(list))
		for i, e := range list {
			switch e := e.(type) {
			case map[string]any:
				out[i] = redactFieldMap(e)
			case UntrustedField:
				out[i] = UntrustedField{Name: Redacted, Payload: Redacted}
			default:
				out[i] = e
			}
		}
		return out
	}
	return v
}

// redactFieldMap returns a copy of m with its name and payload keys (those
// present) replaced.
func redactFieldMap(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	for _, k := range [...]string{fieldName, fieldPayload} {
		if _, ok := out[k]; ok {
			out[k] = Redacted
		}
	}
	return out
}
