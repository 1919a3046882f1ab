package image

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

func analyze(t *testing.T, data []byte) *report.Report {
	t.Helper()
	f := sniff.Sniff(data).Format
	if f.Kind() != sniff.KindImage {
		t.Fatalf("fixture sniffed as %q", f)
	}
	r, err := Analyze(context.Background(), data, f)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Signals {
		if !report.HasCode(s.Message.Code) {
			t.Errorf("signal %s uses uncatalogued code %s", s.ID, s.Message.Code)
		}
	}
	return r
}

func sig(r *report.Report, id string) *report.Signal {
	for i := range r.Signals {
		if r.Signals[i].ID == id {
			return &r.Signals[i]
		}
	}
	return nil
}

func wantSignal(t *testing.T, r *report.Report, id, code string, sev report.Severity) *report.Signal {
	t.Helper()
	s := sig(r, id)
	if s == nil {
		t.Fatalf("%s did not fire; signals %+v", id, r.Signals)
	}
	if s.Message.Code != code || s.Severity != sev {
		t.Fatalf("%s: got %s/%s, want %s/%s", id, s.Message.Code, s.Severity, code, sev)
	}
	return s
}

func wantQuiet(t *testing.T, r *report.Report, id string) {
	t.Helper()
	if s := sig(r, id); s != nil {
		t.Fatalf("%s fired on a clean fixture: %+v", id, s)
	}
}

// camera is EXIF a camera would write for a 640x480 frame.
func camera(extra0 []ent, extraExif []ent) []byte {
	ifd0 := append([]ent{ascii(0x010F, "Canon"), ascii(0x0110, "Canon EOS 5D"), ascii(0x0132, "2024:05:01 10:00:00")}, extra0...)
	ex := append([]ent{ascii(0x9003, "2024:05:01 10:00:00"), long(0xA002, 640), long(0xA003, 480)}, extraExif...)
	return tiffEXIF(ifd0, ex, nil, nil)
}

// cameraTables are non-standard tables, as camera firmware writes.
func cameraTables() (l, c [64]uint16) {
	for i := range l {
		l[i], c[i] = uint16(2+i%7), uint16(3+i%5)
	}
	return
}

func cameraJPEG(o jpegOpts) []byte {
	if o.exif == nil {
		o.exif = camera(nil, nil)
	}
	if o.luma == ([64]uint16{}) {
		o.luma, o.chroma = cameraTables()
	}
	return buildJPEG(o)
}

func TestCleanCameraJPEG(t *testing.T) {
	r := analyze(t, cameraJPEG(jpegOpts{}))
	if len(r.Signals) != 0 {
		t.Fatalf("clean camera JPEG raised %+v", r.Signals)
	}
	im := r.Image
	if !im.Walked || *im.Width != 640 || *im.Height != 480 || *im.CameraMake != "Canon" || *im.CameraModel != "Canon EOS 5D" {
		t.Fatalf("image block %+v", im)
	}
	if im.Encoder == nil || *im.Encoder != "camera firmware" || im.JPEGQuality == nil {
		t.Fatalf("encoder %v quality %v", im.Encoder, im.JPEGQuality)
	}
	if *r.Document.Creator != "Canon Canon EOS 5D" || *r.Document.CreationDate != "2024-05-01T10:00:00" {
		t.Fatalf("document %+v", r.Document)
	}
	if strings.Join(im.MetadataContainers, ",") != "EXIF" {
		t.Fatalf("containers %v", im.MetadataContainers)
	}
}

func TestQualityEstimate(t *testing.T) {
	for _, q := range []int{10, 50, 75, 90, 100} {
		r := analyze(t, buildJPEG(jpegOpts{luma: scaled(&stdLuma, q), chroma: scaled(&stdChroma, q), app0: true}))
		if r.Image.JPEGQuality == nil || *r.Image.JPEGQuality != q {
			t.Fatalf("q=%d: estimated %v", q, r.Image.JPEGQuality)
		}
		if *r.Image.Encoder != "libjpeg standard tables" {
			t.Fatalf("encoder %v", *r.Image.Encoder)
		}
	}
}

func TestStructureAnomalies(t *testing.T) {
	bad := buildPNG(chunk("tEXt", []byte("Title\x00x")))
	bad[len(bad)-13-5] ^= 0xFF // a CRC byte of the IDAT chunk
	r := analyze(t, bad)
	s := wantSignal(t, r, "image-structure-anomalies", "image-structure-anomalies.bad-checksum", report.Low)
	if s.Evidence["codes"].([]string)[0] != "bad-crc" {
		t.Fatalf("evidence %v", s.Evidence)
	}
	r = analyze(t, cameraJPEG(jpegOpts{noEOI: true}))
	wantSignal(t, r, "image-structure-anomalies", "image-structure-anomalies.truncated", report.Low)
	wantQuiet(t, analyze(t, buildPNG()), "image-structure-anomalies")
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{})), "image-structure-anomalies")
}

