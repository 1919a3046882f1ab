package image

import (
	"bytes"
	"context"
	"strings"

	"github.com/doctrust/doctrust/engine/report"
	"github.com/doctrust/doctrust/engine/sniff"
	"github.com/doctrust/doctrust/engine/xmp"
)

// editors is the catalogue of image editing software, matched as lower-case
// substrings. engine/producers is a catalogue of PDF writers and classes
// Photoshop as a PDF editor, but it knows neither camera firmware nor the
// mobile and raster editors, so images keep their own short list.
var editors = []struct{ name, sub string }{
	{"Adobe Photoshop", "photoshop"},
	{"Adobe Lightroom", "lightroom"},
	{"GIMP", "gimp"},
	{"ImageMagick", "imagemagick"},
	{"GraphicsMagick", "graphicsmagick"},
	{"Affinity Photo", "affinity photo"},
	{"Pixelmator", "pixelmator"},
	{"Paint.NET", "paint.net"},
	{"Photopea", "photopea"},
	{"Pixlr", "pixlr"},
	{"Snapseed", "snapseed"},
	{"PicsArt", "picsart"},
	{"Canva", "canva"},
	{"Fotor", "fotor"},
	{"Corel PaintShop", "paintshop"},
	{"ACDSee", "acdsee"},
	{"Luminar", "luminar"},
	{"Capture One", "capture one"},
	{"darktable", "darktable"},
	{"RawTherapee", "rawtherapee"},
	{"Facetune", "facetune"},
	{"Meitu", "meitu"},
}

// generators are image generators named in metadata text.
var generators = []struct{ name, sub string }{
	{"Stable Diffusion", "stable diffusion"},
	{"Midjourney", "midjourney"},
	{"DALL-E", "dall-e"},
	{"DALL-E", "dall·e"},
	{"NovelAI", "novelai"},
	{"Adobe Firefly", "firefly"},
	{"ComfyUI", "comfyui"},
	{"InvokeAI", "invokeai"},
}

// generatorKeywords are PNG text keywords that image generators write
// (AUTOMATIC1111's "parameters", ComfyUI's "prompt" and "workflow",
// InvokeAI's "Dream", "sd-metadata" and "invokeai_metadata").
var generatorKeywords = []string{"parameters", "prompt", "workflow", "Dream", "sd-metadata", "invokeai_metadata"}

type toolHit struct {
	name   string
	source string
}

// editorHits finds editors in EXIF Software, XMP CreatorTool and the XMP
// history's softwareAgent, in that order, one hit per (tool, source).
func (a *analysis) editorHits() []toolHit {
	var out []toolHit
	add := func(v, source string) {
		lv := strings.ToLower(v)
		for _, e := range editors {
			if strings.Contains(lv, e.sub) {
				h := toolHit{e.name, source}
				dup := false
				for _, o := range out {
					dup = dup || o == h
				}
				if !dup {
					out = append(out, h)
				}
			}
		}
	}
	add(a.x.software, "exif-software")
	for _, v := range a.xmpValues(xmp.NSBasic, "CreatorTool") {
		add(v, "xmp-creator-tool")
	}
	for _, v := range a.xmpValues(xmp.NSEvt, "softwareAgent") {
		add(v, "xmp-history")
	}
	if a.f.photoshopWritten {
		add("photoshop", "photoshop-irb")
	}
	for _, v := range a.c2pa.agents() {
		add(v, "c2pa-actions")
	}
	for _, v := range a.c2pa.generators {
		add(v, "c2pa-claim-generator")
	}
	return out
}

