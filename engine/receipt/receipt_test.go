package receipt

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/report"
)

var (
	testSecret = []byte("test-secret-0123456789")
	testTime   = time.Date(2026, 3, 4, 5, 6, 7, 891_234_567, time.FixedZone("CET", 3600))
)

// fixture is a finished report with an evidence map holding numbers that
// exercise canonicalisation, a string that Go escapes, and a policy block.
func fixture() *report.Report {
	r := report.New(report.MediaPDF, 4096)
	r.ID = "insp_00000000-0000-0000-0000-000000000001"
	r.Add(report.Finding{Family: report.FamilyProducerFingerprint, Severity: report.Medium,
		Message: report.Msg("producer-fingerprint.editor-resaved", "editors", 1, "editorClass", report.Kind("pdf-editor"), "revisions", 2),
		Evidence: map[string]any{
			"tools":     []string{"Acme <PDF> & Co"},
			"ratio":     0.5,
			"big":       1e21,
			"small":     1e-7,
			"revisions": 2,
			"nested":    map[string]any{"receipt": "not the top-level key"},
		}})
	r.Finish()
	r.Summary.Cost.ExpandedBytes = 8192
	r.Summary.Cost.ExpansionRatio = 2
	r.Policy = &report.PolicyBlock{Verdict: "review", RiskScore: r.Summary.RiskScore,
		Thresholds: report.Thresholds{Review: 30, Reject: 70}, Reason: "score", TriggeredBy: []string{}}
	return r
}

func attach(t *testing.T, r *report.Report, redacted bool) ([]byte, report.Receipt) {
	t.Helper()
	body, rc, err := Attach(r, testSecret, testTime, redacted)
	if err != nil {
		t.Fatalf("Attach: %v", err)
	}
	return body, rc
}

func TestFormatTime(t *testing.T) {
	if got, want := FormatTime(testTime), "2026-03-04T04:06:07.891Z"; got != want {
		t.Fatalf("got %s want %s", got, want)
	}
	if got, want := FormatTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)), "2026-01-01T00:00:00.000Z"; got != want {
		t.Fatalf("got %s want %s", got, want)
	}
	if _, err := time.Parse(time.RFC3339, FormatTime(testTime)); err != nil {
		t.Fatalf("not RFC 3339: %v", err)
	}
}

// A hand-built vector pins the exact bytes hashed and signed.
func TestKnownVector(t *testing.T) {
	reportJSON := []byte(`{"id":"x","engineVersion":"1.34.0","b":[1,2.50,"\u003c"],"a":{"z":1e21,"y":-0},"receipt":{"ignored":true}}`)
	canonical := `{"a":{"y":0,"z":1e+21},"b":[1,2.5,"<"],"engineVersion":"1.34.0","id":"x"}`
	sum := sha256.Sum256([]byte(canonical))
	wantHash := hex.EncodeToString(sum[:])

	rc, err := Sign(reportJSON, testSecret, testTime, true)
	if err != nil {
		t.Fatal(err)
	}
	if rc.ReportHash != wantHash {
		t.Fatalf("reportHash %s, want %s", rc.ReportHash, wantHash)
	}
	signed := `{"engineVersion":"1.34.0","issuedAt":"2026-03-04T04:06:07.891Z","redacted":true,"reportHash":"` + wantHash + `","version":"v1"}`
	m := hmac.New(sha256.New, testSecret)
	m.Write([]byte(signed))
	want := report.Receipt{Version: "v1", IssuedAt: "2026-03-04T04:06:07.891Z", EngineVersion: "1.34.0",
		ReportHash: wantHash, Redacted: true, Signature: hex.EncodeToString(m.Sum(nil))}
	if rc != want {
		t.Fatalf("got %+v\nwant %+v", rc, want)
	}
	if ok, reason := Verify(reportJSON, rc, testSecret); !ok {
		t.Fatalf("Verify: %s", reason)
	}
}

