package image

import (
	"bytes"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
)

// C2PA manifest stores are JUMBF superboxes (ISO 19566-5) whose assertions
// are CBOR. Only what the families use is decoded: the actions assertions
// (what was done, by which software agent, with which IPTC digital source
// type) and the claim generator. Signatures and hashes are not validated
// (SPEC.md: no cryptographic validation).

// Decoding limits: a manifest store is attacker-authored.
const (
	maxJUMBFDepth   = 8
	maxJUMBFBoxes   = 4096
	maxC2PAActions  = 256
	maxC2PAStoreLen = 8 << 20 // bytes assembled from JPEG APP11 segments
)

// c2paAction is one entry of a c2pa.actions assertion.
type c2paAction struct {
	action     string
	agent      string // softwareAgent, a string or the name of a ClaimGeneratorInfo map
	sourceType string // the last path element of digitalSourceType
}

// c2paStore is what was decoded from the manifest stores of one file.
type c2paStore struct {
	manifests  int
	actions    []c2paAction
	generators []string // claim_generator and claim_generator_info names
	// undecoded counts content boxes that were not read (compressed
	// "brob" boxes, CBOR that did not parse).
	undecoded int
}

// decodeC2PA reads every payload handed to addC2PA. A payload may carry
// container framing before the superbox (the C2PA uuid box of ISOBMFF),
// so the first plausible "jumb" box is located first.
func decodeC2PA(payloads [][]byte) c2paStore {
	var s c2paStore
	budget := maxJUMBFBoxes
	for _, p := range payloads {
		if start := jumbStart(p); start >= 0 {
			s.walk(p[start:], "", 0, &budget)
		}
	}
	return s
}

// jumbStart returns the offset of the first box header whose type is
// "jumb" and whose length fits the payload, or -1.
func jumbStart(p []byte) int {
	for off := 0; off+8 <= len(p); {
		i := bytes.Index(p[off+4:], []byte("jumb"))
		if i < 0 {
			return -1
		}
		at := off + i // box header start: length precedes the type
		n := int(be32(p[at:]))
		if n == 1 || (n >= 8 && n <= len(p)-at) {
			return at
		}
		off = at + 1
	}
	return -1
}

// walk reads the boxes of b, the contents of a superbox labelled label.
func (s *c2paStore) walk(b []byte, label string, depth int, budget *int) {
	if depth > maxJUMBFDepth {
		s.undecoded++
		return
	}
	for p := 0; p+8 <= len(b) && *budget > 0; {
		*budget--
		size := int(be32(b[p:]))
		typ := string(b[p+4 : p+8])
		hdr := 8
		switch {
		case size == 1 && p+16 <= len(b):
			x := uint64(be32(b[p+8:]))<<32 | uint64(be32(b[p+12:]))
			if x > uint64(len(b)-p) {
				return
			}
			size, hdr = int(x), 16
		case size == 0:
			size = len(b) - p
		}
		if size < hdr || size > len(b)-p {
			return
		}
		body := b[p+hdr : p+size]
		p += size
		switch typ {
		case "jumb":
			s.superbox(body, depth, budget)
		case "cbor":
			s.content(label, body)
		case "brob":
			s.undecoded++
		}
	}
}

// superbox reads a jumb box: its description box gives the label under
// which its content boxes are read.
func (s *c2paStore) superbox(body []byte, depth int, budget *int) {
	if len(body) < 8 || string(body[4:8]) != "jumd" {
		s.undecoded++
		return
	}
	n := int(be32(body))
	if n < 8 || n > len(body) {
		s.undecoded++
		return
	}
	label := jumdLabel(body[8:n])
	if strings.HasPrefix(label, "c2pa.claim") {
		s.manifests++
	}
	s.walk(body[n:], label, depth+1, budget)
}

// jumdLabel reads the label of a JUMBF description box: a 16-byte type,
// a toggle byte whose bit 1 says a NUL-terminated label follows.
func jumdLabel(d []byte) string {
	if len(d) < 17 || d[16]&0x02 == 0 {
		return ""
	}
	rest := d[17:]
	if i := bytes.IndexByte(rest, 0); i >= 0 {
		rest = rest[:i]
	}
	if len(rest) > 256 {
		rest = rest[:256]
	}
	return string(rest)
}

// content decodes one CBOR content box by the label of its superbox.
// Labels may carry a "__N" instance suffix.
func (s *c2paStore) content(label string, body []byte) {
	base, _, _ := strings.Cut(label, "__")
	var decode func(any)
	switch base {
	case "c2pa.actions", "c2pa.actions.v2":
		decode = s.actionsFrom
	case "c2pa.claim", "c2pa.claim.v2":
		decode = s.claimFrom
	default:
		return
	}
	v, ok := decodeCBOR(body)
	if !ok {
		s.undecoded++
		return
	}
	decode(v)
}

func (s *c2paStore) actionsFrom(v any) {
	m, _ := v.(map[string]any)
	list, _ := m["actions"].([]any)
	for _, e := range list {
		a, _ := e.(map[string]any)
		if a == nil || len(s.actions) >= maxC2PAActions {
			continue
		}
		act := c2paAction{action: str(a["action"]), agent: agentName(a["softwareAgent"])}
		if t := str(a["digitalSourceType"]); t != "" {
			act.sourceType = t[strings.LastIndexByte(t, '/')+1:]
		}
		s.actions = append(s.actions, act)
	}
}

func (s *c2paStore) claimFrom(v any) {
	m, _ := v.(map[string]any)
	add := func(g string) {
		if g != "" && !contains(s.generators, g) && len(s.generators) < maxC2PAActions {
			s.generators = append(s.generators, g)
		}
	}
	add(str(m["claim_generator"]))
	switch info := m["claim_generator_info"].(type) {
	case []any:
		for _, e := range info {
			add(agentName(e))
		}
	case map[string]any:
		add(agentName(info))
	}
}

// agentName reads a softwareAgent: a plain string (C2PA 1.x) or a
// ClaimGeneratorInfo map with a name (2.x).
func agentName(v any) string {
	if m, ok := v.(map[string]any); ok {
		return str(m["name"])
	}
	return str(v)
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// agents lists the distinct software agents of the decoded actions.
func (s c2paStore) agents() []string {
	var out []string
	for _, a := range s.actions {
		if a.agent != "" && !contains(out, a.agent) {
			out = append(out, a.agent)
		}
	}
	return out
}

// actionNames lists the distinct action names, in order of appearance.
func (s c2paStore) actionNames() []string {
	var out []string
	for _, a := range s.actions {
		if a.action != "" && !contains(out, a.action) {
			out = append(out, a.action)
		}
	}
	return out
}

// untrustedAll sanitises attacker-authored strings for evidence.
func untrustedAll(list []string) []string {
	out := make([]string, len(list))
	for i, v := range list {
		out[i] = report.Untrusted(v)
	}
	return out
}