// imageStructureAnomaliesFamily declares the family (report.Declaration).
var imageStructureAnomaliesFamily = declaration{
	ID:      "image-structure-anomalies",
	Order:   10,
	Run:     (*analysis).structure,
	Summary: "Truncation, bad checksums, broken markers, containers that are not walked.",
	Evidence: []string{
		"code", "codes[]", "format", "anomalies[]", "walkedByDesign",
	},
	Variants: []report.VariantDecl{
		{Code: "container-not-walked", Severity: report.Info, Title: "Image container not walked", Text: "The {format} container is recognised but its structure and metadata are not walked by this engine version; an empty result here is not a clean result."},
		{Code: "truncated", Severity: report.Low, Title: "Image truncated", Text: "The {format} container ends before its structure does; {count#structural defect was|structural defects were} recorded."},
		{Code: "bad-checksum", Severity: report.Low, Title: "Image checksum mismatch", Text: "{count#structural defect|structural defects} in the {format} container, including chunks whose checksum does not match their content."},
		{Code: "broken-structure", Severity: report.Low, Title: "Broken image structure", Text: "{count#structural defect|structural defects} in the {format} container: markers, chunks or boxes that do not parse."},
		{Code: "exif-refused", Severity: report.Low, Title: "EXIF block refused", Text: "The EXIF block of the {format} file failed the bounds checks and was not decoded ({count#defect|defects})."},
	},
}

func (a *analysis) structure() *report.Finding {
	if len(a.f.anomalies) == 0 {
		return nil
	}
	var codes []string
	for _, an := range a.f.anomalies {
		if !contains(codes, an.Code) {
			codes = append(codes, an.Code)
		}
	}
	// Variants in message order: the first found is the message, the rest
	// are notes.
	var variants []string
	for _, c := range codes {
		v := "broken-structure"
		switch c {
		case "truncated":
			v = "truncated"
		case "bad-crc":
			v = "bad-checksum"
		case "exif-rejected", "exif-undecodable":
			v = "exif-refused"
		}
		if !contains(variants, v) {
			variants = append(variants, v)
		}
	}
	sortByOrder(variants, []string{"truncated", "bad-checksum", "broken-structure", "exif-refused"})
	ev := map[string]any{"code": variants[0], "format": string(a.f.format)}
	report.Capped(ev, "codes", codes)
	report.Capped(ev, "anomalies", a.f.anomalies)
	fd := &report.Finding{
		Family:   report.FamilyImageStructureAnomalies,
		Severity: report.Low,
		Evidence: ev,
	}
	for i, v := range variants {
		m := report.Msg("image-structure-anomalies."+v, "count", len(a.f.anomalies), "format", report.Kind(a.f.format))
		if i == 0 {
			fd.Message = m
		} else {
			fd.Notes = append(fd.Notes, m)
		}
	}
	return fd
}

// sortByOrder orders list as order lists its values.
func sortByOrder(list, order []string) {
	out := list[:0:0]
	for _, o := range order {
		if contains(list, o) {
			out = append(out, o)
		}
	}
	copy(list, out)
}

// imageEditingSoftwareFamily declares the family (report.Declaration).
var imageEditingSoftwareFamily = declaration{
	ID:      "image-editing-software",
	Order:   20,
	Run:     (*analysis).editing,
	Summary: "Editing software named in EXIF, XMP or Photoshop resources.",
	Evidence: []string{
		"software", "cameraMake", "tools[]", "sources[]",
	},
	Variants: []report.VariantDecl{
		{Code: "editor-named", Severity: report.Low, Title: "Image editing software", Text: "The metadata names {tools#image editing tool|image editing tools} in {sources#place|places}."},
		{Code: "edited-capture", Severity: report.Medium, Title: "Camera image passed through an editor", Text: "The metadata names a capture device and {tools#image editing tool|image editing tools} in {sources#place|places}."},
		{Code: "exported-capture", Severity: report.Low, Title: "Camera image exported by software", Text: "The metadata names a capture device and {tools#editing or conversion tool|editing or conversion tools}; cameras do not write {format} files, so this is an export made by that software."},
	},
}

