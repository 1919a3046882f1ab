package pdf

import (
	"bytes"
	"slices"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/producers"
	"github.com/doctrust/doctrust/engine/report"
)

// embeddedImageAnomaliesFamily declares the embedded-image-anomalies family (docs/architecture.md):
// go generate derives its report constant, catalogue row, English texts and
// place in the run list from it.
var embeddedImageAnomaliesFamily = declaration{
	ID:               "embedded-image-anomalies",
	Order:            130,
	Run:              (*analysis).embeddedImageAnomalies,
	Summary:          "Full-page images and images replaced in a later revision.",
	TriageSuppressed: true,
	Evidence: []string{
		"replacedObjects[]", "replacedInRevisions[]", "editedObjects[]", "editorTools[]",
		"fullPageImagePages[]",
	},
	Variants: []report.VariantDecl{
		{Code: "replaced", Severity: report.Medium, Title: "Image replaced in a later revision", Text: "{images#image|images} that pages show {images?was|were} overwritten by {revisions#revision|revisions} after the original save."},
		{Code: "editor-metadata", Severity: report.Low, Title: "Image edited with an editing tool", Text: "The metadata of {images#image|images} that pages show names an editing tool."},
		{Code: "full-page-images", Severity: report.Info, Title: "Full-page images", Text: "{pages#page|pages} {pages?consists|consist} of one image covering the page, as a scan or a flattened page does."},
	},
}

// Image limits: image XObjects remembered from the walk, and image
// metadata streams read.
const (
	maxPlacedImages = 10000
	maxImageXMP     = 200
)

type imageFacts struct {
	placed []int // image XObjects the pages paint, in first-paint order
}

func (a *analysis) imagePage(cp *contentPage) {
	f := &a.content.images
	for _, im := range cp.paint.Images {
		if im.Object != 0 && len(f.placed) < maxPlacedImages && !slices.Contains(f.placed, im.Object) {
			f.placed = append(f.placed, im.Object)
		}
	}
}

// embeddedImageAnomalies reports full-page images, images a later
// revision replaced, and images whose own metadata names an editor.
func (a *analysis) embeddedImageAnomalies() *report.Finding {
	var vs []report.Variant
	ev := map[string]any{}
	walked := a.content.pages > 0
	var replaced, revisions []int
	for _, ch := range a.revisionChanges() {
		for _, o := range ch.Overwritten {
			if o.Kind != "image" {
				continue
			}
			st, ok := a.f.Object(o.Object, ch.Revision).(*cos.Stream)
			if !ok || st.Dict.Name("Subtype") != "Image" || (walked && !slices.Contains(a.content.images.placed, o.Object)) {
				continue
			}
			// A writer that saves the same image again replaces nothing.
			if old, ok := a.f.Object(o.Object, ch.Revision-1).(*cos.Stream); ok && bytes.Equal(old.Raw(a.f.Data), st.Raw(a.f.Data)) {
				continue
			}
			replaced = addNum(replaced, o.Object)
			revisions = addNum(revisions, ch.Revision)
		}
	}
	if len(replaced) > 0 {
		vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("embedded-image-anomalies.replaced", "images", len(replaced), "revisions", len(revisions))})
		report.Capped(ev, "replacedObjects", replaced)
		report.Capped(ev, "replacedInRevisions", revisions)
	}
	if objs, tools := a.imageEditors(); len(objs) > 0 {
		vs = append(vs, report.Variant{Severity: report.Low, Message: report.Msg("embedded-image-anomalies.editor-metadata", "images", len(objs))})
		report.Capped(ev, "editedObjects", objs)
		report.Capped(ev, "editorTools", tools)
	}
	if len(a.fullPageImagePages) > 0 {
		vs = append(vs, report.Variant{Severity: report.Info, Message: report.Msg("embedded-image-anomalies.full-page-images", "pages", len(a.fullPageImagePages))})
		report.Capped(ev, "fullPageImagePages", a.fullPageImagePages)
	}
	return report.Compose(report.FamilyEmbeddedImageAnomalies, vs, ev)
}

// imageEditors reads the metadata stream of each painted image (not of an
// encrypted file, whose streams are not decrypted) and names the editors
// in its creator tool and history.
func (a *analysis) imageEditors() (objs []int, tools []producers.Tool) {
	if a.f.Encrypted {
		return nil, nil
	}
	read := 0
	for _, num := range a.content.images.placed {
		st, ok := a.resolve(cos.Ref{Num: num}).(*cos.Stream)
		if !ok {
			continue
		}
		md, ok := a.resolve(st.Dict.Get("Metadata")).(*cos.Stream)
		if !ok || read >= maxImageXMP {
			continue
		}
		read++
		x := a.decodeXMP(md)
		values := append([]string{x.First(nsXMP, "CreatorTool")}, x.All(nsEvt, "softwareAgent")...)
		found := false
		for _, t := range producers.Identify(values...) {
			if t.Class.IsEditor() {
				found = true
				if !slices.Contains(tools, t) {
					tools = append(tools, t)
				}
			}
		}
		if found {
			objs = append(objs, num)
		}
	}
	return objs, tools
}
