// Package inject detects text addressed to a language model: instructions
// planted in a document's metadata, comments or hidden text so that an
// automated reviewer reading it obeys the document instead of its operator.
//
// It is a phrase detector, not a classifier: a fixed list of cue patterns
// over normalised text, so results are deterministic and explainable. It is
// shared by the Office and PDF analysers and is pure (no state, no I/O).
package inject

import (
	"sort"
	"strings"
	"unicode"
)

// Category is a cue category from the fixed list below; safe to use as a
// report parameter.
type Category string

// Cue categories.
const (
	// Override: "ignore previous instructions" and its variants.
	Override Category = "instruction-override"
	// Role: "you are an AI", "you are now ...", "as a language model".
	Role Category = "role-assignment"
	// SystemPrompt: "system prompt" and chat-template markers.
	SystemPrompt Category = "system-prompt"
	// Steering: "respond only with", "do not flag", "classify this as".
	Steering Category = "output-steering"
)

// Techniques of obfuscation the normaliser undid.
const (
	TechZeroWidth = "zero-width-characters"
	TechSpaced    = "spaced-letters"
	TechFullwidth = "fullwidth-forms"
)

// MaxScan bounds the bytes of one text that are examined.
const MaxScan = 64 << 10

// Result is what Scan found in one text.
type Result struct {
	Cues       map[Category]int
	Techniques []string // sorted
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

// Scan looks for cues in text.
func Scan(text string) Result {
	if len(text) > MaxScan {
		text = text[:MaxScan]
	}
	words, raw, tech := normalise(text)
	res := Result{Cues: map[Category]int{}}
	for _, p := range phrases {
		if n := p.count(words); n > 0 {
			res.Cues[p.cat] += n
		}
	}
	for _, m := range markers {
		if n := strings.Count(raw, m); n > 0 {
			res.Cues[SystemPrompt] += n
		}
	}
	if len(res.Cues) == 0 {
		res.Cues = nil
		return res
	}
	for t := range tech {
		res.Techniques = append(res.Techniques, t)
	}
	sort.Strings(res.Techniques)
	return res
}

// normalise lower-cases text, maps fullwidth forms to ASCII, drops
// zero-width characters, splits into words of letters and digits, and joins
// runs of single letters ("i g n o r e") back into words. raw is the
// lower-cased text with zero-width characters removed, for template markers.
func normalise(text string) (words []string, raw string, tech map[string]bool) {
	tech = map[string]bool{}
	var b strings.Builder
	b.Grow(len(text))
	for _, r := range text {
		switch {
		case r == 0x200B || r == 0x200C || r == 0x200D || r == 0x2060 || r == 0xFEFF || r == 0x00AD:
			tech[TechZeroWidth] = true
			continue
		case r >= 0xFF01 && r <= 0xFF5E:
			tech[TechFullwidth] = true
			r -= 0xFEE0
		}
		b.WriteRune(unicode.ToLower(r))
	}
	raw = b.String()
	fields := strings.FieldsFunc(raw, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	single := func(f string) bool { return len(f) == 1 || len([]rune(f)) == 1 }
	for i := 0; i < len(fields); {
		j := i
		for j < len(fields) && single(fields[j]) {
			j++
		}
		// Three or more single letters in a row are a spaced-out word;
		// fewer are ordinary words such as "a" and "i".
		if j-i >= 3 {
			tech[TechSpaced] = true
			words = append(words, strings.Join(fields[i:j], ""))
			i = j
			continue
		}
		if j == i {
			j++
		}
		words = append(words, fields[i:j]...)
		i = j
	}
	return words, raw, tech
}

// phrase matches a lead word followed, within window words, by a target.
type phrase struct {
	cat     Category
	lead    []string // consecutive words
	targets map[string]bool
	window  int
}

func set(ws ...string) map[string]bool {
	m := make(map[string]bool, len(ws))
	for _, w := range ws {
		m[w] = true
	}
	return m
}

var instructionWords = set("instruction", "instructions", "prompt", "prompts", "rules", "directions", "directives", "guidelines", "above", "context")

// phrases is the cue list. Windows are short so ordinary prose ("ignore the
// rounding rules in appendix B") rarely matches at a distance.
var phrases = []phrase{
	{Override, []string{"ignore"}, instructionWords, 4},
	{Override, []string{"disregard"}, instructionWords, 4},
	{Override, []string{"forget"}, instructionWords, 4},
	{Override, []string{"override"}, set("instruction", "instructions", "prompt", "rules", "guidelines"), 3},
	{Override, []string{"new"}, set("instructions"), 1},
	{Role, []string{"you", "are"}, set("ai", "assistant", "chatbot", "llm", "gpt", "chatgpt", "claude", "gemini", "model", "now"), 3},
	{Role, []string{"as", "an"}, set("ai"), 1},
	{Role, []string{"as", "a"}, set("language", "llm"), 1},
	{Role, []string{"pretend"}, set("you", "be"), 2},
	{SystemPrompt, []string{"system"}, set("prompt", "message", "instructions"), 1},
	{SystemPrompt, []string{"developer"}, set("message", "mode"), 1},
	{Steering, []string{"respond"}, set("only", "with"), 1},
	{Steering, []string{"reply"}, set("only"), 1},
	{Steering, []string{"output"}, set("only"), 1},
	{Steering, []string{"do", "not"}, set("flag", "mention", "report", "reveal", "disclose"), 1},
	{Steering, []string{"classify"}, set("this", "document", "it"), 1},
	{Steering, []string{"approve"}, set("this", "the"), 1},
	{Steering, []string{"mark"}, set("genuine", "authentic", "legitimate", "safe", "clean"), 3},
}

// markers are chat-template tokens, matched on the raw lower-cased text.
var markers = []string{"<|im_start|>", "<|system|>", "[inst]", "<<sys>>", "### system", "### instruction"}

func (p phrase) count(words []string) int {
	n := 0
	for i := 0; i+len(p.lead) <= len(words); i++ {
		ok := true
		for j, l := range p.lead {
			if words[i+j] != l {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		end := min(len(words), i+len(p.lead)+p.window)
		for k := i + len(p.lead); k < end; k++ {
			if p.targets[words[k]] {
				n++
				break
			}
		}
	}
	return n
}
