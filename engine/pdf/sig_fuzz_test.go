package pdf

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/pdf/sigs"
	"github.com/doctrust/doctrust/engine/report"
)

// fuzzSigned is a one-page document whose signature field holds a value
// with the fuzzed dictionary keys and byte range; with update set, a second
// revision rewrites the field's value and the page's annotations.
func fuzzSigned(keys []byte, br [4]int64, update bool) []byte {
	b := pdftest.OnePage("x")
	b.Set(6, "<< /FT /Sig /T (s) /V 7 0 R /Type /Annot /Subtype /Widget /Rect [0 0 10 10] /P 3 0 R >>")
	b.Set(7, fmt.Sprintf("<< %s /ByteRange [%d %d %d %d] /Contents <30800000> >>", keys, br[0], br[1], br[2], br[3]))
	b.Set(pdftest.PageObj, pdftest.TextPageDict("/Annots [6 0 R]"))
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict("/AcroForm << /Fields [6 0 R] /SigFlags 3 >> /Perms << /DocMDP 7 0 R >>"))
	data := b.Bytes()
	if !update {
		return data
	}
	u := pdftest.Update(data)
	u.Set(6, "<< /FT /Sig /T (s) /V 8 0 R /Type /Annot /Subtype /Widget /Rect [0 0 10 10] /P 3 0 R /Lock << /Action /All >> >>")
	u.Set(8, fmt.Sprintf("<< %s /ByteRange [%d %d %d %d] /Contents <00> >>", keys, br[3], br[2], br[1], br[0]))
	u.Set(9, "<< /Type /Annot /Subtype /Text /Rect [0 0 5 5] >>")
	u.Set(pdftest.PageObj, pdftest.TextPageDict("/Annots [6 0 R 9 0 R]"))
	u.Trailer("/Root 1 0 R")
	return u.Bytes()
}

var (
	knownAnomalies   = sigs.RangeAnomalies()
	knownAssessments = sigs.Assessments()
	knownLevels      = sigs.ModificationLevels()
)

// FuzzSignatures: hostile signature dictionaries and byte ranges never
// make an analyser fault, and what the signature families report stays
// within their fixed vocabularies and caps.
func FuzzSignatures(f *testing.F) {
	f.Add([]byte("/Type /Sig /SubFilter /adbe.pkcs7.detached /M (D:20250101000000Z)"), int64(0), int64(700), int64(720), int64(100), false)
	f.Add([]byte("/Type /DocTimeStamp /Reference [<< /TransformMethod /DocMDP /TransformParams << /P 1 >> >>]"), int64(0), int64(10), int64(5), int64(1<<40), true)
	f.Add([]byte("/Reference [<< /TransformMethod /FieldMDP /TransformParams << /Action /Include /Fields [(s) 1 0 R] >> >>] /Reason <FEFF202E>"), int64(-1), int64(0), int64(0), int64(0), true)
	f.Add([]byte("/ByteRange 9 0 R /Contents 7 0 R /Reference 7 0 R"), int64(3), int64(3), int64(3), int64(3), false)
	f.Add([]byte(">> endobj 7 0 obj << /Type /Sig"), int64(0), int64(0), int64(0), int64(0), true)
	f.Fuzz(func(t *testing.T, keys []byte, a, b, c, d int64, update bool) {
		if len(keys) > 4096 {
			return
		}
		data := fuzzSigned(keys, [4]int64{a, b, c, d}, update)
		r, err := Analyze(context.Background(), data, 0, Options{Budget: 8 << 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range r.Signals {
			if _, fault := s.Evidence["faults"]; fault {
				t.Fatalf("an analyser faulted: %v", s.Evidence)
			}
			switch s.ID {
			case "signature-coverage":
				checkCoverageEvidence(t, s)
			case "signature-permissions":
				list, _ := s.Evidence["revisionsAssessed"].([]map[string]any)
				for _, e := range list {
					if !slices.Contains(knownAssessments, e["assessment"].(string)) {
						t.Fatalf("assessment %v", e["assessment"])
					}
				}
			}
		}
	})
}

func checkCoverageEvidence(t *testing.T, s report.Signal) {
	t.Helper()
	sigs, _ := s.Evidence["signatures"].([]map[string]any)
	if len(sigs) > report.MaxArray {
		t.Fatalf("%d signatures in evidence", len(sigs))
	}
	for _, e := range sigs {
		for _, an := range e["anomalies"].([]string) {
			if !slices.Contains(knownAnomalies, an) {
				t.Fatalf("anomaly %q", an)
			}
		}
		if level := e["modificationLevel"].(string); !slices.Contains(knownLevels, level) {
			t.Fatalf("modificationLevel %v", e["modificationLevel"])
		}
	}
}
