// Package image walks image containers (JPEG, PNG, WebP and ISOBMFF for
// HEIC/HEIF/AVIF) for structure and metadata and raises the nine image-
// families. No pixel is decoded (SPEC.md item 6): every fact comes from
// markers, chunks, boxes and the metadata they carry.
//
// Every walker reads a byte slice it never writes, checks each length field
// against the bytes present before slicing or allocating, caps its loop
// counts, and checks the context in its loops. Output is deterministic:
// facts are gathered into slices in file order, never read back out of maps.
package image

import (
	"bytes"
	"context"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
)

// ErrDeadline is returned when the context ends during a walk.
var ErrDeadline = report.ErrDeadline.Named("image: analysis deadline exceeded")

// Walks reports whether this package walks the container of f. Formats it
// does not walk keep the engine's container-not-walked disclosure.
func Walks(f sniff.Format) bool {
	switch f {
	case sniff.JPEG, sniff.PNG, sniff.WebP, sniff.HEIC, sniff.HEIF, sniff.AVIF:
		return true
	}
	return false
}

// Limits shared by the walkers. They are far above what real files use and
// keep a hostile file's cost linear in its size.
const (
	maxSegments     = 1 << 16 // JPEG markers, PNG chunks, RIFF chunks, boxes
	maxTextBytes    = 1 << 20 // decompressed PNG text kept per chunk
	maxInflate      = 4 << 20 // decompressed PNG text per file
	maxXMPPackets   = 16
	maxC2PAPayloads = 16
	maxIFDs         = 16 // IFDs visited per EXIF block, all chains together
	maxIFDEntries   = 1024
	maxBoxDepth     = 8
	maxItems        = 4096
	ctxCheckStride  = 256
)

// anomaly is one structural defect, named by a fixed code with the byte
// offset where it was found.
type anomaly struct {
	Code   string `json:"code"`
	Offset int64  `json:"offset"`
}

// Metadata container names, in the order the image block lists them.
const (
	cEXIF      = "EXIF"
	cXMP       = "XMP"
	cIPTC      = "IPTC"
	cICC       = "ICC"
	cMakerNote = "MakerNote"
	cC2PA      = "C2PA"
	cJFIF      = "JFIF"
	cAdobe     = "Adobe APP14"
	cPhotoshop = "Photoshop IRB"
	cMPF       = "MPF"
	cPNGText   = "PNG text"
)

var containerOrder = []string{cEXIF, cXMP, cIPTC, cICC, cMakerNote, cC2PA, cJFIF, cAdobe, cPhotoshop, cMPF, cPNGText}

// textChunk is one PNG tEXt/zTXt/iTXt entry.
type textChunk struct {
	keyword string
	text    string
}

// facts is everything a walker established about one file.
type facts struct {
	format        sniff.Format
	width, height int
	containers    uint32 // bit i set: containerOrder[i] present
	anomalies     []anomaly
	exif          *exifFacts
	firstEXIF     []byte // the first EXIF block, accepted or not
	exifCount     int
	xmp           [][]byte
	texts         []textChunk
	c2pa          [][]byte // C2PA manifest stores, at most maxC2PAPayloads
	// app11 assembles JPEG APP11 JUMBF segments by box instance.
	app11 []jumbfSegments
	// thumbWidth and thumbHeight are a HEIF thumbnail item's size.
	thumbWidth, thumbHeight int
	// JPEG only.
	dqt      [4][]uint16 // natural order, nil when absent
	sofSeen  bool
	progress bool
	// trailing bytes after the logical end of the image.
	trailingOffset int64
	trailing       []byte
	mpf            bool
	// photoshopWritten: the IRB carries resources only Photoshop writes.
	photoshopWritten bool
	animated         bool
	inflated         int64    // PNG text bytes decompressed so far
	comments         []string // JPEG COM segments, capped
	textCount        int      // PNG text chunks, kept or not
}

func (f *facts) add(c string) {
	for i, n := range containerOrder {
		if n == c {
			f.containers |= 1 << i
		}
	}
}

func (f *facts) has(c string) bool {
	for i, n := range containerOrder {
		if n == c {
			return f.containers&(1<<i) != 0
		}
	}
	return false
}

func (f *facts) list() []string {
	out := []string{}
	for i, n := range containerOrder {
		if f.containers&(1<<i) != 0 {
			out = append(out, n)
		}
	}
	return out
}

func (f *facts) anomaly(code string, off int) {
	if len(f.anomalies) < 4*report.MaxArray {
		f.anomalies = append(f.anomalies, anomaly{Code: code, Offset: int64(off)})
	}
}

