package pdf_test

import (
	"fmt"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/report"
)

// assessed reads revisionsAssessed[] as (revision, assessment) pairs.
func assessed(t *testing.T, s *jsonSignal) [][2]any {
	t.Helper()
	var out [][2]any
	for _, e := range list(t, s.Evidence, "revisionsAssessed") {
		if len(e["touched"].(map[string]any)) != 8 {
			t.Fatalf("touched %v", e["touched"])
		}
		out = append(out, [2]any{num(t, e["revision"]), e["assessment"]})
	}
	return out
}

// freeOldAppearance fills the form and frees the appearance it replaced,
// as writers that tidy up do.
var freeOldAppearance edit = func(u *pdftest.Builder, opt signOpts) {
	fillForm(u, opt)
	u.Free(textAP)
}

// addTextField creates a new form field, which no permission level allows.
var addTextField edit = func(u *pdftest.Builder, opt signOpts) {
	n := u.Add("<< /FT /Tx /T (extra) /V (x) /Type /Annot /Subtype /Widget /Rect [72 500 272 520] /P 3 0 R >>")
	u.Set(pdftest.CatalogObj, fixtureCatalog(fmt.Sprintf("6 0 R 8 0 R %d 0 R", n), opt.perms()))
	u.Set(pdftest.PageObj, pdftest.TextPageDict(fmt.Sprintf("/Annots [6 0 R 8 0 R %d 0 R]", n)))
}

// shareAppearance signs a file whose text field appearance is also named
// from the catalogue, then rewrites that appearance in place: pyHanko's
// "sneaky" clobbering of a shared object.
func shareAppearance(t *testing.T, opt signOpts) []byte {
	t.Helper()
	signed := signedForm(opt)
	u := pdftest.Update(signed)
	u.Set(pdftest.CatalogObj, fixtureCatalog("6 0 R 8 0 R", fmt.Sprintf("%s /Extra %d 0 R", opt.perms(), textAP)))
	u.Trailer("/Root 1 0 R")
	shared := u.Bytes() // the catalogue now names the appearance too
	return appendRevision(shared, opt, func(u *pdftest.Builder, opt signOpts) {
		u.Stream(textAP, "<< /Type /XObject /Subtype /Form /BBox [0 0 200 20] >>", []byte("BT /Helv 10 Tf 2 5 Td (Mallory) Tj ET"))
	})
}

func TestSignaturePermissionsAssessments(t *testing.T) {
	cases := []struct {
		name       string
		p          int // DocMDP /P; -1 for a certification without /P
		edits      []edit
		assessment string // of the last revision
		state      string
		sev        report.Severity
		code       string
	}{
		{"P2 form fill is permitted", 2, []edit{fillForm}, "permitted", "permitted", report.Info, "signature-permissions.permitted"},
		{"P2 fill freeing the old appearance", 2, []edit{freeOldAppearance}, "permitted", "permitted", report.Info, "signature-permissions.permitted"},
		{"P2 new signature is permitted", 2, []edit{addSignature("Sig", "[300 50 500 100]")}, "permitted", "permitted", report.Info, "signature-permissions.permitted"},
		{"P2 DSS is ltv", 2, []edit{addDSS}, "ltv", "permitted", report.Info, "signature-permissions.permitted"},
		{"P1 DSS is ltv", 1, []edit{addDSS}, "ltv", "permitted", report.Info, "signature-permissions.permitted"},
		{"P1 document timestamp is ltv", 1, []edit{addSignature("DocTimeStamp", "")}, "ltv", "permitted", report.Info, "signature-permissions.permitted"},
		{"P2 annotation breaks", 2, []edit{addAnnotation}, "annotation", "break", report.High, "signature-permissions.certification-broken"},
		{"P3 annotation is permitted", 3, []edit{addAnnotation}, "permitted", "permitted", report.Info, "signature-permissions.permitted"},
		{"P1 form fill breaks", 1, []edit{fillForm}, "annotation", "break", report.High, "signature-permissions.certification-broken"},
		{"P1 new signature breaks", 1, []edit{addSignature("Sig", "")}, "annotation", "break", report.High, "signature-permissions.certification-broken"},
		{"P3 content breaks", 3, []edit{replaceContent}, "content", "break", report.High, "signature-permissions.certification-broken"},
		{"P2 open action is structure", 2, []edit{addOpenAction}, "structure", "break", report.High, "signature-permissions.certification-broken"},
		{"P3 new text field is structure", 3, []edit{addTextField}, "structure", "break", report.High, "signature-permissions.certification-broken"},
		{"P2 unplaced object is opaque", 2, []edit{rewriteOutline}, "opaque", "unverified", report.Medium, "signature-permissions.unclassified-changes"},
		{"default P is 2", -1, []edit{addAnnotation}, "annotation", "break", report.High, "signature-permissions.certification-broken"},
		{"a permitted revision, then a break", 2, []edit{fillForm, addDSS, replaceContent}, "content", "break", report.High, "signature-permissions.certification-broken"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opt := signOpts{certify: tc.p}
			data := signedForm(opt)
			for _, e := range tc.edits {
				data = appendRevision(data, opt, e)
			}
			r := analyze(t, data, full)
			s := must(t, r, "signature-permissions")
			expect(t, s, tc.sev, tc.code)
			got := assessed(t, s)
			if len(got) != len(tc.edits) || got[len(got)-1][1] != tc.assessment {
				t.Fatalf("revisionsAssessed %v, want the last of %d %s", got, len(tc.edits), tc.assessment)
			}
			for i, g := range got {
				if g[0] != i+2 {
					t.Fatalf("revisionsAssessed %v: revision numbers", got)
				}
			}
			p := tc.p
			if p < 0 {
				p = 2
			}
			eq(t, "p", s.Evidence["p"], p)
			eq(t, "assessment", s.Evidence["assessment"], tc.state)
			eq(t, "certifiedRevision", s.Evidence["certifiedRevision"], 1)
			if tc.state == "break" {
				eq(t, "firstBreakRevision", s.Evidence["firstBreakRevision"], len(tc.edits)+1)
				if r.Summary.RiskBand != "high" {
					t.Fatalf("band %s with a high signal", r.Summary.RiskBand)
				}
			}
			cov := must(t, r, "signature-coverage")
			eq(t, "certified", cov.Evidence["certified"], true)
			eq(t, "kind", list(t, cov.Evidence, "signatures")[0]["kind"], "certification")
			eq(t, "docMdpP", list(t, cov.Evidence, "signatures")[0]["docMdpP"], p)
		})
	}

	t.Run("form fill touched counters", func(t *testing.T) {
		opt := signOpts{certify: 2}
		s := must(t, analyze(t, appendRevision(signedForm(opt), opt, fillForm), full), "signature-permissions")
		eq(t, "touched", list(t, s.Evidence, "revisionsAssessed")[0]["touched"],
			touched("widgetAnnotations", 1, "images", 1))
		eq(t, "params", s.Message.Params, map[string]any{"p": 2, "assessed": 1})
	})

	t.Run("shared appearance rewritten is structure", func(t *testing.T) {
		opt := signOpts{certify: 2}
		s := must(t, analyze(t, shareAppearance(t, opt), full), "signature-permissions")
		got := assessed(t, s)
		eq(t, "assessments", got, [][2]any{{2, "structure"}, {3, "structure"}})
		cov := must(t, analyze(t, shareAppearance(t, signOpts{}), full), "signature-coverage")
		eq(t, "modificationLevel", list(t, cov.Evidence, "signatures")[0]["modificationLevel"], "other")
	})

	t.Run("certified, nothing appended", func(t *testing.T) {
		r := analyze(t, signedForm(signOpts{certify: 1}), full)
		s := must(t, r, "signature-permissions")
		expect(t, s, report.Info, "signature-permissions.permitted")
		eq(t, "revisionsAssessed", s.Evidence["revisionsAssessed"], []any{})
		eq(t, "revisionsAssessedTotal", s.Evidence["revisionsAssessedTotal"], 0)
	})

	t.Run("triage suppresses permissions, keeps coverage", func(t *testing.T) {
		opt := signOpts{certify: 2}
		r := analyze(t, appendRevision(signedForm(opt), opt, addAnnotation), triage)
		absent(t, r, "signature-permissions")
		must(t, r, "signature-coverage")
	})

	t.Run("approval signature alone: no signal", func(t *testing.T) {
		absent(t, analyze(t, appendRevision(signedForm(signOpts{}), signOpts{}, addAnnotation), full), "signature-permissions")
	})
}

