package pdf

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/pdf/cos"
	"github.com/doctrust/doctrust/engine/pdf/paint"
)

// The render oracle (issue 34): every box hidden-text reports as unseen
// (invisible, transparent, in the background's colour, clipped, off the
// page, in a layer switched off, in a hidden annotation, covered) is
// checked on the page as a real renderer draws it, for every committed
// fixture and every corpus PDF. A box that shows ink against the rest of
// the box is visible text reported as hidden: the test fails. Renders go
// through scripts/render-oracle/render-page.sh (poppler's pdftoppm, or
// MuPDF's mutool draw); the service itself never renders.

const (
	oracleDPI = 100
	// A pixel is ink when it differs from the box's commonest value by
	// more than inkDelta of 255 (well above the contrast under which the
	// family calls text indistinct); a box is visible when at least
	// inkShare of its inner pixels, and minInkPixels, are ink.
	inkDelta     = 48
	inkShare     = 0.03
	minInkPixels = 8
	// inner keeps the middle of a box: a run's box is its glyphs' line box,
	// looser than their ink, and may lean over the edge of its backdrop.
	inner = 0.2
)

// oracleBox is one reported unseen box.
type oracleBox struct {
	page int
	box  paint.Rect
	kind int
}

func TestRenderOracle(t *testing.T) {
	script, _ := filepath.Abs("../../scripts/render-oracle/render-page.sh")
	var renderers []string
	for _, r := range []string{"mutool", "pdftoppm"} {
		if _, err := exec.LookPath(r); err == nil {
			renderers = append(renderers, r)
		}
	}
	if len(renderers) == 0 {
		if os.Getenv("CI") != "" {
			t.Fatal("the render oracle needs mutool (mupdf-tools) or pdftoppm (poppler-utils); .ci/run installs them")
		}
		t.Skip("render oracle skipped: neither mutool nor pdftoppm is installed (CI installs mupdf-tools and poppler-utils)")
	}
	files := oracleFiles(t)
	tmp := t.TempDir()
	checked, rendered := 0, 0
	for _, path := range files {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		boxes, pages := unseenBoxes(data)
		if len(boxes) == 0 {
			continue
		}
		byPage := map[int][]oracleBox{}
		for _, b := range boxes {
			byPage[b.page] = append(byPage[b.page], b)
		}
		nums := make([]int, 0, len(byPage))
		for n := range byPage {
			nums = append(nums, n)
		}
		sort.Ints(nums)
		for _, n := range nums {
			// Renderers differ on optional content: MuPDF ignores a /OC
			// sequence opened inside a text object, poppler ignores the
			// /AS usage entries that hide a layer for viewing; both are
			// specified. A box is visible text only when every renderer
			// present shows ink in it.
			shows := map[int][]string{}
			for _, rd := range renderers {
				out := filepath.Join(tmp, fmt.Sprintf("p%d.pgm", rendered))
				rendered++
				cmd := exec.Command(script, rd, path, strconv.Itoa(n), strconv.Itoa(oracleDPI), out)
				if msg, err := cmd.CombinedOutput(); err != nil {
					t.Logf("%s page %d: %s did not render it (%v: %s)", rel(path), n, rd, err, bytes.TrimSpace(msg))
					continue
				}
				img, err := readPGM(out)
				os.Remove(out)
				if err != nil {
					t.Logf("%s page %d: %s: %v", rel(path), n, rd, err)
					continue
				}
				geo := pages[n-1]
				mask := geo.mask(img)
				for i, b := range byPage[n] {
					px, ok := geo.pixels(b.box, img)
					if !ok {
						continue // wholly off the rendered page
					}
					ink, total := img.ink(px, mask)
					if total == 0 {
						continue // wholly on other visible text
					}
					if ink >= minInkPixels && float64(ink) >= inkShare*float64(total) {
						shows[i] = append(shows[i], fmt.Sprintf("%s %d of %d pixels", rd, ink, total))
					} else {
						shows[i] = append(shows[i], "")
					}
				}
			}
			for i, b := range byPage[n] {
				if len(shows[i]) == 0 {
					continue
				}
				checked++
				if !slices.Contains(shows[i], "") {
					t.Errorf("%s page %d: %s box %v shows ink (%s): visible text reported as hidden",
						rel(path), n, hiddenCodes[b.kind], b.box, strings.Join(shows[i], "; "))
				}
			}
		}
	}
	t.Logf("render oracle (%s): %d files, %d page renders, %d boxes checked", strings.Join(renderers, ", "), len(files), rendered, checked)
}

func rel(path string) string {
	if i := strings.Index(path, "/corpus/"); i >= 0 {
		return path[i+len("/corpus/"):]
	}
	return path
}

// oracleFiles lists the repository's committed PDFs and the corpus PDFs.
func oracleFiles(t *testing.T) []string {
	var out []string
	root, _ := filepath.Abs("../..")
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(strings.ToLower(d.Name()), ".pdf") {
			out = append(out, p)
		}
		return nil
	})
	corpus, _ := filepath.Abs("../../../shared/corpus")
	if _, err := os.Stat(corpus); err == nil {
		for _, cat := range []string{"pdf-general", "pdf-hostile", "pdf-incremental", "pdf-redaction", "pdf-signed"} {
			filepath.WalkDir(filepath.Join(corpus, cat), func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					out = append(out, p)
				}
				return nil
			})
		}
	} else {
		t.Log("shared corpus not present: committed fixtures only")
	}
	sort.Strings(out)
	return out
}

