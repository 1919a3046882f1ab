package office

import (
	"github.com/doctrust/doctrust/engine/image"
	"github.com/doctrust/doctrust/engine/report"
)

// maxMediaParts bounds how many embedded images are walked for metadata.
const maxMediaParts = 32

// editedImage is one media part whose metadata names an image editor.
type editedImage struct {
	Part  string   `json:"part"`
	Tools []string `json:"tools"`
}

// editedImages walks the package's media parts with the image walkers and
// keeps those whose metadata names an image editor: a screenshot or scan
// pasted into a document after retouching is the Office form of an edited
// image. Only the first maxMediaParts images are read.
func (a *analysis) editedImages() (out []editedImage, walked int) {
	for _, part := range a.pkg.Matching(a.kind+"/media/", "") {
		if walked >= maxMediaParts || a.ctx.Err() != nil {
			break
		}
		data := a.pkg.Read(part)
		if len(data) == 0 {
			continue
		}
		walked++
		if tools := image.EditingTools(a.ctx, data); len(tools) > 0 {
			out = append(out, editedImage{report.Untrusted(part.Name), tools})
		}
	}
	return out, walked
}
