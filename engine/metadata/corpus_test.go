package metadata

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/internal/corpustest"
)

const corpus = "../../../shared/corpus"

// manifestRow is one corpus file with the facts its source recorded.
type manifestRow struct {
	category, file string
	expected       map[string]string
	exiftool       bool // the row records exiftool's own tags (src=<test>.out)
}

func readManifest(t *testing.T) []manifestRow {
	var rows []manifestRow
	for _, c := range corpustest.Manifest(t, corpus) {
		r := manifestRow{category: c.Category, file: c.File, expected: map[string]string{}}
		for _, kv := range strings.Split(c.Expected, ";") {
			k, v, ok := strings.Cut(kv, "=")
			if !ok {
				// python-docx rows: "image/jpeg;500x375;dpi=256".
				if m := dims.FindStringSubmatch(kv); m != nil {
					r.expected["width"], r.expected["height"] = m[1], m[2]
				}
				continue
			}
			r.expected[k] = v
		}
		_, r.exiftool = r.expected["src"]
		rows = append(rows, r)
	}
	return rows
}

var dims = regexp.MustCompile(`^(\d+)x(\d+)$`)

// facts are what a listing says about the properties MANIFEST.tsv records.
type facts struct {
	r *Report
}

func (f facts) values(keys ...string) []string {
	var out []string
	for _, c := range f.r.Containers {
		if c.Part != "" {
			continue
		}
		for _, e := range c.Entries {
			k := e.Key
			if i := strings.LastIndexByte(k, ':'); i >= 0 {
				k = k[i+1:]
			}
			for _, want := range keys {
				if k == want {
					out = append(out, e.Value)
				}
			}
		}
	}
	return out
}

func (f facts) has(container string) bool {
	for _, c := range f.r.Containers {
		if c.Name == container && c.Part == "" && len(c.Entries) > 0 {
			return true
		}
	}
	return false
}

func (f facts) named(container string) bool {
	for _, n := range f.r.NotEnumerated {
		if n.Name == container && n.Part == "" {
			return true
		}
	}
	return false
}

func (f facts) first(container, key string) string {
	for _, c := range f.r.Containers {
		if c.Name == container && c.Part == "" {
			for _, e := range c.Entries {
				if e.Key == key {
					return e.Value
				}
			}
		}
	}
	return ""
}

func anyEqual(vals []string, want string) bool {
	for _, v := range vals {
		if v == want {
			return true
		}
	}
	return false
}

func anyContains(vals []string, want string) bool {
	for _, v := range vals {
		if strings.Contains(strings.ToLower(v), strings.ToLower(want)) {
			return true
		}
	}
	return false
}

func yes(v string) bool { return strings.HasPrefix(v, "yes") }

// imageFact is a check on the EXIF of an image file; a PDF's EXIF facts in
// MANIFEST.tsv come from Photoshop resources in a page's private data,
// which the listing does not read.
func imageFact(fn check) check {
	return func(row manifestRow, v string, f facts) (bool, bool) {
		if row.category != "image" {
			return false, false
		}
		return fn(row, v, f)
	}
}

// check compares one expected fact with the listing: comparable is false
// when the listing cannot speak to it.
type check func(row manifestRow, v string, f facts) (comparable, ok bool)

// How a fact is asserted: on every comparable row, on most of them (a
// source whose notes rest on file names or on a validator's view), or
// only counted (facts the listing reads differently by design).
const (
	must  = iota
	most  // at least 80 percent
	count // logged only
)

