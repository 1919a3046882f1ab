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