// pageGeo is what maps page space onto a rendered page.
type pageGeo struct {
	media, crop paint.Rect
	rotate      int
	shown       []paint.Rect // glyph ink of visible runs not reported
}

// unseenBoxes runs the content walk as an inspection does and returns the
// boxes of unseen variants, with every page's geometry and, on the pages
// with such boxes, the ink boxes of the glyphs of other runs that show:
// hidden text laid over a visible line (white over a footnote) is judged
// on what is left of its box, not on the line's ink.
func unseenBoxes(data []byte) ([]oracleBox, []pageGeo) {
	header := bytes.Index(data, []byte("%PDF"))
	d, err := Open(context.Background(), data, header, DefaultBudget)
	if err != nil || d.f.Encrypted {
		return nil, nil
	}
	a := d.reading(Options{}, d.limit)
	a.walkContent()
	var geo []pageGeo
	for _, p := range a.pages {
		g := pageGeo{media: paint.RectOf(p.mediaBox)}
		g.crop = g.media
		if p.cropBox != nil {
			g.crop = paint.RectOf(*p.cropBox).Intersect(g.media)
		}
		if n, ok := cos.AsInt(a.resolve(p.dict.Get("Rotate"))); ok {
			g.rotate = int(((n % 360) + 360) % 360)
		}
		geo = append(geo, g)
	}
	f := &a.content.hidden
	var out []oracleBox
	for i, b := range f.boxes {
		if !unseen[f.kinds[i]] || b.Page < 1 || b.Page > len(geo) {
			continue
		}
		out = append(out, oracleBox{page: b.Page, box: paint.RectOf(b.Box), kind: f.kinds[i]})
	}
	in := paint.New(a.paintSource(0))
	done := map[int]bool{}
	for _, b := range out {
		if done[b.page] {
			continue
		}
		done[b.page] = true
		p := a.pages[b.page-1]
		pg := in.Page(p.dict.Get("Contents"), p.resources)
		for i := range pg.Text {
			r := &pg.Text[i]
			if !visible(r) || transparent(r) || r.OCOff || r.Clipped || reported(f.boxes, b.page, r.Box) {
				continue
			}
			for _, g := range r.Glyphs {
				if inkGlyph(g) {
					geo[b.page-1].shown = append(geo[b.page-1].shown, g.Ink)
				}
			}
		}
	}
	return out, geo
}

// reported reports a run whose box hidden-text lists (rounded to a tenth).
func reported(boxes []box, page int, r paint.Rect) bool {
	b := boxOf(page, r)
	for _, o := range boxes {
		if o == b {
			return true
		}
	}
	return false
}

// pgm is a greyscale raster.
type pgm struct {
	w, h int
	pix  []byte
}

func readPGM(path string) (*pgm, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	br := bufio.NewReader(fh)
	var magic string
	var w, h, maxv int
	if _, err := fmt.Fscan(br, &magic, &w, &h, &maxv); err != nil || magic != "P5" || maxv != 255 {
		return nil, fmt.Errorf("not an 8-bit PGM (%s %v)", magic, err)
	}
	br.ReadByte() // the single white space after the header
	img := &pgm{w: w, h: h, pix: make([]byte, w*h)}
	if _, err := io.ReadFull(br, img.pix); err != nil {
		return nil, err
	}
	return img, nil
}

// pixels maps the middle of a page-space box onto the raster: the
// renderer drew the MediaBox or the CropBox (told apart by the raster's
// size) turned by /Rotate.
func (g pageGeo) pixels(b paint.Rect, img *pgm) (image [4]int, ok bool) {
	image, _, ok = g.mapBox(b, img, true)
	return image, ok
}

// mapBox maps a page-space box onto the raster (its middle when shrink),
// and returns the page area the raster shows.
func (g pageGeo) mapBox(b paint.Rect, img *pgm, shrink bool) (image [4]int, area paint.Rect, ok bool) {
	area = g.crop
	s := float64(oracleDPI) / 72
	fits := func(r paint.Rect) bool {
		w, h := r.Width()*s, r.Height()*s
		if g.rotate == 90 || g.rotate == 270 {
			w, h = h, w
		}
		return absf(w-float64(img.w)) <= 2 && absf(h-float64(img.h)) <= 2
	}
	if !fits(area) {
		if !fits(g.media) {
			return image, area, false
		}
		area = g.media
	}
	b = b.Intersect(area)
	if b.Width() <= 0 || b.Height() <= 0 {
		return image, area, false
	}
	if shrink {
		dx, dy := b.Width()*inner, b.Height()*inner
		b = paint.Rect{X0: b.X0 + dx, Y0: b.Y0 + dy, X1: b.X1 - dx, Y1: b.Y1 - dy}
	}
	W, H := area.Width(), area.Height()
	pt := func(x, y float64) (float64, float64) {
		u, v := x-area.X0, y-area.Y0
		switch g.rotate {
		case 90:
			return v * s, u * s
		case 180:
			return (W - u) * s, v * s
		case 270:
			return (H - v) * s, (W - u) * s
		}
		return u * s, (H - v) * s
	}
	x0, y0 := pt(b.X0, b.Y0)
	x1, y1 := pt(b.X1, b.Y1)
	ix0, ix1 := int(min(x0, x1)), int(max(x0, x1)+0.999)
	iy0, iy1 := int(min(y0, y1)), int(max(y0, y1)+0.999)
	ix0, iy0 = max(ix0, 0), max(iy0, 0)
	ix1, iy1 = min(ix1, img.w), min(iy1, img.h)
	if ix1 <= ix0 || iy1 <= iy0 {
		return image, area, false
	}
	return [4]int{ix0, iy0, ix1, iy1}, area, true
}