func (a *analysis) editing() *report.Finding {
	if len(a.tools) == 0 {
		return nil
	}
	var names, sources []string
	for _, t := range a.tools {
		if !contains(names, t.name) {
			names = append(names, t.name)
		}
		if !contains(sources, t.source) {
			sources = append(sources, t.source)
		}
	}
	ev := map[string]any{"software": report.Untrusted(a.software), "cameraMake": report.Untrusted(a.x.make)}
	report.Capped(ev, "tools", names)
	report.Capped(ev, "sources", sources)
	fd := &report.Finding{Family: report.FamilyImageEditingSoftware, Evidence: ev}
	switch {
	case a.x.make != "" && cameraWrites(a.f.format):
		fd.Severity = report.Medium
		fd.Message = report.Msg("image-editing-software.edited-capture", "tools", len(names), "sources", len(sources))
	case a.x.make != "":
		// No camera writes this format, so every such file with camera
		// EXIF is an export and the tool named is the exporter that wrote
		// it (a raw developer's AVIF, a PNG saved from a photo): that
		// alone says the photo was converted, not that it was altered.
		fd.Severity = report.Low
		fd.Message = report.Msg("image-editing-software.exported-capture", "tools", len(names), "format", report.Kind(a.f.format))
	default:
		fd.Severity = report.Low
		fd.Message = report.Msg("image-editing-software.editor-named", "tools", len(names), "sources", len(sources))
	}
	return fd
}

// imageMetadataInconsistencyFamily declares the family (report.Declaration).
var imageMetadataInconsistencyFamily = declaration{
	ID:      "image-metadata-inconsistency",
	Order:   30,
	Run:     (*analysis).inconsistency,
	Summary: "Capture and modification dates or dimensions that disagree.",
	Evidence: []string{
		"code", "codes[]", "dateTimeOriginal", "modifyDate", "xmpDate", "exifWidth", "exifHeight",
		"frameWidth", "frameHeight",
	},
	Variants: []report.VariantDecl{
		{Code: "modify-before-capture", Severity: report.Medium, Title: "Modified before captured", Text: "The EXIF modification date is earlier than the capture date ({checks#inconsistency|inconsistencies} found)."},
		{Code: "xmp-date-mismatch", Severity: report.Low, Title: "EXIF and XMP dates differ", Text: "The XMP capture or creation date differs from the EXIF capture date by more than a minute ({checks#inconsistency|inconsistencies} found)."},
		{Code: "make-without-model", Severity: report.Low, Title: "Camera make without model", Text: "The EXIF names a camera maker but no model ({checks#inconsistency|inconsistencies} found)."},
		{Code: "dimension-mismatch", Severity: report.Low, Title: "EXIF dimensions differ from the image", Text: "The image size recorded in EXIF differs from the frame's size, as after a crop or resize ({checks#inconsistency|inconsistencies} found)."},
	},
}

func (a *analysis) inconsistency() *report.Finding {
	var codes []string
	sev := report.Info
	ev := map[string]any{}
	orig, okO := exifTime(a.x.dateTimeOriginal)
	mod, okM := exifTime(a.x.dateTime)
	if okO && okM && mod.Before(orig.Add(-2e9)) {
		codes = append(codes, "modify-before-capture")
		sev = sev.Max(report.Medium)
		ev["dateTimeOriginal"] = orig.Format("2006-01-02T15:04:05")
		ev["modifyDate"] = mod.Format("2006-01-02T15:04:05")
	}
	if okO {
		for _, name := range [...][2]string{{xmp.NSEXIF, "DateTimeOriginal"}, {xmp.NSPhotoshop, "DateCreated"}, {xmp.NSBasic, "CreateDate"}} {
			for _, v := range a.xmpValues(name[0], name[1]) {
				t, ok := xmpTime(v)
				if !ok {
					continue
				}
				if d := t.Sub(orig); d > 60e9 || d < -60e9 {
					if !contains(codes, "xmp-date-mismatch") {
						codes = append(codes, "xmp-date-mismatch")
						sev = sev.Max(report.Low)
						ev["xmpDate"] = t.Format("2006-01-02T15:04:05")
						ev["dateTimeOriginal"] = orig.Format("2006-01-02T15:04:05")
					}
				}
			}
		}
	}
	if a.x.make != "" && a.x.model == "" {
		codes = append(codes, "make-without-model")
		sev = sev.Max(report.Low)
	}
	if a.x.pixelX > 0 && a.x.pixelY > 0 && a.f.width > 0 && a.f.height > 0 &&
		(a.x.pixelX != a.f.width || a.x.pixelY != a.f.height) {
		codes = append(codes, "dimension-mismatch")
		sev = sev.Max(report.Low)
		ev["exifWidth"], ev["exifHeight"] = a.x.pixelX, a.x.pixelY
		ev["frameWidth"], ev["frameHeight"] = a.f.width, a.f.height
	}
	if len(codes) == 0 {
		return nil
	}
	// Codes were appended most severe first (modify-before-capture is the
	// only medium one), so the first is the message and the rest notes.
	ev["code"] = codes[0]
	report.Capped(ev, "codes", codes)
	fd := &report.Finding{
		Family:   report.FamilyImageMetadataInconsistency,
		Severity: sev,
		Message:  report.Msg("image-metadata-inconsistency."+codes[0], "checks", len(codes)),
		Evidence: ev,
	}
	for _, c := range codes[1:] {
		fd.Notes = append(fd.Notes, report.Msg("image-metadata-inconsistency."+c, "checks", len(codes)))
	}
	return fd
}