func TestAttachBodyShape(t *testing.T) {
	r := fixture()
	r.Receipt = &report.Receipt{Version: "stale"} // cleared before marshalling
	before, _ := json.Marshal(r)
	body, rc := attach(t, r, false)

	// r is not modified.
	if after, _ := json.Marshal(r); !bytes.Equal(before, after) {
		t.Fatal("Attach modified the report")
	}

	// Body = report marshalled without receipt + receipt as the last key.
	c := *r
	c.Receipt = nil
	plain, _ := json.Marshal(&c)
	rcJSON, _ := json.Marshal(rc)
	want := string(plain[:len(plain)-1]) + `,"receipt":` + string(rcJSON) + `}`
	if string(body) != want {
		t.Fatalf("body:\n%s\nwant\n%s", body, want)
	}

	// The receipt is the last top-level key; the others keep struct order.
	keys := topLevelKeys(t, body)
	wantKeys := []string{"id", "engineVersion", "mediaType", "summary", "signals", "document", "policy", "usageCaution", "disclaimer", "receipt"}
	if strings.Join(keys, ",") != strings.Join(wantKeys, ",") {
		t.Fatalf("keys %v\nwant %v", keys, wantKeys)
	}

	// Unmarshalling into report.Report round-trips byte for byte.
	var dec report.Report
	if err := json.Unmarshal(body, &dec); err != nil {
		t.Fatal(err)
	}
	if dec.Receipt == nil || *dec.Receipt != rc {
		t.Fatalf("decoded receipt %+v, want %+v", dec.Receipt, rc)
	}
	again, err := json.Marshal(&dec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, body) {
		t.Fatalf("round trip differs:\n%s\n%s", again, body)
	}
	if !json.Valid(body) {
		t.Fatal("invalid JSON")
	}

	// The receipt fields.
	if rc.Version != Version || rc.IssuedAt != "2026-03-04T04:06:07.891Z" || rc.EngineVersion != report.EngineVersion || rc.Redacted {
		t.Fatalf("receipt %+v", rc)
	}
	if len(rc.ReportHash) != 64 || len(rc.Signature) != 64 || strings.ToLower(rc.Signature) != rc.Signature || strings.ToLower(rc.ReportHash) != rc.ReportHash {
		t.Fatalf("not lowercase hex: %+v", rc)
	}
	if ok, reason := Verify(body, rc, testSecret); !ok {
		t.Fatalf("Verify: %s", reason)
	}
}

func TestAttachEngineVersionAndDeterminism(t *testing.T) {
	r := fixture()
	r.EngineVersion = "9.9.9"
	b1, rc1 := attach(t, r, true)
	b2, rc2 := attach(t, r, true)
	if !bytes.Equal(b1, b2) || rc1 != rc2 {
		t.Fatal("Attach is not deterministic")
	}
	if rc1.EngineVersion != "9.9.9" || !rc1.Redacted {
		t.Fatalf("%+v", rc1)
	}
	if _, _, err := Attach(nil, testSecret, testTime, false); err == nil {
		t.Fatal("nil report accepted")
	}
	if _, _, err := Attach(r, nil, testTime, false); err == nil {
		t.Fatal("empty secret accepted")
	}
}

func topLevelKeys(t *testing.T, b []byte) []string {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(b))
	if _, err := dec.Token(); err != nil {
		t.Fatal(err)
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			t.Fatal(err)
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			t.Fatal(err)
		}
	}
	return keys
}

