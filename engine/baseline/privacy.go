package baseline

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/doctrust/doctrust/engine/producers"
)

// ErrRejected is the privacy check's refusal (the API's 422
// profile_rejected). Its text names the rule, never the value.
var ErrRejected = errors.New("baseline: profile holds a value that could carry personal data")

// ErrUnusable: a PDF that cannot train a profile (encrypted, damaged or
// without pages).
var ErrUnusable = errors.New("baseline: the PDF is encrypted, damaged or has no page")

// Privacy rule: a profile keeps writer names and structural facts only. A
// text value is refused when it
//   - holds an e-mail address,
//   - holds a run of maxDigits or more digits (separated at most by single
//     spaces or hyphens), the shape of account, card, phone and reference
//     numbers; version numbers are dotted, so "16.0.17928.20114" passes,
//   - is long free text: more than maxValueRunes runes or maxWords words.
//
// Font sets and Info key sets are checked item by item.
//
// Before any of that, Observe passes every observation through private,
// which keeps only what cannot name a person, an account or an address:
//   - a Producer or Creator value is kept only when the producer
//     catalogue recognises a tool in it, and then only the tool and its
//     version: the leading words that name the catalogued tool, followed
//     by version numbers ("Acrobat Distiller 9.0 for Johnathan Doe, net
//     12,345.67 EUR" keeps "Acrobat Distiller 9.0"; licensed iText builds
//     lose the licensee after "iText® 7.1.0"); any other value becomes
//     Unrecognised,
//   - a font name is reduced to its family (fontFamily): subset tag,
//     style suffix and digits go, and a family built of words outside the
//     font vocabulary (fontWords), such as "JohnathanDoe-Salary12345",
//     becomes OtherFont,
//   - an Info key is kept only when it is on knownInfoKeys; the others
//     are counted, as one item "custom:<n>", never named.
//
// Check refuses a profile holding anything private would have changed,
// so a profile stored before these rules cannot slip a name through.
const (
	maxDigits = 9
	maxWords  = 12
)

// emailAddress finds an e-mail address, compiled on first use.
var emailAddress = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`[^\s@<>()]+@[^\s@<>()]+\.[A-Za-z]{2,}`)
})

// Unrecognised stands for a Producer or Creator in which the catalogue
// finds no tool: kept as a value of its own, so documents with and without
// a recognised writer still tell apart, but never as the text itself.
const Unrecognised = "(unrecognised)"

// knownInfoKeys are the Info dictionary keys a profile may name: the
// standard ones (ISO 32000-2, 14.3.3) and those common writers add. A key
// outside the list may be named after a person or a customer.
var knownInfoKeys = map[string]bool{
	"Title": true, "Author": true, "Subject": true, "Keywords": true, "Creator": true,
	"Producer": true, "CreationDate": true, "ModDate": true, "Trapped": true,
	"Company": true, "SourceModified": true, "Comments": true, "Category": true,
	"Manager": true, "Language": true, "PTEX.Fullbanner": true, "GTS_PDFXVersion": true,
	"GTS_PDFXConformance": true, "GTS_PDFA1Version": true, "AAPL:Keywords": true,
	"AAPL:Author": true, "wps-journaldoc": true, "PDFVersion": true,
}

// private rewrites an observation to what a profile may keep (see the
// privacy rule above). Applied to training and matched documents alike, so
// the two still compare.
func private(o Observation) Observation {
	o[Producers] = toolValue(o[Producers])
	o[Creators] = toolValue(o[Creators])
	o[InfoKeys] = knownKeys(o[InfoKeys])
	return o
}

func toolValue(v string) string {
	if v == None || v == Other || v == Unrecognised {
		return v
	}
	if i := strings.Index(v, " - "); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	tools := producers.Match(v)
	if len(tools) == 0 {
		return Unrecognised
	}
	names := map[string]bool{}
	for _, t := range tools {
		for _, w := range subWords(t.Name) {
			names[w] = true
		}
	}
	// The tool's words, then its version: words before the first tool
	// word are skipped, and the first word after that is neither ends it.
	var kept []string
	for _, tok := range strings.Fields(v) {
		sub := subWords(tok)
		word := strings.Trim(tok, "(),;:")
		tok = strings.TrimRight(tok, ",;:")
		isTool := acceptableText(tok) && (len(sub) > 0 && names[sub[0]] || len(producers.Match(tok)) > 0)
		isVersion := versionLike.MatchString(word) || strings.EqualFold(word, "version")
		if isTool || len(kept) > 0 && isVersion {
			kept = append(kept, tok)
			continue
		}
		if len(kept) > 0 {
			break
		}
	}
	for len(kept) > 0 && strings.EqualFold(kept[len(kept)-1], "version") {
		kept = kept[:len(kept)-1]
	}
	out := strings.Join(kept, " ")
	if len(kept) == 0 || len(producers.Match(out)) == 0 {
		// Named only inside another word, or by words that say the tool
		// only beside the rest: its catalogue name.
		return tools[0].Name
	}
	return out
}

// versionLike is a version number: "9.0", "5.5.13", "v2", "m116", "2019".
var versionLike = regexp.MustCompile(`^[vVmMrR]?\d{1,4}(\.\d{1,6}){0,3}[a-z]?$`)

// subWords splits s into its lower-case letter and digit runs.
func subWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9')
	})
}

// OtherFont stands for a font whose family is not made of font words: kept
// as a value of its own, never as the name itself.
const OtherFont = "(font)"