// thumbSize reads the IFD1 JPEG thumbnail's frame size, else the size of
// a HEIF thumbnail item, and names where it came from.
func (a *analysis) thumbSize() (w, h int, source string) {
	if a.thumb != nil {
		return a.thumb.width, a.thumb.height, "exif-ifd1"
	}
	if a.x.thumbLength == 0 && a.f.thumbWidth > 0 {
		return a.f.thumbWidth, a.f.thumbHeight, "heif-thumbnail-item"
	}
	return 0, 0, ""
}

// exifThumbnail walks the IFD1 JPEG thumbnail for its frame size and
// quantisation tables, nil when there is none or it has no frame. The
// thumbnail's own EXIF is not read: one level is all the families use.
func exifThumbnail(x *exifFacts) *facts {
	if x.thumbLength == 0 || x.raw == nil {
		return nil
	}
	t := x.raw[x.thumbOffset : x.thumbOffset+x.thumbLength]
	tf := &facts{}
	if !walkJPEGFrame(t, tf) || tf.width <= 0 || tf.height <= 0 {
		return nil
	}
	return tf
}

// walkJPEGFrame walks a thumbnail for its frame and tables only.
func walkJPEGFrame(b []byte, f *facts) bool {
	if len(b) < 4 || b[0] != 0xFF || b[1] != 0xD8 {
		return false
	}
	_ = walkJPEG(context.Background(), b, f)
	return f.sofSeen
}

// imageThumbnailMismatchFamily declares the family (report.Declaration).
var imageThumbnailMismatchFamily = declaration{
	ID:      "image-thumbnail-mismatch",
	Order:   40,
	Run:     (*analysis).thumbnail,
	Summary: "An embedded thumbnail inconsistent with the main image.",
	Evidence: []string{
		"code", "codes[]", "thumbnailWidth", "thumbnailHeight", "width", "height",
		"aspectRatioFactor", "orientationFlipped", "thumbnailSource",
	},
	Variants: []report.VariantDecl{
		{Code: "aspect-ratio", Severity: report.Medium, Title: "Thumbnail shape differs", Text: "The embedded thumbnail is {thumbnailWidth}x{thumbnailHeight} while the image is {width}x{height}: their shapes disagree, as when the image was cropped and the old thumbnail kept."},
		{Code: "larger-than-image", Severity: report.Low, Title: "Thumbnail larger than the image", Text: "The embedded thumbnail is {thumbnailWidth}x{thumbnailHeight} while the image is only {width}x{height}: the thumbnail was made from a larger picture, as when the image was cropped or replaced and the old thumbnail kept."},
	},
}