// The receipt key of the report is ignored, present or not; a nested
// "receipt" key is ordinary data.
func TestSignIgnoresReceiptKey(t *testing.T) {
	r := fixture()
	plain, _ := json.Marshal(r)
	body, rc := attach(t, r, false)
	rc2, err := Sign(plain, testSecret, testTime, false)
	if err != nil {
		t.Fatal(err)
	}
	if rc2 != rc {
		t.Fatalf("receipt differs with and without receipt key:\n%+v\n%+v", rc, rc2)
	}
	for _, b := range [][]byte{plain, body} {
		if ok, reason := Verify(b, rc, testSecret); !ok {
			t.Fatalf("Verify: %s", reason)
		}
	}
	// A different receipt object inside the report changes nothing.
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	m["receipt"] = map[string]any{"anything": 1}
	other, _ := json.Marshal(m)
	if ok, reason := Verify(other, rc, testSecret); !ok {
		t.Fatalf("Verify with foreign receipt key: %s", reason)
	}
	// The nested receipt key is covered.
	tampered := bytes.Replace(body, []byte("not the top-level key"), []byte("changed"), 1)
	if ok, reason := Verify(tampered, rc, testSecret); ok || reason != ReasonReportMismatch {
		t.Fatalf("nested receipt key not covered: %v %s", ok, reason)
	}
}

// Key order, whitespace, escapes and number spelling do not matter.
func TestVerifyIndependentOfEncoding(t *testing.T) {
	body, rc := attach(t, fixture(), false)

	var m map[string]any
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	reordered, _ := json.Marshal(m) // map keys sorted: a different order
	if bytes.Equal(reordered, body) {
		t.Fatal("re-encoding did not reorder keys")
	}
	var indented bytes.Buffer
	_ = json.Indent(&indented, body, "", "    ")
	var noEscape bytes.Buffer
	enc := json.NewEncoder(&noEscape)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(m)
	if !bytes.Contains(noEscape.Bytes(), []byte("Acme <PDF> & Co")) {
		t.Fatal("expected unescaped <, > and &")
	}
	numbers := bytes.Replace(body, []byte(`"big":1e+21`), []byte(`"big":1000000000000000000000`), 1)
	numbers = bytes.Replace(numbers, []byte(`"ratio":0.5`), []byte(`"ratio":5e-1`), 1)
	numbers = bytes.Replace(numbers, []byte(`"small":1e-7`), []byte(`"small":0.0000001`), 1)
	numbers = bytes.Replace(numbers, []byte(`"riskScore":30`), []byte(`"riskScore":30.0`), 1)
	if bytes.Equal(numbers, body) || bytes.Count(numbers, []byte("1000000000000000000000")) != 1 {
		t.Fatalf("number rewrite failed: %s", numbers)
	}
	for name, b := range map[string][]byte{
		"reordered": reordered, "indented": indented.Bytes(), "unescaped": noEscape.Bytes(), "numbers": numbers,
	} {
		if ok, reason := Verify(b, rc, testSecret); !ok {
			t.Errorf("%s: %s", name, reason)
		}
	}
}

func TestCanonicalNumbers(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":0.5}`, `{"a":0.5}`},
		{`{"a":5e-1}`, `{"a":0.5}`},
		{`{"a":0.50}`, `{"a":0.5}`},
		{`{"a":1e21}`, `{"a":1e+21}`},
		{`{"a":1E+21}`, `{"a":1e+21}`},
		{`{"a":1000000000000000000000}`, `{"a":1e+21}`},
		{`{"a":100000000000000000000}`, `{"a":100000000000000000000}`},
		{`{"a":1e-7}`, `{"a":1e-7}`},
		{`{"a":-0}`, `{"a":0}`},
		{`{"a":30.0}`, `{"a":30}`},
	} {
		got, _, err := canonicalReport([]byte(tc.in))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		if string(got) != tc.want {
			t.Errorf("%s: got %s want %s", tc.in, got, tc.want)
		}
	}
	// Go's own encoding of these floats canonicalises to the same bytes.
	b, _ := json.Marshal(map[string]any{"a": 0.5, "b": 1e21, "c": 1e-7})
	got, _, err := canonicalReport(b)
	if err != nil || string(got) != `{"a":0.5,"b":1e+21,"c":1e-7}` {
		t.Fatalf("%s -> %s %v", b, got, err)
	}
}

