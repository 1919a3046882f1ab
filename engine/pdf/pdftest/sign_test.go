package pdftest_test

import (
	"bytes"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

func TestSealCoversAllButContents(t *testing.T) {
	b := pdftest.OnePage("x")
	b.Set(6, "<< /FT /Sig /T (S) /V 7 0 R /Type /Annot /Subtype /Widget /Rect [0 0 0 0] /P 3 0 R >>")
	b.Set(7, pdftest.SigDict("Sig", "adbe.pkcs7.detached", 16, "/Reason (ok)"))
	b.Set(pdftest.PageObj, pdftest.TextPageDict("/Annots [6 0 R]"))
	b.Set(pdftest.CatalogObj, pdftest.CatalogDict("/AcroForm << /Fields [6 0 R] >>"))
	unsealed := b.Bytes()
	signed := pdftest.Seal(unsealed)
	if len(signed) != len(unsealed) {
		t.Fatalf("sealing changed the length: %d -> %d", len(unsealed), len(signed))
	}
	brs := pdftest.ByteRanges(signed)
	if len(brs) != 1 {
		t.Fatalf("%d byte ranges", len(brs))
	}
	br := brs[0]
	hole := signed[br[1]:br[2]]
	// The hole is the whole hex string, a DER SignedData and its padding.
	if br[0] != 0 || br[2]+br[3] != len(signed) || !bytes.HasPrefix(hole, []byte("<3082")) || !bytes.HasSuffix(hole, []byte("00>")) {
		t.Fatalf("byte range %v, hole %q", br, hole)
	}
	f := open(t, signed)
	clean(t, f)
	validate(t, signed)
	sig := cos.DictOf(f.Resolve(cos.Ref{Num: 7}))
	if got, _ := f.Resolve(sig.Get("ByteRange")).(cos.Array); len(got) != 4 {
		t.Fatalf("parsed /ByteRange %v", got)
	}

	// An update keeps the sealed range; SealWith and SetByteRange tamper.
	u := pdftest.Update(signed)
	u.Set(8, "<< >>")
	u.Trailer("/Root 1 0 R")
	two := u.Bytes()
	if got := pdftest.ByteRanges(two)[0]; got != br {
		t.Fatalf("range after update %v, want %v", got, br)
	}
	shifted := pdftest.SealWith(unsealed, func(r [4]int) [4]int { r[3] -= 5; return r })
	if got := pdftest.ByteRanges(shifted)[0]; got[3] != br[3]-5 {
		t.Fatalf("tampered range %v", got)
	}
	set := pdftest.SetByteRange(two, 0, [4]int{1, 2, 3, 4})
	if got := pdftest.ByteRanges(set)[0]; got != [4]int{1, 2, 3, 4} || len(set) != len(two) {
		t.Fatalf("set range %v", got)
	}
}