func TestEditingSoftware(t *testing.T) {
	r := analyze(t, cameraJPEG(jpegOpts{exif: camera([]ent{ascii(0x0131, "Adobe Photoshop 25.0 (Windows)")}, nil)}))
	s := wantSignal(t, r, "image-editing-software", "image-editing-software.edited-capture", report.Medium)
	if s.Evidence["tools"].([]string)[0] != "Adobe Photoshop" || *r.Document.Producer != "Adobe Photoshop 25.0 (Windows)" {
		t.Fatalf("evidence %v", s.Evidence)
	}
	xmp := `<x:xmpmeta><rdf:Description xmp:CreatorTool="GIMP 2.10"/></x:xmpmeta>`
	r = analyze(t, buildJPEG(jpegOpts{xmp: xmp}))
	wantSignal(t, r, "image-editing-software", "image-editing-software.editor-named", report.Low)
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{exif: camera([]ent{ascii(0x0131, "Firmware Version 1.1.0")}, nil)})), "image-editing-software")
}

func TestMetadataInconsistency(t *testing.T) {
	ex := tiffEXIF([]ent{ascii(0x010F, "Canon"), ascii(0x0110, "X"), ascii(0x0132, "2024:04:01 10:00:00")},
		[]ent{ascii(0x9003, "2024:05:01 10:00:00")}, nil, nil)
	r := analyze(t, cameraJPEG(jpegOpts{exif: ex}))
	wantSignal(t, r, "image-metadata-inconsistency", "image-metadata-inconsistency.modify-before-capture", report.Medium)

	ex = tiffEXIF([]ent{ascii(0x010F, "Canon")}, []ent{long(0xA002, 1000), long(0xA003, 480)}, nil, nil)
	r = analyze(t, cameraJPEG(jpegOpts{exif: ex}))
	s := wantSignal(t, r, "image-metadata-inconsistency", "image-metadata-inconsistency.make-without-model", report.Low)
	if got := s.Evidence["codes"].([]string); len(got) != 2 || got[1] != "dimension-mismatch" {
		t.Fatalf("codes %v", got)
	}
	xmp := `<rdf:Description exif:DateTimeOriginal="2023-01-01T09:00:00+02:00"/>`
	r = analyze(t, cameraJPEG(jpegOpts{xmp: xmp}))
	wantSignal(t, r, "image-metadata-inconsistency", "image-metadata-inconsistency.xmp-date-mismatch", report.Low)
	xmp = `<rdf:Description exif:DateTimeOriginal="2024-05-01T10:00:00+02:00"/>`
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{xmp: xmp})), "image-metadata-inconsistency")
}

func TestThumbnailMismatch(t *testing.T) {
	thumb := func(w, h int) []byte { return buildJPEG(jpegOpts{w: w, h: h}) }
	ifd0 := []ent{ascii(0x010F, "Canon"), ascii(0x0110, "Canon EOS 5D")}
	r := analyze(t, cameraJPEG(jpegOpts{exif: tiffEXIF(ifd0, nil, nil, thumb(120, 160))}))
	s := wantSignal(t, r, "image-thumbnail-mismatch", "image-thumbnail-mismatch.aspect-ratio", report.Medium)
	if s.Evidence["orientationFlipped"] != true {
		t.Fatalf("evidence %v", s.Evidence)
	}
	wantSignal(t, analyze(t, cameraJPEG(jpegOpts{exif: tiffEXIF(ifd0, nil, nil, thumb(160, 50))})),
		"image-thumbnail-mismatch", "image-thumbnail-mismatch.aspect-ratio", report.Medium)
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{exif: tiffEXIF(ifd0, nil, nil, thumb(160, 120))})), "image-thumbnail-mismatch")
}

func TestCompressionHistory(t *testing.T) {
	r := analyze(t, buildJPEG(jpegOpts{exif: camera(nil, nil), luma: scaled(&stdLuma, 85), chroma: scaled(&stdChroma, 85)}))
	s := wantSignal(t, r, "image-compression-history", "image-compression-history.standard-tables-with-camera-exif", report.Low)
	if s.Evidence["estimatedQuality"] != 85 {
		t.Fatalf("evidence %v", s.Evidence)
	}
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{})), "image-compression-history")
	// Standard tables without a camera claim are ordinary software output.
	wantQuiet(t, analyze(t, buildJPEG(jpegOpts{app0: true})), "image-compression-history")
}

