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
//     catalogue recognises a tool in it, and then only its part before a
//     " - " (print drivers write "Microsoft Word - <file name>"); any other
//     value becomes Unrecognised,
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
	if len(producers.Match(v)) == 0 {
		return Unrecognised
	}
	return v
}

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
			if !acceptableText(item) {
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
