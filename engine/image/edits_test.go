package image

import (
	"bytes"
	"context"
	"fmt"
	goimage "image"
	"image/jpeg"
	"os"
	"path/filepath"
	"testing"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// Edits after capture: the committed fixtures of scripts/fixtures/media
// (engine/testdata/detection/media) and forgeries built here in code from
// them and from corpus captures, so no third-party byte is committed.

const mediaDir = "../testdata/detection/media"

func readMedia(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(mediaDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// app1Segments returns the APP1 segments (EXIF, XMP) of a JPEG, markers
// included, in file order.
func app1Segments(b []byte) []byte {
	var out []byte
	for p := 2; p+4 <= len(b) && b[p] == 0xFF; {
		m, n := b[p+1], be16(b[p+2:])
		if m == 0xDA || p+2+n > len(b) {
			break
		}
		if m == 0xE1 {
			out = append(out, b[p:p+2+n]...)
		}
		p += 2 + n
	}
	return out
}

// goReencode is the edit a Go program makes: decode, write again with
// image/jpeg, and carry the original APP1 segments over after SOI.
func goReencode(t *testing.T, orig []byte) []byte {
	t.Helper()
	img, err := jpeg.Decode(bytes.NewReader(orig))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	enc := buf.Bytes()
	out := append([]byte{0xFF, 0xD8}, app1Segments(orig)...)
	return append(out, enc[2:]...)
}

func TestRecompressedAfterCapture(t *testing.T) {
	orig := readMedia(t, "camera-original.jpg")
	if r := analyze(t, orig); r.Summary.RiskBand != report.BandLow || len(r.Signals) != 0 {
		t.Fatalf("genuine capture: %+v", r.Signals)
	}
	for _, name := range []string{"camera-pillow-edit.jpg", "camera-imagemagick-edit.jpg"} {
		r := analyze(t, readMedia(t, name))
		s := wantSignal(t, r, "image-compression-history", "image-compression-history.recompressed-after-capture", report.Medium)
		if s.Evidence["thumbnailStandardTables"] != false || s.Evidence["standardTables"] != true {
			t.Fatalf("%s evidence %v", name, s.Evidence)
		}
	}
	r := analyze(t, goReencode(t, orig))
	wantSignal(t, r, "image-compression-history", "image-compression-history.recompressed-after-capture", report.Medium)
	// A device that writes libjpeg's tables for the image and its thumbnail
	// alike keeps the weaker, corroborating variant.
	r = analyze(t, readMedia(t, "libjpeg-device-original.jpg"))
	wantSignal(t, r, "image-compression-history", "image-compression-history.standard-tables-with-camera-exif", report.Low)
	if r.Summary.RiskBand != report.BandLow {
		t.Fatalf("libjpeg device: %v", r.Summary.RiskBand)
	}
}

func TestThumbnailEdits(t *testing.T) {
	r := analyze(t, readMedia(t, "camera-exiftool-thumbnail.jpg"))
	wantSignal(t, r, "image-thumbnail-mismatch", "image-thumbnail-mismatch.aspect-ratio", report.Medium)
	r = analyze(t, readMedia(t, "camera-imagemagick-crop.jpg"))
	s := wantSignal(t, r, "image-thumbnail-mismatch", "image-thumbnail-mismatch.larger-than-image", report.Low)
	if s.Evidence["code"] != "larger-than-image" {
		t.Fatalf("evidence %v", s.Evidence)
	}
	// A thumbnail smaller than its image and of the same shape is quiet.
	ifd0 := []ent{ascii(0x010F, "Canon"), ascii(0x0110, "Canon EOS 5D")}
	wantQuiet(t, analyze(t, cameraJPEG(jpegOpts{w: 320, h: 240, exif: tiffEXIF(ifd0, nil, nil, buildJPEG(jpegOpts{w: 160, h: 120}))})), "image-thumbnail-mismatch")
}

func TestStrippedDeviceStructure(t *testing.T) {
	r := analyze(t, readMedia(t, "camera-exiftool-stripped.jpg"))
	s := wantSignal(t, r, "image-metadata-stripped", "image-metadata-stripped.device-structure-kept", report.Low)
	if kept := s.Evidence["kept"].([]string); len(kept) != 1 || kept[0] != "device-tables" {
		t.Fatalf("evidence %v", s.Evidence)
	}
	// Library output with no metadata keeps the plain variant.
	for _, name := range []string{"pillow-plain.jpg", "imagemagick-plain.jpg"} {
		wantSignal(t, analyze(t, readMedia(t, name)), "image-metadata-stripped", "image-metadata-stripped.no-capture-metadata", report.Low)
	}
}

func TestExportedCapture(t *testing.T) {
	ex := camera([]ent{ascii(0x0131, "Adobe Photoshop Camera Raw 16.0.1 (Macintosh)")}, nil)
	r := analyze(t, buildWebP(400, 300, ex))
	wantSignal(t, r, "image-editing-software", "image-editing-software.exported-capture", report.Low)
	r = analyze(t, cameraJPEG(jpegOpts{exif: ex}))
	wantSignal(t, r, "image-editing-software", "image-editing-software.edited-capture", report.Medium)
}

func TestProvenanceReference(t *testing.T) {
	remote := `<rdf:Description dcterms:provenance="https://manifests.example.org/m/urn-uuid-1"/>`
	r := analyze(t, cameraJPEG(jpegOpts{xmp: remote}))
	if r.Image.ProvenanceManifest == nil || *r.Image.ProvenanceManifest != "remote" ||
		*r.Image.ProvenanceReference != "https://manifests.example.org/m/urn-uuid-1" {
		t.Fatalf("image block %+v", r.Image)
	}
	wantQuiet(t, r, "image-metadata-stripped")

	dangling := `<rdf:Description dcterms:provenance="self#jumbf=/c2pa/urn:uuid:1/c2pa.claim"/>`
	r = analyze(t, cameraJPEG(jpegOpts{xmp: dangling}))
	if r.Image.ProvenanceManifest == nil || *r.Image.ProvenanceManifest != "missing" {
		t.Fatalf("image block %+v", r.Image)
	}
	wantSignal(t, r, "image-metadata-stripped", "image-metadata-stripped.c2pa-manifest-removed", report.Low)

	plain := analyze(t, cameraJPEG(jpegOpts{xmp: `<rdf:Description dcterms:provenance="Scanned by the archive"/>`}))
	if plain.Image.ProvenanceManifest != nil {
		t.Fatalf("free-text provenance read as a manifest reference")
	}
}

// TestCorpusProvenance reads the c2pa-rs files: cloudx.jpg names a remote
// manifest, adobe-20220124-E-clm-CAICAI.jpg an embedded one, and the same
// file with its APP11 segments cut out is the stripped case.
func TestCorpusProvenance(t *testing.T) {
	root, _ := filepath.Abs("../../../shared/corpus/image/c2pa-rs")
	if _, err := os.Stat(root); err != nil {
		t.Skip("shared corpus not present")
	}
	read := func(n string) []byte {
		b, err := os.ReadFile(filepath.Join(root, n))
		if err != nil {
			t.Skip(err)
		}
		return b
	}
	r := analyze(t, read("cloudx.jpg"))
	if r.Image.ProvenanceManifest == nil || *r.Image.ProvenanceManifest != "remote" {
		t.Fatalf("cloudx.jpg: %+v", r.Image)
	}
	data := read("adobe-20220124-E-clm-CAICAI.jpg")
	r = analyze(t, data)
	if r.Image.ProvenanceManifest == nil || *r.Image.ProvenanceManifest != "embedded" {
		t.Fatalf("embedded: %+v", r.Image)
	}
	wantQuiet(t, r, "image-metadata-stripped")
	r = analyze(t, withoutAPP11(data))
	if *r.Image.ProvenanceManifest != "missing" {
		t.Fatalf("stripped: %+v", r.Image)
	}
	wantSignal(t, r, "image-metadata-stripped", "image-metadata-stripped.c2pa-manifest-removed", report.Low)
}

// withoutAPP11 drops every APP11 (JUMBF) segment before the first SOS.
func withoutAPP11(b []byte) []byte {
	out := []byte{0xFF, 0xD8}
	p := 2
	for p+4 <= len(b) && b[p] == 0xFF && b[p+1] != 0xDA {
		n := be16(b[p+2:])
		if b[p+1] != 0xEB {
			out = append(out, b[p:p+2+n]...)
		}
		p += 2 + n
	}
	return append(out, b[p:]...)
}

// TestCorpusCaptureReencoded re-encodes a corpus phone capture whose EXIF
// thumbnail kept the camera's tables: the Go forgery must name the
// re-encode.
func TestCorpusCaptureReencoded(t *testing.T) {
	p, _ := filepath.Abs("../../../shared/corpus/image/libavif/seine_sdr_gainmap_srgb.jpg")
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Skip("shared corpus not present")
	}
	r := analyze(t, goReencode(t, orig))
	wantSignal(t, r, "image-compression-history", "image-compression-history.recompressed-after-capture", report.Medium)
}

// TestCorpusEditVariants pins the new variants on the corpus files that
// carry them (docs/families.md lists them): exports of captures stay low,
// exiftool's tiny test frames keep their camera's larger thumbnail, files
// stripped of metadata keep their tables.
func TestCorpusEditVariants(t *testing.T) {
	root, _ := filepath.Abs("../../../shared/corpus/image")
	if _, err := os.Stat(root); err != nil {
		t.Skip("shared corpus not present")
	}
	cases := []struct {
		file, family, code string
		sev                report.Severity
	}{
		{"libavif/seine_sdr_gainmap_srgb.avif", "image-editing-software", "image-editing-software.exported-capture", report.Low},
		{"c2pa-rs/sample1.png", "image-editing-software", "image-editing-software.exported-capture", report.Low},
		{"libavif/paris_exif_xmp_icc.jpg", "image-editing-software", "image-editing-software.edited-capture", report.Medium},
		{"exiftool/FLIR.jpg", "image-thumbnail-mismatch", "image-thumbnail-mismatch.larger-than-image", report.Low},
		{"exiftool/CasioQVCI.jpg", "image-metadata-stripped", "image-metadata-stripped.device-structure-kept", report.Low},
	}
	for _, c := range cases {
		data, err := os.ReadFile(filepath.Join(root, c.file))
		if err != nil {
			t.Errorf("%s: %v", c.file, err)
			continue
		}
		r, err := Analyze(context.Background(), data, sniff.Sniff(data).Format)
		if err != nil {
			t.Fatal(err)
		}
		wantSignal(t, r, c.family, c.code, c.sev)
	}
}

// TestReencodedPhotoFacts reads the fixtures of scripts/fixtures/reencode
// (issue 34): two independent facts of editing corroborate to elevated,
// one alone stays low, a phone's everyday handling stays low.
func TestReencodedPhotoFacts(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("../testdata/detection/reencode", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	for name, want := range map[string][]report.Fact{
		"device-imagemagick-crop.jpg":     {report.FactRecompressed, report.FactThumbnailStale},
		"device-pillow-exiftool-date.jpg": {report.FactMetadataRewritten, report.FactRecompressed},
		"device-pillow-edit.jpg":          {report.FactRecompressed},
		"camera-pillow-keep-crop.jpg":     {report.FactThumbnailStale},
		"device-gallery-rotated.jpg":      {report.FactRecompressed}, // the phone's own libjpeg tables
		"camera-gallery-rotated.jpg":      nil,
		"device-messenger-share.jpg":      nil,
	} {
		r := analyze(t, read(name))
		facts, ok := report.Corroborated(r.Signals)
		if fmt.Sprint(facts) != fmt.Sprint(want) {
			t.Errorf("%s: facts %v, want %v", name, facts, want)
		}
		if wantBand := map[bool]report.Band{true: report.BandElevated, false: report.BandLow}[len(want) >= 2]; r.Summary.RiskBand != wantBand || ok != (len(want) >= 2) {
			t.Errorf("%s: band %s (score %d), corroborated %v", name, r.Summary.RiskBand, r.Summary.RiskScore, ok)
		}
	}
}

// TestCorpusCaptureCropped crops a corpus phone capture in code, as an
// editor built on a library would, keeping its EXIF and thumbnail: the
// re-encode and the stale thumbnail are two facts.
func TestCorpusCaptureCropped(t *testing.T) {
	p, _ := filepath.Abs("../../../shared/corpus/image/libavif/seine_sdr_gainmap_srgb.jpg")
	orig, err := os.ReadFile(p)
	if err != nil {
		t.Skip("shared corpus not present")
	}
	img, err := jpeg.Decode(bytes.NewReader(orig))
	if err != nil {
		t.Fatal(err)
	}
	b := img.Bounds()
	side := min(b.Dx(), b.Dy()) / 2
	sq := img.(interface {
		SubImage(r goimage.Rectangle) goimage.Image
	}).SubImage(goimage.Rect(b.Min.X, b.Min.Y, b.Min.X+side, b.Min.Y+side))
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, sq, &jpeg.Options{Quality: 90}); err != nil {
		t.Fatal(err)
	}
	forged := append(append([]byte{0xFF, 0xD8}, app1Segments(orig)...), buf.Bytes()[2:]...)
	r := analyze(t, forged)
	// The capture was developed in Photoshop Camera Raw before it reached
	// the corpus, so the editor is named too.
	facts, ok := report.Corroborated(r.Signals)
	if !ok || fmt.Sprint(facts) != fmt.Sprint([]report.Fact{report.FactEditorNamed, report.FactRecompressed, report.FactThumbnailStale}) {
		t.Fatalf("facts %v; signals %+v", facts, r.Signals)
	}
}
