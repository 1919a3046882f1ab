package report

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// text is one catalogue entry: a title for a signal's main message and a
// sentence template. Placeholders are {param} names from the message's params.
type text struct {
	Title    string
	Template string
}

// entry is one row of the catalogue as written: a code and its text.
type entry struct {
	Code, Title, Template string
}

// catalogue is the one English catalogue: every message and note code the
// engine emits renders from here. Codes are stable translation keys of shape
// <family>.<variant>; a translator replaces this table, not the engine. The
// declared families' texts are written in their declarations (engine/pdf,
// engine/office, engine/image), each beside the analyser that emits it, and
// generated into declaredCatalogue; the rest are written below. texts indexes it on first use, and
// TestCatalogueCodesUnique stands in for the compiler's check of duplicate
// map keys.
var catalogue = slices.Concat(declaredCatalogue, []entry{
	// structure-warnings
	{"structure-warnings.encrypted-content-not-analysed", "Encrypted content not analysed", "The document is encrypted, so {skipped#content-dependent family was|content-dependent families were} not run; structure and unencrypted metadata were still analysed."},
	{"structure-warnings.encrypted-opened", "Opened with the empty password", "The empty user password opened the standard security handler ({keyBits}-bit key): metadata, object streams, signatures and annotations were decrypted and analysed."},
	{"structure-warnings.encrypted-opened-owner", "Opened with the empty owner password", "The owner password of the standard security handler is empty, so the document opened without a password ({keyBits}-bit key): metadata, object streams, signatures and annotations were decrypted and analysed."},
	{"structure-warnings.encrypted-password-required", "Password required", "The standard security handler needs a password that was not supplied: strings, XMP and object streams stay encrypted and were not read; structure, revisions and the file identifier were analysed."},
	{"structure-warnings.encrypted-public-key", "Encrypted for named recipients", "The document is encrypted for named recipients (public-key security handler): strings, XMP and object streams stay encrypted and were not read; structure, revisions and the file identifier were analysed."},
	{"structure-warnings.encrypted-unsupported", "Unknown security handler", "The security handler is not one this engine opens: strings, XMP and object streams stay encrypted and were not read; structure, revisions and the file identifier were analysed."},
	{"structure-warnings.encrypted-malformed", "Malformed encryption dictionary", "The encryption dictionary is missing or malformed, so the document could not be opened: strings, XMP and object streams stay encrypted and were not read."},
	{"structure-warnings.unparseable", "No readable structure", "No readable document structure was found, so nothing beyond the format was analysed."},
	{"structure-warnings.xref-loop", "Revision chain loops", "The chain of cross-reference sections points back into itself; it was cut after {sections#section|sections}."},
	{"structure-warnings.xref-repaired", "Cross-reference data rebuilt", "The cross-reference data was damaged and was rebuilt by scanning the file; {objects#object was|objects were} recovered and the revision history may be incomplete."},
	{"structure-warnings.xref-entries-repaired", "Cross-reference entries corrected", "{entries#cross-reference entry|cross-reference entries} pointed to the wrong place and {entries?was|were} located by scanning."},
	{"structure-warnings.xref-entries-capped", "Cross-reference data cut short", "The cross-reference data lists more objects than a file of this size can hold; reading stopped after {entries#entry|entries}, so objects listed later were not analysed."},
	{"structure-warnings.truncated", "File appears truncated", "The file does not end with an end-of-file marker after its last cross-reference data; it may have been cut short."},
	{"structure-warnings.budget-exhausted", "Decompression budget exhausted", "Decoding stopped at a decompression limit ({streamLimitBytes#byte|bytes} per stream, {budgetBytes} in all); {streams#stream was|streams were} not decoded in full."},
	{"structure-warnings.object-errors", "Unreadable objects", "{count#object|objects} could not be parsed and {count?was|were} skipped."},
	{"structure-warnings.stream-errors", "Undecodable streams", "{count#stream|streams} could not be decoded."},
	{"structure-warnings.page-tree-damaged", "Damaged page tree", "The page tree has cycles, missing or invalid nodes; {pages#page was|pages were} found by walking it."},
	{"structure-warnings.catalog-missing", "Document catalogue missing", "The document catalogue could not be found; pages and document-level features were not analysed."},
	{"structure-warnings.header-missing", "PDF header missing", "The file has no valid PDF header but contains PDF syntax (objects or a cross-reference pointer)."},
	{"structure-warnings.leading-junk", "Data before the header", "{bytes#byte precedes|bytes precede} the PDF header."},
	{"structure-warnings.trailing-data", "Data after the end", "{bytes#byte follows|bytes follow} the last end-of-file marker."},
	{"structure-warnings.analysis-fault", "Analysis fault contained", "An internal check failed on this file and was contained; {families#family|families} may be incomplete."},
	{"structure-warnings.deadline-reached", "Analysis cut short", "The analysis reached its time budget before finishing; later checks did not run."},

	// compare findings (engine/compare)
	{"compare.identical-bytes", "Identical files", "The two files are byte for byte identical."},
	{"compare.revisions-appended", "Revisions appended to the original", "The candidate is the original with {revisions#revision|revisions} appended ({bytes#byte|bytes})."},
	{"compare.bytes-appended-without-revision", "Bytes appended without a revision", "The longer file is the shorter one followed by {bytes#byte|bytes} that form no readable revision."},
	{"compare.candidate-is-earlier-version", "Candidate is an earlier version", "The candidate is an earlier state of the original: the original has {revisions#more revision|more revisions} ({bytes#byte|bytes}) than the candidate."},
	{"compare.content-touched", "Content changed after the shorter file", "{revisions#added revision|added revisions} replaced page, content or image objects after the shorter file was complete."},
	{"compare.rewritten", "File rewritten", "The candidate is not the original with revisions appended: the file was rewritten, so its structure, metadata and page text are compared."},
	{"compare.same-document-resaved", "Same document, re-saved", "The permanent half of the file identifier is the same in both files, as when one document is saved again."},
	{"compare.different-document", "Different document identifiers", "Both halves of the file identifier differ: the files were created as different documents or the identifier was replaced."},
	{"compare.id-absent", "No identifier to compare", "At least one file has no usable file identifier, so their lineage cannot be read from it."},
	{"compare.page-count-changed", "Page count differs", "The original has {original#page|pages} and the candidate {candidate}."},
	{"compare.page-geometry-changed", "Page geometry differs", "{pages#page|pages} {pages?differs|differ} in media box, crop box or rotation."},
	{"compare.fonts-added", "Fonts added", "The candidate uses {fonts#font|fonts} the original does not use at all."},
	{"compare.fonts-removed", "Fonts removed", "The original uses {fonts#font|fonts} the candidate does not use at all."},
	{"compare.font-subsets-changed", "Font subsets differ", "{fonts#font subset|font subsets} in the candidate {fonts?carries|carry} other subset tags of fonts the original uses, as when a file is re-saved."},
	{"compare.metadata-changed", "Metadata differs", "Between the files, {info#Info field|Info fields} and {xmp#XMP property|XMP properties} differ."},
	{"compare.producer-changed", "Producing software differs", "The files name different producing or creating software."},
	{"compare.figures-changed", "Figures changed on the pages", "{figures#figure|figures} on {pages#page|pages} {figures?reads|read} differently in the candidate than in the original."},
	{"compare.words-changed", "Words changed on the pages", "{words#word|words} on {pages#page|pages} {words?differs|differ} between the original and the candidate."},
	{"compare.structure-changed", "Object structure differs", "The original holds {original#object|objects} and the candidate {candidate}, or their cross-reference styles differ."},
	{"compare.signature-integrity-changed", "Signature integrity differs", "{signatures#signature present in both files has|signatures present in both files have} a different integrity in each: the bytes {signatures?it covers|they cover} differ between the files."},
	// end of compare findings

	// issuer baselines (engine/baseline)
	{"issuer-mismatch.diverges", "Structure diverges from the issuer baseline", "{dimensions#structural dimension|structural dimensions} that {dimensions?was|were} stable across the issuer's {samples#training document|training documents} {dimensions?shows|show} a value none of them had (divergence {divergencePercent}%)."},
	// end of issuer baselines
})