// mask marks the raster pixels of the page's other visible glyphs.
func (g pageGeo) mask(img *pgm) []bool {
	if len(g.shown) == 0 {
		return nil
	}
	m := make([]bool, img.w*img.h)
	for _, b := range g.shown {
		px, _, ok := g.mapBox(b, img, false)
		if !ok {
			continue
		}
		for y := px[1]; y < px[3]; y++ {
			for x := px[0]; x < px[2]; x++ {
				m[y*img.w+x] = true
			}
		}
	}
	return m
}

// ink counts the pixels of a region, outside the mask, that differ from
// its commonest value.
func (img *pgm) ink(r [4]int, mask []bool) (ink, total int) {
	var hist [256]int
	for y := r[1]; y < r[3]; y++ {
		for x := r[0]; x < r[2]; x++ {
			if mask == nil || !mask[y*img.w+x] {
				hist[img.pix[y*img.w+x]]++
			}
		}
	}
	mode := 0
	for v := range hist {
		if hist[v] > hist[mode] {
			mode = v
		}
	}
	for v, n := range hist {
		total += n
		if v-mode > inkDelta || mode-v > inkDelta {
			ink += n
		}
	}
	return ink, total
}

func absf(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// TestRenderOracleSeesInk: the oracle's measure finds the ink of a visible
// line (the clean twin's payment note), and none in its forged twin's
// white-on-white field: it can fail.
func TestRenderOracleSeesInk(t *testing.T) {
	script, _ := filepath.Abs("../../scripts/render-oracle/render-page.sh")
	dir := filepath.Join("..", "testdata", "detection", "conceal")
	measured := 0
	for _, rd := range []string{"mutool", "pdftoppm"} {
		if _, err := exec.LookPath(rd); err != nil {
			continue
		}
		for _, tc := range []struct {
			file    string
			visible bool
		}{{"genuine-outside-page.pdf", true}, {"forged-field-appearance.pdf", false}} {
			path := filepath.Join(dir, tc.file)
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			box, ok := noteBox(data)
			if !ok {
				t.Fatalf("%s: no note drawn", tc.file)
			}
			out := filepath.Join(t.TempDir(), "p.pgm")
			if msg, err := exec.Command(script, rd, path, "1", strconv.Itoa(oracleDPI), out).CombinedOutput(); err != nil {
				t.Fatalf("%s: %v %s", rd, err, msg)
			}
			img, err := readPGM(out)
			if err != nil {
				t.Fatal(err)
			}
			g := pageGeo{media: paint.Rect{X1: 612, Y1: 792}, crop: paint.Rect{X1: 612, Y1: 792}}
			px, ok := g.pixels(box, img)
			if !ok {
				t.Fatalf("%s: box %v off the raster", rd, box)
			}
			ink, total := img.ink(px, nil)
			shows := ink >= minInkPixels && float64(ink) >= inkShare*float64(total)
			if shows != tc.visible {
				t.Errorf("%s %s: ink %d of %d, visible %v", rd, tc.file, ink, total, shows)
			}
			measured++
		}
	}
	if measured == 0 {
		t.Skip("neither mutool nor pdftoppm is installed")
	}
}

// noteBox finds the box of the line drawn at y 500 or in the field at
// y 480 on page 1 of a conceal fixture.
func noteBox(data []byte) (paint.Rect, bool) {
	d, err := Open(context.Background(), data, bytes.Index(data, []byte("%PDF")), DefaultBudget)
	if err != nil {
		return paint.Rect{}, false
	}
	a := d.reading(Options{}, d.limit)
	p := a.pages[0]
	pg := paint.New(a.paintSource(0)).Page(p.dict.Get("Contents"), p.resources)
	for _, r := range pg.Text {
		if r.Box.Y0 > 495 && r.Box.Y0 < 505 {
			return r.Box, true
		}
	}
	a.content.hidden = hiddenFacts{}
	a.walkContent()
	for i, b := range a.content.hidden.boxes {
		if a.content.hidden.kinds[i] == hidBackground {
			return paint.RectOf(b.Box), true
		}
	}
	return paint.Rect{}, false
}