func TestSignaturePermissionsFieldLocks(t *testing.T) {
	cases := []struct {
		name   string
		lock   string
		edits  []edit
		fields int // locked fields changed; 0: no signal
	}{
		{"include names the filled field", "/Action /Include /Fields [(name)]", []edit{fillForm}, 1},
		{"include names another field", "/Action /Include /Fields [(other)]", []edit{fillForm}, 0},
		{"exclude names the filled field", "/Action /Exclude /Fields [(name)]", []edit{fillForm}, 0},
		{"all", "/Action /All", []edit{fillForm}, 1},
		{"all spares a document timestamp", "/Action /All", []edit{addSignature("DocTimeStamp", "")}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			opt := signOpts{lock: tc.lock}
			data := signedForm(opt)
			for _, e := range tc.edits {
				data = appendRevision(data, opt, e)
			}
			r := analyze(t, data, full)
			if lockEv := list(t, must(t, r, "signature-coverage").Evidence, "signatures")[0]["locksFields"]; lockEv != true {
				t.Fatalf("locksFields = %v", lockEv)
			}
			if tc.fields == 0 {
				absent(t, r, "signature-permissions")
				return
			}
			s := must(t, r, "signature-permissions")
			expect(t, s, report.High, "signature-permissions.locked-field-changed")
			eq(t, "params", s.Message.Params, map[string]any{"fields": tc.fields, "changes": tc.fields})
			eq(t, "lockedFieldChanges", list(t, s.Evidence, "lockedFieldChanges"),
				[]map[string]any{{"signatureObject": sigValue, "field": "name", "revision": 2}})
			if _, ok := s.Evidence["revisionsAssessed"]; ok {
				t.Fatal("revisionsAssessed without a certification")
			}
		})
	}

	t.Run("lock dictionary on the field", func(t *testing.T) {
		opt := signOpts{field: "/Lock << /Type /SigFieldLock /Action /Include /Fields [(name)] >>"}
		s := must(t, analyze(t, appendRevision(signedForm(opt), opt, fillForm), full), "signature-permissions")
		expect(t, s, report.High, "signature-permissions.locked-field-changed")
		eq(t, "lockedFieldChanges", list(t, s.Evidence, "lockedFieldChanges"),
			[]map[string]any{{"signatureObject": sigValue, "field": "name", "revision": 2}})
	})

	t.Run("certification break leads, lock change is a note", func(t *testing.T) {
		opt := signOpts{certify: 1, lock: "/Action /All"}
		s := must(t, analyze(t, appendRevision(signedForm(opt), opt, fillForm), full), "signature-permissions")
		expect(t, s, report.High, "signature-permissions.certification-broken")
		eq(t, "notes", codesOf(s)[1:], []string{"signature-permissions.locked-field-changed"})
	})
}