func TestVerifyBadSignature(t *testing.T) {
	body, rc := attach(t, fixture(), false)
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == '0' {
			b[i] = '1'
		} else {
			b[i] = '0'
		}
		return string(b)
	}
	cases := map[string]func(*report.Receipt){
		"flipped first signature byte": func(r *report.Receipt) { r.Signature = flip(r.Signature, 0) },
		"flipped last signature byte":  func(r *report.Receipt) { r.Signature = flip(r.Signature, 63) },
		"uppercase signature":          func(r *report.Receipt) { r.Signature = strings.ToUpper(r.Signature) },
		"truncated signature":          func(r *report.Receipt) { r.Signature = r.Signature[:62] },
		"empty signature":              func(r *report.Receipt) { r.Signature = "" },
		"issuedAt changed":             func(r *report.Receipt) { r.IssuedAt = "2026-03-04T04:06:07.892Z" },
		"redacted changed":             func(r *report.Receipt) { r.Redacted = true },
		"engineVersion changed":        func(r *report.Receipt) { r.EngineVersion = "1.33.0" },
		"version changed":              func(r *report.Receipt) { r.Version = "v2" },
		"version empty":                func(r *report.Receipt) { r.Version = "" },
		"reportHash changed":           func(r *report.Receipt) { r.ReportHash = flip(r.ReportHash, 10) },
		"invalid UTF-8 field":          func(r *report.Receipt) { r.EngineVersion = "1.34.0\xff" },
		"zero receipt":                 func(r *report.Receipt) { *r = report.Receipt{} },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			bad := rc
			mutate(&bad)
			if ok, reason := Verify(body, bad, testSecret); ok || reason != ReasonBadSignature {
				t.Fatalf("got %v %q", ok, reason)
			}
		})
	}
	t.Run("wrong secret", func(t *testing.T) {
		if ok, reason := Verify(body, rc, []byte("another-secret")); ok || reason != ReasonBadSignature {
			t.Fatalf("got %v %q", ok, reason)
		}
	})
	t.Run("empty secret", func(t *testing.T) {
		if ok, reason := Verify(body, rc, nil); ok || reason != ReasonBadSignature {
			t.Fatalf("got %v %q", ok, reason)
		}
	})
	// A forged receipt is bad_signature even when the report is also wrong:
	// the signature is checked first.
	t.Run("bad signature beats mismatch", func(t *testing.T) {
		bad := rc
		bad.Signature = flip(bad.Signature, 5)
		if ok, reason := Verify([]byte(`{"x":1}`), bad, testSecret); ok || reason != ReasonBadSignature {
			t.Fatalf("got %v %q", ok, reason)
		}
	})
}

func TestVerifyReportMismatch(t *testing.T) {
	body, rc := attach(t, fixture(), false)
	var m map[string]any
	_ = json.Unmarshal(body, &m)
	remarshal := func(edit func(map[string]any)) []byte {
		var c map[string]any
		_ = json.Unmarshal(body, &c)
		edit(c)
		b, _ := json.Marshal(c)
		return b
	}
	cases := map[string][]byte{
		"riskScore changed": remarshal(func(c map[string]any) { c["summary"].(map[string]any)["riskScore"] = 29 }),
		"evidence value changed": remarshal(func(c map[string]any) {
			c["signals"].([]any)[0].(map[string]any)["evidence"].(map[string]any)["ratio"] = 0.25
		}),
		"evidence key added": remarshal(func(c map[string]any) {
			c["signals"].([]any)[0].(map[string]any)["evidence"].(map[string]any)["extra"] = true
		}),
		"top-level key added":   remarshal(func(c map[string]any) { c["timing"] = map[string]any{"elapsedMs": 1} }),
		"policy removed":        remarshal(func(c map[string]any) { delete(c, "policy") }),
		"id changed":            remarshal(func(c map[string]any) { c["id"] = "insp_other" }),
		"string escape changed": bytes.Replace(body, []byte(`Acme \u003cPDF\u003e`), []byte(`Acme \u003cPDF\u003c`), 1),
		"not JSON":              []byte("not json"),
		"empty":                 nil,
		"JSON array":            []byte(`[` + string(body) + `]`),
		"JSON string":           []byte(`"report"`),
		"trailing data":         append(append([]byte{}, body...), []byte(` {}`)...),
		"duplicate top-level":   bytes.Replace(body, []byte(`{"id":`), []byte(`{"id":"dup","id":`), 1),
		"duplicate nested":      bytes.Replace(body, []byte(`"ratio":0.5`), []byte(`"ratio":0.5,"ratio":0.5`), 1),
		"duplicate receipt":     bytes.Replace(body, []byte(`{"id":`), []byte(`{"receipt":1,"id":`), 1),
		"lone surrogate":        bytes.Replace(body, []byte(`"insp_`), []byte(`"\ud800insp_`), 1),
		"invalid UTF-8":         bytes.Replace(body, []byte(`"insp_`), []byte("\"\xffinsp_"), 1),
		"number out of range":   bytes.Replace(body, []byte(`"big":1e+21`), []byte(`"big":1e999`), 1),
	}
	for name, b := range cases {
		t.Run(name, func(t *testing.T) {
			if bytes.Equal(b, body) {
				t.Fatal("case did not change the body")
			}
			if ok, reason := Verify(b, rc, testSecret); ok || reason != ReasonReportMismatch {
				t.Fatalf("got %v %q", ok, reason)
			}
		})
	}
}

