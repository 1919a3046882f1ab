package office

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
	"github.com/doctrust/doctrust/internal/corpustest"
)

// newFormats are the extensions the binary, binary-workbook and ODF
// readers brought in; an ordinary file among them must stay low.
var newFormats = map[string]bool{".doc": true, ".xls": true, ".ppt": true, ".pot": true, ".xla": true, ".xlt": true, ".xlsb": true, ".odt": true, ".ods": true, ".odp": true}

// analyzeAny routes bytes the way engine.Inspect does for Office.
func analyzeAny(t testing.TB, data []byte) *report.Report {
	t.Helper()
	f := sniff.Sniff(data).Format
	var r *report.Report
	var err error
	switch {
	case f == sniff.DOC || f == sniff.XLS || f == sniff.PPT:
		r, err = AnalyzeLegacy(context.Background(), data, f, Options{})
	case f == sniff.ODT || f == sniff.ODS || f == sniff.ODP:
		r, err = AnalyzeODF(context.Background(), data, f, Options{})
	case f.Kind() == sniff.KindOffice:
		r, err = Analyze(context.Background(), data, f, Options{})
	case IsEncryptedPackage(data):
		r = AnalyzeEncrypted(data)
	default:
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCorpusManifestFacts checks every MANIFEST fact about macros, DDE,
// links, embedded objects and encryption on the corpus's Office files, and
// that the files with a macro, an external link or DDE, or an embedded
// object are flagged (goal: 95 in 100). Files the manifest expects
// nothing of ("-") must stay below medium.
// manifestExceptions are manifest facts the file itself does not bear out.
var manifestExceptions = map[string]string{
	"office/poi/spreadsheet/link-external-workbook-a.xlsx": "the workbook link-external-workbook-b.xlsx links to; it holds no link of its own (no externalLink part, no external relationship)",
}

func TestCorpusManifestFacts(t *testing.T) {
	dir, _ := filepath.Abs("../../../shared/corpus")
	rows := corpustest.Manifest(t, dir)
	risky, flagged := 0, 0
	for _, row := range rows {
		if row.Category != "office" {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, row.File))
		if err != nil {
			t.Fatal(err)
		}
		r := analyzeAny(t, data)
		if r == nil {
			if !strings.HasSuffix(row.File, ".xps") && !strings.Contains(row.Expected, "hostile=yes") {
				t.Errorf("%s: no report (%s)", row.File, row.Expected)
			}
			continue
		}
		checkInvariants(t, row.File, r)
		if newFormats[filepath.Ext(row.File)] {
			a, _ := json.Marshal(r)
			b, _ := json.Marshal(analyzeAny(t, data))
			if string(a) != string(b) {
				t.Errorf("%s: report not deterministic", row.File)
			}
		}
		if why, ok := manifestExceptions[row.File]; ok {
			t.Logf("exception %s: %s", row.File, why)
			continue
		}
		has := func(fam string) *report.Signal { return signal(r, fam) }
		facts := row.Expected
		// "(after decryption)" facts hold only once the default password
		// opens the package.
		decrypted := !r.Document.Encrypted
		if strings.Contains(facts, "VelvetSweatshop") && !decrypted {
			// Every other fact of these files holds inside the package.
			continue
		}
		wantRisk := false
		for _, fact := range strings.Split(facts, ";") {
			key, val, _ := strings.Cut(fact, "=")
			yes := strings.HasPrefix(val, "yes")
			after := strings.Contains(val, "after decryption")
			if after && !decrypted {
				continue
			}
			switch {
			case (key == "vba" || key == "xlm_macro") && yes:
				wantRisk = true
				if has("office-macros") == nil {
					t.Errorf("%s: %s but no office-macros", row.File, fact)
				}
			case key == "autoexec":
				name, _, _ := strings.Cut(val, "(")
				if s := has("office-macros"); s == nil || !slices.Contains(s.Evidence["autoExec"].([]string), name) {
					t.Errorf("%s: entry point %s not reported", row.File, name)
				}
			case key == "dde" && yes:
				wantRisk = true
				if s := has("office-external-links"); s == nil || s.Evidence["kinds"].(map[string]any)["dde"] == nil {
					t.Errorf("%s: dde=yes but no DDE link", row.File)
				}
			case key == "dde" && val == "no":
				if s := has("office-external-links"); s != nil && s.Evidence["kinds"].(map[string]any)["dde"] != nil {
					t.Errorf("%s: dde=no but a DDE link", row.File)
				}
			case key == "external_link" && yes:
				wantRisk = true
				if has("office-external-links") == nil {
					t.Errorf("%s: external link not reported", row.File)
				}
			case (key == "embedded_ole_object" || key == "embedded_objects") && yes:
				wantRisk = true
				if has("office-embedded-objects") == nil {
					t.Errorf("%s: %s but no office-embedded-objects", row.File, fact)
				}
			case key == "encrypted" && yes:
				if !r.Document.Encrypted && !strings.Contains(facts, "VelvetSweatshop") {
					t.Errorf("%s: encrypted but document.encrypted false", row.File)
				}
			}
		}
		if wantRisk {
			risky++
			for _, fam := range []string{"office-macros", "office-external-links", "office-embedded-objects"} {
				if s := has(fam); s != nil && s.Severity.Rank() >= report.Medium.Rank() {
					flagged++
					break
				}
			}
		}
		if facts == "-" && newFormats[filepath.Ext(row.File)] && r.Summary.RiskBand != "low" {
			t.Errorf("%s: ordinary file in band %s", row.File, r.Summary.RiskBand)
		}
	}
	t.Logf("%d of %d corpus Office files with a macro, link, DDE or embedded object are flagged medium or above", flagged, risky)
	if risky == 0 || flagged*100 < risky*95 {
		t.Errorf("flagged %d of %d, goal 95%%", flagged, risky)
	}
}
