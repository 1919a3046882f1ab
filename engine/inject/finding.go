package inject

import (
	"sort"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
)

// Carrier kinds: the fixed list of places a carrier comes from. They are
// the only carrier facts that reach a message parameter.
const (
	KindInfo             report.Kind = "info"              // PDF Info dictionary value (custom keys included)
	KindInfoKey          report.Kind = "info-key"          // the name of a custom Info key
	KindXMP              report.Kind = "xmp"               // XMP text node or attribute value
	KindAnnotation       report.Kind = "annotation"        // /Contents of an annotation a reader can open
	KindHiddenAnnotation report.Kind = "hidden-annotation" // /Contents of a hidden, zero-size or non-displayed annotation
	KindEmbeddedFile     report.Kind = "embedded-file"     // an attachment's name or /Desc
	KindCoreProperty     report.Kind = "core-property"     // docProps/core.xml value
	KindAppProperty      report.Kind = "app-property"      // docProps/app.xml value
	KindCustomProperty   report.Kind = "custom-property"   // docProps/custom.xml name or value
	KindComment          report.Kind = "comment"           // Word or Excel comment
	KindHiddenRun        report.Kind = "hidden-run"        // Word run marked w:vanish
)

// shown reports the carriers a reader of the document can see by opening a
// panel or a note: a comment, a visible annotation, an attachment's name.
// Every other kind is read by software and not by a person in the
// document's normal view.
func shown(k report.Kind) bool {
	return k == KindAnnotation || k == KindEmbeddedFile || k == KindComment
}

// Carrier is one attacker-authored text and where it came from.
type Carrier struct {
	Kind report.Kind
	Name string // the field's name (a key, a property name); attacker-authored
	Text string
}

// Scanning bounds over one document's carriers.
const (
	MaxCarriers     = 20000   // carriers scanned
	MaxCarrierBytes = 4 << 20 // bytes scanned over all carriers
)

// fired is one carrier that held cues.
type fired struct {
	c          Carrier
	res        Result
	hidden     bool // a carrier no reader sees
	obfuscated bool
}

// Finding scans a document's carriers and builds family's finding, or nil
// when none holds a cue. It is the one evidence and severity builder of the
// injection families (document-injection-markers, office-injection-markers):
//
//   - hidden-directive, high: a directive aimed at a model in a carrier no
//     reader sees (metadata, XMP, hidden runs, hidden annotations), or one
//     concealed by an obfuscation technique wherever it is;
//   - directive, medium: a directive only in carriers a reader can open
//     (comments, visible annotations, attachment names);
//   - cues, low: cue words without a directive (a model addressed, an attack
//     phrase quoted); medium when an obfuscation hides them.
//
// Identical texts of one kind are scanned once. Payloads and field names go
// only into evidence.fields; the message names counts and a carrier kind.
func Finding(family report.FamilyID, carriers []Carrier) *report.Finding {
	var hits []fired
	seen := map[Carrier]bool{}
	results := map[string]Result{} // Info and XMP repeat each other's values
	var sc scanner
	scanned, bytes := 0, 0
	truncated := false
	for _, c := range carriers {
		if strings.TrimSpace(c.Text) == "" {
			continue
		}
		key := Carrier{Kind: c.Kind, Text: c.Text}
		if seen[key] {
			continue
		}
		if scanned >= MaxCarriers || bytes >= MaxCarrierBytes {
			truncated = true
			break
		}
		seen[key] = true
		scanned++
		r, ok := results[c.Text]
		if !ok {
			bytes += min(len(c.Text), MaxScan)
			r = sc.scan(c.Text)
			results[c.Text] = r
		}
		if !r.Found() {
			continue
		}
		hits = append(hits, fired{c: c, res: r, hidden: !shown(c.Kind), obfuscated: len(r.Techniques) > 0})
	}
	if len(hits) == 0 {
		return nil
	}
	return build(family, hits, scanned, truncated)
}

// build turns the fired carriers into the finding.
func build(family report.FamilyID, hits []fired, scanned int, truncated bool) *report.Finding {
	variant, sev := "cues", report.Low
	decisive := hits[0]
	rank := func(h fired) int {
		switch {
		case h.res.Directive && (h.hidden || h.obfuscated):
			return 3
		case h.res.Directive:
			return 2
		case h.obfuscated:
			return 1
		}
		return 0
	}
	best := -1
	for _, h := range hits {
		if r := rank(h); r > best {
			best, decisive = r, h
		}
	}
	switch best {
	case 3:
		variant, sev = "hidden-directive", report.High
	case 2:
		variant, sev = "directive", report.Medium
	case 1:
		sev = report.Medium
	}

	cues := map[Category]int{}
	techs := map[string]bool{}
	kinds := map[string]int{}
	var fields []report.UntrustedField
	var fieldKinds []string
	directives := 0
	for _, h := range hits {
		for c, n := range h.res.Cues {
			cues[c] += n
		}
		for _, t := range h.res.Techniques {
			techs[t] = true
		}
		if h.res.Directive {
			directives++
		}
		kinds[string(h.c.Kind)]++
		fields = append(fields, report.UntrustedField{Name: report.Untrusted(h.c.Name), Payload: report.Untrusted(h.c.Text)})
		fieldKinds = append(fieldKinds, string(h.c.Kind))
	}
	cats := make([]string, 0, len(cues))
	cueEv := map[string]any{}
	for c, n := range cues {
		cats = append(cats, string(c))
		cueEv[string(c)] = n
	}
	sort.Strings(cats)
	techList := make([]string, 0, len(techs))
	for t := range techs {
		techList = append(techList, t)
	}
	sort.Strings(techList)
	kindEv := map[string]any{}
	for k, n := range kinds {
		kindEv[k] = n
	}

	ev := map[string]any{
		"payloadIsUntrusted": true,
		"cues":               cueEv,
		"techniques":         techList,
		"carrierKinds":       kindEv,
		"directiveFields":    directives,
		"carriersScanned":    scanned,
		"carriersTruncated":  truncated,
	}
	report.Capped(ev, "fields", fields)
	report.Capped(ev, "fieldKinds", fieldKinds)

	notes := []report.Message{report.Msg(string(family)+".categories", "categories", report.Kind(strings.Join(cats, ", ")))}
	if len(techList) > 0 {
		notes = append(notes, report.Msg(string(family)+".techniques", "techniques", report.Kind(strings.Join(techList, ", "))))
	}
	return &report.Finding{
		Family:   family,
		Severity: sev,
		Message: report.Msg(string(family)+"."+variant, "fields", len(fields), "kind", decisive.c.Kind,
			"categories", len(cats), "techniques", len(techList)),
		Notes:    notes,
		Evidence: ev,
	}
}
