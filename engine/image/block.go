package image

import (
	"strings"
	"time"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/xmp"
)

// build turns the walked facts into the report: image block, document
// block, then each family of the run list (runlist_gen.go).
func build(data []byte, f *facts) *report.Report {
	r := report.New(report.MediaImage, int64(len(data)))
	a := newAnalysis(f)
	r.Image = a.block()
	a.document(&r.Document)
	for _, fam := range families {
		if fd := fam.Run(a); fd != nil {
			r.Add(*fd)
		}
	}
	r.Finish()
	return r
}

// analysis holds the facts plus values derived once for several families.
type analysis struct {
	f *facts
	x exifFacts // zero when no EXIF was accepted
	// packets are the file's XMP packets, read by engine/xmp.
	packets  []*xmp.Packet
	software string // EXIF Software, else XMP CreatorTool
	tools    []toolHit
	c2pa     c2paStore
	q        int
	standard bool
	hasQ     bool
	// thumb is the walked EXIF IFD1 thumbnail, nil when absent.
	thumb *facts
	// provenance says where the XMP's C2PA manifest reference points
	// (provenanceNone, Embedded, Remote or Missing); provenanceRef is the
	// reference as written.
	provenance, provenanceRef string
}

func newAnalysis(f *facts) *analysis {
	a := &analysis{f: f, packets: xmp.ParseAll(f.xmp)}
	if f.exif != nil {
		a.x = *f.exif
	}
	a.software = a.x.software
	if a.software == "" {
		if v := a.xmpValues(xmp.NSBasic, "CreatorTool"); len(v) > 0 {
			a.software = v[0]
		}
	}
	a.c2pa = decodeC2PA(f.c2pa)
	a.tools = a.editorHits()
	a.q, a.standard, a.hasQ = quality(f.dqt)
	a.thumb = exifThumbnail(&a.x)
	a.provenance, a.provenanceRef = a.readProvenance()
	return a
}

func (a *analysis) block() *report.ImageBlock {
	b := &report.ImageBlock{
		Format:             string(a.f.format),
		Walked:             true,
		MetadataContainers: a.f.list(),
		CameraMake:         report.Str(report.Untrusted(a.x.make)),
		CameraModel:        report.Str(report.Untrusted(a.x.model)),
	}
	if a.f.width > 0 && a.f.height > 0 {
		w, h := a.f.width, a.f.height
		b.Width, b.Height = &w, &h
	}
	if a.hasQ {
		q := a.q
		b.JPEGQuality = &q
	}
	if e := a.encoder(); e != "" {
		b.Encoder = &e
	}
	if a.provenance != provenanceNone {
		b.ProvenanceManifest = report.Str(a.provenance)
		b.ProvenanceReference = report.Str(report.Untrusted(a.provenanceRef))
	}
	return b
}

// encoder names the writing software from a fixed vocabulary: metadata
// names it when it can, the quantisation tables otherwise.
func (a *analysis) encoder() string {
	for _, t := range a.tools {
		switch t.name {
		case "Adobe Photoshop", "Adobe Lightroom", "GIMP", "ImageMagick":
			return t.name
		}
	}
	if a.f.photoshopWritten {
		return "Adobe Photoshop"
	}
	sw := strings.ToLower(a.x.software)
	mk := strings.ToLower(a.x.make)
	switch {
	case mk == "apple" && a.x.software != "" && (sw[0] >= '0' && sw[0] <= '9'):
		return "Apple iOS"
	case strings.Contains(sw, "android") || (mk == "google" && a.x.model != ""):
		return "Android"
	}
	if a.hasQ {
		if a.standard {
			return "libjpeg standard tables"
		}
		if a.x.make != "" {
			return "camera firmware"
		}
	}
	return ""
}

func (a *analysis) document(d *report.Document) {
	d.Pages = 1
	d.Producer = report.Str(report.Untrusted(a.software))
	d.Creator = report.Str(report.Untrusted(strings.TrimSpace(a.x.make + " " + a.x.model)))
	if t, ok := exifTime(a.x.dateTimeOriginal); ok {
		d.CreationDate = report.Str(t.Format("2006-01-02T15:04:05"))
	}
	if t, ok := exifTime(a.x.dateTime); ok {
		d.ModDate = report.Str(t.Format("2006-01-02T15:04:05"))
	}
}

// exifTime reads "YYYY:MM:DD HH:MM:SS" as a zone-less time (EXIF 2.3 keeps
// the offset elsewhere; comparisons here are between local times).
func exifTime(s string) (time.Time, bool) {
	if len(s) < 19 {
		return time.Time{}, false
	}
	t, err := time.Parse("2006:01:02 15:04:05", s[:19])
	return t, err == nil && t.Year() > 1900
}

// xmpTime reads the local date and time of an ISO 8601 XMP date; the zone
// is dropped to compare with EXIF. Date-only values are refused.
func xmpTime(s string) (time.Time, bool) {
	if len(s) < 19 {
		return time.Time{}, false
	}
	t, err := time.Parse("2006-01-02T15:04:05", s[:19])
	return t, err == nil && t.Year() > 1900
}