// checks maps MANIFEST keys onto listing facts.
var checks = map[string]struct {
	level int
	fn    check
}{
	"filetype": {must, func(_ manifestRow, v string, f facts) (bool, bool) {
		ft := f.first("File", "FileType")
		return true, ft == v || strings.HasSuffix(v, " "+ft)
	}},
	"exif.Make":  {must, imageFact(func(_ manifestRow, v string, f facts) (bool, bool) { return true, anyEqual(f.values("Make"), v) })},
	"exif.Model": {must, imageFact(func(_ manifestRow, v string, f facts) (bool, bool) { return true, anyEqual(f.values("Model"), v) })},
	"make": {must, func(_ manifestRow, v string, f facts) (bool, bool) {
		brand, _, _ := strings.Cut(v, "(")
		return true, anyContains(f.values("Make"), brand)
	}},
	"software": {must, func(_ manifestRow, v string, f facts) (bool, bool) {
		return true, anyEqual(f.values("Software", "CreatorTool", "Creator", "Producer"), v)
	}},
	"editor": {most, func(_ manifestRow, v string, f facts) (bool, bool) {
		name, _, _ := strings.Cut(v, "(")
		return true, anyContains(f.values("Software", "CreatorTool", "softwareAgent"), strings.TrimSpace(name))
	}},
	"exif": {must, imageFact(func(row manifestRow, v string, f facts) (bool, bool) {
		return row.exiftool || yes(v), f.has("IFD0") == yes(v)
	})},
	"xmp": {must, func(row manifestRow, v string, f facts) (bool, bool) {
		return row.exiftool || yes(v), f.has("XMP") == yes(v)
	}},
	"extended_xmp": {must, func(_ manifestRow, v string, f facts) (bool, bool) { return yes(v), f.has("XMP") }},
	"icc": {must, func(row manifestRow, v string, f facts) (bool, bool) {
		return row.exiftool || yes(v), f.named("ICC") == yes(v)
	}},
	"iptc": {most, imageFact(func(row manifestRow, v string, f facts) (bool, bool) {
		return row.exiftool || yes(v), f.named("IPTC") == yes(v)
	})},
	"thumbnail": {must, imageFact(func(row manifestRow, v string, f facts) (bool, bool) {
		return row.exiftool, f.has("IFD1") == yes(v)
	})},
	"jfif": {must, func(_ manifestRow, v string, f facts) (bool, bool) { return true, f.named("JFIF") == yes(v) }},
	"mpf":  {must, func(_ manifestRow, v string, f facts) (bool, bool) { return true, f.named("MPF") == yes(v) }},
	"c2pa": {must, func(_ manifestRow, v string, f facts) (bool, bool) {
		switch {
		case strings.HasPrefix(v, "present"):
			return true, f.named("C2PA")
		case v == "none":
			return true, !f.named("C2PA")
		}
		return false, false // a remote manifest reference: nothing in the file
	}},
	"width":  {must, func(_ manifestRow, v string, f facts) (bool, bool) { return true, f.first("File", "ImageWidth") == v }},
	"height": {must, func(_ manifestRow, v string, f facts) (bool, bool) { return true, f.first("File", "ImageHeight") == v }},
	"encrypted": {most, func(_ manifestRow, v string, f facts) (bool, bool) {
		return f.r.MediaType == "pdf" && v != "no", f.first("File", "Encrypted") == "Yes"
	}},
	"fonts_embedded": {must, func(_ manifestRow, v string, f facts) (bool, bool) {
		var fonts []string
		for _, c := range f.r.Containers {
			if c.Name == "Fonts" {
				for _, e := range c.Entries {
					fonts = append(fonts, e.Value)
				}
			}
		}
		if len(fonts) == 0 {
			return true, false
		}
		for _, s := range fonts {
			embedded, sub := !strings.Contains(s, "not embedded"), strings.Contains(s, "subset")
			if v == "all" && !embedded || v == "subset" && !sub || v == "no" && embedded {
				return true, false
			}
		}
		return true, true
	}},
	"pdf_version": {most, func(_ manifestRow, v string, f facts) (bool, bool) {
		ver, _, _ := strings.Cut(v, "(")
		return true, f.first("File", "PDFVersion") == ver || f.first("File", "CatalogVersion") == ver
	}},
	"sig": {most, func(_ manifestRow, v string, f facts) (bool, bool) {
		n, _ := strconv.Atoi(f.first("File", "Signatures"))
		return true, (n > 0) == yes(v)
	}},
	"sigs": {count, func(_ manifestRow, v string, f facts) (bool, bool) {
		return true, f.first("File", "Signatures") == v
	}},
}

// TestManifestFacts lists every image and PDF of the corpus and compares
// the listing with the facts MANIFEST.tsv records for the file (exiftool's
// own expected tags among them). Facts marked must are asserted on every
// comparable row; the others are counted and must mostly agree. No file
// may fail other than as unreadable.
func TestManifestFacts(t *testing.T) {
	rows := readManifest(t)
	type tally struct{ compared, matched int }
	counts := map[string]*tally{}
	files := 0
	for _, row := range rows {
		if row.category != "image" && !strings.HasPrefix(row.category, "pdf") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(corpus, row.file))
		if err != nil {
			t.Fatalf("%s: %v", row.file, err)
		}
		r, err := List(context.Background(), data, Options{})
		if errors.Is(err, ErrUnreadable) {
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", row.file, err)
		}
		files++
		f := facts{r}
		for k, v := range row.expected {
			c, ok := checks[k]
			if !ok {
				continue
			}
			comparable, match := c.fn(row, v, f)
			if !comparable {
				continue
			}
			if counts[k] == nil {
				counts[k] = &tally{}
			}
			counts[k].compared++
			if match {
				counts[k].matched++
			} else if c.level == must {
				t.Errorf("%s: %s=%s does not match the listing", row.file, k, v)
			} else {
				t.Logf("%s: %s=%s differs (counted)", row.file, k, v)
			}
		}
	}
	keys := make([]string, 0, len(counts))
	total, matched := 0, 0
	for k, c := range counts {
		keys = append(keys, k)
		total += c.compared
		matched += c.matched
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-15s %3d/%3d match", k, counts[k].matched, counts[k].compared)
	}
	t.Logf("%d files listed; %d of %d comparable facts match", files, matched, total)
	if total < 150 || files < 300 {
		t.Fatalf("too little compared: %d facts over %d files", total, files)
	}
	for _, k := range keys {
		if c := counts[k]; checks[k].level == most && c.matched*10 < c.compared*8 {
			t.Errorf("%s: only %d of %d match", k, c.matched, c.compared)
		}
	}
}

// TestCorpusSweep lists every corpus file, Office packages and hostile
// files included: a listing or ErrUnreadable, never a contained fault, and
// the same bytes twice for the same file.
func TestCorpusSweep(t *testing.T) {
	if _, err := os.Stat(corpus); err != nil {
		t.Skip("corpus not present")
	}
	files, listed := 0, 0
	err := filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Base(p) == "MANIFEST.tsv" || filepath.Base(p) == "README.md" {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		files++
		r, err := List(context.Background(), data, Options{})
		if errors.Is(err, ErrUnreadable) {
			return nil
		}
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		listed++
		for _, n := range r.Notes {
			if n.Code == "structure-warnings.analysis-fault" {
				t.Errorf("%s: a fault was contained", p)
			}
		}
		again, _ := List(context.Background(), data, Options{})
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(again)
		if string(a) != string(b) {
			t.Errorf("%s: two listings differ", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files, %d listed", files, listed)
	if files < 700 {
		t.Fatalf("only %d corpus files", files)
	}
}
