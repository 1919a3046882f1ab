package metadata

import (
	"strconv"
	"strings"
)

// gpsParts gathers the four GPS entries a coordinate pair needs.
type gpsParts struct {
	lat, lon       value
	latRef, lonRef string
	hasLat, hasLon bool
}

func (g *gpsParts) add(tag uint16, v value) {
	switch tag {
	case tagGPSLatRef:
		g.latRef = v.ascii()
	case tagGPSLat:
		g.lat, g.hasLat = v, true
	case tagGPSLonRef:
		g.lonRef = v.ascii()
	case tagGPSLon:
		g.lon, g.hasLon = v, true
	}
}

// decode gives decimal degrees, south and west negative. A coordinate
// without its reference is taken as north or east, as exiftool does.
func (g *gpsParts) decode() (lat, lon float64, ok bool) {
	if !g.hasLat || !g.hasLon {
		return 0, 0, false
	}
	lat, ok1 := degrees(g.lat)
	lon, ok2 := degrees(g.lon)
	// Zero on both axes is what a device without a fix writes, not a
	// place (engine/image's pre-pass reads it the same way).
	if !ok1 || !ok2 || lat == 0 && lon == 0 {
		return 0, 0, false
	}
	if strings.EqualFold(g.latRef, "S") {
		lat = -lat
	}
	if strings.EqualFold(g.lonRef, "W") {
		lon = -lon
	}
	return lat, lon, true
}

// xmpCoordinate reads an XMP GPS coordinate, "DDD,MM,SSk" or "DDD,MM.mmk"
// with k one of N, S, E, W (the XMP EXIF schema), or a plain decimal.
func xmpCoordinate(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	sign := 1.0
	switch s[len(s)-1] {
	case 'S', 's', 'W', 'w':
		sign, s = -1, s[:len(s)-1]
	case 'N', 'n', 'E', 'e':
		s = s[:len(s)-1]
	}
	parts := strings.Split(s, ",")
	if len(parts) > 3 {
		return 0, false
	}
	deg, scale := 0.0, 1.0
	for _, p := range parts {
		f, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
		if err != nil || f < 0 && scale != 1 {
			return 0, false
		}
		deg += f / scale
		scale *= 60
	}
	return sign * deg, true
}
