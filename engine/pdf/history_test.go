package pdf_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/doctrust/doctrust/engine/pdf"
	"github.com/doctrust/doctrust/engine/pdf/pdftest"
	"github.com/doctrust/doctrust/engine/report"
)

// TestProducerHistory: the metadata of every revision, compared.
func TestProducerHistory(t *testing.T) {
	d := func(s string) string {
		tm, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return pdftest.Date(tm)
	}
	base := withInfo(pdftest.OnePage("x"), "/Producer (LibreOffice 7.4) /Creator (Writer)", "").Bytes()
	// An editor's save (Draw as creator), then its name written over with
	// the original values, as exiftool does.
	edited := resave(base, "/Producer (LibreOffice 7.4) /Creator (Draw)", "")
	laundered := resave(edited, "/Producer (LibreOffice 7.4) /Creator (Writer)", "")

	t.Run("laundered", func(t *testing.T) {
		s := must(t, analyze(t, laundered, full), "metadata-inconsistency")
		expect(t, s, report.Medium, "metadata-inconsistency.editor-laundered")
		eq(t, "params", s.Message.Params, map[string]any{"editors": 1, "namedInRevision": 2, "clearedInRevision": 3})
		eq(t, "launderedEditors", s.Evidence["launderedEditors"], []map[string]string{{"name": "LibreOffice Draw", "class": "desktop-editor"}})
		eq(t, "changedBetweenRevisions", s.Evidence["changedBetweenRevisions"], []string{"creator"})
	})
	t.Run("editor still named is not laundering", func(t *testing.T) {
		s := must(t, analyze(t, edited, full), "metadata-inconsistency")
		expect(t, s, report.Low, "metadata-inconsistency.history-changed")
		if s.Evidence["launderedEditors"] != nil {
			t.Fatalf("laundering reported: %v", s.Evidence)
		}
	})
	t.Run("producer changed between revisions", func(t *testing.T) {
		data := resave(base, "/Producer (Quartz PDFContext) /Creator (Writer)", "")
		s := must(t, analyze(t, data, full), "metadata-inconsistency")
		expect(t, s, report.Low, "metadata-inconsistency.history-changed")
		eq(t, "changedBetweenRevisions", s.Evidence["changedBetweenRevisions"], []string{"producer"})
	})
	t.Run("creation date changed and modification date rolled back", func(t *testing.T) {
		first := withInfo(pdftest.OnePage("x"), "/Producer (Writer) /CreationDate "+d("2024-01-01T12:00:00Z")+" /ModDate "+d("2024-02-01T12:00:00Z"), "").Bytes()
		data := resave(first, "/Producer (Writer) /CreationDate "+d("2024-01-05T12:00:00Z")+" /ModDate "+d("2024-01-10T12:00:00Z"), "")
		s := must(t, analyze(t, data, full), "metadata-inconsistency")
		eq(t, "changedBetweenRevisions", s.Evidence["changedBetweenRevisions"], []string{"creationDate", "modDateRolledBack"})
	})
	t.Run("quiet", func(t *testing.T) {
		for name, data := range map[string][]byte{
			"single revision":               base,
			"a version bump":                resave(withInfo(pdftest.OnePage("x"), "/Producer (Acme Writer 1.2)", "").Bytes(), "/Producer (Acme Writer 1.3)", ""),
			"a producer added":              resave(withInfo(pdftest.OnePage("x"), "/Title (t)", "").Bytes(), "/Title (t) /Producer (Writer)", ""),
			"a processing step stamped":     resave(withInfo(pdftest.OnePage("x"), "/Producer (LibreOffice 6.3)", "").Bytes(), "/Producer (LibreOffice 6.3; modified using iText 7.2.2)", ""),
			"an unknown producer extended":  resave(withInfo(pdftest.OnePage("x"), "/Producer (Acme Render 2)", "").Bytes(), "/Producer (Acme Render 2; Stamper 1.0)", ""),
			"modification date moved ahead": resave(withInfo(pdftest.OnePage("x"), "/ModDate "+d("2024-01-01T12:00:00Z"), "").Bytes(), "/ModDate "+d("2024-03-01T12:00:00Z"), ""),
		} {
			if s := analyze(t, data, full).signal("metadata-inconsistency"); s != nil {
				t.Errorf("%s: %s %v", name, s.Message.Code, s.Evidence)
			}
		}
	})
	t.Run("xmp of each revision", func(t *testing.T) {
		// The first revision's XMP names pypdf; an update writes a new
		// packet naming the original producer back.
		b := withXMP(withInfo(pdftest.OnePage("x"), "/Producer (Writer)", ""), "<pdf:Producer>pypdf</pdf:Producer>", "")
		first := b.Bytes()
		u := pdftest.Update(first)
		u.Stream(7, "<< /Type /Metadata /Subtype /XML >>", pdftest.XMP("<pdf:Producer>Writer</pdf:Producer>"))
		u.Trailer("/Root 1 0 R /Info 6 0 R")
		s := must(t, analyze(t, u.Bytes(), full), "metadata-inconsistency")
		expect(t, s, report.Medium, "metadata-inconsistency.editor-laundered")
	})
	t.Run("an editor dropped from the xmp history", func(t *testing.T) {
		agent := "<xmpMM:History><rdf:Seq><rdf:li rdf:parseType=\"Resource\"><stEvt:action>saved</stEvt:action>" +
			"<stEvt:softwareAgent>Adobe Acrobat Pro DC 21.1</stEvt:softwareAgent></rdf:li></rdf:Seq></xmpMM:History>"
		b := withXMP(withInfo(pdftest.OnePage("x"), "/Producer (Writer)", ""), "<pdf:Producer>Writer</pdf:Producer>"+agent, "")
		u := pdftest.Update(b.Bytes())
		u.Stream(7, "<< /Type /Metadata /Subtype /XML >>", pdftest.XMP("<pdf:Producer>Writer</pdf:Producer>"))
		u.Trailer("/Root 1 0 R /Info 6 0 R")
		s := must(t, analyze(t, u.Bytes(), full), "metadata-inconsistency")
		expect(t, s, report.Medium, "metadata-inconsistency.editor-laundered")
		eq(t, "launderedEditors", s.Evidence["launderedEditors"], []map[string]string{{"name": "Adobe Acrobat", "class": "desktop-editor"}})
	})
	t.Run("an editor still in the final history is not laundering", func(t *testing.T) {
		agent := "<xmpMM:History><rdf:Seq><rdf:li rdf:parseType=\"Resource\">" +
			"<stEvt:softwareAgent>Adobe Acrobat Pro DC 21.1</stEvt:softwareAgent></rdf:li></rdf:Seq></xmpMM:History>"
		b := withXMP(withInfo(pdftest.OnePage("x"), "/Producer (Adobe Acrobat Pro DC 21.1)", ""), agent, "")
		u := pdftest.Update(b.Bytes())
		u.Set(6, "<< /Producer (Writer) >>")
		u.Trailer("/Root 1 0 R /Info 6 0 R")
		s := must(t, analyze(t, u.Bytes(), full), "metadata-inconsistency")
		if s.Evidence["launderedEditors"] != nil {
			t.Fatalf("laundering reported: %v", s.Evidence)
		}
	})
}

