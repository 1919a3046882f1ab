package inject

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// strength says how a cue counts.
type strength uint8

const (
	// weak: a request a person may also make of a person ("approve this
	// invoice"); it counts only beside another kind of cue in the same
	// text, and is a directive only beside a frame.
	weak strength = iota
	// strong: a directive only a model is given ("ignore all previous
	// instructions").
	strong
	// frame: words that address a model or open a new instruction block
	// ("Dear AI", "New instructions:"); a cue, not a directive, but it
	// turns the weak requests beside it into directives.
	frame
	// mention: a strong phrase cited rather than given (in quotation
	// marks, after "such as"); a cue, never a directive.
	mention
)

// rule is one compiled cue pattern.
type rule struct {
	cat        Category
	str        strength
	imperative bool // the first word must open a clause (see imperative)
	slots      []slot
	veto       wordSet // words that cancel a match near it
	src        string
}

// slot is one position of a pattern: a set of alternatives, or a boundary
// assertion, reached after skipping at most gap words.
type slot struct {
	gap    int
	assert byte    // 0: words; '$': a clause boundary here; ':' a colon here
	single wordSet // one-word alternatives
	alts   []alt   // multi-word or prefix alternatives, longest first
}

// alt is a multi-word alternative; prefix makes its last word a prefix.
type alt struct {
	words  []string
	prefix bool
}

// compile parses one pattern of the cue language:
//
//	^ignore|disregard ~3 previous|prior ~3 instructions|prompt* !payment|bank
//
// Fields are slots separated by spaces. A slot lists alternatives separated
// by "|"; "_" joins the words of a multi-word alternative ("do_not"); a
// trailing "*" makes an alternative a prefix ("instruc*"). "~N" lets up to N
// words be skipped before the next slot. "$" asserts a clause boundary and
// "$:" a colon at that point. A leading "^" requires the first word to be
// in imperative position. A last field "!a|b" lists veto words: a match with
// one of them after its first word, or within two words after it in the
// same clause, does not count.
// Alternatives are normalised like document text, so "instruções" and
// "don't" are written as they are spelled.
func compile(cat Category, str strength, pattern string) rule {
	r := rule{cat: cat, str: str, src: pattern}
	gap := 0
	for i, f := range strings.Fields(pattern) {
		switch {
		case f[0] == '~':
			n, err := strconv.Atoi(f[1:])
			if err != nil || n < 0 {
				panic(fmt.Sprintf("inject: bad gap %q in %q", f, pattern))
			}
			gap = n
			continue
		case f == "$":
			r.slots = append(r.slots, slot{assert: '$'})
			continue
		case f == "$:":
			r.slots = append(r.slots, slot{assert: ':'})
			continue
		case f[0] == '!':
			var veto []string
			for _, v := range strings.Split(f[1:], "|") {
				veto = append(veto, words(v)...)
			}
			r.veto = newWordSet(veto)
			continue
		case i == 0 && f[0] == '^':
			r.imperative = true
			f = f[1:]
		}
		s := slot{gap: gap}
		gap = 0
		single := make([]string, 0, strings.Count(f, "|")+1)
		for _, a := range strings.Split(f, "|") {
			prefix := strings.HasSuffix(a, "*")
			ws := words(strings.TrimSuffix(a, "*"))
			if len(ws) == 0 {
				panic(fmt.Sprintf("inject: empty alternative in %q", pattern))
			}
			if len(ws) == 1 && !prefix {
				single = append(single, ws[0])
				continue
			}
			s.alts = append(s.alts, alt{ws, prefix})
		}
		s.single = newWordSet(single)
		slices.SortStableFunc(s.alts, func(a, b alt) int { return len(b.words) - len(a.words) })
		r.slots = append(r.slots, s)
	}
	if len(r.slots) == 0 || r.slots[0].assert != 0 {
		panic(fmt.Sprintf("inject: pattern %q must start with words", pattern))
	}
	return r
}

// words normalises one alternative of a pattern into its words.
func words(s string) []string {
	if plainWord(s) {
		return []string{s}
	}
	return lexWords(s)
}

// plainWord: lower-case ASCII letters only, which the lexer gives back
// unchanged as one word. Most of the lexicon is such words, and passing
// them through the lexer was half the cost of building it.
func plainWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

func lexWords(s string) []string {
	var lx lexer
	toks := lx.lex(strings.ReplaceAll(s, "_", " "), 0)
	out := make([]string, 0, len(toks))
	for _, t := range toks[:len(toks)-1] {
		out = append(out, t.w)
	}
	return out
}

