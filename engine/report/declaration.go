package report

//go:generate go run ../internal/familygen

// Declaration is one signal family, written once by the package that
// analyses it, beside its analyser; A is that package's analysis type.
// familygen (go generate ./engine/report) reads the declarations of
// engine/pdf, engine/office and engine/image and derives everything else
// that must know the family: its FamilyID constant, catalogue row, English
// texts and declared severities and evidence (families_gen.go), and the run
// lists of the packages whose families all name their analyser
// (runlist_gen.go there). familygen's TestGeneratedUpToDate fails while a
// generated file lags its declarations.
type Declaration[A any] struct {
	// ID is the family's id: the one place it is quoted. Code names the
	// family by the generated constant (hidden-text is FamilyHiddenText).
	ID FamilyID
	// Order places the family among its medium's families in the
	// catalogue and the run list; the triage block and the encrypted-file
	// warning list families in it.
	Order int
	// Run is the analyser, for a package whose run list is generated.
	Run func(A) *Finding
	// Summary is the catalogue's one-line English description.
	Summary string
	// ContentDependent families read page content or strings and are
	// skipped on an encrypted PDF; TriageSuppressed ones need the per-page
	// content walk and are skipped in triage mode.
	ContentDependent, TriageSuppressed bool
	// Evidence names the top-level keys the family's evidence may carry
	// (SPEC.md: additive, none promised present). "x[]" is a capped list:
	// x, xTotal and xTruncated (Capped). The keys this package adds to any
	// family (corroboration when scoring, payloadRedacted when redacting)
	// are not repeated.
	Evidence []string
	Variants []VariantDecl
}

// VariantDecl is one message or note code of a family: Code is the part
// after "<id>.". A message states the severities its signal may take, from
// Severity up to UpTo (when a condition raises it), and has a title; a note
// has neither.
type VariantDecl struct {
	Code           string
	Severity, UpTo Severity
	Title, Text    string
}
