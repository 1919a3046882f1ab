package paint

import "github.com/doctrust/doctrust/engine/pdf/cos"

// Color is a paint colour reduced to RGB, with the constant alpha of the
// graphics state. Known is false for patterns, indexed and other spaces
// whose appearance is not computed.
type Color struct {
	R, G, B float64
	A       float64 // constant alpha (/ca or /CA); 1 is opaque
	Known   bool
}

// black is the initial colour of a graphics state.
var black = Color{A: 1, Known: true}

// Luminance is the perceived brightness in [0,1] (Rec. 601 weights).
func (c Color) Luminance() float64 { return 0.299*c.R + 0.587*c.G + 0.114*c.B }

// Opaque reports a known colour with full alpha.
func (c Color) Opaque() bool { return c.Known && c.A >= 0.999 }

// Dark and Light classify an opaque colour for the overlay rules.
func (c Color) Dark() bool  { return c.Opaque() && c.Luminance() <= 0.25 }
func (c Color) Light() bool { return c.Opaque() && c.Luminance() >= 0.9 }

// Same reports two known colours that look alike.
func (c Color) Same(d Color) bool {
	const tol = 0.02
	return c.Known && d.Known && abs(c.R-d.R) <= tol && abs(c.G-d.G) <= tol && abs(c.B-d.B) <= tol
}

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

func clamp01(v float64) float64 { return max(0, min(1, v)) }

// space is a colour space family reduced to how its operands become RGB.
type space int

const (
	spaceGray space = iota
	spaceRGB
	spaceCMYK
	spaceTint    // Separation or DeviceN with one black-like tint
	spaceUnknown // Pattern, Indexed, Lab, unknown
)

// spaceOf reads a colour space operand of cs/CS: a name or, through the
// resources, an array.
func (in *Interpreter) spaceOf(name cos.Name, res *cos.Dict) space {
	switch name {
	case "DeviceGray", "G", "CalGray":
		return spaceGray
	case "DeviceRGB", "RGB", "CalRGB":
		return spaceRGB
	case "DeviceCMYK", "CMYK":
		return spaceCMYK
	case "Pattern":
		return spaceUnknown
	}
	csd := cos.DictOf(in.src.Resolve(res.Get("ColorSpace")))
	arr, ok := in.src.Resolve(csd.Get(name)).(cos.Array)
	if !ok {
		if n, ok := in.src.Resolve(csd.Get(name)).(cos.Name); ok && n != name {
			return in.spaceOf(n, nil)
		}
		return spaceUnknown
	}
	return in.spaceOfArray(arr)
}

func (in *Interpreter) spaceOfArray(arr cos.Array) space {
	if len(arr) == 0 {
		return spaceUnknown
	}
	fam, _ := in.src.Resolve(arr[0]).(cos.Name)
	switch fam {
	case "CalGray":
		return spaceGray
	case "CalRGB", "Lab":
		if fam == "Lab" {
			return spaceUnknown
		}
		return spaceRGB
	case "ICCBased":
		if len(arr) > 1 {
			if st, ok := in.src.Resolve(arr[1]).(*cos.Stream); ok {
				switch n, _ := cos.AsInt(in.src.Resolve(st.Dict.Get("N"))); n {
				case 1:
					return spaceGray
				case 3:
					return spaceRGB
				case 4:
					return spaceCMYK
				}
			}
		}
	case "Separation":
		return spaceTint
	}
	return spaceUnknown
}

// colorOf converts operands of sc/scn (and g, rg, k) in a space.
func colorOf(sp space, args []Operand, alpha float64) Color {
	var buf [4]float64
	v := buf[:0]
	for _, a := range args {
		if n, ok := a.number(); ok && len(v) < len(buf) {
			v = append(v, clamp01(n))
		}
	}
	c := Color{A: alpha, Known: true}
	switch {
	case sp == spaceGray && len(v) >= 1:
		c.R, c.G, c.B = v[0], v[0], v[0]
	case sp == spaceRGB && len(v) >= 3:
		c.R, c.G, c.B = v[0], v[1], v[2]
	case sp == spaceCMYK && len(v) >= 4:
		c.R = (1 - v[0]) * (1 - v[3])
		c.G = (1 - v[1]) * (1 - v[3])
		c.B = (1 - v[2]) * (1 - v[3])
	case sp == spaceTint && len(v) >= 1:
		// A spot colour's look is unknown; treat its tint as ink density.
		c.R, c.G, c.B = 1-v[0], 1-v[0], 1-v[0]
	default:
		c.Known = false
	}
	return c
}

// initial is the colour a space starts with after cs/CS.
func initial(sp space, alpha float64) Color {
	// Every computed space starts at black (gray 0, rgb 0, cmyk 0 0 0 1, tint 1).
	return Color{A: alpha, Known: sp != spaceUnknown}
}
