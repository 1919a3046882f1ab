// Package baseline builds and matches issuer baselines: structural
// fingerprints of the genuine documents one issuer produces (SPEC.md,
// Baseline profile). A profile is built from pdf.Describe results and holds,
// per dimension, how many training samples showed each value. It holds no
// document, text, name or number: privacy.go rejects values that could.
// The package is pure: the caller stores profiles and supplies the time.
package baseline

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/pdf"
)

// Dimension names, in the order a profile lists them (SPEC.md names
// producers and fontSets; the rest are the structural facts of the same
// sentence).
const (
	Producers     = "producers"
	Creators      = "creators"
	PDFVersions   = "pdfVersions"
	FontSets      = "fontSets"
	PageGeometry  = "pageGeometry"
	XrefStyle     = "xrefStyle"
	ObjectStreams = "objectStreams"
	Revisions     = "revisions"
	Linearized    = "linearized"
	InfoKeys      = "infoKeys"
	// The writer's habits (pdf.Habits): what a rewrite by another program
	// changes while it keeps the Producer and the page content.
	HeaderForm       = "headerForm"
	XrefForm         = "xrefForm"
	ObjectOrder      = "objectOrder"
	ObjectSyntax     = "objectSyntax"
	StreamFilters    = "streamFilters"
	IDForm           = "idForm"
	SubsetNaming     = "subsetNaming"
	ContentOperators = "contentOperators"
)

// Dimensions is the fixed dimension list with each one's weight in the
// divergence: who wrote the file counts most, then what it embeds; the
// structural choices of the writer count once each. Among the writer's
// habits, the header's binary comment names the writing program as surely
// as the Producer does (and a rewrite that keeps the Producer replaces
// it), so it weighs as much; the object syntax and the content-stream
// operators are whole layouts, so they weigh two. The Producer weighs
// twice the header so that it still flags alone (6 of 29 stable weight):
// the rule that held before the habits were learnt.
var dimensions = []struct {
	name   string
	weight float64
	kind   valueKind
}{
	{Producers, 6, text},
	{Creators, 2, text},
	{PDFVersions, 1, text},
	{FontSets, 2, text},
	{PageGeometry, 1, text},
	{XrefStyle, 1, text},
	{ObjectStreams, 1, boolean},
	{Revisions, 1, integer},
	{Linearized, 1, boolean},
	{InfoKeys, 1, text},
	{HeaderForm, 3, text},
	{XrefForm, 1, text},
	{ObjectOrder, 1, text},
	{ObjectSyntax, 2, text},
	{StreamFilters, 1, text},
	{IDForm, 1, text},
	{SubsetNaming, 1, text},
	{ContentOperators, 2, text},
}

type valueKind int

const (
	text valueKind = iota
	boolean
	integer
)

// Sources of a profile (SPEC.md): the account's own, or a built-in one
// built from public specimen documents.
const (
	SourceCustomer       = "customer"
	SourcePublicSpecimen = "public-specimen"
)

// Limits that keep a profile small whatever it is trained on.
const (
	// MinSamplesForMatching is SPEC.md's floor: below it every dimension
	// compares as unknown and nothing is flagged.
	MinSamplesForMatching = 5
	// MaxValues is the number of distinct values kept per dimension; more
	// are counted under Other, which never matches a document.
	MaxValues = 32
	// Other is the bucket of values past MaxValues.
	Other = "(other)"
	// None stands for an absent producer, creator or version.
	None          = "(none)"
	maxSetItems   = 40 // fonts, page sizes or Info keys joined into one value
	maxValueRunes = 120
	maxRevisions  = 10 // "10+" past it
)

// Profile is one issuer's baseline. Counts maps dimension to value to the
// number of samples that showed it; it is what merging adds up.
type Profile struct {
	Issuer      string                    `json:"issuer"`
	Label       string                    `json:"label"`
	SampleCount int                       `json:"sampleCount"`
	Counts      map[string]map[string]int `json:"counts"`
}

// Observation is one document's value per dimension.
type Observation map[string]string

// Observe reads a description's value for every dimension, through the
// privacy rule's rewriting (private); Check decides whether the rest may
// be kept.
func Observe(d *pdf.Description) Observation {
	o := Observation{
		Producers:     oneLine(d.Producer),
		Creators:      oneLine(d.Creator),
		PDFVersions:   orNone(d.Version),
		FontSets:      fontSet(d.Fonts),
		PageGeometry:  geometry(d.Pages),
		XrefStyle:     d.XrefStyle,
		ObjectStreams: strconv.FormatBool(d.ObjectStreams),
		Revisions:     revisions(len(d.RevisionEnds)),
		Linearized:    strconv.FormatBool(d.Linearized),
		InfoKeys:      infoKeys(d.Info),

		HeaderForm:       orNone(d.Habits.Header),
		XrefForm:         orNone(d.Habits.XrefForm),
		ObjectOrder:      orNone(d.Habits.ObjectOrder),
		ObjectSyntax:     orNone(d.Habits.ObjectSyntax),
		StreamFilters:    orNone(d.Habits.StreamFilters),
		IDForm:           orNone(d.Habits.IDForm),
		SubsetNaming:     orNone(d.Habits.SubsetNaming),
		ContentOperators: orNone(d.Habits.ContentOps),
	}
	return private(o)
}