// fontFamily reduces a font name (subset tag already removed) to its
// family: the part before a style suffix ("-Bold", ",Italic"), without
// digits, kept when every word of it (split at case changes) is a font
// word, else OtherFont.
func fontFamily(f string) string {
	if i := strings.IndexAny(f, "-,+"); i >= 0 {
		f = f[:i]
	}
	f = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, strings.TrimSpace(f))
	words := camelWords(f)
	if len(words) == 0 {
		return OtherFont
	}
	for _, w := range words {
		if !fontWords[strings.ToLower(w)] {
			return OtherFont
		}
	}
	return f
}

// keptFont: a font set's item is as fontFamily leaves one (or a count of
// items past the set's limit, or a set's placeholder).
func keptFont(item string) bool {
	return item == OtherFont || item == None || item == Other || strings.HasPrefix(item, "+") || fontFamily(item) == item
}

// camelWords splits a font family at case changes and separators:
// "TimesNewRomanPS" is Times, New, Roman, PS; "ABCpdf" is ABC, pdf.
func camelWords(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			out = append(out, string(cur))
			cur = cur[:0]
		}
	}
	rs := []rune(s)
	for i, r := range rs {
		upper := r >= 'A' && r <= 'Z'
		lower := r >= 'a' && r <= 'z'
		switch {
		case !upper && !lower:
			flush()
			continue
		case upper && len(cur) > 0:
			prevLower := cur[len(cur)-1] >= 'a' && cur[len(cur)-1] <= 'z'
			nextLower := i+1 < len(rs) && rs[i+1] >= 'a' && rs[i+1] <= 'z'
			if prevLower || nextLower && len(cur) > 1 {
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return out
}

// fontWords are the words font families are made of: the families of the
// standard 14, of the common Windows, macOS, Linux, Office, TeX and web
// fonts, and the style, foundry and format words in their names. A family
// with any other word may be named after a person or a customer.
var fontWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`
		arial helvetica times new roman courier symbol zapf dingbats zapfdingbats
		calibri cambria candara consolas constantia corbel georgia verdana tahoma
		trebuchet segoe ui garamond palatino linotype book antiqua bookman old
		style century gothic schoolbook gill sans serif mono monospace futura
		frutiger univers myriad minion pro std dejavu liberation noto roboto open
		lato source code neue lucida grande console franklin wingdings webdings
		ocr ocra ocrb mt ps psmt bold italic oblique regular light medium thin
		black heavy condensed narrow semibold semi demi demibold extra extrabold
		ultra cond it bd bi nimbus sanl sanlr regu romno free freesans freeserif
		freemono google product inter montserrat poppins raleway ubuntu oswald
		merriweather playfair display pt fira ibm plex sf text sylfaen mangal
		unicode ms mincho simsun simhei mingliu batang gulim malgun meiryo yu
		arimo tinos cousine carlito caladea cmr cmbx cmti cmmi cmsy cmex cmtt
		lmroman lm latin modern computer stix euclid tex math marlett impact
		comic haettenschwiler bahnschrift aptos avenir optima baskerville didot
		bodoni caslon rockwell copperplate hiragino kaku pingfang heiti songti
		kozuka myungjo msung stsong heisei kozgo kozmin adobe itc lt std com
		w opentype type truetype font fonts cid identity h v mono sans-serif
		sansserif seriff roboto-regular droid nanum source han cjk sc tc jp kr
		arabic hebrew devanagari thai armenian georgian cyrillic greek tamil
		bengali emoji color symbols icons awesome
		condensedbold boldmt italicmt bolditalic bolditalicmt deja vu san l
	`) {
		m[w] = true
	}
	return m
}()

// knownKeys keeps the known keys of a joined key set and counts the rest.
func knownKeys(v string) string {
	if v == None {
		return v
	}
	var keep []string
	custom := 0
	for item := range strings.SplitSeq(v, ",") {
		switch {
		case knownInfoKeys[item]:
			keep = append(keep, item)
		case strings.HasPrefix(item, "+"):
			n, _ := strconv.Atoi(item[1:])
			custom += n // keys past the set's item limit, unnamed already
		default:
			custom++
		}
	}
	if custom > 0 {
		keep = append(keep, "custom:"+strconv.Itoa(custom))
	}
	if len(keep) == 0 {
		return None
	}
	return strings.Join(keep, ",")
}

// Check applies the privacy rule to every text value of the profile.
func (p *Profile) Check() error {
	for _, d := range dimensions {
		if d.kind != text {
			continue
		}
		for v := range p.Counts[d.name] {
			if !acceptable(d.name, v) {
				return ErrRejected
			}
		}
	}
	return nil
}

func acceptable(dim, v string) bool {
	switch dim {
	case Producers, Creators:
		if toolValue(v) != v {
			return false
		}
	case InfoKeys:
		if knownKeys(v) != v && v != Other {
			return false
		}
	}
	if dim == FontSets || dim == InfoKeys {
		for item := range strings.SplitSeq(v, ",") {
			if !acceptableText(item) || dim == FontSets && !keptFont(item) {
				return false
			}
		}
		return true
	}
	return acceptableText(v)
}

func acceptableText(s string) bool {
	if utf8.RuneCountInString(s) > maxValueRunes || len(strings.Fields(s)) > maxWords {
		return false
	}
	if emailAddress().MatchString(s) {
		return false
	}
	return longestDigitRun(s) < maxDigits
}

// longestDigitRun counts digits in the longest stretch where digits are
// separated by at most one space or hyphen.
func longestDigitRun(s string) int {
	best, run, gap := 0, 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= '0' && c <= '9':
			run++
			gap = 0
			best = max(best, run)
		case (c == ' ' || c == '-') && run > 0 && gap == 0:
			gap = 1
		default:
			run, gap = 0, 0
		}
	}
	return best
}
