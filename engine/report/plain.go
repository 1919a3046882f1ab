package report

import (
	"regexp"
	"strings"
)

// Titles and details are read by people on a fraud team, not by the
// engine's authors: an identifier of the code or of a file format (a
// camelCase kind name, a snake_case name, a PDF key such as /ID, a
// lower-case language or scheme name) means nothing to them. CodeWords
// finds such words so that tests can hold every rendered text to it.
var (
	camelWord = regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z0-9]*\b`)
	snakeWord = regexp.MustCompile(`\b[A-Za-z0-9]+_[A-Za-z0-9_]*[A-Za-z0-9]\b`)
	pdfName   = regexp.MustCompile(`(?:^|[\s(])(/[A-Za-z][A-Za-z0-9]*)`)
	// Words that are code when written in lower case in a sentence.
	lowerCodeWords = regexp.MustCompile(`(?:^|[\s(,])(javascript|uri|url|xmp|exif|iptc|xml|json|vba|dde|ole)\b`)
)

// brandCase are product names written in camel case by their makers.
var brandCase = map[string]bool{"iText": true, "iPhone": true, "iPad": true, "iOS": true, "macOS": true, "pdfTeX": true, "eSignature": true}

// CodeWords lists the words of a title or detail that are identifiers
// rather than English, grouped by kind.
func CodeWords(text string) []string {
	var out []string
	for _, m := range camelWord.FindAllString(text, -1) {
		if !brandCase[m] {
			out = append(out, m)
		}
	}
	out = append(out, snakeWord.FindAllString(text, -1)...)
	for _, m := range pdfName.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	for _, m := range lowerCodeWords.FindAllStringSubmatch(text, -1) {
		out = append(out, m[1])
	}
	return out
}

// listWords are the words for kind names passed as a comma-separated list
// ({kinds~}): the active-content kinds, which evidence keeps in the PDF's
// own terms.
var listWords = map[string]string{
	"javascript":        "JavaScript",
	"launch":            "launch actions",
	"submitForm":        "form submissions",
	"importData":        "data imports",
	"richMedia":         "rich media",
	"embeddedFiles":     "embedded files",
	"fileAttachments":   "file attachment annotations",
	"openAction":        "an action on opening",
	"additionalActions": "additional actions",
	"remoteGoTo":        "links to other files",
	"uri":               "links",
}

// kindWords renders a kind name, or a comma-separated list of them, as
// people say it.
func kindWords(value string) string {
	if label, ok := kindLabels[value]; ok {
		return label
	}
	items := strings.Split(value, ", ")
	for i, it := range items {
		if w, ok := listWords[it]; ok {
			items[i] = w
		} else {
			items[i] = strings.ReplaceAll(it, "-", " ")
		}
	}
	return strings.Join(items, ", ")
}