func (a *analysis) thumbnail() *report.Finding {
	tw, th, source := a.thumbSize()
	if source == "" || a.f.width == 0 || a.f.height == 0 {
		return nil
	}
	mw, mh := a.f.width, a.f.height
	mainR, thumbR := float64(mw)/float64(mh), float64(tw)/float64(th)
	flipped := (mw > mh && tw < th) || (mw < mh && tw > th)
	rel := thumbR / mainR
	if rel < 1 {
		rel = 1 / rel
	}
	ev := map[string]any{
		"thumbnailWidth": tw, "thumbnailHeight": th,
		"width": mw, "height": mh,
		"aspectRatioFactor":  float64(int(rel*1000+0.5)) / 1000,
		"orientationFlipped": flipped,
		"thumbnailSource":    source,
	}
	var vs []report.Variant
	// 160x120 is the DCF thumbnail size that cameras letterbox any frame
	// into; only a flipped orientation counts against it.
	dcf := tw == 160 && th == 120
	if flipped || (!dcf && rel > 1.25) {
		vs = append(vs, report.Variant{Severity: report.Medium, Message: report.Msg("image-thumbnail-mismatch.aspect-ratio",
			"thumbnailWidth", tw, "thumbnailHeight", th, "width", mw, "height", mh)})
	}
	// A thumbnail is made from the image at capture: one wider or taller
	// than the image it stands for was made from a larger picture, so the
	// image was cut down or replaced and the old thumbnail kept. Low: the
	// same holds for a tiny sample image whose EXIF was copied from a
	// photo (exiftool's test files), and a crop that re-encoded the image
	// is named by image-compression-history.
	if tw > mw || th > mh {
		vs = append(vs, report.Variant{Severity: report.Low, Message: report.Msg("image-thumbnail-mismatch.larger-than-image",
			"thumbnailWidth", tw, "thumbnailHeight", th, "width", mw, "height", mh)})
	}
	if len(vs) == 0 {
		return nil
	}
	codes := []string{}
	for _, v := range vs {
		codes = append(codes, strings.TrimPrefix(v.Message.Code, "image-thumbnail-mismatch."))
	}
	ev["code"] = codes[0]
	report.Capped(ev, "codes", codes)
	return report.Compose(report.FamilyImageThumbnailMismatch, vs, ev)
}

// imageCompressionHistoryFamily declares the family (report.Declaration).
var imageCompressionHistoryFamily = declaration{
	ID:      "image-compression-history",
	Order:   50,
	Run:     (*analysis).compression,
	Summary: "Quantisation tables that do not match the claimed camera; recompression traces.",
	Evidence: []string{
		"code", "estimatedQuality", "standardTables", "cameraMake", "cameraModel", "encoder",
		"thumbnailQuality", "thumbnailStandardTables",
	},
	Variants: []report.VariantDecl{
		{Code: "editor-tables-with-camera-exif", Severity: report.Low, Title: "Editor re-compression of a camera image", Text: "The JPEG was written by an editor (estimated quality {quality}) while its EXIF names a camera."},
		{Code: "standard-tables-with-camera-exif", Severity: report.Low, Title: "Library re-compression of a camera image", Text: "The JPEG uses the standard library quantisation tables at quality {quality} while its EXIF names a camera; camera firmware usually writes tables of its own."},
		{Code: "recompressed-after-capture", Severity: report.Medium, Title: "Camera image re-encoded after capture", Text: "The JPEG uses the standard library quantisation tables at quality {quality} while its EXIF thumbnail kept a camera's own tables: the image was decoded and written again by software after capture, and the camera's metadata carried over."},
	},
}

func (a *analysis) compression() *report.Finding {
	if !a.hasQ || a.x.make == "" {
		return nil
	}
	ev := map[string]any{
		"estimatedQuality": a.q, "standardTables": a.standard,
		"cameraMake": report.Untrusted(a.x.make), "cameraModel": report.Untrusted(a.x.model),
	}
	var variant string
	sev := report.Low
	switch {
	case a.f.photoshopWritten || a.f.has(cAdobe):
		variant = "editor-tables-with-camera-exif"
	case a.standard && a.thumbCameraTables():
		// The camera wrote the thumbnail and the image in one go with its
		// own encoder; the image now has a library's tables while the
		// thumbnail kept the camera's: the image was decoded and written
		// again after capture (Pillow, ImageMagick, Go's image/jpeg and
		// most software built on libjpeg keep the EXIF and its thumbnail).
		variant = "recompressed-after-capture"
		sev = report.Medium
		tq, _, _ := quality(a.thumb.dqt)
		ev["thumbnailQuality"] = tq
		ev["thumbnailStandardTables"] = false
	case a.standard:
		variant = "standard-tables-with-camera-exif"
	default:
		return nil
	}
	ev["code"] = variant
	if e := a.encoder(); e != "" {
		ev["encoder"] = e
	}
	return &report.Finding{
		Family:   report.FamilyImageCompressionHistory,
		Severity: sev,
		Message:  report.Msg("image-compression-history."+variant, "quality", a.q),
		Evidence: ev,
	}
}

