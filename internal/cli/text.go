package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"golang.org/x/term"
)

// The text format (--format text) is a summary a person reads: per file
// the band and score, then each signal above info on one line with its
// severity, title and pages; for compare the relationship and each
// finding above info. JSON stays the default and what a batch prints
// unless told otherwise. Colour only when stdout is a terminal and
// NO_COLOR is unset (no-color.org).

// format is an output format of inspect and compare.
type format int

const (
	formatJSON format = iota
	formatText
)

func parseFormat(s string) (format, bool) {
	switch s {
	case "", "json":
		return formatJSON, true
	case "text":
		return formatText, true
	}
	return 0, false
}

// style says whether the text is coloured.
type style struct{ colour bool }

// styleFor colours output bound for a terminal unless NO_COLOR is set to
// anything non-empty.
func styleFor(w io.Writer) style {
	return style{colour: isTerminal(w) && os.Getenv("NO_COLOR") == ""}
}

// isTerminal: colour and progress are for a person watching; /dev/null
// and pipes are not one.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

const (
	ansiReset = "\033[0m"
	ansiBold  = "\033[1m"
)

var ansi = map[string]string{
	"high": "\033[1;31m", "elevated": "\033[1;33m", "medium": "\033[33m", "low": "\033[32m", "info": "\033[2m",
}

func (s style) paint(text, class string) string {
	if !s.colour {
		return text
	}
	c, ok := ansi[class]
	if class == "bold" {
		c, ok = ansiBold, true
	}
	if !ok {
		return text
	}
	return c + text + ansiReset
}

// textSignal is what the text format reads of a signal or a finding.
type textSignal struct {
	ID       string         `json:"id"`
	Severity string         `json:"severity"`
	Title    string         `json:"title"`
	Evidence map[string]any `json:"evidence"`
}

var severityRank = map[string]int{"high": 0, "medium": 1, "low": 2}

// signalLines prints each signal above info, most severe first (the
// report's order within a severity), as "SEVERITY  title (pages)".
func signalLines(b *strings.Builder, st style, list []textSignal) {
	above := slices.DeleteFunc(slices.Clone(list), func(s textSignal) bool { _, ok := severityRank[s.Severity]; return !ok })
	slices.SortStableFunc(above, func(a, b textSignal) int { return severityRank[a.Severity] - severityRank[b.Severity] })
	for _, s := range above {
		word := strings.ToUpper(s.Severity)
		b.WriteString("  " + st.paint(word, s.Severity) + strings.Repeat(" ", max(0, 6-len(word))) + "  " + s.Title)
		if p := pagesOf(s.Evidence); p != "" {
			b.WriteString(" (" + p + ")")
		}
		b.WriteByte('\n')
	}
}

// pagesOf names the pages a signal's evidence points at: its pages[], or
// the pages of its boxes.
func pagesOf(ev map[string]any) string {
	seen := map[int]bool{}
	add := func(v any) {
		if f, ok := v.(float64); ok && f >= 1 && f == float64(int(f)) {
			seen[int(f)] = true
		}
	}
	for _, key := range []string{"pages", "patternPages"} {
		if list, ok := ev[key].([]any); ok {
			for _, v := range list {
				add(v)
			}
		}
	}
	for _, key := range []string{"boxes", "patternBoxes"} {
		if list, ok := ev[key].([]any); ok {
			for _, v := range list {
				if m, ok := v.(map[string]any); ok {
					add(m["page"])
				}
			}
		}
	}
	if len(seen) == 0 {
		return ""
	}
	pages := make([]int, 0, len(seen))
	for p := range seen {
		pages = append(pages, p)
	}
	slices.Sort(pages)
	words := make([]string, 0, len(pages))
	for i, p := range pages {
		if i == 12 {
			words = append(words, "…")
			break
		}
		words = append(words, strconv.Itoa(p))
	}
	if len(pages) == 1 {
		return "page " + words[0]
	}
	return "pages " + strings.Join(words, ", ")
}

// inspectText is one report as text, headed by its path.
func inspectText(path string, body []byte, st style) ([]byte, error) {
	var r struct {
		MediaType string `json:"mediaType"`
		Summary   struct {
			RiskScore   int    `json:"riskScore"`
			RiskBand    string `json:"riskBand"`
			SignalCount int    `json:"signalCount"`
			Revisions   int    `json:"revisions"`
		} `json:"summary"`
		Signals []textSignal `json:"signals"`
		Policy  *struct {
			Verdict string `json:"verdict"`
		} `json:"policy"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, err
	}
	var b strings.Builder
	s := r.Summary
	fmt.Fprintf(&b, "%s: %s, score %d of 100 (%s, %s above info", st.paint(path, "bold"), st.paint(s.RiskBand, s.RiskBand),
		s.RiskScore, r.MediaType, plural(s.SignalCount, "signal"))
	if r.MediaType == "pdf" && s.Revisions > 1 {
		fmt.Fprintf(&b, ", %s", plural(s.Revisions, "revision"))
	}
	b.WriteString(")\n")
	if r.Policy != nil && r.Policy.Verdict != "" {
		fmt.Fprintf(&b, "  policy verdict: %s\n", r.Policy.Verdict)
	}
	signalLines(&b, st, r.Signals)
	return []byte(b.String()), nil
}

// compareText is a CompareReport as text.
func compareText(original, candidate string, body []byte, st style) ([]byte, error) {
	var r struct {
		Relationship string       `json:"relationship"`
		Findings     []textSignal `json:"findings"`
		PageText     *struct {
			Items []struct {
				Page int    `json:"page"`
				Kind string `json:"kind"`
			} `json:"items"`
		} `json:"pageText"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		return nil, err
	}
	// The page-text findings name their pages through pageText's items.
	if r.PageText != nil {
		for i, f := range r.Findings {
			kind := map[string]string{"figures-changed": "figure", "words-changed": "word"}[f.ID]
			var pages []any
			for _, it := range r.PageText.Items {
				if it.Kind == kind {
					pages = append(pages, float64(it.Page))
				}
			}
			if kind != "" {
				r.Findings[i].Evidence = map[string]any{"pages": pages}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s → %s: %s\n", st.paint(original, "bold"), st.paint(candidate, "bold"), relationshipWords[r.Relationship])
	signalLines(&b, st, r.Findings)
	if !slices.ContainsFunc(r.Findings, func(f textSignal) bool { _, ok := severityRank[f.Severity]; return ok }) {
		b.WriteString("  no finding above info\n")
	}
	return []byte(b.String()), nil
}

var relationshipWords = map[string]string{
	"identical":                    "identical (the same bytes)",
	"candidate-extends-original":   "the candidate extends the original (an incremental update appended to it)",
	"candidate-truncates-original": "the candidate is a cut-down original (its last updates removed)",
	"rewritten":                    "the candidate was rewritten (saved whole again)",
}

// errorText is a refused or unreadable file in the text format.
func errorText(path string, body []byte) []byte {
	var e struct {
		Error   string `json:"error"`
		Message string `json:"message"`
	}
	json.Unmarshal(body, &e)
	line := path + ": not analysed (" + e.Error + ")"
	if e.Message != "" {
		line += ": " + e.Message
	}
	return []byte(line + "\n")
}
