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
	var out []Signal // allocated on the first signal that changes
	for i, s := range r.Signals {
		ev, changed := redactEvidence(s.Evidence)
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