// thumbCameraTables reports whether the EXIF thumbnail carries tables of
// its own: neither libjpeg's standard scaling nor absent.
func (a *analysis) thumbCameraTables() bool {
	if a.thumb == nil {
		return false
	}
	_, std, ok := quality(a.thumb.dqt)
	return ok && !std
}

// cameraWrites reports whether cameras and phones write this format, so a
// file in it can be a capture as it left the device.
func cameraWrites(f sniff.Format) bool {
	switch f {
	case sniff.JPEG, sniff.HEIC, sniff.HEIF:
		return true
	}
	return false
}

// trailingKinds are signatures of what is appended, in match order.
var trailingKinds = []struct{ kind, sig string }{
	{"zip", "PK\x03\x04"},
	{"rar", "Rar!\x1a\x07"},
	{"7z", "7z\xbc\xaf\x27\x1c"},
	{"pdf", "%PDF-"},
	{"gzip", "\x1f\x8b\x08"},
	{"jpeg", "\xff\xd8\xff"},
	{"png", "\x89PNG\r\n\x1a\n"},
}

// imageTrailingDataFamily declares the family (report.Declaration).
var imageTrailingDataFamily = declaration{
	ID:      "image-trailing-data",
	Order:   60,
	Run:     (*analysis).trailing,
	Summary: "Bytes after the end of the image, such as an appended archive.",
	Evidence: []string{
		"code", "bytes", "offset", "kind",
	},
	Variants: []report.VariantDecl{
		{Code: "trailing-bytes", Severity: report.Low, Title: "Data after the image", Text: "{bytes#byte follows|bytes follow} the end of the image."},
		{Code: "appended-archive", Severity: report.Medium, Title: "File appended to the image", Text: "{bytes#byte follows|bytes follow} the end of the image, containing {kind@} file."},
	},
}

func (a *analysis) trailing() *report.Finding {
	t := a.f.trailing
	if len(t) == 0 {
		return nil
	}
	padding := true
	for _, c := range t {
		if c != 0x00 && c != 0xFF {
			padding = false
			break
		}
	}
	if padding {
		return nil
	}
	kind, at := "data", -1
	for _, k := range trailingKinds {
		if i := bytes.Index(t, []byte(k.sig)); i >= 0 && (at < 0 || i < at) {
			kind, at = k.kind, i
		}
	}
	// MPF stores its secondary images (gain maps, previews) after the
	// primary image's EOI: expected, not appended.
	if kind == "jpeg" && a.f.mpf {
		return nil
	}
	ev := map[string]any{"code": "trailing-bytes", "bytes": len(t), "offset": a.f.trailingOffset, "kind": kind}
	fd := &report.Finding{Family: report.FamilyImageTrailingData, Evidence: ev}
	switch kind {
	case "zip", "rar", "7z", "pdf", "gzip":
		ev["code"] = "appended-archive"
		fd.Severity = report.Medium
		fd.Message = report.Msg("image-trailing-data.appended-archive", "bytes", len(t), "kind", report.Kind(kind))
	default:
		fd.Severity = report.Low
		fd.Message = report.Msg("image-trailing-data.trailing-bytes", "bytes", len(t), "kind", report.Kind(kind))
	}
	return fd
}

// imageGenerativeMarkersFamily declares the family (report.Declaration).
var imageGenerativeMarkersFamily = declaration{
	ID:      "image-generative-markers",
	Order:   70,
	Run:     (*analysis).generative,
	Summary: "C2PA, IPTC or generator text declaring synthetic or AI-generated content.",
	Evidence: []string{
		"code", "digitalSourceTypes[]", "generators[]", "textKeywords[]", "carriers[]",
	},
	Variants: []report.VariantDecl{
		{Code: "declared-synthetic", Severity: report.Medium, Title: "Declared as synthetic", Text: "The image's metadata declares it algorithmically generated or composited ({carriers#carrier|carriers})."},
		{Code: "generator-metadata", Severity: report.Medium, Title: "Image generator metadata", Text: "The image carries metadata written by an image generator ({carriers#carrier|carriers})."},
	},
}

