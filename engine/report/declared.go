package report

import "strings"

// declaredFamily is what a family's declaration says of the signals its
// analyser may emit (generated into declared, families_gen.go).
type declaredFamily struct {
	id       FamilyID
	evidence []string
	variants []declaredVariant
}

// declaredVariant is one declared code; severity and upTo are empty for a
// note.
type declaredVariant struct {
	code           string
	severity, upTo Severity
}

// CheckDeclared says how a signal disagrees with its family's declaration:
// a message that is not a declared message, a severity outside the declared
// range, a note or an evidence key that is not declared. Signals of
// families without a declaration (structure-warnings, issuer-mismatch) are
// not checked. The tests of the engine run it over every signal of the
// fixtures and the corpus, so the declarations stay true of the analysers.
func CheckDeclared(s Signal) []string {
	var fam *declaredFamily
	for i := range declared {
		if string(declared[i].id) == s.ID {
			fam = &declared[i]
		}
	}
	if fam == nil {
		return nil
	}
	find := func(code string) *declaredVariant {
		v, ok := strings.CutPrefix(code, s.ID+".")
		if !ok {
			return nil
		}
		for i := range fam.variants {
			if fam.variants[i].code == v {
				return &fam.variants[i]
			}
		}
		return nil
	}
	var out []string
	switch v := find(s.Message.Code); {
	case v == nil || v.severity == "":
		out = append(out, s.Message.Code+" is not a declared message of "+s.ID)
	case s.Severity.Rank() < v.severity.Rank() || s.Severity.Rank() > v.upTo.Rank():
		out = append(out, s.Message.Code+" at "+string(s.Severity)+", declared "+string(v.severity)+" to "+string(v.upTo))
	}
	for _, n := range s.Notes {
		if find(n.Code) == nil {
			out = append(out, "note "+n.Code+" is not declared by "+s.ID)
		}
	}
	keys := evidenceKeys(fam.evidence)
	for k := range s.Evidence {
		if !keys[k] {
			out = append(out, s.ID+" evidence key "+k+" is not declared")
		}
	}
	return out
}

// evidenceKeys expands a declared evidence list: "x[]" is x, xTotal and
// xTruncated. The keys this package adds to any family are allowed.
func evidenceKeys(declared []string) map[string]bool {
	keys := map[string]bool{"corroboration": true, evPayloadRedacted: true}
	for _, k := range declared {
		if base, ok := strings.CutSuffix(k, "[]"); ok {
			keys[base], keys[base+"Total"], keys[base+"Truncated"] = true, true, true
			continue
		}
		keys[k] = true
	}
	return keys
}