// match returns how many tokens the slot matches at k (0: none). Multi-word
// alternatives are tried first so the longest reading wins.
func (s *slot) match(toks []token, k int) int {
	last := len(toks) - 1 // the sentinel
	for _, a := range s.alts {
		n := len(a.words)
		if k+n > last {
			continue
		}
		ok := true
		for m, w := range a.words {
			t := toks[k+m]
			if m > 0 && t.sentence {
				ok = false
				break
			}
			if m == n-1 && a.prefix {
				ok = strings.HasPrefix(t.w, w)
			} else {
				ok = t.w == w
			}
			if !ok {
				break
			}
		}
		if ok {
			return n
		}
	}
	if k < last && s.single.has(toks[k].w) {
		return 1
	}
	return 0
}

// matchAt matches the rule with its first slot at token i and returns the
// end (exclusive) of the match.
func (r *rule) matchAt(toks []token, i int) (int, bool) {
	if r.imperative && !imperative(toks, i) {
		return 0, false
	}
	n := r.slots[0].match(toks, i)
	if n == 0 {
		return 0, false
	}
	k := i + n
	last := len(toks) - 1
	for _, s := range r.slots[1:] {
		switch s.assert {
		case '$':
			if !toks[k].start {
				return 0, false
			}
			continue
		case ':':
			if !toks[k].colon {
				return 0, false
			}
			continue
		}
		found := false
		for g := 0; g <= s.gap && k+g < last; g++ {
			if toks[k+g].sentence {
				return 0, false // never across a sentence
			}
			if n := s.match(toks, k+g); n > 0 {
				k += g + n
				found = true
				break
			}
		}
		if !found {
			return 0, false
		}
	}
	if len(r.veto) > 0 {
		for j := i + n; j < min(k+2, last); j++ {
			if j >= k && toks[j].start {
				break // the words after a match count up to the clause's end
			}
			if r.veto.has(toks[j].w) {
				return 0, false
			}
		}
	}
	return k, true
}

// imperative reports whether the word at i stands where a command's verb
// does: at the start of a clause, possibly after a few lead-in words
// ("please", "now", "you must", "I want you to"), or right after "and" or
// "then" joining it to a previous command. A modal lead-in needs a
// second person, so "The supplier must ignore ..." is not a command while
// "You must ignore ..." is.
func imperative(toks []token, i int) bool {
	modal, you := false, false
	t := lex()
	for steps := 0; ; steps++ {
		if toks[i].start {
			return !modal || you
		}
		if steps == 4 || i == 0 {
			return false
		}
		i--
		w := toks[i].w
		if t.conjunctions.has(w) && steps == 0 {
			return true // "... and approve this": a second command
		}
		if !t.leadIn.has(w) {
			return false
		}
		modal = modal || t.modals.has(w)
		you = you || t.secondPerson.has(w)
	}
}

func buildIndex(rules []rule) (exact, prefix []indexEntry) {
	ex, pre := map[string][]int{}, map[string][]int{}
	add := func(m map[string][]int, k string, i int) {
		if l := m[k]; len(l) == 0 || l[len(l)-1] != i {
			m[k] = append(l, i)
		}
	}
	for i, r := range rules {
		s := r.slots[0]
		for _, w := range s.single {
			add(ex, w, i)
		}
		for _, a := range s.alts {
			if len(a.words) == 1 && a.prefix {
				if len(a.words[0]) < 3 {
					panic(fmt.Sprintf("inject: prefix %q shorter than 3 letters in %q", a.words[0], r.src))
				}
				add(pre, a.words[0][:3], i)
				continue
			}
			add(ex, a.words[0], i)
		}
	}
	return indexEntries(ex), indexEntries(pre)
}

// indexEntries sorts an index by word, each word's rules in order.
func indexEntries(m map[string][]int) []indexEntry {
	out := make([]indexEntry, 0, len(m))
	for w, l := range m {
		sort.Ints(l)
		out = append(out, indexEntry{w, dedupe(l)})
	}
	slices.SortFunc(out, func(a, b indexEntry) int { return strings.Compare(a.word, b.word) })
	return out
}

