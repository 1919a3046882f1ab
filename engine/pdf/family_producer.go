package pdf

import (
	"github.com/doctrust/doctrust/engine/producers"
	"github.com/doctrust/doctrust/engine/report"
)

// producerFingerprintFamily declares the producer-fingerprint family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var producerFingerprintFamily = declaration{
	ID:      "producer-fingerprint",
	Order:   10,
	Run:     (*analysis).producerFingerprint,
	Summary: "The software that wrote the file, with PDF editors singled out.",
	Evidence: []string{
		"tools[]", "editorTools[]", "origin", "producer", "creator", "revisions",
		"fullPageImagePages[]", "documentPages[]", "writer", "rewriter",
	},
	Variants: []report.VariantDecl{
		{Code: "editor-single-save", Severity: report.Low, Title: "Saved by a PDF editor", Text: "The file was written by {editors#PDF editing tool|PDF editing tools} and has a single revision."},
		{Code: "editor-resaved", Severity: report.Medium, Title: "Re-saved by a PDF editor", Text: "The file was written by {editors#PDF editing tool|PDF editing tools} across {revisions#revision|revisions}."},
		{Code: "editor-full-page-image", Severity: report.Low, UpTo: report.Medium, Title: "PDF editor with full-page images", Text: "The file was written by {editors#PDF editing tool|PDF editing tools} and {pages#page consists|pages consist} of a full-page image, a common trace of an edited scan."},
		{Code: "drawing-tool-document", Severity: report.Medium, Title: "Text document written by a drawing tool", Text: "The file was last written by {tool}, a drawing application, yet page {page} reads as a text document of figures (many lines, a column of amounts): the trace of a PDF imported into the drawing tool, edited and exported again."},
		{Code: "writer-mismatch", Severity: report.Low, Title: "Rewritten by another program", Text: "The producer names {writer}, but the file's header and layout are those of {rewriter}: the file was rewritten by a PDF library after {writer} made it."},
		{Code: "authoring-note", Text: "The producing software is classed as authoring software; the editing tool appears elsewhere in the metadata."},
	},
}

// producerFingerprint names the software that wrote the file and fires when
// a PDF editor is among it. Severity follows SPEC.md: an editor with one
// revision is low, a re-save (more than one revision) medium. Pages that are
// one full-page image name the variant but only corroborate: scanners and
// image-to-PDF converters make them every day, so they never raise the
// severity on their own (issue 25).
func (a *analysis) producerFingerprint() *report.Finding {
	infoProducer, infoCreator := a.infoText("Producer"), a.infoText("Creator")
	xmpProducer, xmpCreator := a.xmp.First(nsPDF, "Producer"), a.xmp.First(nsXMP, "CreatorTool")
	tools := a.tools()
	editors := a.editorTools()
	writer, rewriter, mismatch := a.writerMismatch()
	if len(editors) == 0 {
		if !mismatch {
			return nil
		}
		return &report.Finding{
			Family:   report.FamilyProducerFingerprint,
			Severity: report.Low,
			Message:  report.Msg("producer-fingerprint.writer-mismatch", "writer", report.Kind(writer), "rewriter", report.Kind(rewriter)),
			Evidence: map[string]any{
				"producer":  report.Untrusted(firstNonEmpty(infoProducer, xmpProducer)),
				"writer":    writer,
				"rewriter":  rewriter,
				"revisions": len(a.f.Revisions),
			},
		}
	}
	origin := "authoring"
	for _, t := range producers.Identify(infoProducer, xmpProducer) {
		if t.Class.IsEditor() {
			origin = "pdf-editor"
			break
		}
	}
	if editors[0] == producers.Redistilled {
		// The producer is the re-distilling Ghostscript itself.
		origin = "pdf-editor"
	}
	revisions := len(a.f.Revisions)
	ev := map[string]any{
		"origin":    origin,
		"producer":  report.Untrusted(firstNonEmpty(infoProducer, xmpProducer)),
		"creator":   report.Untrusted(firstNonEmpty(infoCreator, xmpCreator)),
		"revisions": revisions,
	}
	report.Capped(ev, "tools", tools)
	report.Capped(ev, "editorTools", editors)
	report.Capped(ev, "fullPageImagePages", a.fullPageImagePages)
	editorClass := report.Kind(editors[0].Class)
	fd := &report.Finding{Family: report.FamilyProducerFingerprint, Evidence: ev}
	switch {
	case len(a.fullPageImagePages) > 0:
		fd.Severity = report.Low
		if revisions > 1 {
			fd.Severity = report.Medium
		}
		fd.Message = report.Msg("producer-fingerprint.editor-full-page-image", "editors", len(editors), "editorClass", editorClass, "pages", len(a.fullPageImagePages))
	case len(a.content.document.pages) > 0:
		// A drawing application wrote a page of text and figures: the
		// trace of a document imported, edited and exported again
		// (family_producer_document.go).
		tool, _ := drawingTool(editors)
		fd.Severity = report.Medium
		fd.Message = report.Msg("producer-fingerprint.drawing-tool-document", "tool", report.Kind(tool.Name), "page", a.content.document.pages[0])
		report.Capped(ev, "documentPages", a.content.document.pages)
	case revisions > 1:
		fd.Severity = report.Medium
		fd.Message = report.Msg("producer-fingerprint.editor-resaved", "editors", len(editors), "editorClass", editorClass, "revisions", revisions)
	default:
		fd.Severity = report.Low
		fd.Message = report.Msg("producer-fingerprint.editor-single-save", "editors", len(editors), "editorClass", editorClass)
	}
	if origin == "authoring" {
		fd.Notes = append(fd.Notes, report.Msg("producer-fingerprint.authoring-note", "origin", report.Kind(origin)))
	}
	if mismatch {
		fd.Notes = append(fd.Notes, report.Msg("producer-fingerprint.writer-mismatch", "writer", report.Kind(writer), "rewriter", report.Kind(rewriter)))
		ev["writer"], ev["rewriter"] = writer, rewriter
	}
	return fd
}