func TestTrailingData(t *testing.T) {
	zip := append([]byte("junk"), []byte("PK\x03\x04\x14\x00\x00\x00rest-of-archive")...)
	r := analyze(t, cameraJPEG(jpegOpts{trailing: zip}))
	s := wantSignal(t, r, "image-trailing-data", "image-trailing-data.appended-archive", report.Medium)
	if s.Evidence["kind"] != "zip" || s.Evidence["bytes"] != len(zip) {
		t.Fatalf("evidence %v", s.Evidence)
	}
	r = analyze(t, append(buildPNG(), "hello"...))
	wantSignal(t, r, "image-trailing-data", "image-trailing-data.trailing-bytes", report.Low)
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{trailing: make([]byte, 64)})), "image-trailing-data")
}

func TestGenerativeMarkers(t *testing.T) {
	xmp := `<rdf:Description Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/trainedAlgorithmicMedia"/>`
	r := analyze(t, buildJPEG(jpegOpts{xmp: xmp}))
	s := wantSignal(t, r, "image-generative-markers", "image-generative-markers.declared-synthetic", report.Medium)
	if s.Evidence["digitalSourceTypes"].([]string)[0] != "trainedAlgorithmicMedia" {
		t.Fatalf("evidence %v", s.Evidence)
	}
	r = analyze(t, buildPNG(chunk("tEXt", []byte("parameters\x00a cat, Steps: 20, Sampler: Euler"))))
	wantSignal(t, r, "image-generative-markers", "image-generative-markers.generator-metadata", report.Medium)
	captured := `<rdf:Description Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/digitalCapture"/>`
	wantQuiet(t, analyze(t, buildJPEG(jpegOpts{xmp: captured})), "image-generative-markers")
	wantQuiet(t, analyze(t, buildPNG(chunk("tEXt", []byte("Title\x00parameters")))), "image-generative-markers")
}

func TestMetadataStripped(t *testing.T) {
	wantSignal(t, analyze(t, buildJPEG(jpegOpts{app0: true})), "image-metadata-stripped", "image-metadata-stripped.no-capture-metadata", report.Low)
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{})), "image-metadata-stripped")
	// PNG is the screenshot format: no capture metadata is its normal state.
	wantQuiet(t, analyze(t, buildPNG()), "image-metadata-stripped")
}

func TestLocationPresent(t *testing.T) {
	gps := []ent{ascii(0x0001, "N"), rational3(0x0002), ascii(0x0003, "W"), rational3(0x0004)}
	ex := tiffEXIF([]ent{ascii(0x010F, "Canon"), ascii(0x0110, "X")}, nil, gps, nil)
	r := analyze(t, cameraJPEG(jpegOpts{exif: ex}))
	wantSignal(t, r, "image-location-present", "image-location-present.gps-present", report.Info)
	if r.Summary.SignalCount != 0 {
		t.Fatalf("an info signal counted: %d", r.Summary.SignalCount)
	}
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{})), "image-location-present")
}

func TestWebP(t *testing.T) {
	r := analyze(t, buildWebP(1200, 900, camera(nil, nil)))
	im := r.Image
	if *im.Width != 1200 || *im.Height != 900 || *im.CameraMake != "Canon" {
		t.Fatalf("image block %+v", im)
	}
	wantSignal(t, r, "image-metadata-inconsistency", "image-metadata-inconsistency.dimension-mismatch", report.Low)
	wantQuiet(t, r, "image-structure-anomalies")
}

func TestHEIC(t *testing.T) {
	r := analyze(t, buildHEIC(4032, 3024, tiffEXIF([]ent{ascii(0x010F, "Apple"), ascii(0x0110, "iPhone 15"), ascii(0x0131, "17.4")}, nil, nil, nil)))
	im := r.Image
	if im.Format != "heic" || *im.Width != 4032 || *im.Height != 3024 || *im.CameraMake != "Apple" || *im.CameraModel != "iPhone 15" {
		t.Fatalf("image block %+v", im)
	}
	if *im.Encoder != "Apple iOS" {
		t.Fatalf("encoder %v", *im.Encoder)
	}
	if len(r.Signals) != 0 {
		t.Fatalf("signals %+v", r.Signals)
	}
}

