package image

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/sniff"
)

// Fuzz targets, one per container plus the EXIF pre-pass and goexif pair:
//
//	go test -run='^$' -fuzz='^FuzzJPEG$' -fuzztime=30s ./engine/image/
//
// Each seeds from the code-built fixtures and the corpus files of its
// format under 64 KiB (the fuzzer minimises every new input it keeps, and
// minimising a mutated 500 KB photo stalls a worker for tens of seconds),
// and checks that a walk returns a walked image block.

func seedCorpus(f *testing.F, ext ...string) {
	root, _ := filepath.Abs("../../../shared/corpus/image")
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		for _, e := range ext {
			if strings.HasSuffix(p, e) {
				if b, err := os.ReadFile(p); err == nil && len(b) < 64<<10 {
					f.Add(b)
				}
			}
		}
		return nil
	})
}

func fuzzAnalyze(t *testing.T, data []byte, format sniff.Format) {
	r, err := Analyze(context.Background(), data, format)
	if err != nil {
		t.Fatal(err)
	}
	if r.Image == nil || !r.Image.Walked {
		t.Fatal("no walked image block")
	}
	if r.Image.Width != nil && *r.Image.Width < 0 {
		t.Fatal("negative width")
	}
}

func FuzzJPEG(f *testing.F) {
	f.Add(cameraJPEG(jpegOpts{}))
	f.Add(cameraJPEG(jpegOpts{exif: tiffEXIF([]ent{ascii(0x010F, "Canon")}, nil, nil, buildJPEG(jpegOpts{w: 160, h: 120}))}))
	f.Add(buildJPEG(jpegOpts{xmp: "<x xmp:CreatorTool=\"GIMP\"/>", trailing: []byte("PK\x03\x04")}))
	f.Add(cameraJPEG(jpegOpts{xmp: `<rdf:Description dcterms:provenance="self#jumbf=/c2pa/urn:uuid:1/c2pa.claim"/>`}))
	// The edit fixtures: camera tables under a library re-encode, a
	// thumbnail of another shape, a thumbnail larger than the image.
	for _, name := range []string{"camera-original.jpg", "camera-pillow-edit.jpg", "camera-exiftool-thumbnail.jpg", "camera-imagemagick-crop.jpg"} {
		if b, err := os.ReadFile(filepath.Join("../testdata/detection/media", name)); err == nil {
			f.Add(b)
		}
	}
	seedCorpus(f, ".jpg")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAnalyze(t, data, sniff.JPEG) })
}

func FuzzPNG(f *testing.F) {
	f.Add(buildPNG(chunk("tEXt", []byte("parameters\x00x")), chunk("eXIf", camera(nil, nil))))
	f.Add(buildPNG(chunk("zTXt", []byte("k\x00\x00\x78\x9c\x03\x00\x00\x00\x00\x01"))))
	seedCorpus(f, ".png")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAnalyze(t, data, sniff.PNG) })
}

func FuzzWebP(f *testing.F) {
	f.Add(buildWebP(100, 50, camera(nil, nil)))
	seedCorpus(f, ".webp")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAnalyze(t, data, sniff.WebP) })
}

func FuzzISOBMFF(f *testing.F) {
	f.Add(buildHEIC(64, 48, camera(nil, nil)))
	seedCorpus(f, ".heic", ".heif", ".avif")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzAnalyze(t, data, sniff.HEIC) })
}

func FuzzEXIF(f *testing.F) {
	f.Add(camera(nil, nil))
	f.Add(tiffEXIF([]ent{ascii(0x010F, "Canon")}, []ent{ascii(0x9003, "2024:01:01 00:00:00")},
		[]ent{rational3(2), rational3(4)}, buildJPEG(jpegOpts{w: 16, h: 16})))
	f.Fuzz(func(t *testing.T, data []byte) {
		// goexif decodes every entry the pre-pass accepts.
		var at []entryAt
		if (&prepass{b: data, facts: &exifFacts{}, entries: &at}).run() == nil {
			if list, _, err := ListEXIF(data); err != nil || len(list) != len(at) {
				t.Fatalf("goexif decoded %d of %d accepted entries (%v)", len(list), len(at), err)
			}
		}
		x, err := parseEXIF(data)
		if err != nil {
			return
		}
		if x.thumbLength > 0 && x.thumbOffset+x.thumbLength > len(data) {
			t.Fatal("thumbnail out of range accepted")
		}
		a := newAnalysis(&facts{exif: x, width: 10, height: 10})
		a.thumbnail()
	})
}
