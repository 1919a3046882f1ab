package pdf

import (
	"context"
	"reflect"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/pdftest"
)

// FuzzProducerHistory: any Info dictionary and XMP packet in each of three
// revisions runs the producer and metadata families without a contained
// fault, deterministically.
func FuzzProducerHistory(f *testing.F) {
	f.Add("/Producer (LibreOffice 7.4) /Creator (Draw)", "<pdf:Producer>pypdf</pdf:Producer>", "/Producer (LibreOffice 7.4) /Creator (Writer)", `<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Image::ExifTool 12.57"/>`)
	f.Add("/Producer (GPL Ghostscript 10.0) /Creator (WeasyPrint) /CreationDate (D:20240101)", "", "/CreationDate (D:20230101) /ModDate (D:19990101)", "<xmpMM:History/>")
	f.Add("/Producer <FEFF0041> /Creator 7 0 R", "\xff\xfe<\x00", "/Producer (\\376\\377)", "<pdf:Producer>")
	f.Fuzz(func(t *testing.T, info1, xmp1, info2, xmp2 string) {
		b := pdftest.OnePage("x")
		b.Set(6, "<< "+info1+" >>")
		b.Stream(7, "<< /Type /Metadata /Subtype /XML >>", pdftest.XMP(xmp1))
		b.Set(pdftest.CatalogObj, pdftest.CatalogDict("/Metadata 7 0 R"))
		b.Trailer("/Root 1 0 R /Info 6 0 R")
		u := pdftest.Update(b.Bytes())
		u.Set(6, "<< "+info2+" >>")
		u.Trailer("/Root 1 0 R /Info 6 0 R")
		v := pdftest.Update(u.Bytes())
		v.Stream(7, "<< /Type /Metadata /Subtype /XML >>", []byte(xmp2))
		v.Trailer("/Root 1 0 R /Info 6 0 R")
		data := v.Bytes()
		run := func() []string {
			r, err := Analyze(context.Background(), data, 0, Options{Triage: true})
			if err != nil {
				t.Fatal(err)
			}
			var out []string
			for _, s := range r.Signals {
				if _, fault := s.Evidence["faults"]; fault {
					t.Fatalf("contained fault: %v", s.Evidence)
				}
				out = append(out, s.ID+" "+s.Message.Code)
			}
			return out
		}
		if a, b := run(), run(); !reflect.DeepEqual(a, b) {
			t.Fatalf("not deterministic: %v vs %v", a, b)
		}
	})
}