func (a *analysis) generative() *report.Finding {
	var types, carriers, keywords, names []string
	addCarrier := func(c string) {
		if !contains(carriers, c) {
			carriers = append(carriers, c)
		}
	}
	addType := func(t, carrier string) {
		if !contains(types, t) {
			types = append(types, t)
		}
		addCarrier(carrier)
	}
	for _, x := range a.f.xmp {
		for _, t := range sourceTypes(x) {
			addType(t, "xmp-digital-source-type")
		}
	}
	for _, act := range a.c2pa.actions {
		if contains(generativeSourceTypes, act.sourceType) {
			addType(act.sourceType, "c2pa-actions")
		}
	}
	// Source types named elsewhere in a manifest store (an ingredient's
	// assertions, a store the decoder could not read) still count.
	for _, p := range a.f.c2pa {
		for _, t := range sourceTypes(p) {
			addType(t, "c2pa-manifest")
		}
	}
	gen := func(v, carrier string) {
		lv := strings.ToLower(v)
		for _, g := range generators {
			if strings.Contains(lv, g.sub) {
				if !contains(names, g.name) {
					names = append(names, g.name)
				}
				addCarrier(carrier)
			}
		}
	}
	gen(a.x.software, "exif-software")
	for _, v := range a.xmpValues(xmp.NSBasic, "CreatorTool") {
		gen(v, "xmp-creator-tool")
	}
	for _, v := range a.c2pa.agents() {
		gen(v, "c2pa-actions")
	}
	for _, v := range a.c2pa.generators {
		gen(v, "c2pa-claim-generator")
	}
	for _, t := range a.f.texts {
		for _, k := range generatorKeywords {
			if t.keyword == k && !contains(keywords, k) {
				keywords = append(keywords, k)
				addCarrier("png-text")
			}
		}
		if t.keyword == "Software" || t.keyword == "Comment" || t.keyword == "Description" || t.keyword == "Source" {
			gen(t.text, "png-text")
		}
	}
	if len(carriers) == 0 {
		return nil
	}
	ev := map[string]any{}
	report.Capped(ev, "digitalSourceTypes", types)
	report.Capped(ev, "generators", names)
	report.Capped(ev, "textKeywords", keywords)
	report.Capped(ev, "carriers", carriers)
	if a.c2pa.manifests > 0 {
		ev["c2paManifests"] = a.c2pa.manifests
		report.Capped(ev, "c2paActions", untrustedAll(a.c2pa.actionNames()))
		report.Capped(ev, "c2paSoftwareAgents", untrustedAll(a.c2pa.agents()))
	}
	variant := "generator-metadata"
	if len(types) > 0 {
		variant = "declared-synthetic"
	}
	ev["code"] = variant
	return &report.Finding{
		Family:   report.FamilyImageGenerativeMarkers,
		Severity: report.Medium,
		Message:  report.Msg("image-generative-markers."+variant, "carriers", len(carriers)),
		Evidence: ev,
	}
}

// imageMetadataStrippedFamily declares the family (report.Declaration).
var imageMetadataStrippedFamily = declaration{
	ID:      "image-metadata-stripped",
	Order:   80,
	Run:     (*analysis).stripped,
	Summary: "A photo-like file with no capture metadata at all.",
	Evidence: []string{
		"code", "format", "containers[]", "kept[]", "estimatedQuality", "provenance",
	},
	Variants: []report.VariantDecl{
		{Code: "no-capture-metadata", Severity: report.Low, Title: "No capture metadata", Text: "The {format} file carries no EXIF, XMP, IPTC or C2PA metadata, as when metadata is stripped by an export, a messenger or on purpose."},
		{Code: "device-structure-kept", Severity: report.Low, Title: "Capture metadata removed from a device file", Text: "The {format} file carries no EXIF, XMP, IPTC or C2PA metadata, yet {traces#trace|traces} of the device that wrote it {traces?remains|remain} (its own quantisation tables, a multi-picture index): the metadata was removed without re-encoding the image."},
		{Code: "c2pa-manifest-removed", Severity: report.Low, Title: "Content Credentials removed", Text: "The XMP of the {format} file points to a C2PA manifest inside the file, but the file holds none: software that kept the XMP and dropped the manifest wrote this file after the credentials were made."},
	},
}