// texts indexes the catalogue by code.
var texts = sync.OnceValue(func() map[string]text {
	m := make(map[string]text, len(catalogue))
	for _, e := range catalogue {
		m[e.Code] = text{e.Title, e.Template}
	}
	return m
})

// Title renders a message's title. Notes have no title.
func Title(m Message) string {
	if t, ok := texts()[m.Code]; ok && t.Title != "" {
		return t.Title
	}
	return m.Code
}

// Render renders one message or note as an English sentence.
func Render(m Message) string {
	t, ok := texts()[m.Code]
	if !ok {
		return m.Code
	}
	return interpolate(t.Template, m.Params)
}

// Detail concatenates the message paragraph and its notes.
func Detail(m Message, notes []Message) string {
	parts := []string{Render(m)}
	for _, n := range notes {
		parts = append(parts, Render(n))
	}
	return strings.Join(parts, " ")
}

// HasCode reports whether the catalogue knows a code (used by tests).
func HasCode(code string) bool {
	_, ok := texts()[code]
	return ok
}

// Codes lists every catalogue code, sorted (for docs and tests).
func Codes() []string {
	out := make([]string, 0, len(catalogue))
	for _, e := range catalogue {
		out = append(out, e.Code)
	}
	sort.Strings(out)
	return out
}

