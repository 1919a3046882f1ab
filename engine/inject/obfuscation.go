package inject

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode"
	"unicode/utf8"
)

// segment is one stretch of text scanned on its own: the text itself, a
// comment body, a decoded blob, or the ASCII spelled in tag characters. Its
// techniques mark every cue found in it.
type segment struct {
	text string
	tech tech
}

// Bounds of the side channels one text may open.
const (
	maxComments  = 16   // markup comments read as segments
	maxBlobs     = 8    // base64 or hex blobs decoded
	maxBlobChars = 4096 // characters of one blob decoded
	minBlob      = 20   // shortest blob worth decoding (15 bytes of base64 text)
	maxSpaced    = 256  // letters of one spaced run segmented into words
)

// segments splits text into the main text and its hidden stretches: tag
// characters (invisible ASCII), HTML and markdown comments, and base64 or
// hex blobs that decode to readable text.
func segments(text string) []segment {
	var out []segment
	main := text
	if strings.Contains(main, "\xf3\xa0") { // UTF-8 lead bytes of U+E0000-U+E007F
		var plain, tags strings.Builder
		for _, r := range main {
			if r >= 0xE0000 && r <= 0xE007F {
				if r >= 0xE0020 && r <= 0xE007E {
					tags.WriteByte(byte(r - 0xE0000))
				}
				continue
			}
			plain.WriteRune(r)
		}
		main = plain.String()
		if tags.Len() > 0 {
			out = append(out, segment{tags.String(), tTags})
		}
	}
	main, comments := cutComments(main)
	for _, c := range comments {
		out = append(out, segment{c, tComment})
	}
	out = append(out, blobs(main)...)
	return append([]segment{{main, 0}}, out...)
}

// commentForms are the openers and closers of markup comments.
var commentForms = [][2]string{
	{"<!--", "-->"},
	{"[//]: # (", ")"},
	{"[//]: <> (", ")"},
	{"[comment]: # (", ")"},
	{"[comment]: <> (", ")"},
}

// cutComments removes markup comments from text and returns their bodies.
func cutComments(text string) (string, []string) {
	var bodies []string
	for _, f := range commentForms {
		for len(bodies) < maxComments {
			i := strings.Index(text, f[0])
			if i < 0 {
				break
			}
			rest := text[i+len(f[0]):]
			j := strings.Index(rest, f[1])
			end := len(rest)
			if j >= 0 {
				end = j
			}
			bodies = append(bodies, rest[:end])
			tail := ""
			if j >= 0 {
				tail = rest[j+len(f[1]):]
			}
			text = text[:i] + " | " + tail
		}
	}
	return text, bodies
}

// blobs decodes the base64 and hex runs of text that decode to readable
// text. Runs are cut to maxBlobChars before decoding; binary results (a
// thumbnail, a hash) are dropped.
func blobs(text string) []segment {
	var out []segment
	for i := 0; i < len(text) && len(out) < maxBlobs; {
		if !isB64(text[i]) {
			i++
			continue
		}
		j := i
		allHex := true
		for j < len(text) && isB64(text[j]) {
			if !isHexDigit(text[j]) {
				allHex = false
			}
			j++
		}
		run := text[i:j]
		i = j
		if len(run) < minBlob {
			continue
		}
		if len(run) > maxBlobChars {
			run = run[:maxBlobChars]
		}
		var (
			data []byte
			t    tech
		)
		if allHex {
			data, _ = hex.DecodeString(run[:len(run)&^1])
			t = tHex
		} else {
			data = decodeB64(run)
			t = tBase64
		}
		if readable(data) {
			out = append(out, segment{string(data), t})
		}
	}
	return out
}

func isB64(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '+' || c == '/' || c == '=' || c == '-' || c == '_'
}