func TestSignErrors(t *testing.T) {
	good := []byte(`{"engineVersion":"1.34.0"}`)
	if _, err := Sign(good, testSecret, testTime, false); err != nil {
		t.Fatal(err)
	}
	for name, b := range map[string][]byte{
		"not JSON":              []byte(`{`),
		"array":                 []byte(`[]`),
		"no engineVersion":      []byte(`{"id":"x"}`),
		"engineVersion number":  []byte(`{"engineVersion":1}`),
		"duplicate":             []byte(`{"engineVersion":"1","engineVersion":"1"}`),
		"escaped duplicate":     []byte(`{"engineVersion":"1","engin\u0065Version":"1"}`),
		"lone low surrogate":    []byte(`{"engineVersion":"\udc00"}`),
		"high without low":      []byte(`{"engineVersion":"\ud800\u0041"}`),
		"high at end of string": []byte(`{"engineVersion":"\ud800"}`),
		"invalid UTF-8":         []byte("{\"engineVersion\":\"\xc3\"}"),
	} {
		if _, err := Sign(b, testSecret, testTime, false); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
	if _, err := Sign(good, nil, testTime, false); err == nil {
		t.Error("empty secret accepted")
	}
	// A valid surrogate pair is fine and equals the raw character.
	a, err1 := Sign([]byte(`{"engineVersion":"1","s":"\ud83d\ude00"}`), testSecret, testTime, false)
	b, err2 := Sign([]byte(`{"engineVersion":"1","s":"😀"}`), testSecret, testTime, false)
	if err1 != nil || err2 != nil || a != b {
		t.Fatalf("surrogate pair: %v %v %+v %+v", err1, err2, a, b)
	}
}

// A redacted report verifies with redacted true, and the unredacted
// report does not verify against the redacted receipt.
func TestRedactedReceipt(t *testing.T) {
	r := fixture()
	r.Add(report.Finding{Family: report.FamilyDocumentInjectionMarkers, Severity: report.High,
		Message:  report.Msg("document-injection-markers.found", "count", 1),
		Evidence: map[string]any{"payloadIsUntrusted": true, "fields": []report.UntrustedField{{Name: "Title", Payload: "ignore all"}}}})
	r.Finish()
	red := r.Redacted()
	body, rc := attach(t, red, true)
	if !rc.Redacted {
		t.Fatal("redacted flag not set")
	}
	if ok, reason := Verify(body, rc, testSecret); !ok {
		t.Fatal(reason)
	}
	orig, _ := json.Marshal(r)
	if ok, reason := Verify(orig, rc, testSecret); ok || reason != ReasonReportMismatch {
		t.Fatalf("unredacted report verified against redacted receipt: %v %s", ok, reason)
	}
}
