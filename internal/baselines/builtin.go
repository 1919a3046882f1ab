package baselines

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/doctrust/doctrust/engine"
	"github.com/doctrust/doctrust/engine/baseline"
)

// Specimen is the provenance of one built-in profile: public specimen
// files, named by their path under the test corpus (MANIFEST.tsv gives
// each one's repository and licence). scripts/buildbaselines rebuilds
// builtin/<issuer>.json from them; docs/baselines.md describes them.
type Specimen struct {
	Issuer, Label string
	Files         []string
}

// Specimens is the one list of built-in profiles.
var Specimens = []Specimen{
	{
		Issuer: "public-esig-dss-libreoffice",
		Label:  "EU DSS test documents (LibreOffice 5.2 Writer exports)",
		Files: []string{
			"pdf-general/esig-dss/sample_end_space.pdf",
			"pdf-signed/esig-dss/validation/dss-2554/certified-changes-permitted.pdf",
			"pdf-signed/esig-dss/validation/pades-epes.pdf",
			"pdf-signed/esig-dss/validation/pades-lta-copied-doctst.pdf",
			"pdf-signed/esig-dss/validation/pades-ltv.pdf",
			"pdf-signed/esig-dss/validation/pades-unsupported-signature-algorithm.pdf",
			"pdf-signed/esig-dss/validation/pdf-with-empty-sig.pdf",
			"pdf-signed/esig-dss/validation/self-issued-qesig.pdf",
			"pdf-signed/esig-dss/validation/signature-referenced-from-multiple-fields.pdf",
		},
	},
	{
		Issuer: "public-x-ray-pdftk",
		Label:  "Free Law Project x-ray test documents (pdftk-java 3.0.9 output)",
		Files: []string{
			"pdf-redaction/x-ray/hidden_text_on_visible_text.pdf",
			"pdf-redaction/x-ray/no_bad_redactions.3.1.pdf",
			"pdf-redaction/x-ray/no_bad_redactions.3.2.pdf",
			"pdf-redaction/x-ray/no_bad_redactions.6.2.pdf",
			"pdf-redaction/x-ray/ok_words.pdf",
			"pdf-redaction/x-ray/partial_intersections_ok.pdf",
			"pdf-redaction/x-ray/rect_ordering_1.23.pdf",
			"pdf-redaction/x-ray/rect_ordering_6.19.pdf",
			"pdf-redaction/x-ray/rectangles_no.pdf",
			"pdf-redaction/x-ray/rectangles_yes.pdf",
			"pdf-redaction/x-ray/whitespace_redaction_with_comma.pdf",
			"pdf-redaction/x-ray/whitespace_redactions.pdf",
		},
	},
}

//go:embed builtin/*.json
var builtinFS embed.FS

// BuiltIn returns the public-specimen profiles shipped with the service,
// by issuer. A profile that does not load or fails the privacy check is a
// build error the tests catch, so it is left out rather than served.
func BuiltIn() []*baseline.Profile {
	entries, _ := builtinFS.ReadDir("builtin")
	var out []*baseline.Profile
	for _, e := range entries {
		b, err := builtinFS.ReadFile("builtin/" + e.Name())
		if err != nil {
			continue
		}
		var p baseline.Profile
		if json.Unmarshal(b, &p) != nil || p.Check() != nil {
			continue
		}
		out = append(out, &p)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Issuer < out[j].Issuer })
	return out
}

// Build trains sp's profile from the corpus at root. Every file must
// train: a specimen that stops being usable is an error, not a silent
// change of the profile.
func (sp Specimen) Build(ctx context.Context, root string) (*baseline.Profile, error) {
	p := baseline.New(sp.Issuer, sp.Label)
	for _, f := range sp.Files {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			return nil, err
		}
		o, err := engine.Observe(ctx, data, 0)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		p.Add(o)
	}
	if err := p.Check(); err != nil {
		return nil, fmt.Errorf("%s: %w", sp.Issuer, err)
	}
	return p, nil
}

// Encode is the shipped form of a built-in profile: indented JSON (map
// keys sorted by encoding/json) with a final newline.
func Encode(p *baseline.Profile) ([]byte, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
