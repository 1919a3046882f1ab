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

// editedImages walks the package's image parts with the image walkers and
// keeps those whose metadata names an image editor: a screenshot or scan
// pasted into a document after retouching is the Office form of an edited
// image. Only the first maxMediaParts images are read.
func (a *analysis) editedImages() (out []editedImage, walked int) {
	for name, data := range a.imageParts() {
		if walked >= maxMediaParts {
			break
		}
		walked++
		if tools := image.EditingTools(a.ctx, data); len(tools) > 0 {
			out = append(out, editedImage{report.Untrusted(name), tools})
		}
	}
	return out, walked
}
