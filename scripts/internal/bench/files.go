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

// BySize sorts files by size, then path, so that every choice made from
// the order is the same on every machine with the same corpus.
func BySize(files []File) {
	sort.Slice(files, func(i, j int) bool {
		if files[i].Size != files[j].Size {
			return files[i].Size < files[j].Size
		}
		return files[i].Rel < files[j].Rel
	})
}

// Spread returns n files evenly spaced over files in size order, the
// smallest and the largest included (all of them when n >= len(files)).
func Spread(files []File, n int) []File {
	s := append([]File(nil), files...)
	BySize(s)
	if n >= len(s) {
		return s
	}
	if n <= 0 {
		return nil
	}
	if n == 1 {
		return []File{s[(len(s)-1)/2]}
	}
	out := make([]File, 0, n)
	for i := range n {
		out = append(out, s[i*(len(s)-1)/(n-1)])
	}
	return out
}

// MedianSize is the file of median size (the lower one of an even count).
func MedianSize(files []File) File {
	s := append([]File(nil), files...)
	BySize(s)
	return s[(len(s)-1)/2]
}

// Nearest is the file whose size is closest to size.
func Nearest(files []File, size int64) File {
	s := append([]File(nil), files...)
	BySize(s)
	best := s[0]
	for _, f := range s[1:] {
		if abs(f.Size-size) < abs(best.Size-size) {
			best = f
		}
	}
	return best
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