func TestHEICThumbnailItem(t *testing.T) {
	exif := tiffEXIF([]ent{ascii(0x010F, "Apple"), ascii(0x0110, "iPhone 15")}, nil, nil, nil)
	r := analyze(t, buildHEIC(4032, 3024, exif, 1024, 1024))
	s := wantSignal(t, r, "image-thumbnail-mismatch", "image-thumbnail-mismatch.aspect-ratio", report.Medium)
	if s.Evidence["thumbnailSource"] != "heif-thumbnail-item" || s.Evidence["thumbnailWidth"] != 1024 {
		t.Fatalf("evidence %v", s.Evidence)
	}
	wantQuiet(t, analyze(t, buildHEIC(4032, 3024, exif, 320, 240)), "image-thumbnail-mismatch")
}

func TestNotWalkedFormats(t *testing.T) {
	tiffFile := tiffEXIF([]ent{ascii(0x010F, "Canon")}, nil, nil, nil)
	r, err := Analyze(context.Background(), tiffFile, sniff.TIFF)
	if err != nil {
		t.Fatal(err)
	}
	wantSignal(t, r, "image-structure-anomalies", "image-structure-anomalies.container-not-walked", report.Info)
	if r.Image.Walked {
		t.Fatal("TIFF reported as walked")
	}
}

func TestEXIFPrepassRefuses(t *testing.T) {
	le := func(v ...uint32) []byte {
		var b []byte
		for _, x := range v {
			b = append(b, byte(x), byte(x>>8), byte(x>>16), byte(x>>24))
		}
		return b
	}
	ifd := func(next uint32, es ...[]byte) []byte {
		b := []byte{byte(len(es)), 0}
		for _, e := range es {
			b = append(b, e...)
		}
		return append(b, le(next)...)
	}
	entry := func(tag, typ uint16, count, val uint32) []byte {
		return append([]byte{byte(tag), byte(tag >> 8), byte(typ), byte(typ >> 8)}, le(count, val)...)
	}
	head := []byte("II*\x00\x08\x00\x00\x00")
	cases := map[string][]byte{
		// IFD0 -> IFD at 26 -> IFD0: a loop goexif does not see.
		"two-step loop": append(append(append([]byte(nil), head...), ifd(26, entry(0x010F, 2, 4, 0x41414141))...), ifd(8, entry(0x0110, 2, 4, 0x42424242))...),
		// 2^30 rationals: the 32-bit product wraps to zero in goexif.
		"count overflow":            append(append([]byte(nil), head...), ifd(0, entry(0x011A, 5, 1<<29, 8))...),
		"value past end":            append(append([]byte(nil), head...), ifd(0, entry(0x010F, 2, 100, 8))...),
		"exif pointer out of range": append(append([]byte(nil), head...), ifd(0, entry(tagExifIFD, 4, 1, 1<<20))...),
		"short":                     []byte("II*\x00\x08\x00"),
	}
	// 200 entries all pointing at the same 3000 bytes: each is in range,
	// together they would make goexif expand 600 kB into int64s.
	var es [][]byte
	for i := 0; i < 200; i++ {
		es = append(es, entry(uint16(0x1000+i), 1, 3000, 8+2+12*200+4))
	}
	// 70000 BYTE elements: in range, but goexif would read each one into
	// an int64 with its own binary.Read.
	cases["numeric bomb"] = append(append(append([]byte(nil), head...), ifd(0, entry(0x1000, 1, 70000, 26))...), make([]byte, 70000)...)
	cases["overlapping values"] = append(append(append([]byte(nil), head...), ifd(0, es...)...), make([]byte, 3000)...)
	for name, b := range cases {
		if _, err := parseEXIF(b); err == nil {
			t.Errorf("%s: accepted", name)
		}
		// Blocks over 64 KiB do not fit an APP1 segment; PNG eXIf carries any size.
		r := analyze(t, buildPNG(chunk("eXIf", b)))
		wantSignal(t, r, "image-structure-anomalies", "image-structure-anomalies.exif-refused", report.Low)
	}
	if _, err := parseEXIF(camera(nil, nil)); err != nil {
		t.Fatalf("valid EXIF refused: %v", err)
	}
}

func TestDeadline(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, cameraJPEG(jpegOpts{}), sniff.JPEG); err != ErrDeadline {
		t.Fatalf("err = %v", err)
	}
}

// corpusImages lists ../shared/corpus/image, sorted; the test is skipped
// when the corpus is absent.
func corpusImages(tb testing.TB) []string {
	root, _ := filepath.Abs("../../../shared/corpus/image")
	if _, err := os.Stat(root); err != nil {
		tb.Skip("shared corpus not present")
	}
	var out []string
	_ = filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			out = append(out, p)
		}
		return nil
	})
	return out
}