func (a *analysis) stripped() *report.Finding {
	if a.provenance == provenanceMissing {
		return a.manifestRemoved()
	}
	switch a.f.format {
	case "jpeg", "heic", "heif":
	default:
		return nil
	}
	for _, c := range []string{cEXIF, cXMP, cIPTC, cMakerNote, cC2PA} {
		if a.f.has(c) {
			return nil
		}
	}
	ev := map[string]any{"code": "no-capture-metadata", "format": string(a.f.format)}
	report.Capped(ev, "containers", a.f.list())
	msg := report.Msg("image-metadata-stripped.no-capture-metadata", "format", report.Kind(a.f.format))
	// What a device wrote beside its metadata and a metadata remover
	// leaves: the multi-picture index of phones, and quantisation tables
	// that are neither libjpeg's scaling nor an editor's. A re-encode
	// would have replaced both, so the metadata was removed on its own.
	var kept []string
	if a.f.mpf {
		kept = append(kept, "mpf")
	}
	if a.hasQ && !a.standard && !a.f.photoshopWritten && !a.f.has(cAdobe) {
		kept = append(kept, "device-tables")
		ev["estimatedQuality"] = a.q
	}
	if len(kept) > 0 {
		ev["code"] = "device-structure-kept"
		report.Capped(ev, "kept", kept)
		msg = report.Msg("image-metadata-stripped.device-structure-kept", "format", report.Kind(a.f.format), "traces", len(kept))
	}
	return &report.Finding{
		Family:   report.FamilyImageMetadataStripped,
		Severity: report.Low,
		Message:  msg,
		Evidence: ev,
	}
}

// manifestRemoved reports an XMP that names an in-file C2PA manifest the
// file no longer holds: software that kept the XMP and dropped the JUMBF
// wrote this file after the manifest was made.
func (a *analysis) manifestRemoved() *report.Finding {
	ev := map[string]any{
		"code":       "c2pa-manifest-removed",
		"format":     string(a.f.format),
		"provenance": report.Untrusted(a.provenanceRef),
	}
	report.Capped(ev, "containers", a.f.list())
	return &report.Finding{
		Family:   report.FamilyImageMetadataStripped,
		Severity: report.Low,
		Message:  report.Msg("image-metadata-stripped.c2pa-manifest-removed", "format", report.Kind(a.f.format)),
		Evidence: ev,
	}
}

// imageLocationPresentFamily declares the family (report.Declaration).
var imageLocationPresentFamily = declaration{
	ID:      "image-location-present",
	Order:   90,
	Run:     (*analysis).location,
	Summary: "GPS coordinates are present (a privacy fact, not a fraud risk).",
	Evidence: []string{
		"code", "carriers[]",
	},
	Variants: []report.VariantDecl{
		{Code: "gps-present", Severity: report.Info, Title: "Location present", Text: "The image carries GPS coordinates ({carriers#carrier|carriers}); this is a privacy fact, not a risk signal."},
	},
}

func (a *analysis) location() *report.Finding {
	var carriers []string
	if a.x.gps {
		carriers = append(carriers, "exif-gps")
	}
	if len(a.xmpValues(xmp.NSEXIF, "GPSLatitude")) > 0 {
		carriers = append(carriers, "xmp-gps")
	}
	if len(carriers) == 0 {
		return nil
	}
	ev := map[string]any{"code": "gps-present"}
	report.Capped(ev, "carriers", carriers)
	return &report.Finding{
		Family:   report.FamilyImageLocationPresent,
		Severity: report.Info,
		Message:  report.Msg("image-location-present.gps-present", "carriers", len(carriers)),
		Evidence: ev,
	}
}
