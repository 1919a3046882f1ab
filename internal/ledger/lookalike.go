package ledger

import (
	"strings"

	"golang.org/x/net/idna"
	"golang.org/x/net/publicsuffix"
)

// A sender domain that imitates a known supplier's is the classic invoice
// fraud: `calderfinch-co.uk` for `calderfinch.co.uk`, `ca1derfinch.co.uk`,
// a Cyrillic `а` in an internationalised name, `calderfinch.com`. The
// checks compare the registrable names (the label before the public
// suffix) and the suffixes; two addresses under one registrable domain
// (`mail.calderfinch.co.uk`) are one owner and never a lookalike.

// domainParts is a domain split for comparison: the registrable name, its
// public suffix, and the skeleton of the whole registrable domain.
type domainParts struct {
	registrable string // calderfinch.co.uk
	name        string // calderfinch
	suffix      string // co.uk
	skeleton    string // calderfinchcouk with confusables folded
}

func splitDomain(d string) (domainParts, bool) {
	d = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(d)), ".")
	if u, err := idna.ToUnicode(d); err == nil {
		d = u
	}
	reg, err := publicsuffix.EffectiveTLDPlusOne(d)
	if err != nil {
		return domainParts{}, false
	}
	suffix, _ := publicsuffix.PublicSuffix(reg)
	name := strings.TrimSuffix(reg, "."+suffix)
	if name == "" || name == reg {
		return domainParts{}, false
	}
	return domainParts{registrable: reg, name: name, suffix: suffix, skeleton: skeleton(reg)}, true
}

// lookalike says whether the new domain imitates the known one, and how:
// "punctuation" (hyphens and dots moved), "homoglyph" (characters that
// read alike), "other-suffix" (the same name under another public suffix)
// or "edit-distance" (a character or two changed, added, dropped or
// swapped). "" when it does not, or when both are one registrable domain.
func lookalike(newDomain, known string) string {
	a, ok1 := splitDomain(newDomain)
	b, ok2 := splitDomain(known)
	if !ok1 || !ok2 || a.registrable == b.registrable {
		return ""
	}
	if strip(a.registrable) == strip(b.registrable) {
		return "punctuation"
	}
	if a.skeleton == b.skeleton {
		return "homoglyph"
	}
	if a.name == b.name || skeleton(a.name) == skeleton(b.name) {
		return "other-suffix"
	}
	// Short names differ from each other by one character all the time
	// (abc.com, abd.com): the distance rule starts at five characters, and
	// allows two edits only from ten.
	n := min(len([]rune(a.name)), len([]rune(b.name)))
	limit := 0
	switch {
	case n >= 10:
		limit = 2
	case n >= 5:
		limit = 1
	}
	if limit > 0 && distance(skeleton(a.name), skeleton(b.name)) <= limit {
		return "edit-distance"
	}
	return ""
}

// strip drops the hyphens and dots.
func strip(s string) string {
	return strings.NewReplacer("-", "", ".", "").Replace(s)
}

// confusables folds characters that read alike in a mail client's font
// onto one Latin letter: Cyrillic and Greek letters shaped like Latin ones,
// and the ASCII pairs that phishing uses (0 and o, 1 and l, I and l).
var confusables = strings.NewReplacer(
	// Cyrillic
	"а", "a", "в", "b", "е", "e", "ё", "e", "к", "k", "м", "m", "н", "h", "о", "o", "р", "p", "с", "c",
	"т", "t", "у", "y", "х", "x", "ѕ", "s", "і", "i", "ј", "j", "ԁ", "d", "һ", "h", "ԛ", "q", "ԝ", "w", "ո", "n",
	// Greek
	"α", "a", "β", "b", "ε", "e", "ι", "i", "κ", "k", "ν", "v", "ο", "o", "ρ", "p", "τ", "t", "υ", "u", "χ", "x",
	// Latin lookalikes and marks that vanish at a glance
	"ı", "i", "ɡ", "g", "ł", "l", "à", "a", "á", "a", "â", "a", "ä", "a", "é", "e", "è", "e", "ë", "e",
	"í", "i", "ï", "i", "ó", "o", "ö", "o", "ô", "o", "ú", "u", "ü", "u", "ç", "c", "ñ", "n",
	// ASCII pairs, and letter pairs that read as one letter
	"0", "o", "1", "l", "i", "l", "rn", "m", "vv", "w", "cl", "d",
	"-", "", ".", "", "_", "",
)

// skeleton is s with confusables folded, for comparing what a reader sees.
func skeleton(s string) string { return confusables.Replace(s) }

// distance is the optimal string alignment distance (Levenshtein with
// adjacent transpositions) between a and b, in runes.
func distance(a, b string) int {
	x, y := []rune(a), []rune(b)
	if len(x) > 64 || len(y) > 64 {
		return 99
	}
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}