// TestEditorsBeyondProducer: ExifTool as XMP toolkit and a Ghostscript
// re-distill of a PDF are editors; Ghostscript over a PostScript print is not.
func TestEditorsBeyondProducer(t *testing.T) {
	exif := withXMP(withInfo(pdftest.OnePage("x"), "/Producer (Writer)", ""), "", "").Bytes()
	exif = bytes.Replace(exif, []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/">`), []byte(`<x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Image::ExifTool 12.57">`), 1)
	s := must(t, analyze(t, exif, full), "producer-fingerprint")
	eq(t, "editorTools", s.Evidence["editorTools"], []map[string]string{{"name": "ExifTool", "class": "modification-library"}})

	redistill := withInfo(pdftest.OnePage("x"), "/Producer (GPL Ghostscript 10.00.0) /Creator (WeasyPrint 61.0)", "").Bytes()
	s = must(t, analyze(t, redistill, full), "producer-fingerprint")
	eq(t, "origin", s.Evidence["origin"], "pdf-editor")
	eq(t, "editorTools", s.Evidence["editorTools"], []map[string]string{{"name": "Ghostscript pdfwrite (re-distill)", "class": "modification-library"}})

	print := withComment(withInfo(pdftest.OnePage("x"), "/Producer (GPL Ghostscript 10.00.0) /Creator (PScript5.dll Version 5.2.2)", "").Bytes(), ghostscriptComment)
	if s := analyze(t, print, full).signal("producer-fingerprint"); s != nil {
		t.Fatalf("a PostScript print is flagged: %v", s.Evidence)
	}
}

// TestProducerFixtures runs the two new variants and the new editors on
// files made with the real tools (scripts/fixtures/producers): exiftool
// putting the original producer back after a LibreOffice Draw edit, and
// Ghostscript re-distilling a LibreOffice export; their genuine originals
// stay quiet.
func TestProducerFixtures(t *testing.T) {
	dir := filepath.Join("..", "testdata", "detection", "producers")
	// The fixtures carry the dates they were made on (November 2026).
	after := pdf.Options{Now: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Skip(err)
		}
		return b
	}
	for _, name := range []string{"forged-exiftool-launder-after-draw-reportlab-invoice.pdf", "forged-exiftool-launder-after-draw-writer-statement.pdf"} {
		r := analyze(t, read(name), after)
		expect(t, must(t, r, "metadata-inconsistency"), report.Medium, "metadata-inconsistency.editor-laundered")
		s := must(t, r, "producer-fingerprint")
		eq(t, name+" editors", s.Evidence["editorTools"], []map[string]string{{"name": "ExifTool", "class": "modification-library"}})
	}
	s := must(t, analyze(t, read("forged-gs-redistill-after-edit-docx-statement.pdf"), after), "producer-fingerprint")
	expect(t, s, report.Low, "producer-fingerprint.editor-single-save")
	for _, name := range []string{"gen-reportlab-invoice.pdf", "gen-writer-statement.pdf", "gen-docx-statement.pdf", "gen-ps2pdf-invoice.pdf"} {
		r := analyze(t, read(name), after)
		for _, id := range []string{"metadata-inconsistency", "producer-fingerprint"} {
			if s := r.signal(id); s != nil {
				t.Errorf("genuine %s: %s %s", name, id, s.Message.Code)
			}
		}
	}
}
