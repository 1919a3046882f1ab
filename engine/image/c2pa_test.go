package image

import (
	"encoding/binary"
	"sort"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
)

// A small CBOR encoder and JUMBF builder, enough to write C2PA manifest
// stores in tests.

func cborHead(major byte, n uint64) []byte {
	switch {
	case n < 24:
		return []byte{major<<5 | byte(n)}
	case n < 1<<8:
		return []byte{major<<5 | 24, byte(n)}
	case n < 1<<16:
		return binary.BigEndian.AppendUint16([]byte{major<<5 | 25}, uint16(n))
	}
	return binary.BigEndian.AppendUint32([]byte{major<<5 | 26}, uint32(n))
}

func cborEncode(v any) []byte {
	switch x := v.(type) {
	case string:
		return append(cborHead(3, uint64(len(x))), x...)
	case int:
		return cborHead(0, uint64(x))
	case []any:
		out := cborHead(4, uint64(len(x)))
		for _, e := range x {
			out = append(out, cborEncode(e)...)
		}
		return out
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		out := cborHead(5, uint64(len(x)))
		for _, k := range keys {
			out = append(out, cborEncode(k)...)
			out = append(out, cborEncode(x[k])...)
		}
		return out
	}
	panic("cborEncode: unsupported type")
}

// superbox is a jumb box labelled label holding content boxes.
func superbox(label string, content ...[]byte) []byte {
	jumd := append(make([]byte, 16), 0x03)
	jumd = append(append(jumd, label...), 0)
	body := bmffBox("jumd", jumd)
	for _, c := range content {
		body = append(body, c...)
	}
	return bmffBox("jumb", body)
}

// manifestStore is a C2PA store of one manifest with one actions assertion
// and a claim naming generator.
func manifestStore(generator string, actions ...map[string]any) []byte {
	list := make([]any, len(actions))
	for i, a := range actions {
		list[i] = a
	}
	assertions := superbox("c2pa.assertions",
		superbox("c2pa.actions.v2", bmffBox("cbor", cborEncode(map[string]any{"actions": list}))),
		superbox("c2pa.hash.data", bmffBox("cbor", cborEncode(map[string]any{"alg": "sha256"}))),
	)
	claim := superbox("c2pa.claim.v2", bmffBox("cbor", cborEncode(map[string]any{
		"claim_generator_info": []any{map[string]any{"name": generator, "version": "1.0"}},
	})))
	return superbox("c2pa", superbox("urn:c2pa:0000", assertions, claim, superbox("c2pa.signature")))
}

// app11 splits a JUMBF box into APP11 segments of at most size bytes of
// box data each, repeating the box header in continuations as C2PA does.
func app11(store []byte, size int) []byte {
	var out []byte
	for seq, p := 1, 0; p < len(store); seq++ {
		seg := binary.BigEndian.AppendUint32([]byte{'J', 'P', 0, 1}, uint32(seq))
		if seq > 1 {
			seg = append(seg, store[:8]...)
		}
		end := min(len(store), p+size)
		seg = append(seg, store[p:end]...)
		p = end
		out = append(out, segment(0xEB, seg)...)
	}
	return out
}

func withSegments(jpeg, segs []byte) []byte {
	return append(append(append([]byte(nil), jpeg[:2]...), segs...), jpeg[2:]...)
}

const iptcTrained = "http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"