// writerMismatch compares the writer the producer names with the header
// comment the file carries: the first writer's name kept in the Info
// dictionary over another program's bytes (producers.WriterMismatch). A
// file with appended revisions is left to the history families: an
// incremental update keeps the first writer's header by design.
func (a *analysis) writerMismatch() (writer, rewriter string, ok bool) {
	if a.f.Warn.HeaderMissing || len(a.f.Revisions) != 1 {
		return "", "", false
	}
	producer := firstNonEmpty(a.infoText("Producer"), a.xmp.First(nsPDF, "Producer"))
	return producers.WriterMismatch(producer, headerHigh(a.f.Data, a.f.Header))
}

// tools identifies the software named in the Info dictionary, the XMP
// producer and creator tool, and the XMP history; an editor named as the
// XMP toolkit (ExifTool rewriting the metadata); and Ghostscript's pdfwrite
// re-distilling a file whose creator wrote PDF itself.
func (a *analysis) tools() []producers.Tool {
	if !a.toolsDone {
		// Asked by the producer family and by editorTools: matched once.
		a.toolsFound, a.toolsDone = a.findTools(), true
	}
	return a.toolsFound
}

func (a *analysis) findTools() []producers.Tool {
	producer := firstNonEmpty(a.infoText("Producer"), a.xmp.First(nsPDF, "Producer"))
	creator := firstNonEmpty(a.infoText("Creator"), a.xmp.First(nsXMP, "CreatorTool"))
	values := []string{a.infoText("Producer"), a.xmp.First(nsPDF, "Producer"), a.infoText("Creator"), a.xmp.First(nsXMP, "CreatorTool")}
	values = append(values, a.xmp.All(nsEvt, "softwareAgent")...)
	out := producers.Identify(values...)
	if producers.Redistill(producer, creator) {
		out = append([]producers.Tool{producers.Redistilled}, out...)
	}
	for _, t := range producers.Match(a.xmp.First(nsMeta, "xmptk")) {
		if t.Class.IsEditor() && !hasTool(out, t) {
			out = append(out, t)
		}
	}
	return out
}

func hasTool(ts []producers.Tool, t producers.Tool) bool {
	for _, u := range ts {
		if u.Name == t.Name {
			return true
		}
	}
	return false
}

// editorTools are the PDF editors among tools, found once per analysis.
func (a *analysis) editorTools() []producers.Tool {
	if a.editors == nil {
		a.editors = []producers.Tool{}
		for _, t := range a.tools() {
			if t.Class.IsEditor() {
				a.editors = append(a.editors, t)
			}
		}
	}
	return a.editors
}
