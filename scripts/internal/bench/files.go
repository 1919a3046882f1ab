package bench

import (
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
)

// File is one corpus file a benchmark times.
type File struct {
	Rel      string // path relative to the corpus root, with slashes
	Category string // the corpus category folder it was found under
	Size     int64
}

// ListFiles walks the named categories of the corpus under root (blank
// names skipped) and returns the regular files keep accepts, by path.
func ListFiles(root string, cats []string, keep func(category, path string) bool) ([]File, error) {
	var out []File
	for _, cat := range cats {
		cat = strings.TrimSpace(cat)
		if cat == "" {
			continue
		}
		err := filepath.WalkDir(filepath.Join(root, cat), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.Type().IsRegular() || !keep(cat, p) {
				return nil
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			out = append(out, File{Rel: filepath.ToSlash(rel), Category: cat, Size: info.Size()})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Rel < out[j].Rel })
	return out, nil
}

// IsPDF accepts files named .pdf, whatever the category.
func IsPDF(_, path string) bool { return strings.EqualFold(filepath.Ext(path), ".pdf") }
