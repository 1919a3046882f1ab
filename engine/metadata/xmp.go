package metadata

import (
	"encoding/binary"
	"math"
	"strconv"
	"strings"

	"github.com/doctrust/doctrust/engine/xmp"
)

// xmp lists XMP packets as one container. Every property is listed under
// its path (xmp.Parse): simple arrays are joined into one entry ("dc:
// creator" = "Ann, Bob"), language alternatives other than the default get
// the language as a suffix (dc:title-fr), structures keep their item index
// (xmpMM:History[2]/stEvt:action). JPEG extended-XMP chunks are read as
// one more packet behind the main ones (xmp.ParseAll).
func (b *builder) xmp(packets [][]byte) {
	b.xmpParsed(xmp.ParseAll(packets))
}

// xmpParsed lists flattened packets as one XMP container.
func (b *builder) xmpParsed(xs []*xmp.Packet) {
	if len(xs) == 0 {
		return
	}
	c := b.container("XMP")
	var g xmpGPS
	for _, x := range xs {
		b.xmpPacket(c, x, &g)
	}
	if g.hasLat && g.hasLon {
		b.setGPS(g.lat, g.lon, "XMP")
	}
}

type xmpGPS struct {
	lat, lon       float64
	hasLat, hasLon bool
}

func (b *builder) xmpPacket(c *cont, x *xmp.Packet, g *xmpGPS) {
	type item struct {
		key  string
		vals []string
		prop xmp.Prop
	}
	var items []item
	arrays := map[string]int{} // joined array key -> index in items
	for _, p := range x.Props {
		key := p.Path
		if key == "" {
			key = p.Name
		}
		if base, ok := arrayItem(key); ok {
			if p.Lang != "" && p.Lang != "x-default" {
				base += "-" + p.Lang
			}
			if i, seen := arrays[base]; seen {
				items[i].vals = append(items[i].vals, p.Value)
				continue
			}
			arrays[base] = len(items)
			key = base
		}
		items = append(items, item{key: key, vals: []string{p.Value}, prop: p})
	}
	for _, it := range items {
		if len(it.vals) > 1 {
			c.add(it.key, strings.Join(it.vals, ", "), "", "")
			continue
		}
		val, raw, code := xmpValue(it.key, it.prop, g)
		c.add(it.key, val, raw, code)
	}
}

// arrayItem reports a path ending in an item index, and the path without it.
func arrayItem(path string) (string, bool) {
	if !strings.HasSuffix(path, "]") {
		return "", false
	}
	i := strings.LastIndexByte(path, '[')
	if i <= 0 {
		return "", false
	}
	return path[:i], true
}

// xmpValue decodes the EXIF values XMP carries as text: enumerations
// (tiff:Orientation "1"), rationals (exif:FNumber "28/10") and GPS
// coordinates; everything else is shown as stored.
func xmpValue(key string, p xmp.Prop, g *xmpGPS) (val, raw, code string) {
	if (p.NS != xmp.NSTIFF && p.NS != xmp.NSEXIF && p.NS != xmp.NSEXIFEX) || strings.ContainsAny(key, "/[") {
		return p.Value, "", ""
	}
	switch p.Name {
	case "GPSLatitude", "GPSLongitude", "GPSDestLatitude", "GPSDestLongitude":
		deg, ok := xmpCoordinate(p.Value)
		if !ok {
			return p.Value, "", ""
		}
		ref := "N"
		if strings.Contains(p.Name, "Longitude") {
			ref = "E"
			if deg < 0 {
				ref = "W"
			}
		} else if deg < 0 {
			ref = "S"
		}
		switch p.Name {
		case "GPSLatitude":
			g.lat, g.hasLat = deg, true
		case "GPSLongitude":
			g.lon, g.hasLon = deg, true
		}
		return dms(deg) + " " + ref, p.Value, ""
	}
	def, ok := tagByName(p.Name)
	if !ok {
		return p.Value, "", ""
	}
	v, ok := xmpNumber(p.Value)
	if !ok {
		if def.enum != nil {
			// String enumerations (GPS references) are stored as text.
			v = value{typ: tASCII, count: len(p.Value), b: []byte(p.Value)}
		} else {
			return p.Value, "", ""
		}
	}
	val, _, code = render(def, v)
	return val, p.Value, code
}

// xmpNumber encodes an XMP number ("72", "-1", "28/10", "2.8") as a TIFF
// value, so the EXIF print conversions apply to it.
func xmpNumber(s string) (value, bool) {
	s = strings.TrimSpace(s)
	be := binary.BigEndian
	if n, d, ok := strings.Cut(s, "/"); ok {
		a, err1 := strconv.ParseInt(n, 10, 32)
		c, err2 := strconv.ParseInt(d, 10, 32)
		if err1 != nil || err2 != nil {
			return value{}, false
		}
		return numberValue(tSRational, be.AppendUint32(be.AppendUint32(nil, uint32(int32(a))), uint32(int32(c))))
	}
	if n, err := strconv.ParseInt(s, 10, 32); err == nil {
		return numberValue(tSLong, be.AppendUint32(nil, uint32(int32(n))))
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
		return numberValue(tDouble, be.AppendUint64(nil, math.Float64bits(f)))
	}
	return value{}, false
}
