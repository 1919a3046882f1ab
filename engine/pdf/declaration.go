package pdf

import "github.com/doctrust/doctrust/engine/report"

//go:generate go run ../internal/familygen

// declaration is one PDF signal family, written once in its family file
// beside the analyser it names. familygen (go generate ./engine/pdf) derives
// the rest from the declarations: the report.Family... constant, the
// catalogue row and the English texts (engine/report/families_pdf_gen.go),
// and the run list (runlist_gen.go). familygen's TestGeneratedUpToDate
// fails while a generated file lags its declarations; TestDeclaredSeverities
// and TestDeclaredEvidence hold the analysers to what is declared, and
// TestEvidenceDocumented holds docs/families.md to it.
type declaration struct {
	// id is the family's id: the one place it is quoted. Code names the
	// family by the generated constant (hidden-text is
	// report.FamilyHiddenText).
	id report.FamilyID
	// order places the family in the catalogue and the run list; the
	// triage block and the encrypted-file warning list families in it.
	order int
	run   func(*analysis) *report.Finding
	// summary is the catalogue's one-line English description.
	summary string
	// contentDependent families read page content or strings and are
	// skipped on an encrypted document; triageSuppressed ones need the
	// per-page content walk and are skipped in triage mode.
	contentDependent, triageSuppressed bool
	// evidence names the top-level keys the family's evidence may carry
	// (SPEC.md: additive, none promised present). "x[]" is a capped list:
	// x, xTotal and xTruncated (report.Capped). The keys package report
	// adds to any family (corroboration when scoring, payloadRedacted when
	// redacting) are not repeated.
	evidence []string
	variants []variant
}

// variant is one message or note code of a family: code is the part after
// "<id>.". A message states the severities its signal may take, from
// severity up to upTo (when a condition raises it); a note has neither, and
// no title.
type variant struct {
	code           string
	severity, upTo report.Severity
	title, text    string
}