// TemplateOf returns a code's raw template (for docs).
func TemplateOf(code string) (title, template string) {
	t := texts()[code]
	return t.Title, t.Template
}

// interpolate fills a template's placeholders from params:
//
//	{n}              the value
//	{n#one|other}    the number and the noun phrase its count takes: "1 page", "2 pages"
//	{n?one|other}    the form alone, chosen by the count: a verb ("is|are") or a phrase
//	{n@}             a text value after "a" or "an", chosen by sound: "an Excel", "a Word"
//	{n~}             a kind name as people say it: "hidden-annotation" is "a hidden annotation";
//	                 a comma-separated list of kinds word by word: "javascript, uri" is "JavaScript, links"
//
// A count of exactly 1 takes the first form; 0 and everything else the
// second, as English does ("0 pages").
func interpolate(tpl string, params map[string]any) string {
	if !strings.Contains(tpl, "{") {
		return tpl
	}
	var b strings.Builder
	for {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			b.WriteString(tpl)
			return b.String()
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			b.WriteString(tpl)
			return b.String()
		}
		b.WriteString(tpl[:i])
		b.WriteString(placeholder(tpl[i+1:i+j], params, tpl[i:i+j+1]))
		tpl = tpl[i+j+1:]
	}
}

func placeholder(spec string, params map[string]any, asWritten string) string {
	name, forms, op := spec, "", byte(0)
	if k := strings.IndexAny(spec, "#?@~"); k > 0 {
		name, op, forms = spec[:k], spec[k], spec[k+1:]
	}
	v, ok := params[name]
	if !ok {
		return asWritten
	}
	value := formatParam(v)
	switch op {
	case '#', '?':
		one, other, _ := strings.Cut(forms, "|")
		form := other
		if value == "1" {
			form = one
		}
		if op == '?' {
			return form
		}
		return value + " " + form
	case '@':
		return Article(value) + " " + value
	case '~':
		return kindWords(value)
	}
	return value
}

// kindLabels are the words a person uses for the kind names the engine
// passes as parameters ({kind~}); a kind not listed reads with its hyphens
// as spaces.
var kindLabels = map[string]string{
	"info":              "the Info dictionary",
	"info-key":          "the name of an Info key",
	"xmp":               "the XMP metadata",
	"annotation":        "an annotation",
	"hidden-annotation": "a hidden annotation",
	"embedded-file":     "an attachment",
	"core-property":     "the core properties",
	"app-property":      "the application properties",
	"custom-property":   "a custom property",
	"comment":           "a comment",
	"hidden-run":        "a hidden run",
}

// Article is "a" or "an" for a word, by its sound: "an Excel", "an XLM",
// "a Word", "a user", "a one-page".
func Article(word string) string {
	w := strings.TrimLeft(word, "\"'(")
	if w == "" {
		return "a"
	}
	lower := strings.ToLower(w)
	for _, p := range []string{"one", "once", "uni", "use", "usu", "uti", "eu", "ewe"} {
		if strings.HasPrefix(lower, p) {
			return "a"
		}
	}
	for _, p := range []string{"hour", "honest", "honour", "heir"} {
		if strings.HasPrefix(lower, p) {
			return "an"
		}
	}
	// An abbreviation is read letter by letter: "an SVG", "an HTML", "a PDF".
	if len(w) > 1 && w[1] >= 'A' && w[1] <= 'Z' && w[0] >= 'A' && w[0] <= 'Z' {
		if strings.IndexByte("AEFHILMNORSX", w[0]) >= 0 {
			return "an"
		}
		return "a"
	}
	if strings.IndexByte("aeiou", lower[0]) >= 0 {
		return "an"
	}
	return "a"
}

func formatParam(v any) string {
	switch x := v.(type) {
	case int:
		return strconv.Itoa(x)
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case string:
		return x
	}
	return ""
}
