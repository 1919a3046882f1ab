package report

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
)

// textParams are the catalogue's parameters that hold a kind name rather
// than a count; the sweep gives them sample words (one starting with a
// vowel sound, one with a consonant) to check the articles before them.
var textParams = map[string]bool{"format": true, "kind": true, "kinds": true, "claimed": true, "package": true,
	"editorClass": true, "origin": true}

var (
	placeholderRE = regexp.MustCompile(`\{(\w+)(?:[#?@~][^}]*)?\}`)
	// "(s)", "(es)", "(ies)": plurals left to the reader.
	pluralHedge = regexp.MustCompile(`\((?:s|es|ies)\)`)
	// "1 pages", "1 text runs": a plural noun after a count of one.
	oneThenPlural = regexp.MustCompile(`(?:^|[^\d.,])1 ((?:[A-Za-z-]+ ){0,2}?)([a-z]+s)\b`)
	// "1 page are", "1 revision were": a plural verb after a count of one in
	// the same clause.
	oneThenPluralVerb = regexp.MustCompile(`(?:^|[^\d.,])1 [^;:,.()]*?\b(are|were|have|hold|lie|carry|cover|differ|consist)\b`)
	// "1 of the added revision": a count before a partitive whose noun is
	// singular (issue 36).
	oneOfSingular     = regexp.MustCompile(`(?:^|[^\d.,])1 of (?:the|its|their|these|those) (?:[a-z-]+ ){0,2}?([a-z]+)\b`)
	aBeforeVowel      = regexp.MustCompile(`\b[Aa] ([aeiouAEIOU][\w-]*)`)
	anBeforeConsonant = regexp.MustCompile(`\b[Aa]n ([b-df-hj-np-tv-z][\w-]*)`)
	// "(modification-library)", "(authoring)": an internal class name.
	classInParens = regexp.MustCompile(`\([a-z]+(?:-[a-z]+)*\)`)
	camelCase     = regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z]*\b`)
)

// singularS are words ending in s that are not plurals.
var singularS = map[string]bool{"was": true, "is": true, "has": true, "does": true, "its": true, "this": true, "as": true,
	"plus": true, "across": true, "less": true, "unless": true, "always": true, "analysis": true, "series": true, "status": true,
	// verbs after a singular subject
	"reads": true, "holds": true, "shows": true, "names": true, "carries": true, "follows": true, "precedes": true,
	"covers": true, "differs": true, "marks": true, "cross": true, "lies": true, "contains": true, "uses": true, "draws": true, "consists": true,
	"shares": true, "locks": true, "sits": true, "remains": true, "runs": true}

// aAllowed are words after "a" that start with a vowel letter but a
// consonant sound.
var aAllowed = map[string]bool{"one": true, "one-page": true, "user": true, "usual": true, "unique": true, "uniform": true, "URL": true, "Unicode": true}

// TestCatalogueEnglish sweeps every catalogue entry, present and future:
// each is rendered with every count parameter at 0, 1 and 2 (and text
// parameters at words of either sound), and the title and sentence must
// read as written by a person: no "(s)" plural hedges, no plural noun or
// verb after a count of one, "a" and "an" by sound, no internal class
// names in parentheses and no bare camelCase.
func TestCatalogueEnglish(t *testing.T) {
	var failures []string
	for _, e := range catalogue {
		names := map[string]bool{}
		for _, m := range placeholderRE.FindAllStringSubmatch(e.Template, -1) {
			names[m[1]] = true
		}
		for _, n := range []int{0, 1, 2} {
			for _, word := range []string{"Excel", "Word", "desktop-editor"} {
				params := map[string]any{}
				for name := range names {
					if textParams[name] {
						params[name] = word
					} else {
						params[name] = n
					}
				}
				rendered := Render(Message{Code: e.Code, Params: params})
				for _, problem := range englishProblems(e.Title, rendered) {
					failures = append(failures, fmt.Sprintf("%s (count %d): %s\n\t%q", e.Code, n, problem, rendered))
				}
			}
		}
	}
	sort.Strings(failures)
	failures = uniq(failures)
	for _, f := range failures {
		t.Error(f)
	}
}

func englishProblems(title, text string) []string {
	var out []string
	for _, s := range []string{title, text} {
		if m := pluralHedge.FindString(s); m != "" {
			out = append(out, "plural left to the reader "+m)
		}
		if m := classInParens.FindString(s); m != "" {
			out = append(out, "internal class name "+m)
		}
		if m := camelCase.FindString(s); m != "" && !brandCase[m] {
			out = append(out, "bare camelCase "+m)
		}
		for _, w := range CodeWords(s) {
			out = append(out, "code word "+w)
		}
		for _, m := range aBeforeVowel.FindAllStringSubmatch(s, -1) {
			if !aAllowed[m[1]] && !strings.HasPrefix(strings.ToLower(m[1]), "uni") && !strings.HasPrefix(strings.ToLower(m[1]), "use") {
				out = append(out, "\"a\" before a vowel sound: "+m[0])
			}
		}
		for _, m := range anBeforeConsonant.FindAllStringSubmatch(s, -1) {
			if !strings.HasPrefix(m[1], "hour") && !strings.HasPrefix(m[1], "honest") {
				out = append(out, "\"an\" before a consonant sound: "+m[0])
			}
		}
		if strings.ContainsAny(s, "{}|#") {
			out = append(out, "placeholder syntax left")
		}
	}
	for _, m := range oneOfSingular.FindAllStringSubmatch(text, -1) {
		if !strings.HasSuffix(m[1], "s") {
			out = append(out, "a singular noun after \"1 of the\": "+strings.TrimSpace(m[0]))
		}
	}
	for _, m := range oneThenPlural.FindAllStringSubmatch(text, -1) {
		if !singularS[m[2]] && !hasFunctionWord(m[1]) {
			out = append(out, "plural after a count of one: "+strings.TrimSpace(m[0]))
		}
	}
	// A compound subject ("1 field and 1 property differ") is plural, and a
	// verb after "not" is the bare form ("does not hold").
	if m := oneThenPluralVerb.FindStringSubmatch(text); m != nil && !strings.Contains(m[0], " and ") && !strings.Contains(m[0], "not "+m[1]) {
		out = append(out, "plural verb after a count of one: "+strings.TrimSpace(m[0]))
	}
	return out
}

// hasFunctionWord: "1 image that pages show" is a clause, not a noun
// phrase.
func hasFunctionWord(words string) bool {
	for _, w := range strings.Fields(words) {
		switch w {
		case "that", "of", "the", "in", "on", "which", "from", "by", "and", "or", "to", "than":
			return true
		}
	}
	return false
}

func uniq(s []string) []string {
	var out []string
	for i, v := range s {
		if i == 0 || v != s[i-1] {
			out = append(out, v)
		}
	}
	return out
}

// TestCodeWords pins what counts as an identifier in a sentence.
func TestCodeWords(t *testing.T) {
	for text, want := range map[string]string{
		"Kinds found: javascript, additionalActions, uri.":    "additionalActions javascript uri",
		"structure, revisions and /ID were analysed":          "/ID",
		"names (Auto_Open, Auto_Close)":                       "Auto_Open Auto_Close",
		"as python-docx and python-pptx do":                   "",
		"pypdf, iText or pdftk; Skia/PDF; an XMP packet":      "",
		"Kinds found: JavaScript, additional actions, links.": "",
	} {
		if got := strings.Join(CodeWords(text), " "); got != want {
			t.Errorf("CodeWords(%q) = %q, want %q", text, got, want)
		}
	}
}

func TestInterpolateForms(t *testing.T) {
	for _, c := range []struct {
		tpl    string
		params map[string]any
		want   string
	}{
		{"{n#page|pages} {n?is|are} hidden.", map[string]any{"n": 1}, "1 page is hidden."},
		{"{n#page|pages} {n?is|are} hidden.", map[string]any{"n": 0}, "0 pages are hidden."},
		{"{n#text run|text runs}", map[string]any{"n": 2}, "2 text runs"},
		{"inspected {f@} file", map[string]any{"f": "office"}, "inspected an office file"},
		{"inspected {f@} file", map[string]any{"f": "PDF"}, "inspected a PDF file"},
		{"{f@} sheet", map[string]any{"f": "XLM"}, "an XLM sheet"},
		{"{missing#a|b}", map[string]any{}, "{missing#a|b}"},
		{"Kinds found: {k~}.", map[string]any{"k": "javascript, additionalActions, uri"}, "Kinds found: JavaScript, additional actions, links."},
		{"{k~}", map[string]any{"k": "hidden-annotation"}, "a hidden annotation"},
		{"{k~}", map[string]any{"k": "word-template"}, "word template"},
	} {
		if got := interpolate(c.tpl, c.params); got != c.want {
			t.Errorf("%q with %v = %q, want %q", c.tpl, c.params, got, c.want)
		}
	}
}
