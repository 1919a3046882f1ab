package image

import (
	"context"

	"github.com/doctrust/doctrust/engine/sniff"
)

// EditingTools walks one image held inside another document (an Office
// package's media part) and returns the image editors its metadata names,
// from the same fixed list and sources as image-editing-software. Formats
// the walkers do not read, and walks the context cuts short, give nil.
func EditingTools(ctx context.Context, data []byte) []string {
	format := sniff.Sniff(data).Format
	if format.Kind() != sniff.KindImage || !Walks(format) {
		return nil
	}
	f, err := walk(ctx, data, format)
	if err != nil {
		return nil
	}
	var names []string
	for _, h := range newAnalysis(f).tools {
		if !contains(names, h.name) {
			names = append(names, h.name)
		}
	}
	return names
}