func TestCorpusSweep(t *testing.T) {
	files := corpusImages(t)
	counts := map[string]int{}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f := sniff.Sniff(data).Format
		if f.Kind() != sniff.KindImage {
			continue
		}
		r1, err := Analyze(context.Background(), data, f)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		r2, _ := Analyze(context.Background(), data, f)
		j1, _ := json.Marshal(r1)
		j2, _ := json.Marshal(r2)
		if string(j1) != string(j2) {
			t.Errorf("%s: report not deterministic", p)
		}
		if Walks(f) != r1.Image.Walked {
			t.Errorf("%s: walked=%v for %s", p, r1.Image.Walked, f)
		}
		for _, s := range r1.Signals {
			counts[s.Message.Code]++
		}
	}
	t.Logf("signal codes over %d corpus images: %v", len(files), counts)
}

// TestCorpusFacts pins facts the corpus sources state (MANIFEST.tsv) or
// that the files' bytes carry.
func TestCorpusFacts(t *testing.T) {
	files := corpusImages(t)
	byName := map[string]string{}
	for _, p := range files {
		byName[p[strings.Index(p, "/image/")+7:]] = p
	}
	type want struct {
		w, h        int
		make, model string
		family      string
	}
	cases := map[string]want{
		"exiftool/Nikon.jpg":                               {make: "NIKON", model: "E775"},
		"exiftool/GE.jpg":                                  {make: "General Imaging Co.", model: "E1035", family: "image-editing-software"},
		"exiftool/XMP.jpg":                                 {make: "FUJIFILM", family: "image-compression-history"},
		"exiftool/GoPro.jpg":                               {family: "image-location-present"},
		"exiftool/FotoStation.jpg":                         {family: "image-trailing-data"},
		"libavif/white_1x1.avif":                           {w: 1, h: 1},
		"libavif/colors-animated-8bpc-alpha-exif-xmp.avif": {w: 150, h: 150, make: "Google", model: "Pixel 4a"},
		"libavif/seine_sdr_gainmap_srgb.avif":              {w: 400, h: 300, make: "Google", model: "Pixel 4a"},
		"libheif/corpus/clusterfuzz-testcase-minimized-file-fuzzer-5752063708495872.heic": {make: "Apple", model: "iPhone X"},
		"exiftool/QuickTime.heic":                              {w: 1596, h: 1064},
		"python-docx/features/steps/test_files/court-exif.jpg": {w: 500, h: 375, make: "NIKON CORPORATION"},
		"python-docx/features/steps/test_files/test.png":       {w: 901, h: 1350},
		"c2pa-rs/sample1.webp":                                 {w: 1050, h: 700},
		"libavif/colors_hdr_srgb.avif":                         {family: "image-editing-software"},
	}
	for name, w := range cases {
		p, ok := byName[name]
		if !ok {
			t.Errorf("%s missing from corpus", name)
			continue
		}
		data, _ := os.ReadFile(p)
		r := analyze(t, data)
		im := r.Image
		if w.w != 0 && (im.Width == nil || *im.Width != w.w || *im.Height != w.h) {
			t.Errorf("%s: size %v x %v", name, im.Width, im.Height)
		}
		if w.make != "" && (im.CameraMake == nil || *im.CameraMake != w.make) {
			t.Errorf("%s: make %v", name, im.CameraMake)
		}
		if w.model != "" && (im.CameraModel == nil || *im.CameraModel != w.model) {
			t.Errorf("%s: model %v", name, im.CameraModel)
		}
		if w.family != "" && sig(r, w.family) == nil {
			t.Errorf("%s: %s did not fire", name, w.family)
		}
	}
	// C2PA-bearing files declare no generative action: quiet.
	for _, name := range []string{"c2pa-rs/CA.jpg", "c2pa-rs/CACA.jpg"} {
		data, _ := os.ReadFile(byName[name])
		r := analyze(t, data)
		if !strings.Contains(strings.Join(r.Image.MetadataContainers, ","), "C2PA") {
			t.Errorf("%s: C2PA not listed", name)
		}
		wantQuiet(t, r, "image-generative-markers")
	}
}

func TestPNGInflateBudget(t *testing.T) {
	var buf bytes.Buffer
	zw := zlib.NewWriter(&buf)
	_, _ = zw.Write(make([]byte, 2<<20))
	_ = zw.Close()
	var chunks [][]byte
	for i := 0; i < 10; i++ {
		chunks = append(chunks, chunk("zTXt", append([]byte("Comment\x00\x00"), buf.Bytes()...)))
	}
	f := &facts{}
	if err := walkPNG(context.Background(), buildPNG(chunks...), f); err != nil {
		t.Fatal(err)
	}
	if f.inflated > maxInflate {
		t.Fatalf("inflated %d bytes, budget %d", f.inflated, maxInflate)
	}
}
