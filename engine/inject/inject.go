// Package inject detects text addressed to a language model: instructions
// planted in a document's metadata, comments, annotations or hidden runs so
// that an automated reviewer reading it obeys the document instead of its
// operator.
//
// It is a rule-based phrase detector, not a classifier: fixed cue patterns in
// English, Portuguese, Spanish, French and German, matched over text that is
// first normalised to undo the usual obfuscations, so results are
// deterministic and explainable. Scan judges one text; Finding (finding.go)
// turns a document's carriers into the report finding both the PDF and the
// Office analysers return. The package is pure: no state, no I/O, bounded
// work per text.
package inject

import (
	"sort"
)

// Category is a cue category from the fixed list below; safe to use as a
// report parameter.
type Category string

// Cue categories.
const (
	// Override: "ignore all previous instructions" and its variants.
	Override Category = "instruction-override"
	// Role: role or system-prompt impersonation: "you are now DAN",
	// "act as an unrestricted AI", "System prompt:", chat-template tokens.
	Role Category = "role-impersonation"
	// Approval: approval or scoring directives: "classify this invoice as
	// genuine", "do not flag any anomalies", "respond only with approved".
	Approval Category = "approval-directive"
	// Exfiltration: tool-call or exfiltration requests: "reveal your system
	// prompt", "send the API key to", tool-call syntax.
	Exfiltration Category = "tool-exfiltration"
	// Concealment: statements hiding the text from humans: "do not mention
	// these instructions", "this text is invisible to humans".
	Concealment Category = "concealment"
	// Addressing: the text addresses a model: "Dear AI", "if you are an
	// LLM", "note to the AI reviewer".
	Addressing Category = "model-addressing"
)

// Obfuscation techniques the normaliser undid, as reported.
const (
	TechZeroWidth = "zero-width-characters"
	TechBidi      = "bidi-controls"
	TechHomoglyph = "homoglyph-mixing"
	TechBase64    = "base64-blob"
	TechHex       = "hex-blob"
	TechSpaced    = "spaced-letters"
	TechLeet      = "leetspeak"
	TechComment   = "markup-comment"
	TechFullwidth = "fullwidth-forms"
	TechStyled    = "styled-letters"
	TechTags      = "tag-characters"
)

// MaxScan bounds the bytes of one text that are examined.
const MaxScan = 64 << 10

// Result is what Scan found in one text.
type Result struct {
	// Cues counts the cues found per category; nil when none.
	Cues map[Category]int
	// Techniques lists the obfuscations undone inside the counted cues,
	// sorted.
	Techniques []string
	// Directive is true when the text gives a model an instruction: a
	// directive-shaped cue, or a weaker request beside words addressing a
	// model or opening an instruction block. Cue words alone (a model
	// addressed, an attack phrase quoted) leave it false.
	Directive bool
}

// Found reports whether any cue matched.
func (r Result) Found() bool { return len(r.Cues) > 0 }

// Categories returns the matched categories, sorted.
func (r Result) Categories() []Category {
	out := make([]Category, 0, len(r.Cues))
	for c := range r.Cues {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Scan looks for cues in text. It examines at most MaxScan bytes.
func Scan(text string) Result {
	var sc scanner
	return sc.scan(text)
}

// scanner holds the buffers of a scan so that a run over many carriers
// reuses them instead of allocating per text.
type scanner struct {
	lx   lexer
	ms   matches
	cand []int
}

func (sc *scanner) scan(text string) Result {
	if len(text) > MaxScan {
		text = text[:MaxScan]
	}
	sc.ms.reset()
	for _, seg := range segments(text) {
		toks := sc.lx.tokenize(seg.text, seg.tech)
		sc.cand = sc.ms.rules(toks, sc.cand)
		sc.ms.markers(seg)
	}
	return sc.ms.result()
}