func isHexDigit(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// decodeB64 decodes standard or URL-safe base64 with or without padding,
// ignoring a partial last quantum.
func decodeB64(run string) []byte {
	run = strings.TrimRight(run, "=")
	if i := strings.IndexByte(run, '='); i >= 0 {
		run = run[:i]
	}
	run = run[:len(run)-len(run)%4]
	enc := base64.RawStdEncoding
	if strings.ContainsAny(run, "-_") {
		enc = base64.RawURLEncoding
	}
	data, err := enc.DecodeString(run)
	if err != nil {
		return nil
	}
	return data
}

// readable: UTF-8 text of mostly letters and spaces, with at least one
// space, as an instruction would be.
func readable(b []byte) bool {
	if len(b) < 8 || !utf8.Valid(b) {
		return false
	}
	n, good, spaces := 0, 0, 0
	for _, r := range string(b) {
		n++
		switch {
		case r == ' ' || r == '\n' || r == '\r' || r == '\t':
			spaces++
			good++
		case unicode.IsControl(r) || r == utf8.RuneError:
			return false
		case unicode.IsLetter(r) || r == '.' || r == ',' || r == '\'' || r == ':':
			good++
		}
	}
	return spaces > 0 && good*10 >= n*8
}

// joinSpaced joins runs of three or more one-character words ("i g n o r e
// a l l") into words. A separator longer than, or different from, the one
// between the letters of the run marks a word break; a run with no break is
// split into words of the cue vocabulary when it can be.
func joinSpaced(toks []token) []token {
	var out []token
	for i := 0; i < len(toks); {
		j := i
		for j < len(toks) && single(toks[j]) && (j == i || !toks[j].sentence && toks[j].sepLen <= 3) {
			j++
		}
		if j-i < 3 {
			if out != nil {
				out = append(out, toks[i])
			}
			i++
			continue
		}
		if out == nil {
			out = append(make([]token, 0, len(toks)), toks[:i]...)
		}
		out = append(out, joinRun(toks[i:j])...)
		i = j
	}
	if out == nil {
		return toks
	}
	return out
}

func single(t token) bool {
	return t.w != "" && utf8.RuneCountInString(t.w) == 1
}

// joinRun joins one run of single-character tokens.
func joinRun(run []token) []token {
	// The inner separator is the commonest one between the run's letters.
	type sepKey struct {
		n int
		r rune
	}
	counts := map[sepKey]int{}
	for _, t := range run[1:] {
		counts[sepKey{t.sepLen, t.sep}]++
	}
	var inner sepKey
	best := 0
	for k, c := range counts {
		if c > best || c == best && (k.n < inner.n || k.n == inner.n && k.r < inner.r) {
			inner, best = k, c
		}
	}
	var groups [][]token
	g := 0
	for k := 1; k <= len(run); k++ {
		if k == len(run) || (sepKey{run[k].sepLen, run[k].sep}) != inner {
			groups = append(groups, run[g:k])
			g = k
		}
	}
	var out []token
	for _, grp := range groups {
		var b strings.Builder
		var tt tech
		for _, t := range grp {
			b.WriteString(t.w)
			tt |= t.tech
		}
		if len(grp) > 1 {
			tt |= tSpaced
		}
		w := b.String()
		parts := []string{w}
		if len(groups) == 1 && !vocabulary()[w] {
			if p := splitWords(w); p != nil {
				parts = p
			}
		}
		for k, p := range parts {
			t := grp[0]
			if k > 0 {
				t = token{sepLen: 1, sep: ' '}
			}
			t.w, t.tech = p, tt
			out = append(out, t)
		}
	}
	return out
}

// minRunTogether is the shortest word tried as several words run together
// ("ignoreallpreviousinstructions", a custom key "IgnorePreviousInstructions").
const minRunTogether = 16

// splitLong splits long words that read as several vocabulary words.
func splitLong(toks []token) []token {
	var out []token
	for i, t := range toks {
		var parts []string
		if len(t.w) >= minRunTogether && framedByWords(t.w) {
			parts = splitWords(t.w)
		}
		if parts == nil {
			if out != nil {
				out = append(out, t)
			}
			continue
		}
		if out == nil {
			out = append(make([]token, 0, len(toks)+len(parts)), toks[:i]...)
		}
		for k, p := range parts {
			nt := t
			if k > 0 {
				nt = token{sepLen: 1, sep: ' ', tech: t.tech}
			}
			nt.w = p
			out = append(out, nt)
		}
	}
	if out == nil {
		return toks
	}
	return out
}

// framedByWords is a cheap test before splitWords: words run together
// begin and end with a vocabulary word of three letters or more.
func framedByWords(w string) bool {
	vocab := vocabulary()
	if vocab[w] {
		return false
	}
	begins, ends := false, false
	for l := 3; l <= min(len(w), lex().maxVocab) && !(begins && ends); l++ {
		begins = begins || vocab[w[:l]]
		ends = ends || vocab[w[len(w)-l:]]
	}
	return begins && ends
}

// splitWords segments a run of letters written without word breaks into
// words of the vocabulary, allowing a few unknown letters; nil when it does
// not read as words.
func splitWords(s string) []string {
	n := len(s)
	if n > maxSpaced || n < 6 {
		return nil
	}
	for i := 0; i < n; i++ {
		if s[i] >= utf8.RuneSelf {
			return nil
		}
	}
	cost := make([]int, n+1)
	pieces := make([]int, n+1)
	back := make([]int, n+1)
	known := make([]bool, n+1)
	vocab := vocabulary()
	for i := 1; i <= n; i++ {
		cost[i], pieces[i], back[i] = cost[i-1]+1, pieces[i-1]+1, i-1
		for l := 1; l <= min(i, lex().maxVocab); l++ {
			if !vocab[s[i-l:i]] {
				continue
			}
			c, p := cost[i-l], pieces[i-l]+1
			if c < cost[i] || c == cost[i] && p < pieces[i] {
				cost[i], pieces[i], back[i], known[i] = c, p, i-l, true
			}
		}
	}
	if cost[n]*6 > n {
		return nil
	}
	var rev []string
	unknown := ""
	for i := n; i > 0; i = back[i] {
		if known[i] {
			if unknown != "" {
				rev = append(rev, unknown)
				unknown = ""
			}
			rev = append(rev, s[back[i]:i])
			continue
		}
		unknown = s[back[i]:i] + unknown
	}
	if unknown != "" {
		rev = append(rev, unknown)
	}
	if len(rev) < 2 {
		return nil
	}
	out := make([]string, len(rev))
	for i, w := range rev {
		out[len(rev)-1-i] = w
	}
	return out
}
