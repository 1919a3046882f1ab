package inject

import (
	"fmt"
	"sort"
	"strings"
	"testing"
)

// TestPrecisionRecall measures the detector on the labelled table and keeps
// it where docs/families.md says it is: every positive found with its
// category, no negative found.
func TestPrecisionRecall(t *testing.T) {
	measure(t, positives, negatives, true)
}

// TestHeldOut measures the held-out table; it reports and does not fail on
// the rows it gets wrong (see heldout_test.go).
func TestHeldOut(t *testing.T) {
	measure(t, heldOutPositives, heldOutNegatives, false)
}

func measure(t *testing.T, positives, negatives []labelled, strict bool) {
	report := t.Errorf
	if !strict {
		report = t.Logf
	}
	type tally struct{ tp, fn, fp, tn int }
	per := map[string]*tally{}
	get := func(lang string) *tally {
		if per[lang] == nil {
			per[lang] = &tally{}
		}
		return per[lang]
	}
	for _, p := range positives {
		r := Scan(p.text)
		if r.Found() && r.Cues[p.cat] > 0 {
			get(p.lang).tp++
			continue
		}
		get(p.lang).fn++
		report("missed (%s, want %s): %q -> %v", p.lang, p.cat, p.text, r.Cues)
	}
	for _, n := range negatives {
		r := Scan(n.text)
		if r.Found() {
			get(n.lang).fp++
			report("false positive (%s): %q -> %v directive=%v", n.lang, n.text, r.Cues, r.Directive)
			continue
		}
		get(n.lang).tn++
	}
	var all tally
	langs := make([]string, 0, len(per))
	for l := range per {
		langs = append(langs, l)
	}
	sort.Strings(langs)
	var lines []string
	for _, l := range langs {
		c := per[l]
		all.tp, all.fn, all.fp, all.tn = all.tp+c.tp, all.fn+c.fn, all.fp+c.fp, all.tn+c.tn
		lines = append(lines, fmt.Sprintf("%s: %d positives (%d found), %d negatives (%d fired)", l, c.tp+c.fn, c.tp, c.fp+c.tn, c.fp))
	}
	precision := float64(all.tp) / float64(max(1, all.tp+all.fp))
	recall := float64(all.tp) / float64(max(1, all.tp+all.fn))
	t.Logf("%d positives, %d negatives; precision %.3f, recall %.3f\n%s", all.tp+all.fn, all.fp+all.tn, precision, recall, strings.Join(lines, "\n"))
	if strict && (len(positives) < 60 || len(negatives) < 60) {
		t.Errorf("table too small: %d positives, %d negatives", len(positives), len(negatives))
	}
}