func TestC2PAGenerativeActions(t *testing.T) {
	store := manifestStore("Example Signer",
		map[string]any{"action": "c2pa.created", "digitalSourceType": iptcTrained, "softwareAgent": map[string]any{"name": "Adobe Firefly"}},
	)
	// Split so the source type URI straddles two segments: only a
	// reassembled store shows it.
	jpeg := withSegments(buildJPEG(jpegOpts{}), app11(store, len(store)/2+7))
	r := analyze(t, jpeg)
	s := wantSignal(t, r, "image-generative-markers", "image-generative-markers.declared-synthetic", report.Medium)
	if s.Evidence["c2paManifests"] != 1 {
		t.Fatalf("manifests: %v", s.Evidence)
	}
	if got := s.Evidence["c2paSoftwareAgents"].([]string); len(got) != 1 || got[0] != "Adobe Firefly" {
		t.Fatalf("agents: %v", s.Evidence)
	}
	if got := s.Evidence["carriers"].([]string); !contains(got, "c2pa-actions") {
		t.Fatalf("carriers: %v", got)
	}

	// The same store in a PNG caBX chunk.
	r = analyze(t, buildPNG(chunk("caBX", store)))
	wantSignal(t, r, "image-generative-markers", "image-generative-markers.declared-synthetic", report.Medium)

	// A generator named only as the software agent, with no source type.
	named := manifestStore("Example Signer", map[string]any{"action": "c2pa.created", "softwareAgent": "Midjourney v6"})
	r = analyze(t, buildPNG(chunk("caBX", named)))
	s = wantSignal(t, r, "image-generative-markers", "image-generative-markers.generator-metadata", report.Medium)
	if got := s.Evidence["generators"].([]string); len(got) != 1 || got[0] != "Midjourney" {
		t.Fatalf("generators: %v", got)
	}
}

func TestC2PAEditorActions(t *testing.T) {
	store := manifestStore("Adobe_Photoshop/26.8.1",
		map[string]any{"action": "c2pa.opened"},
		map[string]any{"action": "c2pa.color_adjustments", "softwareAgent": "Adobe Lightroom 7.1"},
	)
	r := analyze(t, withSegments(buildJPEG(jpegOpts{}), app11(store, 4000)))
	s := wantSignal(t, r, "image-editing-software", "image-editing-software.editor-named", report.Low)
	if got := s.Evidence["sources"].([]string); !contains(got, "c2pa-actions") || !contains(got, "c2pa-claim-generator") {
		t.Fatalf("sources: %v", got)
	}
	wantQuiet(t, r, "image-generative-markers")

	// A capture manifest names neither an editor nor a generator.
	capture := manifestStore("Leica Camera", map[string]any{"action": "c2pa.created",
		"digitalSourceType": "http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"})
	r = analyze(t, withSegments(buildJPEG(jpegOpts{}), app11(capture, 4000)))
	wantQuiet(t, r, "image-generative-markers")
	wantQuiet(t, r, "image-editing-software")
}

func TestCBORBounds(t *testing.T) {
	for name, b := range map[string][]byte{
		"huge array":     {0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF},
		"huge text":      {0x7A, 0xFF, 0xFF, 0xFF, 0xF0, 'a'},
		"deep":           append(make([]byte, 0), repeatByte(0x81, 100)...),
		"stray break":    {0xFF},
		"truncated map":  {0xA2, 0x61, 'a', 0x01},
		"bad indef text": {0x7F, 0x01, 0xFF},
	} {
		if _, ok := decodeCBOR(b); ok {
			t.Errorf("%s: accepted", name)
		}
	}
	v, ok := decodeCBOR([]byte{0xBF, 0x61, 'a', 0x9F, 0x01, 0xF9, 0x3C, 0x00, 0xFF, 0xFF})
	m, _ := v.(map[string]any)
	if !ok || len(m["a"].([]any)) != 2 || m["a"].([]any)[1] != 1.0 {
		t.Fatalf("indefinite map: %v %v", v, ok)
	}
}

func repeatByte(c byte, n int) []byte {
	out := make([]byte, n)
	for i := range out {
		out[i] = c
	}
	return out
}

// FuzzC2PA drives the JUMBF walk and the CBOR reader over hostile stores.
func FuzzC2PA(f *testing.F) {
	f.Add(manifestStore("g", map[string]any{"action": "c2pa.created", "digitalSourceType": iptcTrained}))
	f.Add(superbox("c2pa", bmffBox("cbor", []byte{0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})))
	f.Fuzz(func(t *testing.T, b []byte) {
		s := decodeC2PA([][]byte{b})
		if len(s.actions) > maxC2PAActions {
			t.Fatalf("%d actions", len(s.actions))
		}
	})
}