// New returns an empty profile for an issuer.
func New(issuer, label string) *Profile {
	return &Profile{Issuer: issuer, Label: label, Counts: map[string]map[string]int{}}
}

// Add counts one observation into the profile.
func (p *Profile) Add(o Observation) {
	p.SampleCount++
	for _, d := range dimensions {
		p.count(d.name, o[d.name], 1)
	}
}

// Merge adds another profile's samples into p (training an existing issuer
// again). The label of q wins when it is set.
func (p *Profile) Merge(q *Profile) {
	p.SampleCount += q.SampleCount
	if q.Label != "" {
		p.Label = q.Label
	}
	for _, d := range dimensions {
		vals := sortedValues(q.Counts[d.name])
		for _, v := range vals {
			p.count(d.name, v, q.Counts[d.name][v])
		}
	}
}

func (p *Profile) count(dim, v string, n int) {
	if p.Counts == nil {
		p.Counts = map[string]map[string]int{}
	}
	m := p.Counts[dim]
	if m == nil {
		m = map[string]int{}
		p.Counts[dim] = m
	}
	if _, seen := m[v]; !seen && len(m) >= MaxValues {
		v = Other
	}
	m[v] += n
}

// MatchingActive reports whether the profile has reached the floor.
func (p *Profile) MatchingActive() bool { return p.SampleCount >= MinSamplesForMatching }

// DimensionSummary is one entry of a profile's dimensions array.
type DimensionSummary struct {
	Dimension      string  `json:"dimension"`
	Consistency    float64 `json:"consistency"`
	DistinctValues int     `json:"distinctValues"`
	Top            any     `json:"top"`
}

// Summaries lists every dimension in the fixed order.
func (p *Profile) Summaries() []DimensionSummary {
	out := make([]DimensionSummary, 0, len(dimensions))
	for _, d := range dimensions {
		top, n := p.top(d.name)
		s := DimensionSummary{Dimension: d.name, DistinctValues: len(p.Counts[d.name])}
		if p.SampleCount > 0 && n > 0 {
			s.Consistency = round3(float64(n) / float64(p.SampleCount))
			s.Top = typed(d.kind, top)
		}
		out = append(out, s)
	}
	return out
}

// top is the most common value; ties go to the smaller string so the
// answer is deterministic.
func (p *Profile) top(dim string) (string, int) {
	best, bestN := "", 0
	for _, v := range sortedValues(p.Counts[dim]) {
		if n := p.Counts[dim][v]; n > bestN {
			best, bestN = v, n
		}
	}
	return best, bestN
}

func typed(k valueKind, v string) any {
	switch k {
	case boolean:
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
	case integer:
		if n, err := strconv.Atoi(v); err == nil {
			return n
		}
	}
	return v
}

func sortedValues(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for v := range m {
		out = append(out, v)
	}
	sort.Strings(out)
	return out
}

func round3(f float64) float64 {
	return float64(int(f*1000+0.5)) / 1000
}

// oneLine collapses whitespace so that writers differing only in spacing
// compare equal; "" is None.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if s == "" {
		return None
	}
	return s
}

func orNone(s string) string {
	if s == "" {
		return None
	}
	return s
}

// fontSet joins the distinct base names without subset tags ("ABCDEF+"),
// which differ on every save and say nothing about the writer.
func fontSet(fonts []string) string {
	seen := map[string]bool{}
	var names []string
	for _, f := range fonts {
		if len(f) > 7 && f[6] == '+' && isSubsetTag(f[:6]) {
			f = f[7:]
		}
		f = fontFamily(f)
		if !seen[f] {
			seen[f] = true
			names = append(names, f)
		}
	}
	return joinSet(names)
}

func isSubsetTag(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'A' || s[i] > 'Z' {
			return false
		}
	}
	return true
}

// geometry is the set of distinct page sizes in whole points, with the
// rotation when a page has one: "595x842", "612x792,792x612".
func geometry(pages []pdf.PageGeometry) string {
	seen := map[string]bool{}
	var sizes []string
	for _, g := range pages {
		w := int(g.MediaBox[2] - g.MediaBox[0] + 0.5)
		h := int(g.MediaBox[3] - g.MediaBox[1] + 0.5)
		s := fmt.Sprintf("%dx%d", w, h)
		if g.Rotate != 0 {
			s += "r" + strconv.Itoa(g.Rotate)
		}
		if !seen[s] {
			seen[s] = true
			sizes = append(sizes, s)
		}
		if len(sizes) > maxSetItems {
			break
		}
	}
	return joinSet(sizes)
}

func revisions(n int) string {
	if n >= maxRevisions {
		return strconv.Itoa(maxRevisions) + "+"
	}
	return strconv.Itoa(n)
}

// infoKeys is the set of Info dictionary key names (not values): writers
// fill a characteristic set.
func infoKeys(info map[string]string) string {
	keys := make([]string, 0, len(info))
	for k := range info {
		keys = append(keys, k)
	}
	return joinSet(keys)
}

func joinSet(items []string) string {
	if len(items) == 0 {
		return None
	}
	sort.Strings(items)
	if len(items) > maxSetItems {
		items = append(items[:maxSetItems:maxSetItems], "+"+strconv.Itoa(len(items)-maxSetItems))
	}
	return strings.Join(items, ",")
}