func dedupe(l []int) []int {
	out := l[:0]
	for i, v := range l {
		if i == 0 || v != l[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// priority orders the readings of one phrase: a directive over a frame
// over a citation over a weak request.
var priority = [...]int{weak: 0, mention: 1, frame: 2, strong: 3}

// match is one cue found in one segment.
type match struct {
	cat        Category
	str        strength
	seg        int
	start, end int
	tech       tech
}

// matches gathers the cues of one text, segment by segment.
type matches struct {
	list []match
	seg  int
}

// reset empties the list for the next text, keeping its storage.
func (ms *matches) reset() { ms.list, ms.seg = ms.list[:0], 0 }

// rules runs every cue rule over one segment's tokens; cand is scratch
// space, returned for reuse.
func (ms *matches) rules(toks []token, cand []int) []int {
	ms.seg++
	last := len(toks) - 1
	idx := index()
	for i := 0; i < last; i++ {
		w := toks[i].w
		cand = append(cand[:0], idx.exact[w]...)
		if len(w) >= 3 {
			cand = append(cand, idx.prefix[w[:3]]...)
		}
		for _, ri := range cand {
			r := &lex().rules[ri]
			end, ok := r.matchAt(toks, i)
			if !ok {
				continue
			}
			str := r.str
			if str == strong && mentioned(toks, i, end) {
				str = mention
			}
			var t tech
			for _, tk := range toks[i:end] {
				t |= tk.tech
			}
			ms.list = append(ms.list, match{cat: r.cat, str: str, seg: ms.seg, start: i, end: end, tech: t})
		}
	}
	return cand
}

// mentioned reports whether the phrase toks[i:end] is cited rather than
// given: set in quotation marks, or introduced in the same sentence by a
// word such as "such as", "example" or "attack".
func mentioned(toks []token, i, end int) bool {
	if toks[i].quote && toks[end].quote {
		return true
	}
	for j, steps := i, 0; j > 0 && steps < 6 && !toks[j].sentence; steps++ {
		j--
		if lex().mentionWords.has(toks[j].w) {
			return true
		}
	}
	return false
}

// markers counts chat-template and tool-call tokens, matched on the
// lower-cased text of a segment.
func (ms *matches) markers(seg segment) {
	ms.seg++
	if !strings.ContainsAny(seg.text, "<[#\"`!") && !strings.Contains(seg.text, "\n\n") {
		return // every marker holds one of these
	}
	low := strings.ToLower(seg.text)
	for _, m := range rawMarkers {
		if n := strings.Count(low, m.text); n > 0 {
			for range n {
				ms.list = append(ms.list, match{cat: m.cat, str: strong, seg: ms.seg, tech: seg.tech})
			}
		}
	}
	if str, ok := markdownExfil(low); ok {
		ms.list = append(ms.list, match{cat: Exfiltration, str: str, seg: ms.seg, tech: seg.tech})
	}
}

// markdownExfil recognises a markdown image whose address carries a query,
// the usual way to make a chat client send data out by loading an image.
// A placeholder in the query ("{", "<", "[", "$") makes it strong.
func markdownExfil(low string) (strength, bool) {
	for n := 0; n < 8; n++ {
		i := strings.Index(low, "![")
		if i < 0 {
			return 0, false
		}
		low = low[i+2:]
		j := strings.Index(low, "](http")
		if j < 0 || j > 300 {
			continue
		}
		url := low[j+2:]
		if k := strings.IndexAny(url, ") \n"); k >= 0 {
			url = url[:k]
		}
		q := strings.IndexByte(url, '?')
		if q < 0 {
			continue
		}
		if strings.ContainsAny(url[q:], "{<[$") || strings.Contains(url[q:], "%7b") {
			return strong, true
		}
		return weak, true
	}
	return 0, false
}

// result resolves the matches: weak cues count only beside a strong or
// addressing cue, overlapping cues of one category count once.
func (ms *matches) result() Result {
	var res Result
	anchored := false
	for _, m := range ms.list {
		if m.str != weak {
			anchored = true
			break
		}
	}
	if !anchored {
		return res
	}
	// At one position the strongest reading wins the overlap.
	sort.SliceStable(ms.list, func(i, j int) bool {
		a, b := ms.list[i], ms.list[j]
		if a.seg != b.seg {
			return a.seg < b.seg
		}
		if a.start != b.start {
			return a.start < b.start
		}
		return priority[a.str] > priority[b.str]
	})
	type pos struct{ seg, end int }
	lastEnd := map[Category]pos{}
	var techs tech
	framed, weakSeen := false, false
	res.Cues = map[Category]int{}
	for _, m := range ms.list {
		if p, ok := lastEnd[m.cat]; ok && p.seg == m.seg && m.start < p.end {
			continue
		}
		if m.end > m.start {
			lastEnd[m.cat] = pos{m.seg, m.end}
		}
		res.Cues[m.cat]++
		techs |= m.tech
		switch m.str {
		case strong:
			res.Directive = true
		case frame:
			framed = true
		case weak:
			weakSeen = true
		}
	}
	if framed && weakSeen {
		res.Directive = true
	}
	res.Techniques = techs.names()
	sort.Strings(res.Techniques)
	return res
}

// wordSet is a small sorted set of words. The lexicon holds hundreds of
// them, one per slot; as sorted slices they can be static data
// (lexicon_tables.go), which maps cannot, and a binary search over a few
// words is as quick as a hash.
type wordSet []string

func newWordSet(words []string) wordSet {
	if len(words) == 0 {
		return nil
	}
	slices.Sort(words)
	return slices.Compact(words)
}

func (s wordSet) has(w string) bool {
	_, found := slices.BinarySearch(s, w)
	return found
}