// setEXIF runs the pre-pass and goexif on one TIFF-structured EXIF block.
// The first accepted block wins; later ones are only counted.
func (f *facts) setEXIF(tiff []byte, off int) {
	f.add(cEXIF)
	f.exifCount++
	if f.firstEXIF == nil {
		f.firstEXIF = tiff
	}
	if f.exif != nil {
		return
	}
	x, err := parseEXIF(tiff)
	if err != nil {
		f.anomaly("exif-rejected", off)
		return
	}
	if x.decodeFailed {
		f.anomaly("exif-undecodable", off)
	}
	if x.makerNote {
		f.add(cMakerNote)
	}
	f.exif = x
}

func (f *facts) addXMP(b []byte) {
	f.add(cXMP)
	if len(f.xmp) < maxXMPPackets {
		f.xmp = append(f.xmp, b)
	}
}

func (f *facts) addC2PA(b []byte) {
	f.add(cC2PA)
	if len(f.c2pa) < maxC2PAPayloads {
		f.c2pa = append(f.c2pa, b)
	}
}

// jumbfSegments is one JUMBF box instance spread over APP11 segments. The
// segments stay slices of the input until finish joins them, in one
// allocation of the final size.
type jumbfSegments struct {
	instance int
	parts    [][]byte // the box, then each continuation without its repeated header
	n        int      // bytes in parts
}

// joined returns the reassembled box.
func (g *jumbfSegments) joined() []byte {
	if len(g.parts) == 1 {
		return g.parts[0]
	}
	out := make([]byte, 0, g.n)
	for _, p := range g.parts {
		out = append(out, p...)
	}
	return out
}

// addAPP11 collects one APP11 JUMBF segment: "JP", the box instance, a
// sequence number, then the box. Continuation segments repeat the box's
// 8-byte header, which is dropped so the instance reassembles into one box.
func (f *facts) addAPP11(s []byte, off int) {
	if len(s) < 16 {
		f.anomaly("broken-marker", off)
		return
	}
	instance, seq := be16(s[2:]), be32(s[4:])
	for i := range f.app11 {
		g := &f.app11[i]
		if g.instance != instance || seq == 1 {
			continue
		}
		if g.n+len(s)-16 > maxC2PAStoreLen {
			return
		}
		g.parts = append(g.parts, s[16:])
		g.n += len(s) - 16
		return
	}
	if len(f.app11) < maxC2PAPayloads {
		f.app11 = append(f.app11, jumbfSegments{instance: instance, parts: [][]byte{s[8:]}, n: len(s) - 8})
	}
}

// finish hands reassembled APP11 boxes that hold C2PA manifests over.
func (f *facts) finish() {
	for i := range f.app11 {
		if data := f.app11[i].joined(); bytes.Contains(data, []byte("c2pa")) {
			f.addC2PA(data)
		}
	}
}

// Analyze walks one image and returns its report. Formats Walks refuses get
// the container-not-walked disclosure. The only error is ErrDeadline.
func Analyze(ctx context.Context, data []byte, format sniff.Format) (*report.Report, error) {
	if !Walks(format) {
		return notWalked(data, format), nil
	}
	f, err := walk(ctx, data, format)
	if err != nil {
		return nil, err
	}
	return build(data, f), nil
}

// walk runs the container walker of a format Walks accepts.
func walk(ctx context.Context, data []byte, format sniff.Format) (*facts, error) {
	f := &facts{format: format}
	var err error
	switch format {
	case sniff.JPEG:
		err = walkJPEG(ctx, data, f)
	case sniff.PNG:
		err = walkPNG(ctx, data, f)
	case sniff.WebP:
		err = walkWebP(ctx, data, f)
	default:
		err = walkISOBMFF(ctx, data, f)
	}
	if err != nil {
		return nil, err
	}
	f.finish()
	return f, nil
}

// notWalked is the disclosure report for a recognised container this
// engine does not walk, so an empty result is never read as a clean one.
func notWalked(data []byte, format sniff.Format) *report.Report {
	r := report.New(report.MediaImage, int64(len(data)))
	r.Image = &report.ImageBlock{Format: string(format), Walked: false, MetadataContainers: []string{}}
	r.Add(report.Finding{
		Family:   report.FamilyImageStructureAnomalies,
		Severity: report.Info,
		Message:  report.Msg("image-structure-anomalies.container-not-walked", "format", report.Kind(format)),
		Evidence: map[string]any{"code": "container-not-walked", "format": string(format), "walkedByDesign": format.Walked()},
	})
	r.Finish()
	return r
}

func be16(b []byte) int { return int(b[0])<<8 | int(b[1]) }
func be32(b []byte) uint32 {
	return uint32(b[0])<<24 | uint32(b[1])<<16 | uint32(b[2])<<8 | uint32(b[3])
}
func le32(b []byte) uint32 {
	return uint32(b[3])<<24 | uint32(b[2])<<16 | uint32(b[1])<<8 | uint32(b[0])
}
